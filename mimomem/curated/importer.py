"""Bulk input: the items ``remember_many`` takes, and Markdown notes read by ``import_dir``.

A note becomes an item (a mapping of ``remember`` arguments); notes that cannot be read
safely (symlinks, FIFOs, oversized, not UTF-8, compiled outlines) are skipped with a reason.
Labels naming an item or a note (its summary, slug or file name) never show a likely secret.
"""

from __future__ import annotations

import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from mimomem.common import frontmatter
from mimomem.common.secrets import redact_secrets
from mimomem.curated.memory import MAX_FILE_BYTES, MemoryFields, str_list
from mimomem.errors import InvalidMemoryError

ITEM_FIELDS = frozenset(MemoryFields._fields)
"""The keys an item of ``remember_many`` may have (``category`` and ``summary`` are needed)."""


def item_label(n: int, item: Any, labels: Sequence[str] | None) -> str:
    """How a refused item is named: its given label, else its number and slug or summary (secrets redacted)."""
    if labels is not None:
        return labels[n]
    if isinstance(item, Mapping):
        return f"item {n} ({redact_secrets(str(item.get('slug') or item.get('summary') or ''))[:60]})"
    return f"item {n}"


def item_arguments(n: int, item: Any) -> MemoryFields:
    """The fields of an item; ``InvalidMemoryError`` for a non-mapping or unknown keys."""
    if not isinstance(item, Mapping):
        raise InvalidMemoryError(f"item {n} is a {type(item).__name__}, not a mapping")
    unknown = set(item) - ITEM_FIELDS
    if unknown:
        raise InvalidMemoryError(f"unknown fields {sorted(unknown)}; allowed: {sorted(ITEM_FIELDS)}")
    given = MemoryFields(**{"category": "", "summary": "", **item})
    return given._replace(pinned=bool(given.pinned))


def read_notes(base: Path, categories: Sequence[str]) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
    """``(items, labels, skipped)`` for every ``*.md`` under ``base``, in path order.

    Labels are the notes' paths relative to ``base``; ``skipped`` pairs such a path with
    the reason it was not read.
    """
    items: list[dict[str, Any]] = []
    labels: list[str] = []
    skipped: list[tuple[str, str]] = []
    for path in sorted(base.rglob("*.md")):
        rel = redact_secrets(str(path.relative_to(base)))  # labels are shown: a file name may hold a secret
        text = _read_note(base, path)
        if isinstance(text, _Skip):
            skipped.append((rel, text.reason))
            continue
        items.append(note_to_item(path, text, categories))
        labels.append(rel)
    return items, labels, skipped


class _Skip(NamedTuple):
    """Why a note was not read."""

    reason: str


def _read_note(base: Path, path: Path) -> str | _Skip:
    """The note's text, unless it is reached through a symlink, not a regular file, too big or not UTF-8."""
    if path.is_symlink() or any((base / p).is_symlink() for p in path.relative_to(base).parents if str(p) != "."):
        return _Skip("symlink; not followed")
    if path.name in ("index.md", "ROOT.md"):
        return _Skip("compiled outline, not a memory")
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block the read forever
            return _Skip("not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            return _Skip(f"over {MAX_FILE_BYTES} bytes")
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return _Skip("not UTF-8")
    except OSError as exc:
        return _Skip(f"unreadable: {exc.strerror}")


def note_to_item(path: Path, text: str, categories: Sequence[str]) -> dict[str, Any]:
    """A note as a ``remember`` item.

    The note's own frontmatter ``summary``/``category``/``highlight``/``load_when``/``pinned``
    are used when present; otherwise the category is the note's parent folder when that is
    a known category (else ``facts``) and the summary its first heading or line.
    """
    doc = frontmatter.parse(text)
    meta = doc.meta if doc.problem is None else {}
    body = doc.body if doc.problem is None or doc.problem.kind == "missing" else text
    category = meta.get("category") if meta.get("category") in categories else None
    if category is None:
        parent = path.parent.name
        category = parent if parent in categories else "facts"
    summary = meta.get("summary") if isinstance(meta.get("summary"), str) else None
    lines = body.strip("\n").split("\n")
    if not summary:
        first = next((ln for ln in lines if ln.strip()), path.stem)
        summary = first.lstrip("#").strip() or path.stem
        if first in lines:
            lines.remove(first)
    item: dict[str, Any] = {
        "category": category,
        "summary": summary[:200],
        "body": "\n".join(lines).strip("\n"),
    }
    if isinstance(meta.get("highlight"), str):
        item["highlight"] = meta["highlight"]
    when = str_list(meta.get("load_when"))
    if when:
        item["load_when"] = list(when)
    if meta.get("pinned") is True:
        item["pinned"] = True
    return item
