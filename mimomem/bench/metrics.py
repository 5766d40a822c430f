"""Retrieval metrics with trec_eval's definitions, computed on ranked lists.

* ``ndcg@10`` - trec_eval ``ndcg_cut_10``: gain = the judged grade, discount
  ``log2(rank + 1)``, ideal ranking from all positive judgments of the query;
* ``recall@10`` / ``recall@100`` - ``recall_10`` / ``recall_100``: relevant (grade >= 1)
  documents in the top k over all relevant documents of the query;
* ``mrr@10`` - ``recip_rank`` on the run cut at 10;
* ``zero_result_share`` - share of queries for which the backend returned nothing.

A query's ranking is taken in the order the backend returned it (trec_eval re-sorts by
score and breaks ties by descending doc id; our runs are already sorted by score, so the
two differ only inside ties).  Means are over every evaluated query, including queries
the backend answered with nothing (as ``trec_eval -c`` does).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

METRICS = ("ndcg@10", "recall@10", "recall@100", "mrr@10")
"""The quality metrics, in table order."""


def ndcg_at(ranking: Sequence[str], qrel: Mapping[str, int], k: int = 10) -> float:
    """trec_eval ``ndcg_cut_k`` of one ranked list."""
    dcg = 0.0
    for rank, doc in enumerate(ranking[:k], 1):
        gain = qrel.get(doc, 0)
        if gain > 0:
            dcg += gain / math.log2(rank + 1)
    ideal = sorted((g for g in qrel.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal, 1))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at(ranking: Sequence[str], qrel: Mapping[str, int], k: int) -> float:
    """trec_eval ``recall_k``: relevant documents in the top ``k`` over all relevant."""
    relevant = {d for d, g in qrel.items() if g > 0}
    if not relevant:
        return 0.0
    return sum(1 for d in ranking[:k] if d in relevant) / len(relevant)


def rr_at(ranking: Sequence[str], qrel: Mapping[str, int], k: int = 10) -> float:
    """Reciprocal rank of the first relevant document within the top ``k`` (else 0)."""
    for rank, doc in enumerate(ranking[:k], 1):
        if qrel.get(doc, 0) > 0:
            return 1.0 / rank
    return 0.0


def score_query(ranking: Sequence[str], qrel: Mapping[str, int]) -> dict[str, float]:
    """Every metric of ``METRICS`` for one query."""
    return {
        "ndcg@10": ndcg_at(ranking, qrel, 10),
        "recall@10": recall_at(ranking, qrel, 10),
        "recall@100": recall_at(ranking, qrel, 100),
        "mrr@10": rr_at(ranking, qrel, 10),
    }


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean; 0.0 for no values."""
    return math.fsum(values) / len(values) if values else 0.0


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (``p`` in 0..100) of ``values``; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]
