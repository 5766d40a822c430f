"""Schema, migrations from every earlier version, triggers, and tokenizer-change rebuilds."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from mimomem.search import db, lazy_index
from mimomem.search.rows import Row, delete_paths, put_rows


def _match(conn: sqlite3.Connection, backend: str, match: str) -> list[str]:
    table = db.INDEXES[backend].table
    rows = conn.execute(
        f"SELECT f.path FROM {table} JOIN memory_fts AS f ON f.id = {table}.rowid"
        f" WHERE {table} MATCH ? ORDER BY f.path",
        (match,),
    )
    return [r[0] for r in rows]


def _integrity(conn: sqlite3.Connection) -> None:
    for spec in lazy_index.built_indexes(conn):
        conn.execute(f"INSERT INTO {spec.table}({spec.table}) VALUES ('integrity-check')")


def _put(conn: sqlite3.Connection, path: str, body: str) -> None:
    with db.transaction(conn):
        put_rows(conn, [Row(path, "global", "", "free", body, "fp")])


def test_new_database_has_current_schema_journal_and_busy_timeout(tmp_path):
    from mimomem.common.journal import journal_choice

    conn = db.connect(tmp_path / "sub" / "mimomem.db")
    assert db.SCHEMA_VERSION == db.user_version(conn)
    assert journal_choice()[0] == conn.execute("PRAGMA journal_mode").fetchone()[0]  # WAL only without its bug
    assert db.BUSY_TIMEOUT_MS == conn.execute("PRAGMA busy_timeout").fetchone()[0]
    assert db.tokenizer_ids()["fts5-bigram"] == db.get_meta(conn, "tokenizer:fts5-bigram")
    assert db.get_meta(conn, "tokenizer:fts5-unicode61") is None  # lazy: built by its first query
    assert not lazy_index.is_built(conn, "fts5-unicode61")
    assert lazy_index.ensure_index(conn, "fts5-unicode61")
    assert db.tokenizer_ids()["fts5-unicode61"] == db.get_meta(conn, "tokenizer:fts5-unicode61")
    assert not lazy_index.ensure_index(conn, "fts5-unicode61")  # once
    conn.close()


def _seed_version(conn: sqlite3.Connection, version: int) -> None:
    """Rows as a database at ``version`` would hold them."""
    if version == 0:
        return
    cols = "path, scope, scope_id, type, body, fingerprint, last_indexed_at"
    rows = [
        ("/m/a.md", "global", "", "free", "部署脚本用 pnpm"),
        ("/m/b.md", "projects", "p", "memory", "port 5433 端口"),
    ]
    for row in rows:
        if version >= 3:  # writers of v3+ fill the shadow column
            conn.execute(
                f"INSERT INTO memory_fts({cols}, tokens) VALUES (?, ?, ?, ?, ?, '1', 1, ?)",
                (*row, db.shadow_tokens(row[4])),
            )
        else:
            conn.execute(f"INSERT INTO memory_fts({cols}) VALUES (?, ?, ?, ?, ?, '1', 1)", row)
    body = "port 5433 端口 postgres"
    if version >= 3:
        conn.execute(
            "UPDATE memory_fts SET body = ?, tokens = ? WHERE path = '/m/b.md'", (body, db.shadow_tokens(body))
        )
    else:
        conn.execute("UPDATE memory_fts SET body = ? WHERE path = '/m/b.md'", (body,))


SCHEMAS = Path(__file__).parent / "schemas"


def _old_database(path: Path, version: int) -> sqlite3.Connection:
    """A database exactly as a mimomem of schema ``version`` left it: the frozen SQL of each
    historical step in tests/search/schemas/ (read off that release), not today's migrations."""
    conn = sqlite3.connect(path, isolation_level=None)
    for step in range(1, version + 1):
        conn.executescript((SCHEMAS / f"v{step}.sql").read_text(encoding="utf-8"))
    assert version == db.user_version(conn)
    return conn


