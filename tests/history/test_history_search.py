"""Searching the history with the bigram engine; the store is a cache that rebuilds itself."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from trajectory_fixtures import SID_A, SID_B, SID_C, SID_D, make_project, write_claude_code, write_mimocode

from mimomem.errors import HistoryError, SchemaTooNewError
from mimomem.history.agent_db import import_agent_db
from mimomem.history.claude_code import import_claude_code
from mimomem.history.history_store import HistoryStore
from mimomem.history.search import search_history


def _filled(tmp_path: Path) -> tuple[Path, Path]:
    project = make_project(tmp_path)
    db = tmp_path / "data" / "history.db"
    with HistoryStore(db) as store:
        write_claude_code(tmp_path / "projects", str(project))
        import_claude_code(store, tmp_path / "projects")
        import_agent_db(store, write_mimocode(tmp_path / "mimocode.db", str(project)))
    return db, project


def test_chinese_and_english_queries(tmp_path: Path) -> None:
    db, _ = _filled(tmp_path)
    with HistoryStore(db) as store:
        zh = search_history(store, "数据库端口")
        assert SID_C == zh[0].session_id
        assert "<<数据库端口>>" in zh[0].snippet
        en = search_history(store, "deploy staging", limit=3)
        assert 3 == len(en)
        assert {"Bash"} >= {h.tool for h in en if h.kind == "tool"}
        assert search_history(store, "ERR_PNPM_NO_SCRIPT")[0].tool == "Bash"
        assert [] == search_history(store, "？！。")
        assert [] == search_history(store, "kubernetes")


def test_filters_and_injected_text(tmp_path: Path) -> None:
    db, project = _filled(tmp_path)
    with HistoryStore(db) as store:
        assert {SID_A, SID_B, SID_C, SID_D} == {h.session_id for h in search_history(store, "pnpm", limit=50)}
        assert {SID_B} == {h.session_id for h in search_history(store, "pnpm", session_id=SID_B, limit=50)}
        assert [] == search_history(store, "pnpm", project="/somewhere/else")
        assert search_history(store, "pnpm", project=str(project))
        assert [] == search_history(store, "injected context")
        assert search_history(store, "injected context", include_synthetic=True)
        with pytest.raises(ValueError, match="limit"):
            search_history(store, "pnpm", limit=0)
        hit = search_history(store, "SQLite cache")[0].as_dict()
        assert hit["time"].startswith("2026-11-29T") and hit["session_id"] == SID_B


def test_the_index_follows_updates_and_deletes(tmp_path: Path) -> None:
    db, _ = _filled(tmp_path)
    with HistoryStore(db) as store:
        assert search_history(store, "rejected")
        store.conn.execute("UPDATE parts SET error = 'refused by remote' WHERE error = 'rejected'")
        assert [] == search_history(store, "rejected")
        assert search_history(store, "refused remote")
        store.conn.execute("DELETE FROM parts WHERE session_id = ?", (SID_C,))
        assert [] == search_history(store, "数据库端口")
        check = store.conn.execute("INSERT INTO part_fts(part_fts, rank) VALUES ('integrity-check', 1)")
        assert check is not None


def test_a_new_tokenizer_rebuilds_the_index(tmp_path: Path) -> None:
    db, _ = _filled(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = 'an older tokenizer' WHERE key = 'tokenizer'")
    conn.execute("INSERT INTO part_fts(part_fts) VALUES ('delete-all')")  # as if its tokens were stale
    conn.commit()
    conn.close()
    with HistoryStore(db) as store:
        assert search_history(store, "数据库端口")


def test_schema_versions(tmp_path: Path) -> None:
    db, _ = _filled(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaTooNewError, match="newer mimomem"):
        HistoryStore(db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 0")
    conn.commit()
    conn.close()
    with pytest.raises(HistoryError, match="not a mimomem history database"):
        HistoryStore(db)


def test_an_agent_database_passed_as_the_store_is_refused_untouched(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    agent = write_mimocode(tmp_path / "mimocode.db", str(project))
    before = agent.read_bytes()
    with pytest.raises(HistoryError, match="not a mimomem history database"):
        HistoryStore(agent)
    assert before == agent.read_bytes()


@pytest.mark.parametrize(
    "query",
    [
        '"unterminated',
        "a AND b OR NOT c",
        "NEAR(pnpm test, 3)",
        "pnpm*",
        "^pnpm",
        "col:pnpm",
        "'; DROP TABLE parts; --",
        "\x00pnpm",
    ],
)
def test_query_syntax_is_text_to_search_for(tmp_path: Path, query: str) -> None:
    """FTS5 operators in a query are words, never syntax: no error, and the plain words still match."""
    db, _ = _filled(tmp_path)
    with HistoryStore(db) as store:
        hits = search_history(store, query, limit=5)
        assert all(h.session_id for h in hits)
        if "pnpm" in query:
            assert hits, query
        assert store.conn.execute("SELECT count(*) FROM parts").fetchone()[0] > 0  # nothing was dropped


def test_the_limit_and_the_session_filter_hold(tmp_path: Path) -> None:
    db, _ = _filled(tmp_path)
    with HistoryStore(db) as store:
        assert len(search_history(store, "pnpm", limit=2)) == 2
        only_b = search_history(store, "pnpm", limit=50, session_id=SID_B)
        assert only_b and {h.session_id for h in only_b} == {SID_B}
        assert search_history(store, "pnpm", session_id="no-such-session") == []
        assert search_history(store, "pnpm", project=str(tmp_path / "elsewhere")) == []
