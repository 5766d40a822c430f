"""The per-prompt path's cache of split, tokenized entries: ``<data>/state/entries.cache``.

Each prompt hook is a fresh process that would otherwise read, split and tokenize every
memory file in scope.  The cache keeps, per file (absolute path), its size, mtime, inode and ctime and
its entries with their folded, stemmed words; a file whose stat matches is not read.  The
files stay the truth: a changed, new or removed file is re-read and the cache rewritten
(atomically, best effort); a cache that cannot be read - missing, from another tokenizer
version, damaged, not a regular file - is rebuilt from the files.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Mapping, Sequence

from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.common.stamp import Stamp, stamp, stamp_of
from mimomem.served.entries import split_entries
from mimomem.served.entry_index import Cached, EntryIndex, indices, postings_of

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

CACHE_FILE = "entries.cache"
VERSION = 9


def _identity() -> tuple[int, int]:
    from mimomem.text.tokens import TOKENIZER_VERSION

    return VERSION, TOKENIZER_VERSION


def cache_path(data_dir: Path) -> Path:
    """Where the cache lives, beside (not inside) the memory tree."""
    return data_dir / "state" / CACHE_FILE


def load(path: Path) -> dict[str, Any]:
    """The saved cache, or ``{}`` when it is missing or unusable (it is then rebuilt)."""
    from mimomem.common.files import open_regular

    try:
        with open_regular(path) as handle:
            data = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or data.get("identity") != _identity() or not isinstance(data.get("files"), dict):
        return {}
    if not isinstance(data.get("order"), tuple) or not isinstance(data.get("index"), dict):
        return {}
    return data


def load_index(
    files: Sequence[str | Path],
    root: Path,
    data_dir: Path,
    hosts: Mapping[str, tuple[str, str]] | None = None,
    history: str | None = None,
) -> EntryIndex:
    """The entries of ``files`` (paths shown relative to ``root``), through the cache, kept current.

    ``hosts``: the files among them that are a host's own memory (path -> ``(host, kind)``,
    :func:`mimomem.context.host_memory.recall_files`), read as such and shown by their absolute path.
    ``history``: the project's ``memory-history.md``; a sentence of an entry that restates one of its
    superseded items is shown as what superseded it (:mod:`mimomem.context.stale`)."""
    hosts = hosts or {}
    path = cache_path(data_dir)
    saved = load(path)
    old: dict[str, Any] = saved.get("files", {})
    past = _history_stamp(history)
    order: list[tuple[str, Stamp]] = []  # (path, stamp) of each file that exists, in the given order
    stat = os.stat
    for file in files:
        key = os.fspath(file)
        try:
            st = stat(key)
        except OSError:
            continue
        order.append((key, stamp_of(st)))
    if saved and saved["order"] == tuple(order) and saved.get("history") == past:  # nothing read, nothing written
        kept = saved.get("shown") or {}
        return EntryIndex(tuple(kept.get(key) or old[key][1] for key, _ in order), saved["index"])
    fresh: dict[str, tuple[Stamp, bytes]] = {}
    for key, now in order:
        hit = old.get(key)
        if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == now and isinstance(hit[1], bytes):
            fresh[key] = hit
        else:
            host = hosts.get(key)
            made = _host_rows(key, *host) if host is not None else _rows(key, os.path.relpath(key, root))
            fresh[key] = (now, marshal.dumps(made))
    shown = _without_repeats(order, fresh, hosts) if hosts else {}
    if past is not None:
        shown.update(_current(order, fresh, hosts, past[0]))
    blobs = tuple(shown.get(key) or fresh[key][1] for key, _ in order)
    index = postings_of(blobs)
    saving = {"identity": _identity(), "files": fresh, "order": tuple(order), "index": index, "shown": shown}
    _save(path, {**saving, "history": past})
    return EntryIndex(blobs, index)


def _history_stamp(history: str | None) -> tuple[str, Stamp] | None:
    """``(path, stamp)`` of the history file, ``None`` when there is none."""
    if history is None:
        return None
    found = stamp(history)
    return None if found is None else (history, found)


def _current(
    order: Sequence[tuple[str, Stamp]], fresh: Mapping[str, tuple[Stamp, bytes]], hosts: Mapping[str, Any], history: str
) -> dict[str, bytes]:
    """Each of mimomem's own files whose entries restate a superseded item, with those sentences replaced
    (path -> rows blob; :func:`mimomem.context.stale.current_rows`)."""
    from mimomem.context.stale import current_rows, read_history

    items = read_history(history)
    out: dict[str, bytes] = {}
    for key, _ in order if items else ():
        if key not in hosts:
            rows = current_rows(marshal.loads(fresh[key][1]), items)
            if rows is not None:
                out[key] = marshal.dumps(rows)
    return out


REPEAT = 0.8
"""A host's entry whose words are this share inside one of mimomem's own entries repeats it: left out."""


def _without_repeats(
    order: Sequence[tuple[str, Stamp]], fresh: Mapping[str, tuple[Stamp, bytes]], hosts: Mapping[str, Any]
) -> dict[str, bytes]:
    """Each host file's entries without those that repeat one of mimomem's own (path -> rows blob)."""
    mine = [fresh[key][1] for key, _ in order if key not in hosts]
    own = EntryIndex(tuple(mine), postings_of(mine))
    out: dict[str, bytes] = {}
    for key, _ in order:
        if key in hosts:
            rows = marshal.loads(fresh[key][1])
            out[key] = marshal.dumps([row for row in rows if not _repeats(own, row[6])])
    return out


def _repeats(own: EntryIndex, words: Sequence[str]) -> bool:
    """Whether one of ``own``'s entries holds :data:`REPEAT` of ``words``: such an entry holds one of
    the rarest ``len(words) - ceil(REPEAT * len(words)) + 1`` of them, so only those are looked up."""
    import math

    if not words or not len(own):
        return False
    need = math.ceil(REPEAT * len(words))
    rare = sorted(words, key=lambda w: own.bits(w).bit_count())[: len(words) - need + 1]
    candidates = 0
    for word in rare:
        candidates |= own.bits(word)
    wanted = set(words)
    return any(len(wanted & own[i][1]) >= need for i in indices(candidates))


def entries_of(files: Sequence[str | Path], root: Path, data_dir: Path) -> list[Cached]:
    """Every entry of ``files`` (paths shown relative to ``root``) with its words; cache used and kept."""
    return list(load_index(files, root, data_dir))


def _rows(file: str, shown: str) -> list[tuple[Any, ...]]:
    from mimomem.context.rebuild import read_memory_file
    from mimomem.text.stopwords import stem
    from mimomem.text.tokens import tokenize_many

    entries = split_entries(read_memory_file(file), shown)
    words = tokenize_many([e.text for e in entries])
    return [
        (e.path, e.line, e.text, e.section, e.label, e.date, tuple(sorted({stem(t) for t in w})))
        for e, w in zip(entries, words, strict=True)
    ]


def _host_rows(file: str, host: str, kind: str) -> list[tuple[Any, ...]]:
    from mimomem.context.host_memory import rows

    return rows(file, host, kind)


def _save(path: Path, data: dict[str, Any]) -> None:
    from mimomem.common.files import atomic_write

    try:
        from mimomem.common.private import private_dir

        private_dir(path.parent)
        atomic_write(path, marshal.dumps(data), durable=False)
    except (OSError, ValueError):
        pass  # a cache that cannot be written costs time, never an answer
