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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mimomem", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("tokenize", help="show the tokens of TEXT (token, start, end, original)")
    p.add_argument("text")
    p.add_argument("--mode", choices=["bigram", "jieba"], default="bigram")
    p.add_argument("--json", action="store_true", help="print a JSON list of tokens")
    p.set_defaults(func=_cmd_tokenize)

    # Further subcommands register here, each as: p = sub.add_parser(...); p.set_defaults(func=...)

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
