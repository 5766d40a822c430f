"""Token diffs between the shipped tokenizer and a candidate, on both sides of retrieval.

Per dataset (``dataset_diff``): which documents and which evaluated queries tokenize
differently, the most frequent removed and added tokens on each side, and for each query
whose own tokens changed or one of whose relevant documents gained or lost one of the
query's tokens, what exactly changed ("relevant doc d17 lost token X").  ``text_diff``
is the same for one text (``mimomem tokenize --diff``).  Removed / added are multiset
differences of the token texts (offsets are ignored), so a token that only moved is no
change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from mimomem.bench.candidate import Candidate, ascii_split_tokens, shipped_tokens
from mimomem.bench.datasets import Dataset
from mimomem.text.tokens import Token

TOP_TOKENS = 10
"""Most frequent removed / added tokens listed per side."""

Tokenizer = Callable[[str], Sequence[Token]]


def changes(before: Sequence[str], after: Sequence[str]) -> tuple[Counter[str], Counter[str]]:
    """``(removed, added)``: the multiset differences of two token lists."""
    old, new = Counter(before), Counter(after)
    return old - new, new - old


def _texts(tokenizer: Tokenizer, text: str) -> list[str]:
    return [t.text for t in tokenizer(text)]


def _top(occurrences: Counter[str], holders: Counter[str], top: int) -> list[list[Any]]:
    """``[token, occurrences, texts holding the change]`` for the ``top`` most frequent tokens."""
    ranked = sorted(occurrences, key=lambda t: (-occurrences[t], -holders[t], t))[:top]
    return [[t, occurrences[t], holders[t]] for t in ranked]


class _Side:
    """Accumulates one side (documents or queries) of a dataset diff."""

    def __init__(self) -> None:
        self.changed: list[str] = []
        self.removed: Counter[str] = Counter()
        self.added: Counter[str] = Counter()
        self.removed_in: Counter[str] = Counter()
        self.added_in: Counter[str] = Counter()
        self.per_item: dict[str, tuple[Counter[str], Counter[str]]] = {}

    def add(self, key: str, before: list[str], after: list[str]) -> tuple[Counter[str], Counter[str]]:
        removed, added = changes(before, after)
        if before != after:
            self.changed.append(key)
            self.per_item[key] = (removed, added)
        self.removed.update(removed)
        self.added.update(added)
        self.removed_in.update(removed.keys())
        self.added_in.update(added.keys())
        return removed, added

    def summary(self, total: int, top: int) -> dict[str, Any]:
        return {
            "total": total,
            "changed": len(self.changed),
            "changed_ids": list(self.changed),
            "removed": _top(self.removed, self.removed_in, top),
            "added": _top(self.added, self.added_in, top),
        }


def dataset_diff(dataset: Dataset, candidate: Candidate, *, top: int = TOP_TOKENS) -> dict[str, Any]:
    """The JSON-ready token diff of ``dataset`` (documents and evaluated queries); see the module doc."""
    docs, queries = _Side(), _Side()
    new_tokens: set[str] = set()
    for doc_id, text in dataset.docs:
        after = _texts(candidate.tokenize, text)
        new_tokens.update(after)
        docs.add(doc_id, _texts(shipped_tokens, text), after)
    affected: dict[str, dict[str, Any]] = {}
    for query in dataset.judged_queries:
        before, after = _texts(shipped_tokens, query.text), _texts(candidate.tokenize, query.text)
        removed, added = queries.add(query.qid, before, after)
        terms = set(before) | set(after)
        relevant = {}
        for doc_id, grade in dataset.qrels.get(query.qid, {}).items():
            lost, gained = docs.per_item.get(doc_id, (Counter(), Counter()))
            lost_q, gained_q = sorted(t for t in lost if t in terms), sorted(t for t in gained if t in terms)
            if grade > 0 and (lost_q or gained_q):
                relevant[doc_id] = {"grade": grade, "lost": lost_q, "gained": gained_q}
        if removed or added or relevant or before != after:
            affected[query.qid] = {
                "text": query.text,
                "category": query.category,
                "removed": sorted(removed),
                "added": sorted(added),
                "relevant": relevant,
            }
    return {
        "documents": docs.summary(len(dataset.docs), top),
        "queries": queries.summary(len(dataset.judged_queries), top),
        "affected_queries": affected,
        "fts5_split_tokens": ascii_split_tokens(new_tokens),
    }


def text_diff(text: str, candidate: Candidate, shipped: Tokenizer = shipped_tokens) -> dict[str, Any]:
    """One text's tokens under both tokenizers, aligned by span, with the removed / added tokens."""
    before, after = list(shipped(text)), candidate.tokenize(text)
    removed, added = changes([t.text for t in before], [t.text for t in after])
    spans: dict[tuple[int, int], list[str | None]] = {}
    for side, tokens in ((0, before), (1, after)):
        for t in tokens:
            spans.setdefault((t.start, t.end), [None, None])[side] = t.text
    rows = [
        {"start": s, "end": e, "original": text[s:e], "shipped": old, "candidate": new}
        for (s, e), (old, new) in sorted(spans.items())
    ]
    return {
        "shipped": [t.text for t in before],
        "candidate": [t.text for t in after],
        "removed": sorted(removed.elements()),
        "added": sorted(added.elements()),
        "rows": rows,
    }


