"""The ``mimomem`` command: thin adapters over the library, one subcommand per operation.

``parser`` defines the arguments (``bench``, ``install`` and ``history`` add their own); ``text``,
``tree``, ``search``, ``curated``, ``bench`` and ``hooks`` hold the commands, each a ``cmd_*``
function that checks its arguments (``checks``), calls the library and prints.  ``main`` turns
errors into one line on stderr and an exit status (``exits``); anything else is a bug and keeps
its traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def _say_how_it_runs(args: argparse.Namespace) -> None:
    """Pure Python the user did not choose: a build that fell back, or (for measurements) a source tree."""
    from mimomem import native_available
    from mimomem.common.build import pure_python_notice, shadow_notice

    native = native_available()
    notices = [pure_python_notice(native)]
    if args.command == "bench" or getattr(args, "diff", None):  # what it prints depends on the engine
        notices.append(shadow_notice(native))
    for notice in filter(None, notices):
        print(notice, file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mimomem`` with ``argv`` (default: ``sys.argv[1:]``) and return the exit status."""
    whole_process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["hook", "claude-code"]:  # the per-prompt hot path: skip building the whole parser
        from mimomem.hooks import entry

        status = entry.run(sys.stdin, sys.stdout, sys.stderr)
        if whole_process:  # the process is this hook: end it without the interpreter's teardown
            entry.exit_now(status)
        return status
    import sqlite3

    from mimomem.cli import exits
    from mimomem.cli.parser import build_parser
    from mimomem.errors import MimomemError

    args = build_parser().parse_args(argv)
    command = f"mimomem {args.command}"
    if args.command not in ("hook", "mcp"):  # hosts read those outputs; a person reads the rest
        _say_how_it_runs(args)
    if exits.stdout_closed():  # `mimomem ... >&-`: refuse before doing anything whose report would be lost
        print(f"{command}: error: {exits.STDOUT_CLOSED}", file=sys.stderr)
        return exits.USAGE
    try:
        status = int(args.func(args) or exits.OK)
        sys.stdout.flush()  # a closed pipe shows here, not as a traceback at exit
        return status
    except KeyboardInterrupt:  # Ctrl-C: writes are atomic, so stopping mid-way loses nothing
        print(f"{command}: interrupted", file=sys.stderr)
        return exits.INTERRUPTED
    except BrokenPipeError:  # `mimomem ... | head`: the reader has all it wanted
        exits.silence_stdout()
        return exits.OK
    except sqlite3.DatabaseError as exc:
        print(f"{command}: error: {exits.database_advice(args, exc)}", file=sys.stderr)
        return exits.USAGE
    except MimomemError as exc:  # library and usage errors: the message says what to do
        print(f"{command}: error: {exc}", file=sys.stderr)
        return exits.status_of(exc)
    except UnicodeError as exc:  # input that is not UTF-8, or output the terminal cannot encode
        print(f"{command}: error: {exits.unicode_error(exc)}", file=sys.stderr)
        return exits.USAGE
    except OSError as exc:
        print(f"{command}: error: {exits.os_error(exc)}", file=sys.stderr)
        return exits.USAGE


def build_parser() -> argparse.ArgumentParser:
    """The ``mimomem`` argparse parser (imported on demand: the hook path never builds it)."""
    from mimomem.cli.parser import build_parser as build

    return build()


__all__ = ["build_parser", "main"]
