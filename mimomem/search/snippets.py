"""Snippets cut from a document's original text around the query's matches.

Used by ``fts5-bigram`` and ``native-index`` (``fts5-unicode61`` keeps FTS5's own
``snippet()``): FTS5 would show the bigram shadow text, and on SQLite 3.40 garble
overlapping n-gram matches, so the window is chosen here and the user's original
characters are copied, overlapping bigram matches merged into one span.
"""

from __future__ import annotations

import bisect
import sqlite3
from collections.abc import Callable, Sequence

from mimomem.search.hits import RankedRow
from mimomem.text._accel import tokenize_bigram
from mimomem.text.query import Query
from mimomem.text.tokens import Token

SNIPPET_OPEN = "<<"
SNIPPET_CLOSE = ">>"
SNIPPET_ELLIPSIS = "..."
SNIPPET_TOKENS = 32

_Instance = tuple[int, int, int]  # (first token, last token, phrase number)


def body_snippets(conn: sqlite3.Connection, query: Query, hits: Sequence[RankedRow]) -> list[str]:
    """Snippets for ``hits`` cut from their original bodies in the cache."""
    if not hits:
        return []
    marks = ",".join("?" * len(hits))
    bodies = dict(conn.execute(f"SELECT id, body FROM memory_fts WHERE id IN ({marks})", [h.id for h in hits]))
    phrases = query.phrases()
    return [cut_snippet(bodies.get(h.id, ""), phrases) for h in hits]


def cut_snippet(
    text: str,
    phrases: Sequence[Sequence[str]],
    *,
    size: int = SNIPPET_TOKENS,
    open_mark: str = SNIPPET_OPEN,
    close_mark: str = SNIPPET_CLOSE,
    ellipsis: str = SNIPPET_ELLIPSIS,
    tokenizer: Callable[[str], Sequence[Token]] = tokenize_bigram,
) -> str:
    """A window of ``size`` tokens of ``text`` around the best matches, matches marked.

    Follows FTS5's ``snippet()`` idea - the window covering the most distinct phrases
    (then the most instances) wins and is centred on its matches - but copies the
    user's original characters, and merges overlapping bigram matches into one span
    (``<<部署脚本>>``, never FTS5 3.40's garbled overlap output).  Markers the text already holds
    (a search result pasted into a transcript) are shown as look-alikes (``‹‹``, ``››``), so every
    marker in a snippet is one hit's and none nests.
    """
    tokens = tokenizer(text)
    if not tokens:
        return text[:200]
    instances = _instances([t.text for t in tokens], phrases)
    total = len(tokens)
    start, end = 0, min(size, total)
    spans: list[tuple[int, int]] = []
    if instances:
        start, end = _best_window(instances, size, total)
        spans = sorted((tokens[a].start, tokens[b].end) for a, b, _ in instances if a >= start and b < end)
    lo_char = 0 if start == 0 else tokens[start].start
    hi_char = len(text) if end == total else tokens[end - 1].end
    out = [ellipsis] if start > 0 else []
    pos = lo_char

    def plain(part: str) -> str:  # the text's own markers (a pasted search result): look-alikes, never ours
        for mark, alike in ((open_mark, "\u2039"), (close_mark, "\u203a")):
            if mark:
                part = part.replace(mark, alike * len(mark))
        return part

    for s, e in _merge(spans):
        out += [plain(text[pos:s]), open_mark, plain(text[s:e]), close_mark]
        pos = e
    out.append(plain(text[pos:hi_char]))
    if end < total:
        out.append(ellipsis)
    return "".join(out)


def _instances(texts: Sequence[str], phrases: Sequence[Sequence[str]]) -> list[_Instance]:
    """Every occurrence of every phrase in ``texts``, in token order."""
    first_of: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for p, phrase in enumerate(phrases):
        if phrase:
            first_of.setdefault(phrase[0], []).append((p, tuple(phrase)))
    instances: list[_Instance] = []
    for j, tok in enumerate(texts):
        for p, phrase in first_of.get(tok, ()):
            n = len(phrase)
            if tuple(texts[j : j + n]) == phrase:
                instances.append((j, j + n - 1, p))
    return instances


def _best_window(instances: Sequence[_Instance], size: int, total: int) -> tuple[int, int]:
    """``(start, end)`` token range of the ``size``-token window with the most distinct phrases."""
    starts = [a for a, _, _ in instances]  # already sorted
    best: tuple[int, list[_Instance]] | None = None
    for k, j in enumerate(starts):
        stop = bisect.bisect_left(starts, j + size, lo=k)
        inside = [(a, b, p) for a, b, p in instances[k:stop] if b < j + size] or [instances[k]]
        distinct = len({p for _, _, p in inside})
        score = 1000 * distinct + len(inside) - distinct
        if best is None or score > best[0]:
            best = (score, inside)
    assert best is not None
    inside = best[1]
    lo = min(a for a, _, _ in inside)
    hi = min(max(b for _, b, _ in inside), lo + size - 1)
    start = max(0, lo - (size - (hi - lo + 1)) // 2)
    end = min(total, start + size)
    return max(0, end - size), end


def _merge(spans: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Sorted character spans with overlapping ones merged."""
    merged: list[list[int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


__all__ = ["SNIPPET_CLOSE", "SNIPPET_ELLIPSIS", "SNIPPET_OPEN", "SNIPPET_TOKENS", "body_snippets", "cut_snippet"]
