"""Metrics follow trec_eval: checked against pytrec_eval on a random graded run."""

from __future__ import annotations

import math
import random

import pytest

from mimomem.bench.metrics import mean, ndcg_at, percentile, recall_at, rr_at, score_query


def _sample(seed: int = 11) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(300)]
    qrels, runs = {}, {}
    for q in range(60):
        judged = rng.sample(docs, rng.randint(1, 40))
        qrel = {d: rng.choice((0, 1, 1, 2, 2, 3)) for d in judged}
        qrel[judged[0]] = max(1, qrel[judged[0]])  # at least one relevant document
        qrels[f"q{q}"] = qrel
        pool = judged[: rng.randint(0, len(judged))] + rng.sample(docs, rng.randint(1, 150))
        runs[f"q{q}"] = list(dict.fromkeys(rng.sample(pool, len(pool))))[: rng.randint(1, 120)]
    return qrels, runs


def test_metrics_equal_pytrec_eval_on_a_sample_run() -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, runs = _sample()
    # distinct, strictly decreasing scores: trec_eval's ordering is then the list order
    scored = {q: {d: float(len(r) - i) for i, d in enumerate(r)} for q, r in runs.items()}
    cut10 = {q: {d: float(len(r) - i) for i, d in enumerate(r[:10])} for q, r in runs.items()}
    full = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.10,100"}).evaluate(scored)
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(cut10)
    for q, ranking in runs.items():
        ours = score_query(ranking, qrels[q])
        assert ours["ndcg@10"] == pytest.approx(full[q]["ndcg_cut_10"], abs=1e-9)
        assert ours["recall@10"] == pytest.approx(full[q]["recall_10"], abs=1e-9)
        assert ours["recall@100"] == pytest.approx(full[q]["recall_100"], abs=1e-9)
        assert ours["mrr@10"] == pytest.approx(rr[q]["recip_rank"], abs=1e-9)
    # the sample is not degenerate: every metric takes several distinct values
    values = [score_query(r, qrels[q])["ndcg@10"] for q, r in runs.items()]
    assert len({round(v, 6) for v in values}) > 10


def test_ndcg_by_hand() -> None:
    qrel = {"a": 2, "b": 1, "c": 0}
    # ranking b, x, a: dcg = 1/log2(2) + 2/log2(4) = 2; ideal a, b: 2 + 1/log2(3)
    assert ndcg_at(["b", "x", "a"], qrel) == pytest.approx(2 / (2 + 1 / math.log2(3)))
    assert ndcg_at(["a", "b"], qrel) == pytest.approx(1.0)
    assert ndcg_at([], qrel) == 0.0
    assert ndcg_at(["a"], {"a": 0}) == 0.0


def test_cutoffs_apply() -> None:
    qrel = {"hit": 1}
    ranking = [f"x{i}" for i in range(10)] + ["hit"]
    assert rr_at(ranking, qrel) == 0.0
    assert recall_at(ranking, qrel, 10) == 0.0
    assert recall_at(ranking, qrel, 100) == 1.0
    assert ndcg_at(ranking, qrel) == 0.0
    assert rr_at(["x", "hit"], qrel) == 0.5


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile([3.0], 95) == 3.0
    assert percentile([], 50) == 0.0
    assert percentile([5.0, 1.0, 3.0], 50) == 3.0


def test_mean_of_nothing_is_zero() -> None:
    assert mean([]) == 0.0
    assert mean([1.0, 0.0]) == 0.5
