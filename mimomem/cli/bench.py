"""``mimomem bench``: every retrieval backend on BEIR-layout datasets, and the regression gate (parser and command)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mimomem.cli import checks
from mimomem.cli.exits import NO, OK
from mimomem.errors import UsageError

if TYPE_CHECKING:
    from mimomem.cli.parser import Subparsers


REPORT_HINT = (
    "These tables as a Markdown report with charts: mimomem bench --report DIR; "
    "keep the run for the regression gate: --save FILE, then --compare FILE."
)
"""The footer of the terminal tables: how to keep what was just measured."""


def add_parsers(sub: Subparsers) -> None:
    """``bench``: every backend on BEIR-layout datasets, the scale and end-to-end runs, the regression gate."""
    from mimomem.bench.engines import BENCH_BACKENDS
    from mimomem.bench.scale import MAX_DOCS

    p = sub.add_parser(
        "bench",
        help="benchmark every retrieval backend on BEIR-layout datasets (quality, latency, size)",
        description="Run each backend on each dataset and print one table per dataset; progress on stderr. "
        "Exit status 1 when --compare finds a regression: a quality metric dropped, or (--scale) a user path's "
        "CPU time grew beyond --time-tolerance.",
    )
    p.add_argument(
        "--dataset",
        action="append",
        metavar="DIR",
        help="BEIR dataset directory, or the name of a shipped one (agent-memory, memory-en, failures); "
        "repeatable; default: every shipped dataset",
    )
    p.add_argument(
        "--backend",
        action="append",
        metavar="NAME",
        help=f"backend to run, one of {', '.join(BENCH_BACKENDS)} (repeatable; default: every available one)",
    )
    p.add_argument(
        "--run-file",
        metavar="DIR",
        help="write TREC runs (top 100) as DIR/<dataset>.<backend>.trec (DIR is created; its parent must exist)",
    )
    p.add_argument("--json", action="store_true", help="print the whole result as JSON on stdout")
    p.add_argument(
        "--report",
        metavar="DIR",
        help="write report.md and PNG charts into DIR (created; its parent must exist); charts need matplotlib "
        "(without it: the tables only, and a line saying so), the scaling and user-path charts --scale",
    )
    p.add_argument("--scale", metavar="N[,N...]", help=f"also time generated corpora of N documents (up to {MAX_DOCS})")
    p.add_argument(
        "--e2e",
        nargs="?",
        const="",
        metavar="DIR",
        help="instead: the end-to-end memory benchmark - replay recorded Claude Code sessions through the hooks, "
        "ask each question from a fresh session, score what it received (default DIR: the dev set shipped with "
        "mimomem, corpora/e2e-dev in a checkout); "
        "--json and --report apply",
    )
    _host_options(p)
    _bench_compare_options(p)
    add_tokenizer_options(p)
    p.add_argument(
        "--failures",
        action="store_true",
        help="only the documented CJK failure cases (corpora/failures/): hits per backend side by side",
    )
    p.set_defaults(func=cmd_bench)


def _host_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host",
        choices=("claude-code",),
        help="with --e2e: play the dev set's sessions through the real Claude Code (the host extra's bundled CLI) "
        "against a loopback stand-in for the model, score what the model received, beside the replay",
    )
    p.add_argument(
        "--route",
        choices=("settings", "plugin", "plugin-dir"),
        default="settings",
        help="with --host: how mimomem is installed in the host (settings hooks, or the plugin)",
    )
    p.add_argument("--limit", type=int, metavar="N", help="with --host: ask only the first N questions (a smoke run)")


def _bench_compare_options(p: argparse.ArgumentParser) -> None:
    from mimomem.bench.compare import DEFAULT_TOLERANCE, plain
    from mimomem.bench.paths import SLOWER, SLOWER_FLOOR

    p.add_argument("--save", metavar="FILE", help="save the result (JSON) for a later --compare")
    p.add_argument(
        "--compare",
        metavar="FILE",
        help="compare with a saved result; exit 1 if a metric dropped or a user path got slower",
    )
    p.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        metavar="X",
        help=f"allowed drop per metric for --compare and --tokenizer (default {plain(DEFAULT_TOLERANCE)}: half the "
        "last printed digit, so a drop shown as -0.0000 is not one; 0 fails on any drop)",
    )
    p.add_argument(
        "--time-tolerance",
        type=float,
        default=SLOWER,
        metavar="X",
        help=f"--compare fails when a --scale user path's CPU time grew more than X times (default {SLOWER:g}) "
        "and more than --time-floor",
    )
    p.add_argument(
        "--time-floor",
        type=float,
        default=SLOWER_FLOOR,
        metavar="SECONDS",
        help=f"a user path slower by less than this is noise for --compare (default {SLOWER_FLOOR:g})",
    )


def add_tokenizer_options(p: argparse.ArgumentParser) -> None:
    """``--tokenizer`` (a candidate run next to the shipped one) and ``--alpha`` (significant drops only)."""
    p.add_argument(
        "--tokenizer",
        metavar="MODULE:FUNCTION",
        help="also run the backends built on mimomem's tokens with this candidate tokenizer (same signature as "
        "mimomem.tokenize; MODULE.py in the working directory, or importable): token diffs, wins and losses "
        "against the shipped one; "
        "exit 1 when the candidate regresses (--tolerance, --alpha)",
    )
    p.add_argument(
        "--alpha",
        type=float,
        metavar="P",
        help="a metric drop beyond --tolerance fails --compare / --tokenizer only when the paired randomization "
        "test over the queries finds it significant (one-sided p < P, e.g. 0.05; default: every drop fails)",
    )


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse unusable output options before the (long) run starts."""
    checks.in_range(args.tolerance, "--tolerance", 0)
    checks.in_range(args.time_tolerance, "--time-tolerance", 1)
    checks.in_range(args.time_floor, "--time-floor", 0)
    if args.alpha is not None and not 0 < args.alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1 (e.g. 0.05), got {args.alpha}")
    checks.new_dir(args.report, "--report")
    if args.report:
        from mimomem.bench.report import NO_CHARTS, charts_available

        if not charts_available():  # said before the run, so nobody waits for charts that never come
            print(f"mimomem bench: --report {args.report}: tables only, {NO_CHARTS}", file=sys.stderr)
    checks.new_dir(args.run_file, "--run-file")
    if args.save:
        checks.file_path(args.save, "--save", "base.json")
        checks.new_dir(args.save, "--save")  # the file is created, its directory must exist


