"""What the backends share: the SQL of the optional filters and the snapshot read."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from mimomem.search.params import stored_scope


def filter_sql(scope: str | None, scope_id: str | None, type: str | None) -> tuple[str, list[str]]:
    """SQL (`` AND f.<column> = ?`` ...) for MiMo's optional equality filters; empty values mean no filter."""
    sql, params = "", []
    stored = stored_scope(scope) if scope else None
    for column, value in (("scope", stored), ("scope_id", scope_id), ("type", type)):
        if value:
            sql += f" AND f.{column} = ?"
            params.append(value)
    return sql, params


@contextmanager
def read_snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """Run the block in one read transaction (one snapshot), unless the caller already holds one."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


__all__ = ["filter_sql", "read_snapshot"]
