"""Row writes into the cache's content table ``memory_fts``: one document per path, replaced or deleted.

The triggers (``db``) keep the FTS5 indexes in step with each row.  A large first write is a bulk
load (``bulk_load``, ``put_rows`` calls it for ``BULK_MIN_ROWS`` rows and at least as many as the table
holds): the rows go in without the index triggers, then each FTS5 index is rebuilt from the table once,
and the triggers come back as they were (a lazy index not built yet, ``db.LAZY``, is left for its first
query).  Every write moves the ``generation`` meta value, so in-memory scans catch up.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from typing import NamedTuple

from mimomem.search import db, lazy_index


class Row(NamedTuple):
    """One document to store: ``path`` is its unique key (a file path or a document id)."""

    path: str
    scope: str
    scope_id: str
    type: str
    body: str
    fingerprint: str


BULK_MIN_ROWS = 1000
"""A write of at least this many rows, and at least as many as the table holds, is a bulk load."""

INSERT_ROW = (
    "INSERT INTO memory_fts(path, scope, scope_id, type, body, fingerprint, last_indexed_at, tokens)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def put_rows(conn: sqlite3.Connection, rows: Iterable[Row], *, now: int | None = None) -> int:
    """Store ``rows`` (inside the caller's transaction), replacing rows with the same path.

    A changed document is deleted and re-inserted, so it gets a new, larger id: ids then
    only grow, and an in-memory index can catch up by loading ids above the last one it
    saw.  A large write (``BULK_MIN_ROWS``, and at least the table's size: a first build)
    is a bulk load: rows go in without the index triggers, then both FTS5 indexes are
    rebuilt in one pass each, merged once (100,000 notes: 40 s -> about 20 s of CPU).  Returns the
    number of rows written.
    """
    stamp = int(time.time() * 1000) if now is None else now
    batch = list(rows)
    if not batch:
        return 0
    if len(batch) >= BULK_MIN_ROWS and len(batch) >= int(conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0]):
        bulk_load(conn, batch, stamp)
    else:
        for row in batch:
            conn.execute("DELETE FROM memory_fts WHERE path = ?", (row.path,))
            conn.execute(INSERT_ROW, _values(row, stamp))
    db.bump(conn, "generation")
    return len(batch)


def _values(row: Row, stamp: int) -> tuple[str | int, ...]:
    return (row.path, row.scope, row.scope_id, row.type, row.body, row.fingerprint, stamp, db.shadow_tokens(row.body))


def delete_paths(conn: sqlite3.Connection, paths: Iterable[str]) -> int:
    """Delete the rows for ``paths`` (inside the caller's transaction); returns how many."""
    count = 0
    for path in paths:
        count += conn.execute("DELETE FROM memory_fts WHERE path = ?", (path,)).rowcount
    if count:
        db.bump(conn, "generation")
    return count


def bulk_load(conn: sqlite3.Connection, batch: list[Row], stamp: int) -> None:
    """``put_rows`` for a large batch: rows without triggers, then each FTS5 index rebuilt from the table.

    The same rows and ids as row-by-row writing (a path given twice keeps its last version).
    Only the indexes that exist are rebuilt: a lazy one not queried yet stays unbuilt.
    """
    specs = lazy_index.built_indexes(conn)
    for spec in specs:
        for stmt in db.drop_fts_sql(spec)[:3]:  # the triggers only
            conn.execute(stmt)
    last = {row.path: n for n, row in enumerate(batch)}
    conn.executemany("DELETE FROM memory_fts WHERE path = ?", ((path,) for path in last))
    kept = [row for n, row in enumerate(batch) if last[row.path] == n]
    values = (
        (row.path, row.scope, row.scope_id, row.type, row.body, row.fingerprint, stamp, tokens)
        for row, tokens in zip(kept, db.shadow_tokens_many([row.body for row in kept]), strict=True)
    )
    conn.executemany(INSERT_ROW, values)
    for spec in specs:
        _rebuild_unmerged(conn, spec.table)
        for stmt in db.fts_sql(spec)[1:]:  # the triggers again, as they were
            conn.execute(stmt)


FTS5_AUTOMERGE = 4
"""FTS5's default ``automerge``, put back after a bulk rebuild (the setting is stored in the index)."""


def _rebuild_unmerged(conn: sqlite3.Connection, table: str) -> None:
    """FTS5's ``'rebuild'`` with incremental merging off while it runs, then one full merge.

    During a rebuild FTS5 flushes a new segment every megabyte of terms and, with
    ``automerge`` on, merges them as it goes, rewriting the same postings again and again.
    Off, they pile up (16 at most per level, ``crisismerge``) and one ``'optimize'`` merges
    them all once, leaving a single segment (queries as fast as before).  100,000 notes:
    the bigram index in 9.7 s + the merge instead of 12.7 s; the whole build about 20 %
    less CPU.  ``automerge`` is stored in the index, so it is put back afterwards.
    """
    conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('automerge', 0)")
    conn.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
    conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
    conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('automerge', {FTS5_AUTOMERGE})")


__all__ = ["BULK_MIN_ROWS", "FTS5_AUTOMERGE", "INSERT_ROW", "Row", "bulk_load", "delete_paths", "put_rows"]
