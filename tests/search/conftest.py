"""Fixtures shared by the search tests."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

import pytest

from mimomem.search import db, lazy_index


@pytest.fixture
def mem() -> Iterator[sqlite3.Connection]:
    """A migrated in-memory database with both FTS5 indexes (the lazy one built), closed after the test."""
    with contextlib.closing(db.connect(":memory:")) as conn:
        lazy_index.ensure_index(conn, "fts5-unicode61")
        yield conn
