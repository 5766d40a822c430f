"""Render every measured figure of README.md, docs/*.md and benchmarks/README.md from recorded results.

A figure is a marked region of a document::

    <!-- figure:hook-cpu -->...generated text...<!-- /figure -->

whose text is produced by the renderer of that name in ``figure_defs.py`` from a results file
``benchmarks/results/<results>.json`` (written by a benchmark run with ``--record``, see
``record.py``). Nothing between the markers is typed by hand.

    python benchmarks/figures.py render     # rewrite the regions from the recorded results
    python benchmarks/figures.py check      # exit 1 and name each region that disagrees
    python benchmarks/figures.py list       # every figure, its results file and its command

``tests/test_figures.py`` runs the check in the normal test suite: it only compares text with
the recorded JSON (no benchmark runs), so it is fast enough for CI.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import figure_misc  # noqa: F401  (registers its renderers)
import figure_perf  # noqa: F401  (registers its renderers)
import figure_quality  # noqa: F401  (registers its renderers)
import figure_round4  # noqa: F401  (registers its renderers)
import figure_round5  # noqa: F401  (registers its renderers)
import figure_scale  # noqa: F401  (registers its renderers)
import figure_trust  # noqa: F401  (registers its renderers)
import record  # a sibling script module, as the benchmarks import corpus
from figure_defs import FIGURES

ROOT = record.ROOT
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md")
REGION = re.compile(r"<!-- figure:(?P<name>[a-z0-9][a-z0-9-]*) -->(?P<body>.*?)<!-- /figure -->", re.S)
PENDING = re.compile(r"<!-- figure-pending:(?P<name>[a-z0-9][a-z0-9-]*) -->(?P<body>[^<]*)")
"""A figure whose benchmark was not recorded yet: its place, with no number in it (``(not measured ...)``)."""
PENDING_TEXT = "(not measured in this session; `python benchmarks/figures.py list` names the command)"

Loader = Callable[[str], dict[str, Any]]


@dataclass(frozen=True)
class Stale:
    """A region whose text is not what its recorded results render to."""

    document: Path
    line: int
    name: str
    problem: str

    def describe(self) -> str:
        where = self.document.relative_to(ROOT) if self.document.is_relative_to(ROOT) else self.document
        return f"{where}:{self.line}: figure {self.name}: {self.problem}"


def rendered(name: str, load: Loader = record.load) -> str:
    """The text of figure ``name`` from its recorded results (KeyError for an unknown name)."""
    results, render = FIGURES[name]
    if isinstance(results, tuple):
        return render({r: load(r) for r in results})
    return render(load(results))


def results_files(name: str) -> tuple[str, ...]:
    """The results file(s) figure ``name`` is rendered from."""
    results = FIGURES[name][0]
    return results if isinstance(results, tuple) else (results,)


def regions(text: str) -> Iterator[re.Match[str]]:
    return REGION.finditer(text)


def render_text(text: str, load: Loader = record.load) -> str:
    """``text`` with every known region's body replaced by its rendering."""

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        try:
            return f"<!-- figure:{name} -->{rendered(name, load)}<!-- /figure -->"
        except (KeyError, FileNotFoundError):  # no renderer or no results yet: check() names it
            return match[0]

    return REGION.sub(replace, text)


def check_text(document: Path, text: str, load: Loader = record.load) -> list[Stale]:
    """Every region of ``text`` that has no renderer, no results, or text other than its rendering."""
    problems = []
    for match in regions(text):
        name, line = match["name"], text.count("\n", 0, match.start()) + 1
        if name not in FIGURES:
            problems.append(Stale(document, line, name, "no renderer in benchmarks/figure_defs.py"))
            continue
        try:
            expected = rendered(name, load)
        except FileNotFoundError:
            names = results_files(name)
            files = names[0] if len(names) == 1 else "{" + ",".join(names) + "}"
            problem = f"no recorded results benchmarks/results/{files}.json"
            problems.append(Stale(document, line, name, problem))
            continue
        if match["body"] != expected:
            first = next(
                (a for a, b in zip(match["body"].splitlines(), expected.splitlines(), strict=False) if a != b), ""
            )
            problem = f"text differs from the recorded results (first differing line: {first.strip()[:80]!r}); "
            problems.append(Stale(document, line, name, problem + "run python benchmarks/figures.py render"))
    return problems


def check(documents: Sequence[Path] = DOCUMENTS, load: Loader = record.load) -> list[Stale]:
    out: list[Stale] = []
    for document in documents:
        out += check_text(document, document.read_text(encoding="utf-8"), load)
    return out


def used_names(documents: Sequence[Path] = DOCUMENTS) -> set[str]:
    return {m["name"] for d in documents for m in regions(d.read_text(encoding="utf-8"))}


def pending_names(documents: Sequence[Path] = DOCUMENTS) -> set[str]:
    """Figures placed but not recorded yet (``<!-- figure-pending:NAME -->``)."""
    return {m["name"] for d in documents for m in PENDING.finditer(d.read_text(encoding="utf-8"))}


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["render", "check", "list"])
    args = parser.parse_args(argv)
    if args.action == "list":
        for name in sorted(FIGURES):
            for results in results_files(name):
                try:
                    command = record.load(results).get("command", "(its own identity block)")
                except FileNotFoundError:
                    command = "(not recorded yet)"
                print(f"{name:<28} results/{results}.json  {command}")
        return 0
    if args.action == "render":
        for document in DOCUMENTS:
            text = document.read_text(encoding="utf-8")
            new = render_text(text)
            if new != text:
                document.write_text(new, encoding="utf-8")
                print(f"updated {document.relative_to(ROOT)}")
    problems = check()
    for problem in problems:
        print(problem.describe(), file=sys.stderr)
    pending = pending_names()
    if pending:
        print(f"figures placed but not recorded yet: {', '.join(sorted(pending))}", file=sys.stderr)
    unused = sorted(set(FIGURES) - used_names() - pending)
    if unused:
        print(f"figures defined but used nowhere: {', '.join(unused)}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
