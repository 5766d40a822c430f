"""The recall index of a store's roots, kept between processes: a new process maps it instead of rebuilding it.

Building the BM25 index of 100,000 memories takes most of a second, and so does making
their ``Memory`` objects; a hook or a one-shot ``recall`` would pay both on every run.
So the index is saved in the user's cache directory (``$MIMOMEM_CACHE_DIR`` or
``$XDG_CACHE_HOME/mimomem``), ``curated/<digest of the roots' real paths, the
categories and the tokenizer version>.recall-<engine>``: ``.bm25`` (``BM25Index.save``, mapped back in milliseconds)
and ``.info`` (``marshal``: the listing of every root the index was built from - each
memory file's name and stat key - the ids that parsed into a memory, and each indexed
memory's ``updated`` time and ``pinned`` flag).  Both carry the same token, so a pair
written by two processes at once is never mixed.

It is used only for exactly the files it was built from: every open scans the roots
(``curated.listing``, one ``lstat`` per file) and compares.  When a few files differ
(an edit in place, a new, deleted or renamed file) those are read and the index caught up,
then saved again; when many differ, or the cache is missing, damaged, from another
version or the other engine, the index is built from the files and saved.  Recall then
reads only its hits' files, checking each is still the file that was scanned.  Roots with
fewer than ``snapshot.MIN_FILES`` memory files together are not cached.
"""

from __future__ import annotations

import contextlib
import marshal
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mimomem.common.files import open_regular
from mimomem.curated import snapshot
from mimomem.curated.listing import Listing, listed_key
from mimomem.curated.memory import Memory
from mimomem.curated.ranking import RecallIndex
from mimomem.curated.roots import CuratedRoot
from mimomem.errors import IndexFileError, StaleListingError

VERSION = 1
MAX_CATCH_UP = 2000
"""At most this many changed files are read to catch a saved index up; more rebuild it."""
MAX_CACHES = 16
"""Recall caches kept in the cache directory; the least recently saved go first."""

Roots = Mapping[str, CuratedRoot]
Eligible = Callable[[Memory], bool]


def cache_base(roots: Roots, categories: Sequence[str]) -> Path:
    """Where the recall cache of these roots lives (``.bm25`` and ``.info`` are appended)."""
    from mimomem.common.cache import cache_dir
    from mimomem.text.bm25_file import ENGINE

    identity = repr(_identity(roots, categories))
    from mimomem.common.hashing import hexdigest

    digest = hexdigest(identity.encode("utf-8", "surrogateescape"), 12)
    return cache_dir() / "curated" / f"{digest}.recall-{ENGINE}"


def _identity(roots: Roots, categories: Sequence[str]) -> tuple[Any, ...]:
    from mimomem.text import tokens
    from mimomem.text.bm25_file import ENGINE

    places = tuple((scope, os.path.realpath(root.path)) for scope, root in roots.items())
    return (VERSION, snapshot.VERSION, ENGINE, tokens.TOKENIZER_VERSION, places, tuple(categories))


def build_ranking(
    roots: Roots, categories: Sequence[str], half_life_days: float, eligible: Eligible, *, use_cache: bool = True
) -> RecallIndex:
    """The recall index of the roots' files as last scanned: from the cache when it holds them.

    ``use_cache=False`` builds from the files and saves over the cache (after the saved one
    failed in use, or a file changed since the scan).
    """
    cached = all(root.listing is not None for root in roots.values())
    if cached and sum(_count(root.listing) for root in roots.values()) < snapshot.MIN_FILES:
        cached = False
    base = cache_base(roots, categories) if cached else None
    if base is not None and use_cache:
        ranking = _from_cache(base, roots, categories, half_life_days)
        if ranking is not None:
            return ranking
    ranking = fresh_ranking(roots, half_life_days, eligible)
    if base is not None:
        save(base, roots, categories, ranking)
    return ranking


def fresh_ranking(roots: Roots, half_life_days: float, eligible: Eligible) -> RecallIndex:
    """The recall index built from every memory of the roots (read now if not yet)."""
    ranking = RecallIndex(half_life_days, resolve=_resolver(roots))
    for root in roots.values():
        for memory in root.memories.values():
            if eligible(memory):
                ranking.add(memory)
    return ranking


def _count(listing: Listing | None) -> int:
    return sum(len(files) for files in listing.values()) if listing else 0


def _resolver(roots: Roots) -> Callable[[str], Memory]:
    """How a ranking loaded from the cache gets the ``Memory`` of a hit (``StaleListingError`` when
    its file is no longer the one scanned)."""

    def resolve(key: str) -> Memory:
        scope, _, memory_id = key.partition(":")
        root = roots[scope]
        memory = root.memories.get(memory_id) if root.materialized else root.read_listed(memory_id)
        if memory is None:
            raise StaleListingError(memory_id)
        return memory

    return resolve


