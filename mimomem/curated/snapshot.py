"""What a curated root's files parsed to, cached between processes: a new process re-reads only changed files.

Opening a root of 10,000 memories means reading and YAML-parsing 10,000 files (0.8 s of
CPU); a hook or a one-shot ``recall`` pays that on every run.  The snapshot keeps, per
memory file, its stat key ``(size, mtime_ns, inode, ctime_ns)`` and what parsing it gave
(the memory's fields and the problems found).  A file whose stat key is unchanged is not
read again; any change to a file - an edit in place, a rename over it, a ``touch``, a
``chmod`` - changes its ctime, so it is re-read.  (The same key the search cache trusts.)

The snapshot lives in the user's cache directory (``$MIMOMEM_CACHE_DIR`` or
``$XDG_CACHE_HOME/mimomem``), ``curated/<digest of the root's real path>.snapshot``, one
file written atomically: a ``marshal`` table of names, stat keys and offsets, then each
file's payload marshalled on its own, so a reader decodes only the payloads it uses.  It is
only a cache: unreadable, foreign or corrupt snapshots are ignored and replaced.  Every root
with a memory file gets one (``MIN_FILES``): even one file to parse costs a new process the
YAML library's import, ~15 ms, and a hook runs in a new process on every prompt.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import marshal
import os
from pathlib import Path
from typing import Any

from mimomem.common.files import open_regular
from mimomem.common.stamp import Stamp
from mimomem.curated.memory import Memory, Problem

VERSION = 4
MIN_FILES = 1
"""Roots with fewer memory files get no snapshot (and stores with fewer no saved recall index)."""

MAX_SNAPSHOTS = 64
"""Snapshots kept in the cache directory; the least recently written go first (roots come and go)."""

Payload = tuple[Any, ...]
Route = tuple[str, tuple[str, ...], "str | None"] | None
"""``(kind, load_when, superseded_by)`` of a stored memory; ``None``: the file gave no memory."""


def snapshot_file(root: Path) -> Path:
    """Where the snapshot of ``root`` is kept."""
    from mimomem.common.cache import cache_dir
    from mimomem.common.hashing import hexdigest

    digest = hexdigest(os.path.realpath(root).encode("utf-8", "surrogateescape"), 12)
    return cache_dir() / "curated" / f"{digest}.snapshot"


STORED = Memory._fields[3:]
"""What a payload keeps of a memory, in ``Memory``'s own field order: everything but ``id``, ``scope``
and ``path``, which come from where the file is (the one field list is ``Memory``'s)."""

_KIND, _LOAD_WHEN, _SUPERSEDED_BY = (STORED.index(name) for name in ("kind", "load_when", "superseded_by"))
_DATES = frozenset(STORED.index(name) for name in ("created", "updated"))


def encode(memory: Memory | None, problems: list[Problem]) -> Payload:
    """A file's parse result as plain values (``marshal`` keeps them; datetimes as ISO strings)."""
    fields = None
    if memory is not None:
        fields = tuple(_stored(value) for value in memory[3:])
    return fields, tuple((p.kind, p.message) for p in problems)


def _stored(value: object) -> object:
    """A field as marshal keeps it: a datetime as its ISO string, everything else as it is."""
    return value.isoformat() if isinstance(value, _dt.datetime) else value


def routing(payload: Payload) -> Route:
    """``(kind, load_when, superseded_by)`` of a stored parse result (``None``: the file gave no memory)."""
    fields = payload[0]
    return None if fields is None else (fields[_KIND], tuple(fields[_LOAD_WHEN]), fields[_SUPERSEDED_BY])


def decode(payload: Payload, *, memory_id: str, scope: str, path: Path) -> tuple[Memory | None, list[Problem]]:
    """The memory and problems ``encode`` stored (the path is the file's current one)."""
    fields, problems = payload
    found = [Problem(kind, str(path), message) for kind, message in problems] if problems else []
    if fields is None:
        return None, found
    if len(fields) != len(STORED):
        raise ValueError(f"a stored memory has {len(fields)} fields, not {len(STORED)}")
    values: list[Any] = [_dt.datetime.fromisoformat(v) if i in _DATES else v for i, v in enumerate(fields)]
    values[_LOAD_WHEN] = tuple(values[_LOAD_WHEN])
    return Memory(memory_id, scope, path, *values), found


class RootSnapshot:
    """The cached parse results of one root, by ``<category>/<file name>``.

    On disk: ``marshal`` of ``(identity, {name: (stat key, start, end, route)})``, its length in
    front (8 bytes), then each file's payload marshalled on its own at ``start:end``.  A recall
    that needs four memories of 10,000 decodes the small table and those four payloads, not all;
    ``route`` (:func:`routing` of the payload) lets the per-prompt ``load_when`` routing read
    every memory's scenarios from the table alone.
    """

    def __init__(self, root: Path, scope: str) -> None:
        self.root = root
        self.scope = scope
        self.identity = (VERSION, os.path.realpath(root), scope)
        self.entries: dict[str, tuple[Stamp, int, int, Route]] = {}
        """What the saved file holds: the stat key, the payload's span in ``blob`` and its route."""
        self.blob = memoryview(b"")
        self.primed: dict[str, tuple[Stamp, bytes]] = {}
        self.seen: dict[str, tuple[Stamp, bytes]] = {}
        """What this load used, marshalled: what ``save`` writes."""
        self.changed = False

    @classmethod
    def read(cls, root: Path, scope: str) -> RootSnapshot:
        """The snapshot saved for ``root`` (empty when there is none or it is unusable)."""
        snapshot = cls(root, scope)
        try:
            with open_regular(snapshot_file(root)) as handle:
                data = memoryview(handle.read())
            size = int.from_bytes(data[:8], "little")
            table = marshal.loads(data[8 : 8 + size])
            if (
                isinstance(table, tuple)
                and len(table) == 2
                and table[0] == snapshot.identity
                and isinstance(table[1], dict)
            ):
                snapshot.entries, snapshot.blob = table[1], data[8 + size :]
        except (OSError, ValueError, EOFError, TypeError):
            pass
        return snapshot

    def _raw(self, name: str, key: Stamp) -> bytes | None:
        """The marshalled payload of ``name`` if stored for stat key ``key``."""
        primed = self.primed.get(name)
        if primed is not None:
            return primed[1] if primed[0] == key else None
        try:
            stored, start, end, _ = self.entries[name]
            return bytes(self.blob[start:end]) if stored == key else None
        except (KeyError, TypeError, ValueError):  # not there, or a damaged table
            return None

    def route(self, name: str, key: Stamp) -> Route | bool:
        """:func:`routing` of the payload stored for ``name`` when its stat key is still ``key``, read
        from the table (no payload decoded); ``False`` when none is stored for that key."""
        primed = self.primed.get(name)
        if primed is not None:
            payload = _loads(primed[1]) if primed[0] == key else None
            return False if payload is None else routing(payload)
        try:
            stored, _, _, found = self.entries[name]
        except (KeyError, TypeError, ValueError):  # not there, or a damaged table
            return False
        return found if stored == key and _is_route(found) else False

    def get(self, name: str, key: Stamp) -> Payload | None:
        """The payload stored for ``name`` when its stat key is still ``key`` (not recorded as seen)."""
        return _loads(self._raw(name, key))

    def lookup(self, name: str, key: Stamp) -> Payload | None:
        """The payload stored for ``name`` when its stat key is still ``key`` (recorded as seen)."""
        raw = self._raw(name, key)
        payload = _loads(raw)
        if payload is not None and raw is not None:
            self.seen[name] = (key, raw)
        return payload

    def prime(self, name: str, key: Stamp, payload: Payload) -> None:
        """What a file holds, known without reading it (a bulk write just wrote and checked it)."""
        self.primed[name] = (key, marshal.dumps(payload))
        self.changed = True

    def record(self, name: str, key: Stamp, payload: Payload) -> None:
        """A file parsed now: keep its result for the next process."""
        self.seen[name] = (key, marshal.dumps(payload))
        self.changed = True

    def save(self) -> None:
        """Write what this load saw, if it differs from what was read (best effort: it is a cache)."""
        if not self.changed and len(self.seen) == len(self.entries):
            return
        if len(self.seen) < MIN_FILES:
            return
        from mimomem.common.files import atomic_write

        table: dict[str, tuple[Stamp, int, int, Route]] = {}
        parts, at = [], 0
        for name, (key, raw) in self.seen.items():
            payload = _loads(raw)
            table[name] = (key, at, at + len(raw), None if payload is None else routing(payload))
            parts.append(raw)
            at += len(raw)
        head = marshal.dumps((self.identity, table))
        target = snapshot_file(self.root)
        try:
            from mimomem.common.private import private_dir

            private_dir(target.parent)
            atomic_write(target, b"".join([len(head).to_bytes(8, "little"), head, *parts]), durable=False)
            _prune(target.parent)
        except (OSError, ValueError):
            pass


def _loads(raw: bytes | None) -> Payload | None:
    """A payload back from its bytes (``None`` for none, or damaged ones: the file is read instead)."""
    if raw is None:
        return None
    try:
        payload = marshal.loads(raw)
    except (ValueError, EOFError, TypeError):
        return None
    return payload if isinstance(payload, tuple) and len(payload) == 2 else None


def _is_route(value: object) -> bool:
    """A well-formed :data:`Route` (a damaged or foreign table sends the root down the usual path)."""
    return value is None or (
        isinstance(value, tuple)
        and len(value) == 3
        and isinstance(value[0], str)
        and isinstance(value[1], tuple)
        and (value[2] is None or isinstance(value[2], str))
    )


def _prune(directory: Path) -> None:
    """Keep the ``MAX_SNAPSHOTS`` most recently written snapshots."""
    for path in beyond_newest(directory, ".snapshot", MAX_SNAPSHOTS):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def beyond_newest(directory: Path, suffix: str, keep: int) -> list[str]:
    """Paths of the regular files in ``directory`` ending in ``suffix``, all but the ``keep`` newest (by mtime)."""
    found = []
    for entry in os.scandir(directory):
        if entry.name.endswith(suffix) and entry.is_file(follow_symlinks=False):
            found.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
    return [path for _, path in sorted(found, reverse=True)[keep:]]


__all__ = ["MIN_FILES", "VERSION", "RootSnapshot", "decode", "encode", "routing", "snapshot_file"]
