"""Is this cache current?  A file's *stamp*, the one answer every cache of mimomem gives.

Files are the truth and everything mimomem derives from them (the search index, the curated
snapshots and recall index, the entry cache, a hook's plan, the cross-language lookup) is a
cache, used only while every file it was built from still has the stamp it had then:

``(mtime_ns, ctime_ns, size, inode, mode)``

- the modification time and the size catch an ordinary edit;
- the change time catches an edit that keeps the size and puts the modification time back
  (``touch -r``, some sync tools, an archive restored): nobody can set it, and any write,
  rename over or ``chmod`` moves it;
- the inode catches a file replaced by another (an atomic rename over it, a ``git checkout``);
- the mode catches a regular file swapped for a directory, a FIFO or a symlink.

A path that is absent has no stamp (``None``).  A cache stores stamps in whatever form suits it
(a tuple, :func:`packed` bytes, :func:`stamp_text` in a database) but takes them from here, so a
fix to what counts as a change lands once.  Light on purpose: a served prompt hook imports it.
"""

from __future__ import annotations

import os
from struct import Struct

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

Stamp = tuple[int, int, int, int, int]
"""``(mtime_ns, ctime_ns, size, inode, mode)`` of one path (see the module docstring)."""


def stamp_of(st: os.stat_result) -> Stamp:
    """The stamp in a ``stat`` result."""
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_mode)


def stamp(path: str | os.PathLike[str], *, follow: bool = True) -> Stamp | None:
    """The stamp of ``path`` now, ``None`` when it is absent or cannot be stat'ed.

    ``follow=False``: the stamp of a symlink itself, not of its target."""
    try:
        return stamp_of(os.stat(path, follow_symlinks=follow))
    except (OSError, ValueError):
        return None


def stamp_text(st: os.stat_result) -> str:
    """The stamp in a ``stat`` result as text (what the search index keeps per file)."""
    return "-".join(map(str, stamp_of(st)))


_PACKED = Struct("qqQQQ")
STAMP_BYTES = _PACKED.size
"""The length of a :func:`packed` stamp."""
ABSENT = _PACKED.pack(-1, -1, 0, 0, 0)
"""The packed stamp of an absent path (no real path has mode 0)."""


def pack(value: Stamp | None) -> bytes:
    """A stamp (or ``None``) in :data:`STAMP_BYTES` bytes."""
    return ABSENT if value is None else _PACKED.pack(*value)


def packed(path: str) -> bytes:
    """``pack(stamp(path))``, for a cache that keeps all its stamps in one ``bytes`` (a hook's plan)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ABSENT
    return _PACKED.pack(st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_mode)


def all_current(paths: Iterable[str], recorded: bytes) -> bool:
    """Whether each of ``paths`` still has its stamp in ``recorded`` (their :func:`packed` stamps, in order)."""
    return b"".join(map(packed, paths)) == recorded


def stamped(paths: Iterable[str]) -> list[tuple[str, Stamp | None]]:
    """Each of ``paths`` with its stamp now."""
    return [(p, stamp(p)) for p in paths]


def tree_stamps(top: str) -> list[tuple[str, Stamp | None]]:
    """Stamps of ``top`` and of every directory and file below it (symlinked directories are
    stamped, not entered); just ``top``'s (``None``) when it does not exist."""
    out: list[tuple[str, Stamp | None]] = [(top, stamp(top))]
    if out[0][1] is None:
        return out
    pending = [top]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as found:
                entries = sorted(found, key=lambda e: e.name)
        except OSError:
            continue  # unreadable now: its own stamp is recorded, a later change shows there
        for entry in entries:
            out.append((entry.path, stamp(entry.path)))
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
            except OSError:
                continue
    return out


__all__ = [
    "ABSENT",
    "STAMP_BYTES",
    "Stamp",
    "all_current",
    "pack",
    "packed",
    "stamp",
    "stamp_of",
    "stamp_text",
    "stamped",
    "tree_stamps",
]
