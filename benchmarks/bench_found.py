"""What keeping the agent's found values costs at promotion: ``value_items`` beside the rest of promotion.

Reads every session of a dev set directory (a ``manifest.json`` and its transcripts: ``corpora/e2e-dev``,
or a directory ``corpora/e2e-dev/record_host.py`` wrote from the real Claude Code), then times, each
``--runs`` times, over all its sessions:

- ``read``: reading the transcripts into episodes (``passes/promote.read_episode``) - the baseline the
  other figures are divided by, measured in the same run;
- ``value_items`` (the values a tool revealed), ``items_of`` (everything a session promotes, values
  included) and ``plan`` (promotion into each project's ``MEMORY.md``, supersession included: the end
  to end promotion of a session after its transcript is read).

With ``--long`` every tool output is grown to the 16,000 characters promotion keeps of one result
(``history/episode.OUTPUT_CHARS``) with lines a real host prints (a lock file, a log, a package list,
YAML), the values the session's answers name left where they were: the case of long outputs.

    python benchmarks/bench_found.py [DIR] [--runs 7] [--long] [--json]

Prints the median of each figure and its ratio to ``read``.  No assertion: numbers for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mimomem.history.episode import OUTPUT_CHARS, Episode
from mimomem.passes.promote import plan, read_episode
from mimomem.passes.promote_found import value_items
from mimomem.passes.promote_items import items_of

ROOT = Path(__file__).resolve().parents[1]
FILLER = [
    'resolved "https://registry.npmjs.org/lodash/-/lodash-4.17.{n}.tgz#{n:040x}"',
    "2026-11-20T10:{m:02d}:{s:02d}Z INFO worker-{n} processed batch {n} in {s}ms (queue=default)",
    "  dependency_{n}: ^{m}.{s}.{n}",
    "python-package-{n}    {m}.{s}.{n}",
    "    integrity sha512-{n:064x}",
    "  - name: step-{n}\n    run: make target-{n} JOBS={m}",
]


def _long(output: str) -> str:
    """``output`` grown to ``OUTPUT_CHARS`` with filler lines after it."""
    lines, n = [output], 0
    size = len(output)
    while size < OUTPUT_CHARS:
        line = FILLER[n % len(FILLER)].format(n=n, m=n % 60, s=(7 * n) % 60)
        lines.append(line)
        size += len(line) + 1
        n += 1
    return "\n".join(lines)[:OUTPUT_CHARS]


def episodes(root: Path, *, long: bool) -> tuple[list[tuple[dict[str, Any], Episode]], float]:
    """(manifest row, episode) of each session of ``root``, and the seconds reading them took."""
    rows = json.loads((root / "manifest.json").read_text(encoding="utf-8"))["sessions"]
    out = []
    started = time.process_time()
    for row in rows:
        episode, *_ = read_episode(str(root / row["transcript"]), row["session_id"], 0, "")
        out.append((row, episode))
    took = time.process_time() - started
    if long:
        for _row, episode in out:
            for call in episode.calls:
                call.output = _long(call.output) if call.output else call.output
    return out, took


def _timed(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def _promote(sessions: list[tuple[dict[str, Any], Episode]]) -> None:
    live: dict[str, str | None] = {}
    for row, episode in sessions:
        planned, _history = plan(live.get(row["project"]), items_of(episode), {}, today="2026-12-01")
        live[row["project"]] = planned.text


def run(root: Path, runs: int, long: bool) -> dict[str, Any]:
    times: dict[str, list[float]] = {"read": [], "value_items": [], "items_of": [], "plan": []}
    size: dict[str, int] = {}
    for _ in range(runs):
        sessions, took = episodes(root, long=long)
        times["read"].append(took)
        times["value_items"].append(_timed(lambda s=sessions: [value_items(e) for _r, e in s]))  # type: ignore[misc]
        times["items_of"].append(_timed(lambda s=sessions: [items_of(e) for _r, e in s]))  # type: ignore[misc]
        times["plan"].append(_timed(lambda s=sessions: _promote(s)))  # type: ignore[misc]
        size = {
            "sessions": len(sessions),
            "calls": sum(len(e.calls) for _r, e in sessions),
            "output_chars": sum(len(c.output) for _r, e in sessions for c in e.calls),
        }
    medians = {k: statistics.median(v) for k, v in times.items()}
    return {
        "dir": str(root),
        "long": long,
        "runs": runs,
        **size,
        "median_ms": {k: round(v * 1000, 1) for k, v in medians.items()},
        "ratio_to_read": {k: round(v / medians["read"], 2) for k, v in medians.items() if k != "read"},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", nargs="?", default=str(ROOT / "corpora" / "e2e-dev"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--long", action="store_true", help="grow every tool output to 16,000 characters")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(Path(args.dir), args.runs, args.long)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(
        f"{result['dir']}{' (long outputs)' if args.long else ''}: {result['sessions']} sessions, "
        f"{result['calls']} calls, {result['output_chars']:,} output chars, median of {args.runs} runs"
    )
    for name, ms in result["median_ms"].items():
        ratio = result["ratio_to_read"].get(name)
        print(f"  {name:12} {ms:8.1f} ms" + (f"  ({ratio:.2f} x read)" if ratio is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
