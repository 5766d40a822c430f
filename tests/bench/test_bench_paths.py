"""``mimomem bench --scale`` user paths: each timed in a fresh process, reported with growth, noted by --compare."""

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
    return {"schema": 1, "datasets": [], "scale": scale, "machine": machine, "timing": "t", "failures": None}


def test_report_and_compare_cover_the_paths() -> None:
    saved = _result({"build": {"1000": 0.2, "10000": 2.0}, "open-recall": {"1000": 0.05}})
    current = _result({"build": {"1000": 0.21, "10000": 4.0}, "open-recall": {"1000": 0.05}})
    table = paths_table(current["scale"]["paths"])  # type: ignore[index]
    assert "| build " in table and "19.0x" in table and "| open-recall " in table
    assert "User paths" in format_result(current)
    comparison = compare_results(saved, current)
    assert comparison.ok  # noted, not gated
    assert comparison.slower == ["build at 10,000: 2.000 s -> 4.000 s CPU (2.0x)"]
    assert "slower (noted, not gated): build at 10,000" in format_comparison(comparison)
