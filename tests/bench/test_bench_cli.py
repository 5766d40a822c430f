"""``mimomem bench`` end to end on the shipped failures corpus, and its argument errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mimomem.cli import main

FAILURES = Path(__file__).resolve().parents[2] / "corpora" / "failures"


@pytest.mark.skipif(not (FAILURES / "corpus.jsonl").is_file(), reason="corpora/failures not built")
def test_smoke_failures_dataset_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--dataset", str(FAILURES), "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert "[failures]" in captured.err  # progress goes to stderr
    (ds,) = result["datasets"]
    by_name = {b["backend"]: b for b in ds["backends"]}
    assert by_name["fts5-bigram"]["zero_result_share"] == 0.0
    assert by_name["fts5-unicode61"]["zero_result_share"] > 0.5
    assert result["failures"]["all_as_expected"] is True
    for row in result["failures"]["rows"]:
        assert row["hits"]["fts5-bigram"] == row["hits"]["native-index"] == 1


def test_unknown_backend_is_an_error_listing_valid_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["bench", "--dataset", str(tmp_path), "--backend", "lucene"]) == 2
    err = capsys.readouterr().err
    assert "unknown backend 'lucene'" in err and "fts5-bigram" in err and "tantivy" in err


def test_bad_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["bench", "--dataset", str(tmp_path / "none")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["bench", "--dataset", str(tmp_path), "--scale", "0"]) == 2
    assert "--scale size 0 is out of range" in capsys.readouterr().err
    assert main(["bench", "--dataset", str(tmp_path), "--tolerance", "-1"]) == 2


def test_time_tolerance_options_are_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["bench", "--dataset", str(tmp_path), "--time-tolerance", "0.9"]) == 2
    assert "--time-tolerance must be >= 1" in capsys.readouterr().err
    assert main(["bench", "--dataset", str(tmp_path), "--time-floor", "-0.1"]) == 2
    assert "--time-floor must be >= 0" in capsys.readouterr().err


def test_compare_exits_1_when_a_user_path_got_slower(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mimomem import bench

    def result(seconds: float) -> dict[str, object]:
        paths = {"runs": 3, "query": "q", "paths": {"history-import": {"10000": seconds}}}
        machine = {"python": "3", "sqlite": "3", "cpu_count": 2, "memory_bytes": 1, "platform": "x", "native": True}
        scale = {"seed": 1, "queries": 200, "points": [], "paths": paths}
        return {"schema": 1, "datasets": [], "backends": [], "scale": scale, "machine": machine, "timing": "t"}

    saved = tmp_path / "base.json"
    bench.save_result(result(1.0), saved)
    for seconds, status in ((1.3, 0), (2.0, 1)):
        monkeypatch.setattr(bench, "run_bench", lambda *a, s=seconds, **k: result(s))
        assert main(["bench", "--dataset", str(tmp_path), "--compare", str(saved)]) == status
        out = capsys.readouterr().out
        if status:
            assert "history-import at 10,000: 1.000 s -> 2.000 s CPU (2.00x, +1.000 s)" in out
        assert main(["bench", "--dataset", str(tmp_path), "--compare", str(saved), "--time-tolerance", "3"]) == 0
        capsys.readouterr()


@pytest.mark.skipif(not (FAILURES / "corpus.jsonl").is_file(), reason="corpora/failures not built")
def test_report_without_matplotlib_keeps_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`bench --report DIR` without matplotlib ran everything, then exited 2 with an empty DIR -> tables kept."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    report = tmp_path / "report"
    assert main(["bench", "--dataset", str(FAILURES), "--backend", "fts5-bigram", "--report", str(report)]) == 0
    captured = capsys.readouterr()
    before_run = captured.err.index("[failures]")
    assert captured.err.index("tables only, no charts: matplotlib is not installed") < before_run  # said first
    assert "| fts5-bigram |" in captured.out
    assert [p.name for p in report.iterdir()] == ["report.md"]
    assert "pip install 'mimomem[bench]'" in (report / "report.md").read_text(encoding="utf-8")


@pytest.mark.skipif(not (FAILURES / "corpus.jsonl").is_file(), reason="corpora/failures not built")
def test_the_tables_footer_names_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--dataset", str(FAILURES), "--backend", "fts5-bigram"]) == 0
    out = capsys.readouterr().out
    assert (
        out.rstrip()
        .splitlines()[-1]
        .startswith("These tables as a Markdown report with charts: mimomem bench --report")
    )
