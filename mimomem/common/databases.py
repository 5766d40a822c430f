"""Which SQLite files are mimomem's: only those may be called a cache that can be deleted.

A database named with ``--db`` can be anything: a text file, another program's SQLite (with
its own ``user_version``).  Messages advise deleting a file only when it is ours: it has the
tables of the history store or of the search index, or (when it is too damaged to read) it
has the name mimomem gives its databases.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse

DEFAULT_NAMES = frozenset({"mimomem.db", "history.db"})
"""The names mimomem gives its databases: a damaged file by one of them is taken to be a damaged cache."""

MIMOMEM_TABLES = (frozenset({"sources", "sessions", "messages", "parts"}), frozenset({"memory_fts", "meta"}))
"""Tables that make a SQLite file mimomem's: the history store's, or the search index's."""


def has_mimomem_tables(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` opens read-only as SQLite and holds the tables of a mimomem database."""
    try:
        uri = f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro"
        conn = sqlite3.connect(uri, uri=True)
        try:
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except (sqlite3.Error, OSError, ValueError):
        return False
    return any(tables <= names for tables in MIMOMEM_TABLES)


def might_be_ours(path: str | os.PathLike[str]) -> bool:
    """A possibly damaged database that may be mimomem's: named as mimomem names them, or with its tables."""
    return os.path.basename(path) in DEFAULT_NAMES or has_mimomem_tables(path)


__all__ = ["DEFAULT_NAMES", "MIMOMEM_TABLES", "has_mimomem_tables", "might_be_ours"]
