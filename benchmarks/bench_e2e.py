"""End-to-end memory benchmark: what one session learns, measured in what the next one receives.

Replays the dev set's recorded Claude Code sessions (``corpora/e2e-dev``) through
``mimomem hook claude-code`` exactly as the host calls it, in a temporary sandbox, then asks
every question from a fresh session and scores what that session received (SessionStart +
the question's UserPromptSubmit, after the host's 10,000-character rule) against the
baselines: no memory, MiMo-style rebuild context, and every note injected whole.

    python benchmarks/bench_e2e.py                      # print the tables
    python benchmarks/bench_e2e.py --report docs/bench  # also e2e.json, e2e.md, e2e.png
    python benchmarks/bench_e2e.py --fresh-process      # every hook call a new process (slow)

The same run is ``mimomem bench --e2e [DIR]``.  Nothing is asserted: the numbers are for
benchmarks/README.md and the README.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mimomem.bench.e2e import SYSTEMS, format_text, run_e2e, write_e2e_report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--devset", type=Path, help="dev set directory (default corpora/e2e-dev)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help=f"comma-separated subset of {', '.join(SYSTEMS)}")
    parser.add_argument("--report", type=Path, help="write e2e.json, e2e.md and e2e.png into this directory")
    parser.add_argument("--before", type=Path, help="an earlier e2e.json: its mimomem points go on the chart too")
    parser.add_argument("--checks", type=int, default=4, help="questions re-asked through a fresh process (default 4)")
    parser.add_argument("--fresh-process", action="store_true", help="run every hook call as a new process")
    args = parser.parse_args(argv)
    systems = [s for s in args.systems.split(",") if s]
    unknown = sorted(set(systems) - set(SYSTEMS))
    if unknown:
        parser.error(f"unknown system(s) {', '.join(unknown)}; choose from {', '.join(SYSTEMS)}")
    result = run_e2e(
        args.devset,
        systems=systems,
        checks=args.checks,
        fresh_process=args.fresh_process,
        progress=lambda m: print(m, file=sys.stderr, flush=True),
    )
    if args.report:
        before = json.loads(args.before.read_text(encoding="utf-8")) if args.before else None
        for path in write_e2e_report(result, args.report, before=before):
            print(f"wrote {path}", file=sys.stderr)
    print(format_text(result), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
