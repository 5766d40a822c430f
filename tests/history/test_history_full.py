"""history.db when SQLite cannot grow (SQLITE_FULL, "database or disk is full"): the import that hit
it is undone whole, what was imported before stays, the transcript is read again next time, and the
command line says what to do.  history.db is the one database that is no rebuildable cache.

SQLite writes through its own C file layer, so ``os.open`` faults never reach it; a database pinned
at its size (``PRAGMA max_page_count``) fails exactly as a full disk makes it fail.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

import pytest
from trajectory_fixtures import SID_B, Transcript, day, make_project, session_a

from mimomem.cli.exits import database_advice
from mimomem.history.claude_code import import_claude_code
from mimomem.history.history_store import HistoryStore


def _pin(store: HistoryStore, pages: int | None = None) -> None:
    size = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages or size}")


def test_an_import_on_a_full_database_is_undone_whole_and_redone_later(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    projects = tmp_path / "projects"
    session_a(str(project)).write(projects)
    with HistoryStore(tmp_path / "data" / "history.db") as store:
        import_claude_code(store, projects)
        before = store.counts()
        assert before["sessions"] == 1
        big = Transcript(SID_B, str(project), day(2))
        for n in range(40):  # more than the free room in the database's last pages
            big = big.user(f"step {n}: " + "部署流程说明 deploy notes " * 60)
        big.write(projects)
        _pin(store)
        with pytest.raises(sqlite3.OperationalError, match="full"):
            import_claude_code(store, projects)
        assert store.counts() == before  # nothing half-written: the transaction was rolled back
        _pin(store, 1 << 30)  # room again
        import_claude_code(store, projects)
        after = store.counts()
    assert after["sessions"] == 2 and after["messages"] > before["messages"]


def test_the_command_line_says_the_disk_is_full_not_that_another_process_holds_it(tmp_path: Path) -> None:
    args = argparse.Namespace(db_used=str(tmp_path / "history.db"), db_what="history database", db=None)
    advice = database_advice(args, sqlite3.OperationalError("database or disk is full"))
    assert "full" in advice and "free" in advice and "another process" not in advice
    locked = database_advice(args, sqlite3.OperationalError("database is locked"))
    assert "another process" in locked
