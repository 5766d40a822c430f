"""What the backends share: the SQL of the optional filters, and the deprecated ``search`` name."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mimomem.search.hits import RankedRow
from mimomem.search.params import stored_scope
from mimomem.text.query import Query


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


class DeprecatedSearchName:
    """``search``: the 0.1 name of ``rank`` (deprecated)."""

    def search(self, query: Query, **filters: Any) -> list[RankedRow]:
        """Deprecated: use ``rank`` (same arguments, same result)."""
        warnings.warn(
            "Backend.search is deprecated and will be removed in mimomem 0.3; use Backend.rank",
            DeprecationWarning,
            stacklevel=2,
        )
        result: list[RankedRow] = self.rank(query, **filters)  # type: ignore[attr-defined]
        return result


__all__ = ["DeprecatedSearchName", "filter_sql", "read_snapshot"]
