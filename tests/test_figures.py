"""Every measured figure of README.md and benchmarks/README.md is what its recorded results render to.

The figures live in marked regions (``<!-- figure:NAME -->...<!-- /figure -->``) rendered by
``benchmarks/figures.py`` from ``benchmarks/results/*.json``. This only compares text with the
recorded JSON; no benchmark runs here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

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
    assert set(FIGURES) <= figures.used_names()
    for results in {r for r, _ in FIGURES.values()}:
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


def _plant(text: str) -> tuple[str, str]:
    """``text`` with the first digit inside its first figure changed, and that figure's name."""
    match = next(figures.regions(text))
    body = match["body"]
    digit = re.search(r"\d", body)
    assert digit is not None
    planted = body[: digit.start()] + str((int(digit[0]) + 1) % 10) + body[digit.end() :]
    return text[: match.start("body")] + planted + text[match.end("body") :], match["name"]


@pytest.mark.parametrize("document", figures.DOCUMENTS, ids=lambda p: p.name)
def test_a_planted_stale_figure_is_caught_and_render_restores_it(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    stale, name = _plant(text)
    assert name not in {p.name for p in figures.check_text(document, text)}
    problems = [p for p in figures.check_text(document, stale) if p.name == name]
    assert len(problems) == 1 and "differs from the recorded results" in problems[0].problem
    assert figures.render_text(stale) == figures.render_text(text)


def test_a_region_without_renderer_or_results_is_reported(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    text = "a <!-- figure:no-such-figure -->1 ms<!-- /figure --> b\n"
    assert figures.check_text(doc, text)[0].problem.startswith("no renderer")
    name = next(iter(FIGURES))

    def missing(results: str) -> dict[str, object]:
        raise FileNotFoundError(results)

    problems = figures.check_text(doc, f"<!-- figure:{name} -->x<!-- /figure -->", missing)
    assert "no recorded results" in problems[0].problem
