"""After a bulk write: the root's snapshot and the recall index saved, so a new process starts warm.

``remember_many`` of 10,000 memories used to leave both caches cold: the next process read and
parsed every new file and rebuilt the recall index (2.3 s of CPU to reopen and recall once).
The batch knows what it wrote, so it primes the snapshot with those files, then scans the root
as a new process would, builds its memories from the snapshot (reading any file it does not
hold) and saves the snapshot and the recall index.

A file is primed only if it still holds exactly the text the batch wrote: it is read back
between two ``fstat`` calls that agree, and the stat key recorded is that version's.  A file
edited by hand during the batch (or after) has another key or other bytes, so it is read like
any other change and never recorded as the batch's; if what it holds differs from the store's
view, the store drops its derived indexes (``reset``) and rebuilds them from the files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from mimomem.common.nofollow import open_regular_nofollow
from mimomem.common.stamp import Stamp, stamp_of
from mimomem.curated import snapshot as snapshots
from mimomem.curated.memory import Memory
from mimomem.curated.ranking import RecallIndex
from mimomem.curated.recall_cache import cache_base, save
from mimomem.curated.roots import CuratedRoot
from mimomem.curated.snapshot import RootSnapshot, encode


def warm_caches(
    roots: Mapping[str, CuratedRoot],
    root: CuratedRoot,
    categories: Sequence[str],
    written: Mapping[Path, str],
    ranking: RecallIndex | None,
    *,
    reset: Callable[[CuratedRoot], None],
) -> None:
    """Save ``root``'s snapshot and the recall index of ``roots`` after a batch wrote ``written``."""
    if not written:
        return
    before = dict(root.memories)
    snapshot = prime(root, written, before)
    root.scan()
    root.materialize(snapshot)  # saves the snapshot
    if root.memories != before:  # a file holds something else than this process thought: rebuild from the files
        reset(root)
        return
    if ranking is None or any(r.listing is None for r in roots.values()):
        return  # the index is rebuilt (and saved) on first use, or another root is not scanned
    if sum(len(files) for r in roots.values() for files in (r.listing or {}).values()) >= snapshots.MIN_FILES:
        save(cache_base(roots, categories), roots, categories, ranking)


def prime(root: CuratedRoot, written: Mapping[Path, str], memories: Mapping[str, Memory]) -> RootSnapshot:
    """``root``'s saved snapshot plus the files of ``written`` that still hold exactly that text."""
    snapshot = RootSnapshot.read(root.path, root.scope)
    for path, text in written.items():
        memory_id = f"{path.parent.name}/{path.stem}"
        memory = memories.get(memory_id)
        if memory is None or path.parent.parent != root.path or path.suffix != ".md":
            continue
        key = holding(path, text.encode("utf-8"))
        if key is not None:
            snapshot.prime(f"{memory_id}.md", key, encode(memory, []))
    return snapshot


def holding(path: Path, data: bytes) -> Stamp | None:
    """The stat key of the regular file at ``path`` if it holds exactly ``data``, else ``None``."""
    try:
        fd, first = open_regular_nofollow(path)
    except OSError:
        return None
    try:
        if first.st_size != len(data):
            return None
        chunks, size = [], 0
        while size <= len(data) and (chunk := os.read(fd, len(data) + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
        key = stamp_of(first)
        return key if b"".join(chunks) == data and stamp_of(os.fstat(fd)) == key else None
    except OSError:
        return None
    finally:
        os.close(fd)
