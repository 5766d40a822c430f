"""The runner: JSON result keys, TREC run files, the failures table, backend selection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mimomem.bench.runner import resolve_backends, run_bench
from mimomem.errors import UnknownBackendError

BACKENDS = ["fts5-unicode61", "fts5-bigram", "native-index"]


def make_dataset(root: Path) -> Path:
    """Five notes, four judged queries in two categories; one query nobody can answer."""
    (root / "qrels").mkdir(parents=True)
    docs = {
        "n1": "部署脚本用 pnpm 而不是 npm，因为 lockfile 不兼容",
        "n2": "我们决定使用端口5433，数据库是 postgres",
        "n3": "部署之前先跑冒烟测试，脚本放在 ops 目录",
        "n4": "memory_fts_idx 在 reconcile 时重建",
        "n5": "用户偏好：回复用中文，代码注释用英文",
    }
    queries = [
        ("q1", "部署", "two-char"),
        ("q2", "端口", "two-char"),
        ("q3", "memory_fts_idx", "identifier"),
        ("q4", "量子计算", "identifier"),
    ]
    qrels = [("q1", "n1", 2), ("q1", "n3", 1), ("q2", "n2", 2), ("q3", "n4", 2), ("q4", "n5", 1)]
    (root / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": k, "title": "", "text": v}, ensure_ascii=False) + "\n" for k, v in docs.items()),
        encoding="utf-8",
    )
    (root / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": t, "category": c}, ensure_ascii=False) + "\n" for q, t, c in queries),
        encoding="utf-8",
    )
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{s}\n" for q, d, s in qrels), encoding="utf-8"
    )
    return root


BACKEND_KEYS = {
    "backend",
    "policy",
    "ndcg@10",
    "recall@10",
    "recall@100",
    "mrr@10",
    "zero_result_share",
    "latency_ms",
    "cpu_ms",
    "build_s",
    "index_bytes",
    "categories",
    "queries",
}


def test_result_has_stable_keys_and_sane_values(tmp_path: Path) -> None:
    result = run_bench([make_dataset(tmp_path / "tiny")], BACKENDS, failures=False)
    assert set(result) == {
        "schema",
        "machine",
        "timing",
        "backends",
        "skipped_backends",
        "datasets",
        "failures",
        "scale",
    }
    assert result["backends"] == BACKENDS and result["failures"] is None and result["scale"] is None
    assert {"python", "sqlite", "cpu_count", "native"} <= set(result["machine"])
    (ds,) = result["datasets"]
    assert set(ds) == {"name", "path", "documents", "queries", "categories", "judged_documents_missing", "backends"}
    assert (ds["documents"], ds["queries"], ds["categories"]) == (5, 4, ["two-char", "identifier"])
    by_name = {b["backend"]: b for b in ds["backends"]}
    for b in by_name.values():
        assert set(b) == BACKEND_KEYS
        assert set(b["latency_ms"]) == set(b["cpu_ms"]) == {"p50", "p95"} and set(b["index_bytes"]) == {
            "disk",
            "memory",
        }
        assert set(b["queries"]) == {"q1", "q2", "q3", "q4"}
        assert set(b["queries"]["q1"]) == {
            "text",
            "category",
            "ndcg@10",
            "recall@10",
            "recall@100",
            "mrr@10",
            "returned",
            "relevant_ranks",
            "tokens",
        }
        assert b["categories"]["two-char"]["queries"] == 2
    # unicode61 misses both two-character queries and the unanswerable one
    assert by_name["fts5-unicode61"]["zero_result_share"] == pytest.approx(0.75)
    assert by_name["fts5-unicode61"]["categories"]["two-char"]["ndcg@10"] == 0.0
    bigram = by_name["fts5-bigram"]
    assert bigram["zero_result_share"] == pytest.approx(0.25)  # only 量子计算
    assert bigram["queries"]["q1"]["relevant_ranks"] == {"n1": 1, "n3": 2} or bigram["queries"]["q1"][
        "relevant_ranks"
    ] == {"n3": 1, "n1": 2}
    assert bigram["recall@100"] == pytest.approx(0.75)
    assert by_name["native-index"]["ndcg@10"] == pytest.approx(bigram["ndcg@10"])
    json.dumps(result)  # JSON-ready


def test_the_report_says_which_query_policy_each_backend_ran(tmp_path: Path) -> None:
    """The product's default policy was tuned on the shipped corpora; the peers run without it."""
    from mimomem.bench.report import format_result

    names = [*BACKENDS, "naive-bigram", "tantivy"]
    result = run_bench([make_dataset(tmp_path / "tiny")], names, failures=False)
    policy = {b["backend"]: b["policy"] for b in result["datasets"][0]["backends"]}
    assert policy["fts5-bigram"] == policy["native-index"] and "default retrieval policy" in policy["fts5-bigram"]
    assert "tuned" in policy["native-index"] or "chosen on these shipped corpora" in policy["native-index"]
    for peer in ("fts5-unicode61", "naive-bigram", "tantivy"):
        assert "no policy" in policy[peer] or "no query-kind policy" in policy[peer], peer
    text = format_result(result)
    assert "Query handling: " in text and "fts5-bigram, native-index: mimomem's default retrieval policy" in text


