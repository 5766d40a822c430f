"""The CLI reference page: ``--help`` of every ``mimomem`` command, rendered at a fixed width.

    python -m mimomem.cli.reference           # rewrite the section in docs/cli-reference.md
    python -m mimomem.cli.reference --check   # exit 1 when docs/cli-reference.md is out of date

The text goes between ``START`` and ``END``; everything else in the page is left alone.  A
test in ``tests/cli`` fails when the section differs from what this renders.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from mimomem.cli.parser import HelpFormatter, build_parser

START = "<!-- cli-reference:start -->"
END = "<!-- cli-reference:end -->"
WIDTH = 100
"""Columns of the rendered help (what ``COLUMNS=102 mimomem ... --help`` prints)."""

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli-reference.md"
"""The repository's CLI reference page when running from a checkout (an editable install)."""

UPDATE_COMMAND = "python -m mimomem.cli.reference"


def commands(parser: argparse.ArgumentParser | None = None) -> Iterator[argparse.ArgumentParser]:
    """``parser`` (default: ``mimomem``'s) and every subcommand parser under it, depth first."""
    parser = build_parser() if parser is None else parser
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases map to the same parser
                yield from commands(sub)


def _fixed_width(width: int) -> type[HelpFormatter]:
    class Fixed(HelpFormatter):
        def __init__(self, prog: str) -> None:
            super().__init__(prog, width=width)

    return Fixed


def render(width: int = WIDTH) -> str:
    """The Markdown between the markers: one heading and one ``text`` block per command."""
    blocks = []
    for parser in commands():
        parser.formatter_class = _fixed_width(width)
        if sys.version_info >= (3, 14):  # 3.14 may colour help; the page wants plain text
            parser.color = False
        text = "\n".join(line.rstrip() for line in parser.format_help().strip("\n").splitlines())
        blocks.append(f"### `{parser.prog}`\n\n```text\n{text}\n```\n")
    return "\n".join(blocks)


def replace_section(page: str, rendered: str) -> str | None:
    """``page`` with the text between the markers replaced; ``None`` if the markers are missing."""
    head, start, rest = page.partition(START)
    _old, end, tail = rest.partition(END)
    if not start or not end:
        return None
    return f"{head}{START}\n{rendered}{END}{tail}"


def main(argv: Sequence[str] | None = None) -> int:
    """Update (or with ``--check``, verify) the CLI reference page."""
    cli = argparse.ArgumentParser(prog=UPDATE_COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    cli.add_argument(
        "--page",
        type=Path,
        default=PAGE,
        metavar="FILE",
        help=f"the Markdown page to update (default: {PAGE})",
    )
    cli.add_argument("--check", action="store_true", help="do not write; exit 1 when the page is out of date")
    args = cli.parse_args(argv)
    try:
        old = args.page.read_text(encoding="utf-8")
    except OSError as exc:
        print(
            f"{UPDATE_COMMAND}: error: cannot read {args.page} ({exc.strerror}); pass --page FILE",
            file=sys.stderr,
        )
        return 2
    new = replace_section(old, render())
    if new is None:
        print(
            f"{UPDATE_COMMAND}: error: {args.page} has no {START} ... {END} markers; add them first",
            file=sys.stderr,
        )
        return 2
    if new == old:
        return 0
    if args.check:
        print(f"{args.page}: the CLI reference is out of date; run `{UPDATE_COMMAND}`", file=sys.stderr)
        return 1
    args.page.write_text(new, encoding="utf-8")
    print(f"updated the CLI reference in {args.page}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
