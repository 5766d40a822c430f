"""Which tokenizer version each ``tokenize='mimomem'`` table was indexed with.

FTS5 stores tokens, not the rules that made them: after an upgrade whose tokens differ, old
rows would silently stop matching new queries.  ``stamp`` records the version in a small
table of the same database (``mimomem_tokenizer``), ``check`` compares it with the loaded
extension's ``mimomem_version()`` and says how to rebuild.  From plain SQL, the stale tables
are ``SELECT fts_table FROM mimomem_tokenizer WHERE version <> mimomem_version()``.
"""

from __future__ import annotations

from typing import Any

from mimomem.errors import StaleTokenizerIndexError

VERSION_TABLE = "mimomem_tokenizer"
"""The table ``stamp`` writes: ``(fts_table TEXT PRIMARY KEY, version TEXT NOT NULL)``."""

_CREATE = f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE}(fts_table TEXT PRIMARY KEY, version TEXT NOT NULL)"


def tokenizer_version() -> str:
    """The package's tokenizer identity (what ``mimomem_version()`` returns when the extension matches)."""
    from mimomem.search.db import bigram_tokenizer_id

    return bigram_tokenizer_id()


def _loaded_version(conn: Any) -> str:
    return str(next(iter(conn.execute("SELECT mimomem_version()")))[0])


def stamp(conn: Any, table: str) -> None:
    """Record that ``table`` is (now) indexed with the loaded extension's tokenizer."""
    conn.execute(_CREATE)
    conn.execute(
        f"INSERT OR REPLACE INTO {VERSION_TABLE}(fts_table, version) VALUES (?, ?)", (table, _loaded_version(conn))
    )


def check(conn: Any, table: str) -> None:
    """Raise ``StaleTokenizerIndexError`` if ``table`` was indexed by another tokenizer version.

    A table never stamped is stamped now (its first check records the version in use).
    """
    current = _loaded_version(conn)
    conn.execute(_CREATE)
    rows = list(conn.execute(f"SELECT version FROM {VERSION_TABLE} WHERE fts_table = ?", (table,)))
    if not rows:
        stamp(conn, table)
        return
    recorded = str(rows[0][0])
    if recorded != current:
        quoted = '"' + table.replace('"', '""') + '"'
        raise StaleTokenizerIndexError(
            f"FTS5 table {table} was indexed with tokenizer {recorded!r}, but the loaded mimomem extension is "
            f"{current!r}: its tokens differ, so old rows would be missed. Rebuild it: "
            f"INSERT INTO {quoted}({quoted}) VALUES('rebuild') (tables with content; a contentless table must be "
            f"dropped and refilled), then mimomem.sqlite.stamp(conn, {table!r})"
        )
