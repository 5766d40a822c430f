"""The per-prompt path's cache of split, tokenized entries: ``<data>/state/entries.cache``.

Each prompt hook is a fresh process that would otherwise read, split and tokenize every
memory file in scope.  The cache keeps, per file (absolute path), its size and mtime and
its entries with their folded, stemmed words; a file whose stat matches is not read.  The
files stay the truth: a changed, new or removed file is re-read and the cache rewritten
(atomically, best effort); a cache that cannot be read - missing, from another tokenizer
version, damaged, not a regular file - is rebuilt from the files.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mimomem.context.entries import Entry, split_entries
from mimomem.context.rebuild import read_memory_file

CACHE_FILE = "entries.cache"
VERSION = 1

Cached = tuple[Entry, frozenset[str]]


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
    files: dict[str, Any] = data["files"]
    return files


def entries_of(files: Sequence[Path], root: Path, data_dir: Path) -> list[Cached]:
    """Every entry of ``files`` (paths shown relative to ``root``) with its words; cache used and kept."""
    path = cache_path(data_dir)
    saved = load(path)
    fresh: dict[str, Any] = {}
    out: list[Cached] = []
    changed = False
    for file in files:
        key = str(file)
        try:
            st = os.stat(file)
        except OSError:
            continue
        stamp = (st.st_size, st.st_mtime_ns)
        hit = saved.get(key)
        rows = hit[1] if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == stamp else None
        if rows is None:
            rows = _rows(file, os.path.relpath(file, root))
            changed = True
        fresh[key] = (stamp, rows)
        out += [(Entry(*row[:6]), row[6]) for row in rows]
    if changed or set(saved) != set(fresh):
        _save(path, fresh)
    return out


def _rows(file: Path, shown: str) -> list[tuple[Any, ...]]:
    from mimomem.text.stopwords import stem
    from mimomem.text.tokens import tokenize_many

    entries = split_entries(read_memory_file(file), shown)
    words = tokenize_many([e.text for e in entries])
    return [
        (e.path, e.line, e.text, e.section, e.label, e.date, frozenset(stem(t) for t in w))
        for e, w in zip(entries, words, strict=True)
    ]


def _save(path: Path, files: dict[str, Any]) -> None:
    from mimomem.common.files import atomic_write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, marshal.dumps({"identity": _identity(), "files": files}), durable=False)
    except (OSError, ValueError):
        pass  # a cache that cannot be written costs time, never an answer
