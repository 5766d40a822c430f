"""Wins and losses between two runs of one backend, and whether a change is more than noise.

The test is a paired randomization (sign-flip) test over queries: under "no difference",
each query's change after - before is as likely to have had the other sign, so the
p-value is the share of sign assignments whose mean change is at least as extreme as the
observed one.  Queries that did not change contribute nothing under any assignment, so
only the changed ones are flipped: exactly (all 2^n assignments) for up to
``EXACT_LIMIT`` of them, else ``ROUNDS`` seeded random assignments (deterministic for a
given input), counted with the observed one included.  Fisher's randomization test, as
Smucker, Allan and Carterette (CIKM 2007) recommend it for IR evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mimomem.bench.metrics import METRICS

EXACT_LIMIT = 16
"""Up to this many changed queries the test enumerates every sign assignment."""

ROUNDS = 10_000
"""Random sign assignments when more queries changed."""

SEED = 20261201
"""Seed of the random assignments: the same input always gives the same p-value."""

EPSILON = 1e-9
"""Per-query differences smaller than this are float noise: no change."""

ALTERNATIVES = ("two-sided", "less", "greater")

HEADLINE = ("ndcg@10", "recall@100")
"""The metrics summarised per backend and category (means and p-values)."""

VERDICT_ORDER = ("ndcg@10", "recall@100", "recall@10", "mrr@10")
"""The metrics that decide whether a query got better or worse: the first one that moved."""


def paired_test(
    before: Sequence[float], after: Sequence[float], alternative: str = "two-sided", *, seed: int = SEED
) -> float:
    """p-value of the paired randomization test of ``after`` against ``before`` (see the module doc).

    ``alternative``: ``"less"`` tests for a drop (after < before), ``"greater"`` for a
    gain, ``"two-sided"`` for either.  1.0 when nothing changed.
    """
    if len(before) != len(after):
        raise ValueError(f"paired_test needs one value per query on both sides, got {len(before)} and {len(after)}")
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {', '.join(ALTERNATIVES)}, got {alternative!r}")
    diffs = [a - b for a, b in zip(after, before, strict=True) if abs(a - b) > EPSILON]
    if not diffs:
        return 1.0
    observed = sum(diffs)

    def extreme(total: float) -> bool:
        if alternative == "less":
            return total <= observed + EPSILON
        if alternative == "greater":
            return total >= observed - EPSILON
        return abs(total) >= abs(observed) - EPSILON

    if len(diffs) <= EXACT_LIMIT:
        hits = sum(extreme(total) for total in _all_sums(diffs))
        return float(hits / 2 ** len(diffs))
    rng = random.Random(seed)
    magnitudes = [abs(d) for d in diffs]
    hits = 1  # the observed assignment itself
    for _ in range(ROUNDS):
        bits = rng.getrandbits(len(magnitudes))
        total = sum(-m if bits >> i & 1 else m for i, m in enumerate(magnitudes))
        hits += extreme(total)
    return hits / (ROUNDS + 1)


def _all_sums(diffs: Sequence[float]) -> list[float]:
    """The sum of ``diffs`` under every one of the 2^n sign assignments."""
    sums = [0.0]
    for d in diffs:
        m = abs(d)
        sums = [s + m for s in sums] + [s - m for s in sums]
    return sums


def query_value(row: Mapping[str, Any], metric: str) -> float:
    """One query's value of ``metric`` in a result's ``queries`` entry (``zero_result_share``: 0 or 1)."""
    if metric == "zero_result_share":
        return 1.0 if row.get("returned", 1) == 0 else 0.0
    return float(row.get(metric, 0.0))


def paired_values(
    before: Mapping[str, Mapping[str, Any]],
    after: Mapping[str, Mapping[str, Any]],
    metric: str,
    category: str | None = None,
) -> tuple[list[float], list[float]]:
    """Per-query values of ``metric`` for the queries in both runs (of ``category`` if given)."""
    qids = [q for q in after if q in before and (category is None or after[q].get("category") == category)]
    return [query_value(before[q], metric) for q in qids], [query_value(after[q], metric) for q in qids]


def drop_p_value(
    before: Mapping[str, Mapping[str, Any]],
    after: Mapping[str, Mapping[str, Any]],
    metric: str,
    category: str | None = None,
) -> float:
    """One-sided p-value that ``metric`` got worse (``zero_result_share``: rose) from ``before`` to ``after``."""
    old, new = paired_values(before, after, metric, category)
    return paired_test(old, new, "greater" if metric == "zero_result_share" else "less")


@dataclass(frozen=True)
class QueryChange:
    """One query whose metrics or relevant ranks moved: what it was, what it is, and its ranks."""

    qid: str
    text: str
    category: str
    deltas: dict[str, tuple[float, float]]  # metric -> (before, after), only the metrics that moved
    ranks_before: dict[str, int]
    ranks_after: dict[str, int]

    @property
    def verdict(self) -> str:
        """``better`` / ``worse`` by the first metric of ``VERDICT_ORDER`` that moved; ``moved`` if only ranks did."""
        for metric in VERDICT_ORDER:
            if metric in self.deltas:
                old, new = self.deltas[metric]
                return "better" if new > old else "worse"
        return "moved"


def query_changes(before: Mapping[str, Mapping[str, Any]], after: Mapping[str, Mapping[str, Any]]) -> list[QueryChange]:
    """Every query in both runs whose metrics or relevant ranks moved, in the order of ``after``."""
    out = []
    for qid, cur in after.items():
        prev = before.get(qid)
        if prev is None:
            continue
        deltas = {
            m: (query_value(prev, m), query_value(cur, m))
            for m in METRICS
            if abs(query_value(prev, m) - query_value(cur, m)) > EPSILON
        }
        if deltas or prev.get("relevant_ranks", {}) != cur.get("relevant_ranks", {}):
            out.append(
                QueryChange(
                    qid,
                    str(cur.get("text", "")),
                    str(cur.get("category", "")),
                    deltas,
                    dict(prev.get("relevant_ranks", {})),
                    dict(cur.get("relevant_ranks", {})),
                )
            )
    return out


def summary(
    before: Mapping[str, Mapping[str, Any]],
    after: Mapping[str, Mapping[str, Any]],
    category: str | None = None,
) -> dict[str, Any]:
    """Queries, better / worse / moved counts and per headline metric the means and two-sided p-value."""
    changed = [c for c in query_changes(before, after) if category is None or c.category == category]
    out: dict[str, Any] = {"queries": len(paired_values(before, after, HEADLINE[0], category)[0])}
    for verdict in ("better", "worse", "moved"):
        out[verdict] = sum(c.verdict == verdict for c in changed)
    for metric in HEADLINE:
        old, new = paired_values(before, after, metric, category)
        n = len(old) or 1
        out[metric] = {"before": sum(old) / n, "after": sum(new) / n, "p": paired_test(old, new)}
    return out
