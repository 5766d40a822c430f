"""Exit statuses of ``mimomem`` and the one-line message each kind of failure prints.

0: success.  1: the command ran and its answer is "no": ``search`` or ``recall`` found nothing
(grep's rule, in text and JSON output alike), ``inspect`` found problems, ``import`` skipped
notes, ``bench --compare`` found a regression.  2: a usage or input error (also a closed
standard output), with one line on stderr saying what to do.  130: interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys

from mimomem.common.databases import might_be_ours
from mimomem.errors import MimomemError

OK = 0
NO = 1
USAGE = 2
INTERRUPTED = 130

STATUS_OF: dict[type[MimomemError], int] = {MimomemError: USAGE}
"""Exit status per error class; the nearest class in an error's MRO wins."""


def status_of(exc: MimomemError) -> int:
    """The exit status for a library or usage error (see ``STATUS_OF``)."""
    for cls in type(exc).__mro__:
        if cls in STATUS_OF:
            return STATUS_OF[cls]
    return USAGE


def os_error(exc: OSError) -> str:
    """An OS error as "what, where, what to do" instead of ``[Errno 20] ...``."""
    if exc.strerror is None or exc.filename is None:
        return str(exc)
    return (
        f"{exc.strerror}: {exc.filename}; fix that path or its permissions "
        f"(defaults come from MIMOMEM_HOME and the XDG_* variables, see docs/architecture.md)"
    )


def unicode_error(exc: UnicodeError) -> str:
    """Text that is not UTF-8 (a file, standard input) or that the terminal cannot show."""
    return f"{exc}; use UTF-8 text (and a UTF-8 terminal, or set PYTHONIOENCODING=utf-8)"


def database_advice(args: argparse.Namespace, exc: sqlite3.DatabaseError) -> str:
    """One line naming the database and the next step: fix the path, or delete the cache.

    Deleting is advised only for a file that is mimomem's: at its default place, or with one of
    mimomem's schemas.  A file the user named with ``--db`` that is something else (a text
    file, another program's database) is never called "only a cache".
    """
    db = getattr(args, "db_used", None)
    if db is None:
        return f"SQLite: {exc}"
    what = getattr(args, "db_what", "index database")
    if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc):  # SQLITE_FULL: the write was undone
        return f"{what} {db}: {exc}; nothing of this run was written: free space on that disk and run it again"
    if isinstance(exc, sqlite3.OperationalError):
        return f"{what} {db}: {exc}; pass --db with a writable file path, or retry if another process holds it"
    if getattr(args, "db", None) and not might_be_ours(db):
        return f"{db} is not a mimomem database ({exc}); pass another --db (that file was left as it was)"
    cache = "the agents' transcripts" if what == "history database" else "the memory files"
    return f"{what} {db}: {exc}; it is only a cache of {cache}: delete it (rm {db}) and run the command again"


STDOUT_CLOSED = "standard output is closed; run it with output to a terminal, file or pipe"
"""The error of ``mimomem ... >&-``: Python then has no ``sys.stdout`` at all, so nothing could be printed."""


def stdout_closed() -> bool:
    """True when the process started without a standard output (``>&-``)."""
    return sys.stdout is None


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. captured in tests)
        pass
