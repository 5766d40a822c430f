"""Which journal mimomem's SQLite databases use: WAL only where SQLite has no WAL-reset bug.

SQLite 3.7.0 through 3.51.2 can corrupt a database in WAL mode when a checkpoint and a
writer race over a WAL reset (fixed in 3.51.3, and in the 3.50.7 and 3.44.6 patch releases).
The search index can be rebuilt, but ``history.db`` (imported conversations) cannot, so on an
affected version every database uses the rollback journal (``DELETE``) instead, with
``synchronous = FULL`` (``NORMAL`` is only power-safe with WAL).  Every connection that sets a
journal mode does it through :func:`use_journal`; ``mimomem paths`` shows :func:`journal_choice`.

Several processes (hooks, the CLI, the MCP server) may open one database at once: with the
rollback journal a reader blocks a writer for the length of its read, so callers set a busy
timeout (``PRAGMA busy_timeout``) before this, and a writer waits instead of failing.
"""

from __future__ import annotations

import sqlite3

FIXED = ((3, 51, 3), (3, 50, 7), (3, 44, 6))
"""The first release of each line with the WAL-reset fix (3.51.3 and the backports)."""

FIRST_AFFECTED = (3, 7, 0)
"""WAL came in 3.7.0, and the bug with it."""


def wal_is_safe(version: tuple[int, int, int]) -> bool:
    """True when SQLite ``version`` has the WAL-reset fix (or no WAL at all)."""
    if version < FIRST_AFFECTED:
        return True
    if version >= FIXED[0]:
        return True
    return any(version[:2] == fix[:2] and version >= fix for fix in FIXED[1:])


def journal_choice(version: tuple[int, int, int] | None = None) -> tuple[str, str]:
    """``(journal mode, why)`` for SQLite ``version`` (default: the one Python is linked with)."""
    version = sqlite3.sqlite_version_info if version is None else version
    shown = ".".join(map(str, version))
    if version < FIRST_AFFECTED:
        return "delete", f"SQLite {shown} has no WAL"
    if wal_is_safe(version):
        return "wal", f"SQLite {shown} has the WAL-reset fix"
    return "delete", (
        f"SQLite {shown} has the WAL-reset bug (3.7.0-3.51.2; fixed in 3.51.3, 3.50.7, 3.44.6): "
        f"rollback journal instead of WAL"
    )


def use_journal(conn: sqlite3.Connection, version: tuple[int, int, int] | None = None) -> str:
    """Set the journal mode :func:`journal_choice` picks on ``conn`` (a file database); the mode in effect.

    A database another connection holds in WAL mode cannot leave it until that one closes:
    it then stays in WAL (what SQLite answers is returned) and a later open switches it.
    """
    mode, _ = journal_choice(version)
    try:
        row = conn.execute(f"PRAGMA journal_mode = {mode.upper()}").fetchone()
    except sqlite3.OperationalError:  # locked by another connection: keep what it has
        row = conn.execute("PRAGMA journal_mode").fetchone()
    actual = str(row[0]).lower() if row else mode
    conn.execute(f"PRAGMA synchronous = {'NORMAL' if actual == 'wal' else 'FULL'}")
    return actual


__all__ = ["FIRST_AFFECTED", "FIXED", "journal_choice", "use_journal", "wal_is_safe"]
