"""Superseded values kept out of per-prompt recall: what ``memory-history.md`` holds as old is never served.

Promotion moves an item whose value changed ("端口改成 6543") out of ``MEMORY.md`` into
``memory-history.md`` as ``- <old item> - superseded <date> by: <new item>``.  The session
notes the old item came from still say it, and per-prompt recall reads them entry by entry.
So before an entry is served, each of its sentences that restates a superseded item is
replaced by what superseded it: the entry keeps the rest of what it says (other facts of the
same turn), and the reader gets the current value instead of the old one.

A sentence restates an old item when the entry holds most of the old item's words
(:data:`ENTRY_SHARE`), the sentence's own words come mostly from it (:data:`SENTENCE_SHARE`),
it holds a word only the old item has (its old value: ``5433``, ``search-1.internal``), and
it does not also hold what only the new item has (then it states the change itself).
This runs when the entry cache is rebuilt (a memory file or the history changed), never per
prompt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mimomem.common.light_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # a served prompt imports this module: no typing at run time
    from typing import Any

HISTORY_FILE = "memory-history.md"
"""Superseded project memory: kept for people to read, never recalled as current."""

ENTRY_SHARE = 0.8
"""Share of an old item's words an entry must hold to restate it (the duplicate rule of recall)."""

SENTENCE_SHARE = 0.5
"""Share of a sentence's words that must come from the old item for the sentence to be that item."""

_LINE = re.compile(r"^- (?P<old>.+?) - superseded (?P<date>\d{4}-\d\d-\d\d) by: (?P<new>.+?)\s*$")
_SENTENCE = re.compile(r"(?<=[。！？；!?;])|(?<=\.)(?=\s)|(?=\n)")


class Superseded(NamedTuple):
    """One line of ``memory-history.md``: the old item, what superseded it and when, with their words."""

    old: str
    new: str
    date: str
    old_words: frozenset[str]
    new_words: frozenset[str]


def words(text: str) -> frozenset[str]:
    """The folded, stemmed words of ``text``, as the entry cache keeps an entry's."""
    from mimomem.text.stopwords import stem
    from mimomem.text.tokens import tokenize

    return frozenset(stem(t.text) for t in tokenize(text))


def read_history(path: str) -> list[Superseded]:
    """The superseded items of a ``memory-history.md`` (``[]`` when it is missing or unreadable)."""
    from mimomem.common.files import open_regular

    try:
        with open_regular(path) as handle:
            text = handle.read().decode("utf-8", "replace")
    except (OSError, ValueError):
        return []
    out = []
    for line in text.splitlines():
        found = _LINE.match(line)
        if found is None:
            continue
        old, new = found.group("old"), found.group("new").rstrip("…").rstrip()
        old_words = words(old)
        if old_words:
            out.append(Superseded(old, new, found.group("date"), old_words, words(new)))
    return out


def _value_words(found: frozenset[str]) -> frozenset[str]:
    """Words that name a value (a digit or an identifier's punctuation in them), else all of ``found``."""
    values = frozenset(w for w in found if any(c.isdigit() or c in "._-:/" for c in w))
    return values or found


def restates(sentence: frozenset[str], item: Superseded) -> bool:
    """Whether a sentence with these words says the old item's value without the new one."""
    if not sentence or len(sentence & item.old_words) < SENTENCE_SHARE * len(sentence):
        return False
    old_only = item.old_words - item.new_words
    if not sentence & old_only:
        return False
    new_only = _value_words(item.new_words - item.old_words)
    return not sentence & new_only


def current_text(text: str, entry_words: frozenset[str], history: Sequence[Superseded]) -> str | None:
    """``text`` with each sentence that restates a superseded item replaced by what superseded it;
    ``None`` when nothing in it is superseded."""
    items = [h for h in history if len(entry_words & h.old_words) >= ENTRY_SHARE * len(h.old_words)]
    if not items:
        return None
    pieces = _SENTENCE.split(text)
    changed = False
    for i, piece in enumerate(pieces):
        said = words(piece)
        item = next((h for h in items if restates(said, h)), None)
        if item is not None:
            lead = piece[: len(piece) - len(piece.lstrip())]
            pieces[i] = f"{lead}(superseded {item.date} by: {item.new})"
            changed = True
    return "".join(pieces) if changed else None


def current_rows(rows: list[tuple[Any, ...]], history: Sequence[Superseded]) -> list[tuple[Any, ...]] | None:
    """Entry-cache rows (``mimomem.context.entry_cache``) with superseded sentences replaced and their
    words re-read; ``None`` when no row changed."""
    if not history:
        return None
    out = []
    changed = False
    for row in rows:
        text = current_text(row[2], frozenset(row[6]), history)
        if text is None:
            out.append(row)
            continue
        changed = True
        out.append((*row[:2], text, *row[3:6], tuple(sorted(words(text)))))
    return out if changed else None
