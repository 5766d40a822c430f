"""The regression gate: save, compare, exit codes, lost queries and changed tokens."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mimomem.bench.compare import compare_results, format_comparison, load_result, save_result
from mimomem.cli import main
from mimomem.errors import ResultFileError


def _result(ndcg: float = 0.5, ranks: dict[str, int] | None = None, tokens: list[str] | None = None) -> dict:
    query = {
        "text": "部署脚本",
        "category": "long",
        "ndcg@10": ndcg,
        "recall@10": 1.0,
        "recall@100": 1.0,
        "mrr@10": 1.0,
        "returned": 3,
        "relevant_ranks": ranks if ranks is not None else {"d1": 1, "d2": 12},
        "tokens": tokens or ["部署 署脚 脚本", "部署", "脚本"],
    }
    backend = {
        "backend": "fts5-bigram",
        "ndcg@10": ndcg,
        "recall@10": 1.0,
        "recall@100": 1.0,
        "mrr@10": 1.0,
        "zero_result_share": 0.0,
        "latency_ms": {"p50": 0.1, "p95": 0.2},
        "build_s": 0.1,
        "index_bytes": {"disk": 1, "memory": None},
        "categories": {
            "long": {
                "queries": 1,
                "ndcg@10": ndcg,
                "recall@10": 1.0,
                "recall@100": 1.0,
                "mrr@10": 1.0,
                "zero_result_share": 0.0,
            }
        },
        "queries": {"q1": query},
    }
    return {"schema": 1, "datasets": [{"name": "mem", "backends": [backend]}]}


def test_identical_results_pass() -> None:
    c = compare_results(_result(), _result())
    assert c.ok and not c.lost and not c.not_compared
    assert format_comparison(c).startswith("OK")


def test_a_drop_beyond_tolerance_fails_and_within_passes() -> None:
    c = compare_results(_result(0.6), _result(0.5))
    assert not c.ok
    assert {r.metric for r in c.regressions} == {"ndcg@10", "ndcg@10 [long]"}
    assert compare_results(_result(0.6), _result(0.5), tolerance=0.15).ok
    assert compare_results(_result(0.5), _result(0.6)).ok  # improvements never fail
    with pytest.raises(ValueError):
        compare_results(_result(), _result(), tolerance=-1)


def test_zero_result_share_rising_is_a_regression() -> None:
    worse = _result()
    worse["datasets"][0]["backends"][0]["zero_result_share"] = 0.1
    c = compare_results(_result(), worse)
    assert [r.metric for r in c.regressions] == ["zero_result_share"]


def test_lost_documents_and_changed_tokens_are_listed() -> None:
    saved = _result(ranks={"d1": 1, "d2": 12})
    current = _result(ranks={"d1": 15}, tokens=["部署脚本", "部署", "脚本"])
    (lost,) = compare_results(saved, current).lost
    assert (lost.qid, lost.text) == ("q1", "部署脚本")
    assert lost.left_top10 == ("d1",) and lost.left_top100 == ("d2",)
    assert lost.tokens_removed == ("部署 署脚 脚本",) and lost.tokens_added == ("部署脚本",)
    text = format_comparison(compare_results(saved, current))
    assert "left the top 10: d1" in text and "tokens removed: 部署 署脚 脚本; added: 部署脚本" in text


def test_unmatched_backends_are_reported_not_failed() -> None:
    other = copy.deepcopy(_result())
    other["datasets"][0]["backends"][0]["backend"] = "native-scan"
    c = compare_results(_result(), other)
    assert c.ok and len(c.not_compared) == 2


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "saved.json"
    save_result(_result(), path)
    assert load_result(path) == _result()
    with pytest.raises(ResultFileError, match="create it first with --save"):
        load_result(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(ResultFileError, match="not a JSON benchmark result"):
        load_result(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(ResultFileError, match="not a mimomem bench result"):
        load_result(tmp_path / "other.json")


def _dataset(root: Path) -> Path:
    (root / "qrels").mkdir(parents=True)
    docs = {"n1": "部署脚本用 pnpm", "n2": "端口5433 数据库", "n3": "部署之前先跑测试"}
    (root / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": k, "text": v}, ensure_ascii=False) + "\n" for k, v in docs.items()), encoding="utf-8"
    )
    (root / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "部署"}\n{"_id": "q2", "text": "端口"}\n', encoding="utf-8"
    )
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\tn1\t2\nq1\tn3\t1\nq2\tn2\t1\n", encoding="utf-8"
    )
    return root


def test_cli_gate_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ds, saved = str(_dataset(tmp_path / "tiny")), tmp_path / "saved.json"
    base = ["bench", "--dataset", ds, "--backend", "fts5-bigram"]
    assert main([*base, "--save", str(saved)]) == 0
    assert main([*base, "--compare", str(saved)]) == 0
    assert "OK: no metric dropped" in capsys.readouterr().out

    # pretend the saved run was better and had found a document we no longer find
    data = json.loads(saved.read_text(encoding="utf-8"))
    backend = data["datasets"][0]["backends"][0]
    backend["recall@10"] += 0.5
    backend["queries"]["q2"]["relevant_ranks"]["n9"] = 3
    backend["queries"]["q2"]["tokens"] = ["端口", "old-token"]
    saved.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main([*base, "--compare", str(saved)]) == 1
    out = capsys.readouterr().out
    assert "REGRESSION" in out and "recall@10" in out
    assert "tiny / fts5-bigram / q2 '端口'" in out and "n9" in out and "tokens removed: old-token" in out
    assert main([*base, "--compare", str(saved), "--tolerance", "0.6"]) == 0
    capsys.readouterr()

    # with --json the gate's report goes to stderr so stdout stays JSON
    assert main([*base, "--compare", str(saved), "--json"]) == 1
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert "REGRESSION" in captured.err

    assert main([*base, "--compare", str(tmp_path / "nope.json")]) == 2
    assert "--save" in capsys.readouterr().err


def test_a_drop_too_small_to_print_passes_by_default() -> None:
    """The default tolerance failed the README's own example on a drop printed as -0.0000 -> half the last digit."""
    tiny = compare_results(_result(0.56781), _result(0.56778))
    assert tiny.ok and "dropped by more than 0.00005" in format_comparison(tiny)
    assert not compare_results(_result(0.56781), _result(0.56778), tolerance=0).ok  # 0: any drop fails
    shown = compare_results(_result(0.5678), _result(0.5677))  # a drop that prints (-0.0001) still fails
    assert not shown.ok and "(-0.0001)" in format_comparison(shown)


def test_a_query_whose_ranks_alone_moved_reads_cleanly() -> None:
    """A candidate report row read "moved: ;" with an empty metric list -> only the ranks."""
    from mimomem.bench.significance import query_changes
    from mimomem.bench.wins import describe, detail

    before = _result(ranks={"d1": 1, "d2": 12})["datasets"][0]["backends"][0]["queries"]
    after = _result(ranks={"d1": 1, "d2": 15})["datasets"][0]["backends"][0]["queries"]
    (change,) = query_changes(before, after)
    assert change.verdict == "moved" and detail(change) == "d2 rank 12 -> 15"
    assert describe(change) == "q1 '部署脚本' [long]: d2 rank 12 -> 15"
