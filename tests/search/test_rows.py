"""Row writes into the content table: every write moves the generation (the bulk path: test_bulk_load.py)."""

from __future__ import annotations

import sqlite3

from mimomem.search import db
from mimomem.search.rows import Row, delete_paths, put_rows


def _put(conn: sqlite3.Connection, path: str, body: str) -> None:
    with db.transaction(conn):
        put_rows(conn, [Row(path, "global", "", "free", body, "fp")])


def test_generation_moves_on_writes_only(mem):
    conn = mem
    before = db.generation(conn)
    _put(conn, "/m/a.md", "alpha")
    after = db.generation(conn)
    assert before[0] == after[0] and after[1] > before[1]
    with db.transaction(conn):
        delete_paths(conn, ["/m/none.md"])
    assert after == db.generation(conn)
