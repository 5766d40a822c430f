"""Telling a damaged index database from a healthy one, and saying so with the file's name.

A damaged database (or a file that is not one) raises ``CorruptDatabaseError`` naming the file
and saying to delete it; a file that does not look like mimomem's raises ``ForeignDatabaseError``
instead, so that nobody is told to delete a database of their own.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

from mimomem.common.databases import might_be_ours
from mimomem.errors import CorruptDatabaseError, ForeignDatabaseError

_CORRUPT_CODES = (11, 26)
"""``SQLITE_CORRUPT`` and ``SQLITE_NOTADB`` (primary result codes)."""


def is_corrupt(exc: sqlite3.Error) -> bool:
    """True when ``exc`` says the database file is damaged or not a database at all."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return int(code) & 0xFF in _CORRUPT_CODES
    return type(exc) is sqlite3.DatabaseError  # 3.10: CORRUPT and NOTADB raise exactly this class


def database_file(conn: sqlite3.Connection) -> str:
    """The file behind ``conn``'s main database (``":memory:"`` when there is none)."""
    try:
        for _, name, file in conn.execute("PRAGMA database_list"):
            if name == "main":
                return str(file) or ":memory:"
    except sqlite3.Error:
        pass
    return "(unknown file)"


@contextlib.contextmanager
def reporting_corruption(where: str | sqlite3.Connection) -> Iterator[None]:
    """Turn SQLite's corruption errors in the block into ``CorruptDatabaseError`` naming the file."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        if not is_corrupt(exc):
            raise
        path = where if isinstance(where, str) else database_file(where)
        if not might_be_ours(path):  # never call a file of the user's "only a cache" to delete
            raise ForeignDatabaseError(
                f"{path} is not a mimomem database ({exc}); pass another --db (that file was left as it was)"
            ) from exc
        raise CorruptDatabaseError(
            f"index database {path} is damaged or is not a mimomem database ({exc}). It is only a cache "
            f"of the memory files: delete it (and any {path}-wal / {path}-shm beside it) and the next search "
            f"rebuilds it; if that path is not the index you meant, fix --db / db_path instead"
        ) from exc


__all__ = ["database_file", "is_corrupt", "reporting_corruption"]
