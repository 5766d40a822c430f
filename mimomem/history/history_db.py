"""The history database file: its schema, opening it (0600, migrations, foreign files refused) and its index.

``mimomem.history.history_store`` holds the store on top of it; this module owns what is on disk:
the tables and triggers, the connection (with ``mimomem_part_tokens`` registered), the schema
migration, the refusal of a database that is not ours, and the bulk indexing of new parts.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from mimomem.common.journal import use_journal
from mimomem.common.private import private_database
from mimomem.errors import HistoryError, SchemaTooNewError
from mimomem.search.db import BUSY_TIMEOUT_MS, bigram_tokenizer_id, shadow_tokens, shadow_tokens_many, transaction

SCHEMA_VERSION = 2
INDEXED_OUTPUT = 1_000
"""Characters of a tool's output that are searchable (the rest is kept, not indexed)."""

_SCHEMA = [
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE sources ("
    " path TEXT PRIMARY KEY, kind TEXT NOT NULL, offset INTEGER NOT NULL DEFAULT 0,"
    " watermark INTEGER NOT NULL DEFAULT 0, head TEXT NOT NULL DEFAULT '', size INTEGER,"
    " mtime_ns INTEGER, imported_at INTEGER)",
    "CREATE TABLE sessions ("
    " id TEXT PRIMARY KEY, origin TEXT NOT NULL, source TEXT NOT NULL, parent_id TEXT, title TEXT,"
    " cwd TEXT, project TEXT, started_at INTEGER, updated_at INTEGER)",
    "CREATE INDEX sessions_project ON sessions(project, started_at)",
    "CREATE TABLE messages ("
    " id TEXT PRIMARY KEY, session_id TEXT NOT NULL, source TEXT NOT NULL, role TEXT NOT NULL,"
    " agent TEXT NOT NULL DEFAULT 'main', time INTEGER)",
    "CREATE INDEX messages_session ON messages(session_id, time)",
    "CREATE INDEX messages_source ON messages(source)",
    "CREATE TABLE parts ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE, message_id TEXT NOT NULL,"
    " session_id TEXT NOT NULL, kind TEXT NOT NULL, synthetic INTEGER NOT NULL DEFAULT 0,"
    " text TEXT NOT NULL DEFAULT '', tool TEXT, call_id TEXT, input TEXT, status TEXT,"
    " output TEXT, error TEXT, time INTEGER, end_time INTEGER)",
    "CREATE INDEX parts_session ON parts(session_id, time)",
    "CREATE INDEX parts_message ON parts(message_id)",
    "CREATE INDEX parts_call ON parts(session_id, call_id)",
    "CREATE VIRTUAL TABLE part_fts USING fts5(tokens, content='', tokenize=\"ascii tokenchars '_'\")",
]
_TOKENS_OF_NEW = "mimomem_part_tokens(new.kind, new.text, new.tool, new.input, new.output, new.error)"
_TOKENS_OF_OLD = "mimomem_part_tokens(old.kind, old.text, old.tool, old.input, old.output, old.error)"
_INDEXED = "(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'indexed')"
"""The largest part id in ``part_fts``: parts above it are indexed when the write batch ends."""
_TRIGGERS = [
    f"CREATE TRIGGER parts_ad AFTER DELETE ON parts WHEN old.id <= {_INDEXED} BEGIN "
    f"INSERT INTO part_fts(part_fts, rowid, tokens) VALUES ('delete', old.id, {_TOKENS_OF_OLD}); END",
    f"CREATE TRIGGER parts_au AFTER UPDATE OF kind, text, tool, input, output, error ON parts"
    f" WHEN old.id <= {_INDEXED} BEGIN "
    f"INSERT INTO part_fts(part_fts, rowid, tokens) VALUES ('delete', old.id, {_TOKENS_OF_OLD}); "
    f"INSERT INTO part_fts(rowid, tokens) VALUES (new.id, {_TOKENS_OF_NEW}); END",
]
_SCHEMA_1_TRIGGERS = ("parts_ai", "parts_ad", "parts_au")
INDEX_CHUNK = 2048
"""Parts read, tokenized and indexed at a time by ``index_new``."""


def input_summary(raw: str | None) -> str:
    """The string values of a tool's JSON input, space-joined (command, file path, pattern...)."""
    if not raw:
        return ""
    try:
        data = json.loads(raw)
    except ValueError:
        return raw[:2000]
    if isinstance(data, str):
        return data[:2000]
    if not isinstance(data, dict):
        return ""
    return " ".join(v[:2000] for v in data.values() if isinstance(v, str))


def searchable_text(
    kind: str, text: str | None, tool: str | None, raw_input: str | None, output: str | None, error: str | None
) -> str:
    """What of a part is searched: its text, or a tool call's name, input, error and output head."""
    if kind != "tool":
        return text or ""
    pieces = [tool or "", input_summary(raw_input), error or "", (output or "")[:INDEXED_OUTPUT]]
    return "\n".join(p for p in pieces if p)


def _part_tokens(
    kind: str, text: str | None, tool: str | None, raw_input: str | None, output: str | None, error: str | None
) -> str:
    return shadow_tokens(searchable_text(kind, text, tool, raw_input, output, error))


# --- connection and schema ---


def connect(path: Path) -> sqlite3.Connection:
    private_database(path)
    conn = sqlite3.connect(os.fspath(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.text_factory = _lenient_text  # a row stored as bad UTF-8 (another writer) must not stop every reader
    try:
        conn.create_function("mimomem_part_tokens", 6, _part_tokens, deterministic=True)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _refuse_foreign(conn, path)  # before the journal mode: switching it would change the file
        use_journal(conn)  # WAL only where SQLite has no WAL-reset bug (mimomem.common.journal)
        with transaction(conn):
            _migrate(conn, path)
            _check_tokenizer(conn)
            index_new(conn)  # parts written outside a batch by a process that stopped before indexing them
    except BaseException:
        conn.close()
        raise
    return conn


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version == SCHEMA_VERSION:
        return
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"{path} was written by a newer mimomem (schema {version}, this one knows {SCHEMA_VERSION}); "
            f"upgrade mimomem, or delete the file (it is a cache of the transcripts) and import again"
        )
    if version == 0:
        for sql in _SCHEMA:
            conn.execute(sql)
    else:  # schema 1: every part indexed by an insert trigger
        for name in _SCHEMA_1_TRIGGERS:
            conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('indexed', (SELECT coalesce(max(id), 0) FROM parts))")
    for sql in _TRIGGERS:
        conn.execute(sql)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


HISTORY_TABLES = frozenset({"meta", "sources", "sessions", "messages", "parts"})
"""Tables every version of the history schema has: a file without them is not a history database."""


def _refuse_foreign(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database that has tables but not the history schema's (an agent's own database?).

    Checked whatever its ``user_version``: another program's database may set one too, and
    must never be told to be "a cache" that can be deleted.
    """
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    if names and (version == 0 or not HISTORY_TABLES.issubset(names)):
        raise HistoryError(
            f"{path} holds tables but is not a mimomem history database (is it an agent's own database?); "
            "pass another --db; that file was not changed"
        )


def _check_tokenizer(conn: sqlite3.Connection) -> None:
    """Rebuild ``part_fts`` when the bigram tokenizer changed since it was filled."""
    wanted = bigram_tokenizer_id()
    row = conn.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
    if row is not None and row[0] == wanted:
        return
    conn.execute("INSERT INTO part_fts(part_fts) VALUES ('delete-all')")
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('indexed', '0')")
    index_new(conn)
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('tokenizer', ?)", (wanted,))


def index_new(conn: sqlite3.Connection) -> int:
    """Add the parts above the ``indexed`` mark to ``part_fts``, tokenized in batches; move the mark."""
    row = conn.execute("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'indexed'").fetchone()
    done = start = int(row[0]) if row is not None else 0
    count = 0
    while True:
        rows = conn.execute(
            "SELECT id, kind, text, tool, input, output, error FROM parts WHERE id > ? ORDER BY id LIMIT ?",
            (done, INDEX_CHUNK),
        ).fetchall()
        if not rows:
            break
        bodies = [searchable_text(*r[1:]) for r in rows]
        ids = [r[0] for r in rows]
        tokens = zip(ids, shadow_tokens_many(bodies), strict=True)
        conn.executemany("INSERT INTO part_fts(rowid, tokens) VALUES (?, ?)", tokens)
        done, count = ids[-1], count + len(ids)
    if done != start:
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('indexed', ?)", (str(done),))
    return count
