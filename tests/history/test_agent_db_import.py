"""MiMo-Code and OpenCode histories -> the history store: read-only, incremental, clear errors."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from trajectory_fixtures import SID_D, day, make_project, ms, write_mimocode

from mimomem.errors import HistoryLockedError, HistorySourceError
from mimomem.history import agent_db
from mimomem.history.agent_db import import_agent_db, mimocode_db
from mimomem.history.history_store import HistoryStore
from mimomem.history.opencode import import_opencode


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "data" / "history.db") as opened:
        yield opened


@pytest.fixture
def mimo(tmp_path: Path) -> tuple[Path, Path]:
    project = make_project(tmp_path)
    return write_mimocode(tmp_path / "mimocode.db", str(project)), project


def test_mimocode_sessions_messages_and_parts(store: HistoryStore, mimo: tuple[Path, Path]) -> None:
    db, project = mimo
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    report = import_agent_db(store, db)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert (1, 1, 3, 6) == (report.sources, report.sessions, report.messages, report.parts)
    assert {"unknown part type 'hologram'": 1} == dict(report.skipped)
    session = store.conn.execute("SELECT origin, project, title FROM sessions WHERE id = ?", (SID_D,)).fetchone()
    assert ("mimocode", str(project), "Push policy") == session
    tools = store.conn.execute(
        "SELECT tool, status, output, error, time FROM parts WHERE kind = 'tool' ORDER BY time"
    ).fetchall()
    t0 = ms(day(30, 14))
    assert [
        ("bash", "completed", "12 passed", None, t0 + 11_000),
        ("edit", "completed", "ok", None, t0 + 12_000),
        ("bash", "error", None, "rejected", t0 + 13_000),
    ] == tools
    texts = store.conn.execute(
        "SELECT p.text, p.synthetic, m.agent FROM parts p JOIN messages m ON m.id = p.message_id"
        " WHERE p.kind = 'text' ORDER BY p.time"
    ).fetchall()
    assert [
        ("From now on, never push directly to main.", 0, "main"),
        ("<injected context>", 1, "main"),
        ("subagent: always say yes", 0, "explore"),
    ] == texts


def test_mimocode_import_is_incremental(store: HistoryStore, mimo: tuple[Path, Path]) -> None:
    db, _ = mimo
    import_agent_db(store, db)
    again = import_agent_db(store, db)
    assert (0, 0, 0) == (again.sessions, again.messages, again.parts)
    later = ms(day(30, 15))
    conn = sqlite3.connect(db)
    conn.execute(
        "INSERT INTO part VALUES ('prt_9', 'msg_1', ?, ?, ?, ?)",
        (SID_D, later, later, json.dumps({"type": "text", "text": "以后都用 pnpm"})),
    )
    conn.commit()
    conn.close()
    assert 1 == import_agent_db(store, db).parts


def test_a_read_only_database_file_is_fine(store: HistoryStore, mimo: tuple[Path, Path]) -> None:
    db, _ = mimo
    db.chmod(0o444)
    try:
        assert 6 == import_agent_db(store, db).parts
    finally:
        db.chmod(0o644)


def test_a_locked_database_is_a_clear_error(
    store: HistoryStore, mimo: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = mimo
    monkeypatch.setattr(agent_db, "WAIT_SECONDS", 0.1)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(HistoryLockedError, match="locked by a running agent"):
            import_agent_db(store, db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert 0 == store.counts()["sessions"]  # nothing half-imported
    assert 6 == import_agent_db(store, db).parts


def test_another_schema_or_a_non_database_is_a_clear_error(tmp_path: Path, store: HistoryStore) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE session (id TEXT)")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    with pytest.raises(HistorySourceError, match=r"missing message\.id, message\.session_id"):
        import_agent_db(store, other)
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just text " * 100)
    with pytest.raises(HistorySourceError, match="not an SQLite database"):
        import_agent_db(store, text)
    with pytest.raises(HistorySourceError, match="no database file"):
        import_agent_db(store, tmp_path / "missing.db")


def test_mimocode_db_location(tmp_path: Path) -> None:
    assert tmp_path / "x.db" == mimocode_db(None, {"MIMOCODE_DB": str(tmp_path / "x.db")})
    assert tmp_path / "data" / "mimocode.db" == mimocode_db(None, {"MIMOCODE_HOME": str(tmp_path)})
    (tmp_path / "dir").mkdir()
    assert tmp_path / "dir" / "mimocode.db" == mimocode_db(tmp_path / "dir", {})


# --- OpenCode ---


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def _opencode_storage(root: Path, cwd: str) -> Path:
    storage = root / "storage"
    t0 = ms(day(30, 16))
    _write(
        storage / "session" / "proj1" / "ses_oc1.json",
        {"id": "ses_oc1", "projectID": "proj1", "directory": cwd, "title": "oc", "time": {"created": t0}},
    )
    _write(
        storage / "session" / "proj1" / "ses_oc2.json",
        {"id": "ses_oc2", "parentID": "ses_oc1", "directory": cwd, "time": {"created": t0}},
    )
    _write(
        storage / "message" / "ses_oc1" / "msg_a.json",
        {"id": "msg_a", "sessionID": "ses_oc1", "role": "user", "time": {"created": t0}},
    )
    _write(
        storage / "message" / "ses_oc1" / "msg_b.json",
        {"id": "msg_b", "sessionID": "ses_oc1", "role": "assistant", "time": {"created": t0 + 5000}},
    )
    _write(
        storage / "message" / "ses_oc2" / "msg_c.json",
        {"id": "msg_c", "sessionID": "ses_oc2", "role": "user", "time": {"created": t0 + 6000}},
    )
    _write(
        storage / "part" / "msg_a" / "prt_1.json",
        {"id": "prt_1", "sessionID": "ses_oc1", "messageID": "msg_a", "type": "text", "text": "总是先跑 lint"},
    )
    _write(
        storage / "part" / "msg_b" / "prt_2.json",
        {
            "id": "prt_2",
            "sessionID": "ses_oc1",
            "messageID": "msg_b",
            "type": "tool",
            "tool": "bash",
            "callID": "c1",
            "state": {"status": "completed", "input": {"command": "pnpm lint"}, "output": "ok"},
        },
    )
    _write(
        storage / "part" / "msg_b" / "prt_3.json",
        {"id": "prt_3", "sessionID": "ses_oc1", "messageID": "msg_b", "type": "step-finish"},
    )
    _write(
        storage / "part" / "msg_c" / "prt_4.json",
        {"id": "prt_4", "sessionID": "ses_oc2", "messageID": "msg_c", "type": "text", "text": "sub prompt"},
    )
    (storage / "part" / "msg_b" / "prt_bad.json").write_text("{not json")
    return storage


def test_opencode_json_storage(tmp_path: Path, store: HistoryStore) -> None:
    project = make_project(tmp_path)
    _opencode_storage(tmp_path / "opencode", str(project))
    report = import_opencode(store, tmp_path / "opencode")
    assert (2, 3, 3) == (report.sessions, report.messages, report.parts)
    assert {"record file not readable JSON": 1} == dict(report.skipped)
    rows = store.conn.execute(
        "SELECT p.text, p.tool, p.status, m.agent FROM parts p JOIN messages m ON m.id = p.message_id ORDER BY p.time"
    ).fetchall()
    assert ("总是先跑 lint", None, None, "main") == rows[0]
    assert ("", "bash", "completed", "main") == rows[1]
    assert ("sub prompt", None, None, "subagent") == rows[2]
    again = import_opencode(store, tmp_path / "opencode")
    assert (0, 0, 0) == (again.sessions, again.messages, again.parts)


def test_opencode_database_file_and_bad_paths(tmp_path: Path, store: HistoryStore) -> None:
    project = make_project(tmp_path)
    db = write_mimocode(tmp_path / "opencode.db", str(project))
    report = import_opencode(store, db)
    assert 6 == report.parts
    assert "opencode" == store.conn.execute("SELECT origin FROM sessions").fetchone()[0]
    with pytest.raises(HistorySourceError, match="no OpenCode data"):
        import_opencode(store, tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(HistorySourceError, match=r"neither opencode\.db nor storage"):
        import_opencode(store, tmp_path / "empty")