def format_text_diff(diff: dict[str, Any], spec: str) -> str:
    """Side by side, one line per token span: marker, span, original text, shipped, candidate.

    Markers: ``=`` the same token, ``~`` another token on the same span, ``-`` only the
    shipped tokenizer has a token there, ``+`` only the candidate.
    """
    rows = [("", "span", "original", "shipped", spec)]
    for r in diff["rows"]:
        old, new = r["shipped"], r["candidate"]
        mark = "=" if old == new else "~" if old and new else "-" if old else "+"
        rows.append((mark, f"{r['start']}-{r['end']}", r["original"], old or "", new or ""))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)) + "  " + row[4] for row in rows]
    lines.append("removed: " + (" | ".join(diff["removed"]) or "-") + "; added: " + (" | ".join(diff["added"]) or "-"))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _listed(rows: list[list[Any]]) -> str:
    return " | ".join(f"{t} x{n} ({k})" for t, n, k in rows) or "-"


def format_dataset_diff(name: str, diff: dict[str, Any], *, show_ids: int = 20) -> list[str]:
    """The token-level lines of one dataset's diff (the per-query lines come with the rankings)."""
    d, q = diff["documents"], diff["queries"]
    lines = [
        f"[{name}] tokens: {d['changed']} of {d['total']} documents and {q['changed']} of {q['total']} "
        "queries tokenize differently",
        f"  documents, removed (occurrences, documents): {_listed(d['removed'])}",
        f"  documents, added: {_listed(d['added'])}",
        f"  queries, removed: {_listed(q['removed'])}",
        f"  queries, added: {_listed(q['added'])}",
    ]
    for label, side in (("documents", d), ("queries", q)):
        if side["changed_ids"]:
            ids = side["changed_ids"]
            more = f" and {len(ids) - show_ids} more (--json lists all)" if len(ids) > show_ids else ""
            lines.append(f"  changed {label}: {', '.join(ids[:show_ids])}{more}")
    if diff["fts5_split_tokens"]:
        lines.append(
            f"  note: {diff['fts5_split_tokens']} distinct candidate tokens hold ASCII punctuation or spaces; "
            "fts5-bigram's ascii reader splits them again (native-index does not)"
        )
    return lines


def format_query_tokens(change: dict[str, Any]) -> list[str]:
    """The token lines of one affected query: its own tokens, then its relevant documents'."""
    lines = []
    if change["removed"] or change["added"]:
        lines.append(
            "    query tokens removed: "
            + (" | ".join(change["removed"]) or "-")
            + "; added: "
            + (" | ".join(change["added"]) or "-")
        )
    else:
        lines.append("    query tokens unchanged")
    for doc_id, rel in change["relevant"].items():
        parts = []
        if rel["lost"]:
            parts.append("lost token " + ", ".join(rel["lost"]))
        if rel["gained"]:
            parts.append("gained token " + ", ".join(rel["gained"]))
        lines.append(f"    relevant doc {doc_id} (grade {rel['grade']}) " + "; ".join(parts))
    if not change["relevant"]:
        lines.append("    no relevant document gained or lost one of the query's tokens")
    return lines
