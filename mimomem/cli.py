"""The ``mimomem`` command: thin adapters over the library, one subcommand per method.

Each ``_cmd_*`` function calls the library and prints; library errors (``MimomemError``
and ``ValueError`` subclasses) become one-line messages and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .errors import MimomemError


def _cmd_tokenize(args: argparse.Namespace) -> int:
    from .tokens import tokenize

    tokens = tokenize(args.text, mode=args.mode)
    if args.json:
        print(json.dumps([t._asdict() for t in tokens], ensure_ascii=False))
    else:
        for t in tokens:
            print(f"{t.text}\t{t.start}\t{t.end}\t{args.text[t.start:t.end]}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from pathlib import Path

    from . import bench
    from .bench.runner import stderr_progress
    from .bench.scale import parse_sizes

    if args.tolerance < 0:
        raise ValueError(f"--tolerance must be >= 0, got {args.tolerance}")
    saved = bench.load_result(args.compare) if args.compare else None
    if args.dataset:
        paths = [Path(p) for p in args.dataset]
    else:
        paths = bench.discover_datasets(bench.find_corpora())
    result = bench.run_bench(
        paths,
        args.backend,
        run_dir=Path(args.run_file) if args.run_file else None,
        failures_only=args.failures,
        scale=parse_sizes(args.scale) if args.scale else (),
        progress=stderr_progress,
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
    if saved is None:
        return 0
    comparison = bench.compare_results(saved, result, args.tolerance)
    print(bench.format_comparison(comparison), file=sys.stderr if args.json else sys.stdout)
    return 0 if comparison.ok else 1


def _cmd_paths(args: argparse.Namespace) -> int:
    from .tree import MemoryTree

    if args.mimocode is not None:
        tree = MemoryTree.from_mimocode(args.mimocode or None)
    else:
        tree = MemoryTree(args.root)
    ident = tree.project_id(args.project)
    layers = tree.layers(project_id=ident.id, session_id=args.session, task_id=args.task)
    info = {
        "project_id": ident.id,
        "repo_root": None if ident.root is None else str(ident.root),
        "git_dir": None if ident.git_dir is None else str(ident.git_dir),
        "data_dir": str(tree.data_dir),
        **{name: str(path) for name, path in layers.items()},
    }
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        width = max(map(len, info))
        for name, value in info.items():
            print(f"{name:<{width}}  {value if value is not None else '-'}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mimomem", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("tokenize", help="show the tokens of TEXT (token, start, end, original)")
    p.add_argument("text")
    p.add_argument("--mode", choices=["bigram", "jieba"], default="bigram")
    p.add_argument("--json", action="store_true", help="print a JSON list of tokens")
    p.set_defaults(func=_cmd_tokenize)

    # Further subcommands register here, each as: p = sub.add_parser(...); p.set_defaults(func=...)

    p = sub.add_parser(
        "paths",
        help="show where each memory layer lives, with the project id and repository root",
        description="Print the memory root and the layer files mimomem would use for DIR (and SID). "
        "The project id is created in the main .git directory on first use, as any write would.",
    )
    p.add_argument("--project", default=".", metavar="DIR", help="a directory inside the project (default: .)")
    p.add_argument("--session", metavar="SID", help="also show this session's checkpoint, notes and tasks paths")
    p.add_argument("--task", metavar="TID", help="with --session: also show this task's progress.md")
    p.add_argument("--root", metavar="DIR", help="memory root to use (default: <data>/memory, see MIMOMEM_HOME)")
    p.add_argument(
        "--mimocode", nargs="?", const="", metavar="DATA_DIR",
        help="use an existing MiMo-Code tree in place (default: $MIMOCODE_HOME/data or ~/.local/share/mimocode)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(func=_cmd_paths)

    p = sub.add_parser(
        "bench",
        help="benchmark every retrieval backend on BEIR-layout datasets (quality, latency, size)",
        description="Run each backend on each dataset and print one table per dataset; progress on stderr. "
        "Exit status 1 when --compare finds a regression.",
    )
    p.add_argument("--dataset", action="append", metavar="DIR", help="BEIR dataset directory (repeatable; default: every dataset under corpora/)")
    p.add_argument("--backend", action="append", metavar="NAME", help="backend to run (repeatable; default: every available one)")
    p.add_argument("--run-file", metavar="DIR", help="write TREC runs (top 100) as DIR/<dataset>.<backend>.trec")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON on stdout")
    p.add_argument("--report", metavar="DIR", help="write report.md and PNG charts into DIR (needs matplotlib)")
    p.add_argument("--scale", metavar="N[,N...]", help="also time generated corpora of N documents (up to 100000)")
    p.add_argument("--save", metavar="FILE", help="save the result (JSON) for a later --compare")
    p.add_argument("--compare", metavar="FILE", help="compare with a saved result; exit 1 if a metric dropped")
    p.add_argument("--tolerance", type=float, default=0.0, metavar="X", help="allowed drop per metric for --compare (default 0)")
    p.add_argument("--failures", action="store_true", help="only the failures.md table: hits per backend side by side")
    p.set_defaults(func=_cmd_bench)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (MimomemError, ValueError, OSError) as exc:
        print(f"mimomem {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - `mimomem ... | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