def _schema(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name != 'sqlite_sequence'")
    return sorted(" ".join(sql.split()) for (sql,) in rows if not sql.startswith("CREATE TABLE '"))


@pytest.mark.parametrize("version", range(1, db.SCHEMA_VERSION))
def test_migrations_still_build_each_frozen_historical_schema(tmp_path, version):
    """Editing an old migration step would change what it upgrades from: each step's result
    must stay the schema that release shipped."""
    frozen = _old_database(tmp_path / "frozen.db", version)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    assert version == db.migrate(conn, version)
    assert _schema(frozen) == _schema(conn)


@pytest.mark.parametrize("start", range(db.SCHEMA_VERSION))
def test_migrates_from_every_earlier_version(tmp_path, start):
    path = tmp_path / "old.db"
    conn = _old_database(path, start)
    _seed_version(conn, start)
    conn.close()

    conn = db.connect(path)
    assert db.SCHEMA_VERSION == db.user_version(conn)
    assert not lazy_index.is_built(conn, "fts5-unicode61")  # v5: dropped, built again by its first query
    assert lazy_index.ensure_index(conn, "fts5-unicode61")
    _integrity(conn)
    if start > 0:
        assert ["/m/a.md"] == _match(conn, "fts5-bigram", '"部署"')
        assert ["/m/b.md"] == _match(conn, "fts5-bigram", '"postgres"')
        assert ["/m/b.md"] == _match(conn, "fts5-unicode61", '"postgres"')
        assert [] == _match(conn, "fts5-unicode61", '"部署"')  # unicode61 keeps the whole Han run
        tokens = dict(conn.execute("SELECT path, tokens FROM memory_fts"))
        assert db.shadow_tokens("部署脚本用 pnpm") == tokens["/m/a.md"]
    # the migrated database behaves like a new one
    _put(conn, "/m/c.md", "新的笔记 lockfile")
    assert ["/m/c.md"] == _match(conn, "fts5-bigram", '"笔记"')
    _integrity(conn)
    conn.close()


def test_migrate_refuses_a_newer_schema(tmp_path):
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {db.SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(db.SchemaTooNewError, match="delete the database"):
        db.connect(path)


def test_update_leaves_no_stale_tokens(mem):
    conn = mem
    _put(conn, "/m/a.md", "旧的部署脚本 alpha")
    # a direct UPDATE of the content row goes through the 'delete'-command triggers
    with db.transaction(conn):
        conn.execute(
            "UPDATE memory_fts SET body = ?, tokens = ? WHERE path = '/m/a.md'",
            ("新的端口配置 beta", db.shadow_tokens("新的端口配置 beta")),
        )
    for backend in db.INDEXES:
        assert [] == _match(conn, backend, '"alpha"')
        assert ["/m/a.md"] == _match(conn, backend, '"beta"')
    assert [] == _match(conn, "fts5-bigram", '"部署"')
    assert ["/m/a.md"] == _match(conn, "fts5-bigram", '"端口"')
    # and so does a replacement through put_rows (delete + insert)
    _put(conn, "/m/a.md", "gamma only")
    for backend in db.INDEXES:
        assert [] == _match(conn, backend, '"beta"')
        assert ["/m/a.md"] == _match(conn, backend, '"gamma"')
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(memory_bigram_idx, 'row')")
    assert [("gamma",), ("only",)] == conn.execute("SELECT term FROM v ORDER BY term").fetchall()
    _integrity(conn)


def test_delete_removes_tokens_and_ids_only_grow(mem):
    conn = mem
    _put(conn, "/m/a.md", "alpha")
    first = conn.execute("SELECT id FROM memory_fts").fetchone()[0]
    _put(conn, "/m/a.md", "alpha again")
    second = conn.execute("SELECT id FROM memory_fts").fetchone()[0]
    assert second > first
    with db.transaction(conn):
        assert 1 == delete_paths(conn, ["/m/a.md", "/m/missing.md"])
    assert [] == _match(conn, "fts5-bigram", '"alpha"')
    assert [] == _match(conn, "fts5-unicode61", '"alpha"')
    _integrity(conn)
    _put(conn, "/m/b.md", "beta")
    assert conn.execute("SELECT id FROM memory_fts").fetchone()[0] > second  # AUTOINCREMENT never reuses


def test_changed_tokenizer_rebuilds_the_index(tmp_path):
    path = tmp_path / "t.db"
    conn = db.connect(path)
    _put(conn, "/m/a.md", "部署脚本 pnpm")
    # pretend an older tokenizer wrote different tokens
    with db.transaction(conn):
        conn.execute("UPDATE memory_fts SET tokens = 'stale tokens'")
        db.set_meta(conn, "tokenizer:fts5-bigram", "mimomem-bigram 0 probe-old")
    assert ["/m/a.md"] == _match(conn, "fts5-bigram", '"stale"')
    epoch = db.generation(conn)[0]
    conn.close()

    conn = db.connect(path)
    assert db.tokenizer_ids()["fts5-bigram"] == db.get_meta(conn, "tokenizer:fts5-bigram")
    assert [] == _match(conn, "fts5-bigram", '"stale"')
    assert ["/m/a.md"] == _match(conn, "fts5-bigram", '"部署 署脚"')
    assert db.generation(conn)[0] == epoch + 1
    assert [] == db.ensure_tokenizers(conn)  # nothing left to do
    _integrity(conn)
    conn.close()


def test_changed_unicode61_spec_rebuilds_that_index(mem):
    conn = mem
    _put(conn, "/m/a.md", "hello world")

    db.set_meta(conn, "tokenizer:fts5-unicode61", "unicode61 remove_diacritics 0")
    assert ["fts5-unicode61"] == db.ensure_tokenizers(conn)
    assert ["/m/a.md"] == _match(conn, "fts5-unicode61", '"hello"')
    _integrity(conn)


def test_shadow_tokens_round_trip_through_the_ascii_tokenizer(mem):
    conn = mem
    body = "部署脚本用pnpm ＡＰＩ５４３３ memory_fts_idx Crème ｶﾞ 한국어abc v1.2.3 हिन्दी"
    _put(conn, "/m/a.md", body)
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(memory_bigram_idx, 'instance')")
    stored = [r[0] for r in conn.execute("SELECT term FROM v ORDER BY offset")]
    assert db.shadow_tokens(body).split(" ") == stored


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="sqlite3 command-line shell not installed")
def test_the_sqlite3_shell_can_read_and_check_the_database(tmp_path):
    path = tmp_path / "cli.db"
    conn = db.connect(path)
    lazy_index.ensure_index(conn, "fts5-unicode61")
    _put(conn, "/m/a.md", "部署脚本用 pnpm")
    conn.close()
    sql = (
        "SELECT f.path FROM memory_bigram_idx JOIN memory_fts f ON f.id = memory_bigram_idx.rowid "
        "WHERE memory_bigram_idx MATCH '\"部署 署脚\"';"
        "INSERT INTO memory_bigram_idx(memory_bigram_idx) VALUES ('integrity-check');"
        "SELECT count(*) FROM memory_fts_idx WHERE memory_fts_idx MATCH 'pnpm';"
    )
    out = subprocess.run(["sqlite3", str(path), sql], capture_output=True, text=True, check=True)
    assert ["/m/a.md", "1"] == out.stdout.split()