def test_run_files_are_trec_format(tmp_path: Path) -> None:
    run_dir = tmp_path / "runs"
    result = run_bench([make_dataset(tmp_path / "tiny")], ["fts5-bigram"], run_dir=run_dir, failures=False)
    path = run_dir / "tiny.fts5-bigram.trec"
    lines = [line.split() for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines and all(len(parts) == 6 and parts[1] == "Q0" and parts[5] == "fts5-bigram" for parts in lines)
    by_query: dict[str, list[list[str]]] = {}
    for parts in lines:
        by_query.setdefault(parts[0], []).append(parts)
    assert set(by_query) == {"q1", "q2", "q3"}  # q4 retrieved nothing: no lines
    for rows in by_query.values():
        assert [int(r[3]) for r in rows] == list(range(1, len(rows) + 1))
        scores = [float(r[4]) for r in rows]
        assert scores == sorted(scores, reverse=True)
    ranks = result["datasets"][0]["backends"][0]["queries"]["q1"]["relevant_ranks"]
    assert {r[2]: int(r[3]) for r in by_query["q1"] if r[2] in ranks} == ranks


def test_run_file_scores_reproduce_metrics_with_pytrec_eval(tmp_path: Path) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    run_dir = tmp_path / "runs"
    result = run_bench([make_dataset(tmp_path / "tiny")], ["native-index"], run_dir=run_dir, failures=False)
    run: dict[str, dict[str, float]] = {}
    for line in (run_dir / "tiny.native-index.trec").read_text(encoding="utf-8").splitlines():
        qid, _, doc, _, score, _ = line.split()
        run.setdefault(qid, {})[doc] = float(score)
    qrels = {"q1": {"n1": 2, "n3": 1}, "q2": {"n2": 2}, "q3": {"n4": 2}, "q4": {"n5": 1}}
    scores = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    ours = result["datasets"][0]["backends"][0]["queries"]
    for qid, s in scores.items():
        assert ours[qid]["ndcg@10"] == pytest.approx(s["ndcg_cut_10"], abs=1e-9)


def test_failures_table_from_cases(tmp_path: Path) -> None:
    root = make_dataset(tmp_path / "fail")
    cases = {
        "cases": [
            {
                "row": 1,
                "query": "部署",
                "document": "部署脚本用 pnpm",
                "expected_hits": {"unicode61": 0, "trigram": 0, "bigram": 1},
            },
            {
                "row": 2,
                "query": "pnpm",
                "document": "部署脚本用 pnpm",
                "expected_hits": {"unicode61": 1, "trigram": 1, "bigram": 1},
            },
            {
                "row": 3,
                "query": "脚本",
                "document": "部署脚本用 pnpm",
                "expected_hits": {"unicode61": 1, "trigram": 0, "bigram": 1},
            },
        ]
    }
    (root / "cases.json").write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    result = run_bench([root], ["fts5-unicode61", "fts5-bigram", "native-index"], failures_only=True)
    assert result["datasets"] == []
    rows = result["failures"]["rows"]
    assert [r["hits"] for r in rows] == [
        {"fts5-unicode61": 0, "fts5-bigram": 1, "native-index": 1},
        {"fts5-unicode61": 1, "fts5-bigram": 1, "native-index": 1},
        {"fts5-unicode61": 0, "fts5-bigram": 1, "native-index": 1},
    ]
    # row 3 claims unicode61 finds 脚本 inside 部署脚本用: it does not, and the table says so
    assert rows[2]["as_expected"] == {"fts5-unicode61": False, "fts5-bigram": True, "native-index": True}
    assert result["failures"]["all_as_expected"] is False


def test_failures_only_needs_a_cases_file(tmp_path: Path) -> None:
    from mimomem.errors import DatasetError

    with pytest.raises(DatasetError, match=r"cases\.json"):
        run_bench([make_dataset(tmp_path / "tiny")], ["fts5-bigram"], failures_only=True)


def test_resolve_backends() -> None:
    with pytest.raises(UnknownBackendError, match="valid backends: fts5-unicode61"):
        resolve_backends(["lucene"])
    names, skipped = resolve_backends(["native-index", "fts5-unicode61", "native-index"])
    assert names == ["fts5-unicode61", "native-index"] and skipped == {}
    names, skipped = resolve_backends(None)
    assert "fts5-bigram" in names and set(names) | set(skipped) >= {"fts5-trigram", "naive-bigram"}
