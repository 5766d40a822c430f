"""Wins and losses of one backend between two runs, as text: overall, per category, per query.

Used for ``--compare`` (a saved run against this one) and for ``--tokenizer`` (the shipped
tokenizer against the candidate).  A query is *better* or *worse* by the first metric that
moved (nDCG@10, Recall@100, Recall@10, MRR@10), *moved* when only the ranks of its relevant
documents did; p-values are the two-sided paired randomization test of
``mimomem.bench.significance``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mimomem.bench.significance import HEADLINE, QueryChange, query_changes, summary

SHOW_QUERIES = 15
"""Queries listed per side (better / worse) and backend; ``--json`` has every query."""


def _metric(stats: Mapping[str, Any], metric: str) -> str:
    m = stats[metric]
    return f"{metric} {m['before']:.4f} -> {m['after']:.4f} ({m['after'] - m['before']:+.4f}, p {m['p']:.3g})"


def _ranks(change: QueryChange) -> str:
    moved = []
    for doc in sorted(set(change.ranks_before) | set(change.ranks_after)):
        old, new = change.ranks_before.get(doc), change.ranks_after.get(doc)
        if old != new:
            moved.append(f"{doc} rank {old or '-'} -> {new or '-'}")
    return "; ".join(moved) or "relevant ranks unchanged"


def detail(change: QueryChange) -> str:
    """``ndcg@10 0.500 -> 1.000; d17 rank 3 -> 1``: the metrics that moved (if any), then the ranks."""
    metrics = ", ".join(f"{m} {old:.3f} -> {new:.3f}" for m, (old, new) in change.deltas.items())
    return "; ".join(part for part in (metrics, _ranks(change)) if part)


def describe(change: QueryChange) -> str:
    """``q-092 'ACCESS_TOKEN_TTL' [identifier]: ndcg@10 0.500 -> 1.000; d17 rank 3 -> 1``."""
    cat = f" [{change.category}]" if change.category else ""
    return f"{change.qid} {change.text!r}{cat}: {detail(change)}"


def format_backend(
    label: str,
    before: Mapping[str, Mapping[str, Any]],
    after: Mapping[str, Mapping[str, Any]],
    *,
    show: int = SHOW_QUERIES,
) -> list[str]:
    """Lines for one backend: the overall line, a line per category that moved, the queries."""
    total = summary(before, after)
    lines = [f"{label}: {_counts(total)} queries; " + "; ".join(_metric(total, m) for m in HEADLINE)]
    categories = list(dict.fromkeys(str(q.get("category", "")) for q in after.values() if q.get("category")))
    for cat in categories:
        stats = summary(before, after, cat)
        if stats["better"] or stats["worse"] or stats["moved"]:
            lines.append(f"  [{cat}] {_counts(stats)}; " + _metric(stats, HEADLINE[0]))
    if show:
        changes = query_changes(before, after)
        for verdict in ("better", "worse", "moved"):
            side = [c for c in changes if c.verdict == verdict]
            lines.extend(f"  {verdict}: {describe(change)}" for change in side[:show])
            if len(side) > show:
                lines.append(f"  {verdict}: ... and {len(side) - show} more (--json has every query)")
    return lines


def _counts(stats: Mapping[str, Any]) -> str:
    moved = f", {stats['moved']} moved (metrics equal)" if stats["moved"] else ""
    return f"{stats['better']} better, {stats['worse']} worse{moved} of {stats['queries']}"


def format_runs(saved: Mapping[str, Any], current: Mapping[str, Any], heading: str) -> str:
    """Wins and losses of every (dataset, backend) pair of both results where a query moved ("" if none)."""
    old = {(d["name"], b["backend"]): b for d in saved.get("datasets", []) for b in d["backends"]}
    lines = []
    for dataset in current.get("datasets", []):
        for backend in dataset["backends"]:
            prev = old.get((dataset["name"], backend["backend"]))
            before, after = (prev or {}).get("queries", {}), backend.get("queries", {})
            if prev is not None and query_changes(before, after):
                lines.extend(format_backend(f"[{dataset['name']}] {backend['backend']}", before, after))
    return "\n".join([heading, *lines]) + "\n" if lines else ""
