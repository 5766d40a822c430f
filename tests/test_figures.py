"""Every measured figure of README.md, docs/*.md and benchmarks/README.md is what its recorded results render to.

The figures live in marked regions (``<!-- figure:NAME -->...<!-- /figure -->``) rendered by
``benchmarks/figures.py`` from ``benchmarks/results/*.json``. This only compares text with the
recorded JSON; no benchmark runs here.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import figures  # noqa: E402  (benchmarks/ is a folder of scripts, not a package)
import record  # noqa: E402
from figure_defs import FIGURES  # noqa: E402

NO_PROVENANCE = {"secrets-after": "secrets-table"}
"""Results files written without record.save (no commit, machine or date) -> the figure that says so."""


def test_every_figure_in_the_readmes_is_what_its_recorded_results_say() -> None:
    problems = figures.check()
    assert not problems, "\n".join(p.describe() for p in problems)


def test_every_figure_is_used_and_its_results_say_where_they_came_from() -> None:
    pending = figures.pending_names()
    assert set(FIGURES) <= figures.used_names() | pending
    assert pending <= set(FIGURES), pending - set(FIGURES)
    for document in figures.DOCUMENTS:  # a pending place holds no number, only what says it is pending
        for match in figures.PENDING.finditer(document.read_text(encoding="utf-8")):
            assert match["body"].startswith(figures.PENDING_TEXT), match[0]
    for results in {r for name in FIGURES for r in figures.results_files(name)}:
        data = record.load(results)
        if "identity" in data:  # written by mimomem bench --e2e --report: its own identity block
            assert {"commit", "date", "machine"} <= set(data["identity"]), results
            continue
        if results in NO_PROVENANCE:  # bench_secrets.py --json: counts only; the figure says so
            assert "record no commit, machine or date" in figures.rendered(NO_PROVENANCE[results])
            continue
        assert data["command"].startswith("python benchmarks/"), results
        assert re.fullmatch(r"[0-9a-f]{12}(-dirty)?", data["commit"]), results
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", data["date"]), results
        assert {"cpu", "cores", "python", "sqlite", "native"} <= set(data["machine"]), results


def _plant(text: str, match: re.Match[str]) -> str:
    """``text`` with the first digit inside the figure ``match`` changed."""
    body = match["body"]
    digit = re.search(r"\d", body)
    assert digit is not None, f"figure {match['name']} holds no digit"
    planted = body[: digit.start()] + str((int(digit[0]) + 1) % 10) + body[digit.end() :]
    return text[: match.start("body")] + planted + text[match.end("body") :]


@functools.cache
def _cached(results: str) -> dict[str, Any]:
    return record.load(results)


def _every_region() -> list[Any]:
    return [
        pytest.param(d, i, id=f"{d.relative_to(record.ROOT)}:{m['name']}")
        for d in figures.DOCUMENTS
        for i, m in enumerate(figures.regions(d.read_text(encoding="utf-8")))
    ]


@pytest.mark.parametrize(("document", "index"), _every_region())
def test_a_planted_stale_figure_is_caught_and_render_restores_it(document: Path, index: int) -> None:
    """Every figure region, one at a time: a changed digit is named by the check, render puts it back."""
    text = document.read_text(encoding="utf-8")
    match = list(figures.regions(text))[index]
    stale = _plant(text, match)
    problems = [p for p in figures.check_text(document, stale, _cached) if p.name == match["name"]]
    assert len(problems) == 1 and "differs from the recorded results" in problems[0].problem
    assert problems[0].line == text.count("\n", 0, match.start()) + 1
    assert figures.render_text(stale, _cached) == figures.render_text(text, _cached) == text


def test_a_region_without_renderer_or_results_is_reported(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    text = "a <!-- figure:no-such-figure -->1 ms<!-- /figure --> b\n"
    assert figures.check_text(doc, text)[0].problem.startswith("no renderer")
    name = next(iter(FIGURES))

    def missing(results: str) -> dict[str, object]:
        raise FileNotFoundError(results)

    problems = figures.check_text(doc, f"<!-- figure:{name} -->x<!-- /figure -->", missing)
    assert "no recorded results" in problems[0].problem


TIMING = re.compile(r"(?<![\d.,])\d[\d,]*(?:\.\d+)?\s?(?:ms|µs|MB/s|s of CPU|s CPU|s wall)\b|\d\.\d+x\b")
NOT_MEASURED = {
    ("search.md", "500 ms"): "a setting: how long a search waits for another process's reconcile",
    ("README.md", "1.5x"): "an option's default (--time-tolerance)",
    ("README.md", "10 ms"): "a goal (history search median at 1M)",
}
"""Timings outside figure regions that are settings or goals, not measurements."""


def outside_figures(text: str) -> str:
    return figures.REGION.sub(lambda m: "\n" * m[0].count("\n"), text)


@pytest.mark.parametrize("document", figures.DOCUMENTS, ids=lambda p: p.name)
def test_no_timing_is_typed_outside_a_figure(document: Path) -> None:
    """A speed typed into the prose is a figure nobody re-measures: it belongs in a region."""
    typed = [m[0] for m in TIMING.finditer(outside_figures(document.read_text(encoding="utf-8")))]
    assert [t for t in typed if (document.name, t) not in NOT_MEASURED] == []


def test_the_typed_timing_guard_catches_one() -> None:
    text = "a <!-- figure:x -->1.2 ms<!-- /figure --> b took 3.4 ms, 2.5x faster"
    assert TIMING.findall(outside_figures(text)) == ["3.4 ms", "2.5x"]
