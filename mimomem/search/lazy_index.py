"""Lazy FTS5 indexes (``db.LAZY``): built from the table by the first query that needs one.

The database is a cache of the files, so an index nobody queries need not exist: a build
writes the table and the indexes every user queries, and ``ensure_index`` builds a lazy one
(the ``fts5-unicode61`` baseline) on its first query.  From then on its triggers keep it in
step with every write, and a tokenizer change rebuilds it like any other (``db.ensure_tokenizers``).
"""

from __future__ import annotations

import contextlib
import sqlite3

from mimomem.search import db


def is_built(conn: sqlite3.Connection, backend: str) -> bool:
    """Whether ``backend``'s FTS5 table exists in ``conn``'s database."""
    sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    return conn.execute(sql, (db.INDEXES[backend].table,)).fetchone() is not None


def built_indexes(conn: sqlite3.Connection) -> list[db.IndexSpec]:
    """The FTS5 indexes that exist (every one but a lazy one never queried)."""
    return [spec for backend, spec in db.INDEXES.items() if backend not in db.LAZY or is_built(conn, backend)]


def ensure_index(conn: sqlite3.Connection, backend: str) -> bool:
    """Build a lazy index from the table if it does not exist yet; True when this call built it.

    In its own IMMEDIATE transaction (or the caller's), checked again once the write lock is
    held: a concurrent writer either committed before (its rows are in the table the index is
    built from) or writes after (through the index's triggers, which exist from then on).
    """
    if backend not in db.LAZY or is_built(conn, backend):
        return False
    with contextlib.nullcontext(conn) if conn.in_transaction else db.transaction(conn):
        if is_built(conn, backend):
            return False  # another process built it while we waited for the lock
        db.create_index(conn, backend)
    return True


__all__ = ["built_indexes", "ensure_index", "is_built"]