def cmd_bench(args: argparse.Namespace) -> int:
    """Print one table per dataset (or JSON); exit 1 when ``--compare`` finds a regression."""
    from mimomem import bench
    from mimomem.bench.runner import stderr_progress
    from mimomem.bench.scale import parse_sizes

    check_outputs(args)
    if getattr(args, "host", None) and getattr(args, "e2e", None) is None:
        raise UsageError("--host runs the end-to-end benchmark through the real host: add --e2e")
    if getattr(args, "e2e", None) is not None:
        return cmd_bench_host(args) if getattr(args, "host", None) else cmd_bench_e2e(args)
    saved = bench.load_result(args.compare) if args.compare else None
    extra: dict[str, Any] = {}
    if args.tokenizer:
        from mimomem.bench.candidate import load_tokenizer

        extra["tokenizer"] = load_tokenizer(args.tokenizer)  # a bad spec fails now, not after the run
    paths = [Path(p) for p in args.dataset] if args.dataset else bench.discover_datasets(bench.find_corpora())
    result = bench.run_bench(
        paths,
        args.backend,
        run_dir=Path(args.run_file) if args.run_file else None,
        failures_only=args.failures,
        scale=parse_sizes(args.scale) if args.scale else (),
        progress=stderr_progress,
        **extra,
    )
    if args.save:
        bench.save_result(result, args.save)
    if args.report:
        for path in bench.write_report(result, args.report):
            print(f"wrote {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        print(bench.format_result(result), end="")
        if not args.report:
            print(REPORT_HINT)
    out = sys.stderr if args.json else sys.stdout
    status = OK
    if "candidate" in result:
        status = _candidate_gate(args, result, out)
    if saved is None:
        return status
    comparison = bench.compare_results(
        saved, result, args.tolerance, time_factor=args.time_tolerance, time_floor=args.time_floor, alpha=args.alpha
    )
    print(bench.format_comparison(comparison), file=out)
    from mimomem.bench.wins import format_runs

    print(format_runs(saved, result, f"Wins and losses against {args.compare}:"), end="", file=out)
    return OK if comparison.ok and status == OK else NO


def _candidate_gate(args: argparse.Namespace, result: dict[str, Any], out: Any) -> int:
    """Print the candidate report and gate it against the shipped run (``--tolerance``, ``--alpha``)."""
    from mimomem import bench
    from mimomem.bench.candidate_run import candidate_view, format_candidate, shipped_view

    if not args.json:
        print("\n" + format_candidate(result), end="", file=out)
    comparison = bench.compare_results(shipped_view(result), candidate_view(result), args.tolerance, alpha=args.alpha)
    print(f"Candidate {args.tokenizer} against the shipped tokenizer:", file=out)
    print(bench.format_comparison(comparison), file=out)
    return OK if comparison.ok else NO


def cmd_bench_e2e(args: argparse.Namespace) -> int:
    """``mimomem bench --e2e [DIR]``: the end-to-end memory benchmark (tables, or JSON; ``--report``)."""
    from mimomem.bench import e2e
    from mimomem.bench.runner import stderr_progress

    result = e2e.run_e2e(Path(args.e2e) if args.e2e else None, progress=stderr_progress)
    if args.report:
        for path in e2e.write_e2e_report(result, Path(args.report)):
            print(f"wrote {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        print(e2e.format_text(result), end="")
    return OK


def cmd_bench_host(args: argparse.Namespace) -> int:
    """``mimomem bench --e2e --host claude-code``: the dev set through the real host, beside the replay."""
    from mimomem.bench import e2e
    from mimomem.bench.host.e2e import format_comparison, run_host_e2e
    from mimomem.bench.runner import stderr_progress

    if args.limit is not None:
        checks.in_range(args.limit, "--limit", 1)
    path = Path(args.e2e) if args.e2e else None
    host = run_host_e2e(path, route=args.route, progress=stderr_progress, limit=args.limit)
    replay = e2e.run_e2e(path, systems=("mimomem",), progress=stderr_progress)
    if args.json:
        both = {"identity": host["identity"], "host": host, "replay": replay}
        print(json.dumps(both, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        print(format_comparison(host, replay), end="")
    return OK
