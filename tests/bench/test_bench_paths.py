"""``mimomem bench --scale`` user paths: each timed in a fresh process, reported with growth, gated by --compare."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.bench import paths
from mimomem.bench.compare import compare_results, format_comparison
from mimomem.bench.report import format_result, paths_table
from mimomem.bench.scale import generate_corpus, generate_queries


def test_every_path_runs_in_a_child_process(tmp_path: Path) -> None:
    out = paths.run_paths(
        generate_corpus(30), [12, 30], generate_queries(1)[0], workroot=tmp_path, runs=1, curated_max=12
    )
    assert set(out["paths"]) == set(paths.CHILDREN)
    assert set(out["paths"]["build"]) == {"12", "30"}
    assert set(out["paths"]["remember"]) == {"12"}  # above curated_max: skipped
    assert all(seconds >= 0 for costs in out["paths"].values() for seconds in costs.values())
    assert list(tmp_path.iterdir()) == []  # scratch directories removed


def test_growth_is_per_tenfold_increase() -> None:
    assert paths.growth({"1000": 1.0, "10000": 10.0, "100000": 20.0}) == pytest.approx([10.0, 2.0])
    assert paths.growth({"1000": 1.0, "4000": 4.0}) == pytest.approx([10.0])  # linear, whatever the step
    assert paths.growth({"1000": 0.5}) == []


def test_curated_items_are_distinct_memories() -> None:
    items = paths.curated_items(generate_corpus(50))
    assert len({i["summary"] for i in items}) == 50
    assert {i["category"] for i in items} <= set(paths.CATEGORIES)


def _result(costs: dict[str, dict[str, float]]) -> dict[str, object]:
    scale = {"seed": 1, "queries": 200, "points": [], "paths": {"runs": 3, "query": "q", "paths": costs}}
    machine = {"python": "3", "sqlite": "3", "cpu_count": 2, "memory_bytes": 1, "platform": "x", "native": True}
    return {
        "schema": 1,
        "datasets": [],
        "backends": [],
        "scale": scale,
        "machine": machine,
        "timing": "t",
        "failures": None,
    }


def test_report_and_compare_cover_the_paths() -> None:
    saved = _result({"build": {"1000": 0.2, "10000": 2.0}, "open-recall": {"1000": 0.05}})
    current = _result({"build": {"1000": 0.21, "10000": 4.0}, "open-recall": {"1000": 0.05}})
    table = paths_table(current["scale"]["paths"])  # type: ignore[index]
    assert "| build " in table and "19.0x" in table and "| open-recall " in table
    assert "User paths" in format_result(current)
    comparison = compare_results(saved, current)
    assert not comparison.ok  # gated
    assert [s.describe() for s in comparison.slower] == ["build at 10,000: 2.000 s -> 4.000 s CPU (2.00x, +2.000 s)"]
    assert "REGRESSION: 1 user path(s) got slower than allowed (1.5x and +0.05 s CPU)" in format_comparison(comparison)


def _paths(**costs: float) -> dict[str, object]:
    return _result({name.replace("_", "-"): {"10000": seconds} for name, seconds in costs.items()})


def test_a_slower_history_path_fails_the_comparison_with_the_numbers() -> None:
    saved = _paths(history_import=1.0, history_search=0.04, build=2.0)
    current = _paths(history_import=1.8, history_search=0.05, build=2.1)
    comparison = compare_results(saved, current)
    assert not comparison.ok
    assert [(s.path, s.size, s.saved, s.current) for s in comparison.slower] == [("history-import", 10000, 1.0, 1.8)]
    assert comparison.slower[0].ratio == pytest.approx(1.8)
    text = format_comparison(comparison)
    assert "history-import at 10,000: 1.000 s -> 1.800 s CPU (1.80x, +0.800 s)" in text
    assert "OK: no metric dropped" in text  # quality is still fine: only the path failed


def test_noise_within_the_time_tolerance_passes() -> None:
    saved = _paths(history_import=1.0, history_search=0.004, build=2.0)
    # 1.4x is within 1.5x; 0.004 -> 0.012 s is 3x but only 8 ms more (below the 0.05 s floor)
    current = _paths(history_import=1.4, history_search=0.012, build=1.0)
    comparison = compare_results(saved, current)
    assert comparison.ok and comparison.slower == []
    assert "OK: no user path got slower than allowed (1.5x and +0.05 s CPU)" in format_comparison(comparison)


def test_the_time_tolerance_is_configurable() -> None:
    saved = _paths(history_import=1.0, history_search=0.004)
    current = _paths(history_import=1.4, history_search=0.012)
    strict = compare_results(saved, current, time_factor=1.2, time_floor=0.001)
    assert {s.path for s in strict.slower} == {"history-import", "history-search"}
    assert compare_results(saved, current, time_factor=2.0).ok
    with pytest.raises(ValueError, match="factor >= 1"):
        compare_results(saved, current, time_factor=0.5)


def test_paths_in_one_result_only_are_not_compared() -> None:
    comparison = compare_results(_paths(build=1.0, remember=3.0), _paths(build=1.0, history_search=0.1))
    assert comparison.ok
    assert comparison.not_compared == [
        "user path history-search at 10,000: in the current result only",
        "user path remember at 10,000: in the saved result only",
    ]


def test_history_lines_import_as_messages_with_paired_results(tmp_path: Path) -> None:
    from mimomem.history.claude_code import import_claude_code
    from mimomem.history.history_store import HistoryStore

    sessions = paths.history_lines(generate_corpus(20), 250)
    assert [len(s) for s in sessions] == [99, 99, 52]
    paths._write_transcripts(tmp_path / "projects" / "-app", sessions)
    with HistoryStore(tmp_path / "h.db") as store:
        report = import_claude_code(store, tmp_path / "projects")
    assert (report.sources, report.sessions) == (3, 3)
    assert report.results == 83 and dict(report.skipped) == {}  # every result pairs with its call
    assert report.parts == 84 + 83


def test_paths_chart_is_drawn_for_a_scale_run(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from mimomem.bench.report import planned_charts, write_report

    result = _result({"build": {"1000": 0.2, "10000": 2.0}, "history-search": {"1000": 0.01, "10000": 0.012}})
    assert planned_charts(result) == ["scaling.png", "paths.png"]
    written = write_report(result, tmp_path / "rep")
    assert (tmp_path / "rep" / "paths.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "![user paths: cost against size](paths.png)" in written[0].read_text(encoding="utf-8")