def _read_state(base: Path, roots: Roots, categories: Sequence[str]) -> tuple[Any, ...] | None:
    """``(token, listings, produced, info, bounds)`` of the saved cache, or ``None`` when unusable."""
    try:
        with open_regular(f"{base}.info") as handle:
            data = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not (isinstance(data, tuple) and len(data) == 6 and data[0] == _identity(roots, categories)):
        return None
    token, listings, produced, info, bounds = data[1:]
    if not all(isinstance(part, dict) for part in (listings, produced, info, bounds)):
        return None
    if set(listings) != set(roots) or set(produced) != set(roots):
        return None
    return token, listings, produced, info, bounds


def _from_cache(base: Path, roots: Roots, categories: Sequence[str], half_life_days: float) -> RecallIndex | None:
    """The saved index, caught up with the files changed since (``None``: rebuild it)."""
    from mimomem.text.bm25_file import load_index

    state = _read_state(base, roots, categories)
    if state is None:
        return None
    token, listings, produced, info, bounds = state
    changed = {scope: _changed(listings[scope], root.listing) for scope, root in roots.items()}
    if sum(len(ids) for ids in changed.values()) > MAX_CATCH_UP:
        return None
    try:
        loaded = load_index(f"{base}.bm25", accept=lambda stamp: stamp == token)
    except (OSError, IndexFileError):
        return None
    if loaded is None:
        return None
    ranking = RecallIndex(half_life_days, index=loaded[0], resolve=_resolver(roots))
    try:
        ranking.info, ranking.bounds = info, bounds
        if any(changed.values()):
            _catch_up(ranking, roots, changed, produced)
            save(base, roots, categories, ranking, produced)
    except (StaleListingError, ValueError, TypeError, KeyError):
        return None  # a file changed meanwhile, or the cache is inconsistent: build from the files
    return ranking


def _changed(old: Listing, new: Listing | None) -> set[str]:
    """Ids of the memory files that differ between two listings (added, removed or changed)."""
    new = new or {}
    out: set[str] = set()
    for category in old.keys() | new.keys():
        before, after = old.get(category, []), new.get(category, [])
        if before == after:
            continue
        was, now = dict(before), dict(after)
        out.update(f"{category}/{name[:-3]}" for name in was.keys() | now.keys() if was.get(name) != now.get(name))
    return out


def _catch_up(ranking: RecallIndex, roots: Roots, changed: dict[str, set[str]], produced: dict[str, Any]) -> None:
    """Re-read the changed files and re-decide their keys (and the global ids a project change shadows)."""
    known = {scope: set(produced[scope]) for scope in roots}
    read: dict[tuple[str, str], Memory | None] = {}
    for scope, ids in changed.items():
        for memory_id in ids:
            memory = _read(roots[scope], memory_id)
            read[scope, memory_id] = memory
            (known[scope].add if memory is not None else known[scope].discard)(memory_id)
    affected = set(read)
    if "project" in roots and "global" in roots:
        affected.update(("global", memory_id) for scope, memory_id in read if scope == "project")
    for scope, memory_id in sorted(affected):
        if (scope, memory_id) in read:
            memory = read[scope, memory_id]
        else:  # a global id whose project twin changed: its own file did not
            memory = roots[scope].read_listed(memory_id) if memory_id in known[scope] else None
        ranking.remove(f"{scope}:{memory_id}")
        if memory is not None and _live(memory, known, "project" in roots):
            ranking.add(memory)
    for scope in roots:
        produced[scope] = known[scope]


def _read(root: CuratedRoot, memory_id: str) -> Memory | None:
    return root.read_listed(memory_id) if listed_key(root.listing, memory_id) is not None else None


def _live(memory: Memory, known: dict[str, set[str]], has_project: bool) -> bool:
    """``CuratedMemory._is_eligible`` over what the cache knows (the ids that parsed into memories)."""
    if memory.superseded_by or memory.kind == "rule-proposal":
        return False
    return not (memory.scope == "global" and has_project and memory.id in known["project"])


def save(
    base: Path, roots: Roots, categories: Sequence[str], ranking: RecallIndex, produced: dict[str, Any] | None = None
) -> None:
    """Save the index and what it was built from (best effort: it is a cache)."""
    from mimomem.common.files import atomic_write
    from mimomem.text.bm25_file import save_index

    listings = {scope: root.listing for scope, root in roots.items()}
    if produced is None:
        produced = {scope: set(root.memories) for scope, root in roots.items()}
    token = os.urandom(12).hex()
    try:
        from mimomem.common.private import private_dir

        private_dir(base.parent)
        save_index(ranking.index, f"{base}.bm25", stamp=token, durable=False)
        state = (_identity(roots, categories), token, listings, produced, ranking.info, ranking.bounds)
        atomic_write(f"{base}.info", marshal.dumps(state), durable=False)
        _prune(base.parent)
    except (OSError, ValueError):
        pass


def _prune(directory: Path) -> None:
    """Keep the recall caches of the ``MAX_CACHES`` most recently saved stores."""
    for info in snapshot.beyond_newest(directory, ".info", MAX_CACHES):
        stale = info[: -len(".info")]
        for suffix in (".info", ".bm25"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(stale + suffix)


__all__ = ["MAX_CACHES", "MAX_CATCH_UP", "VERSION", "build_ranking", "cache_base", "fresh_ranking", "save"]
