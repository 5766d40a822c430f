"""Trust-boundary fault 6: incremental MiMo-Code / OpenCode import lost messages written while it ran.

The tables were read in separate snapshots and the newest time seen became the next start, so
rows a running agent committed with older times (its transaction began earlier) were never read
(2,984 of 3,000 messages under a concurrent writer).  Now: one snapshot per import, a rowid
cursor for new rows and an overlap for updated ones; every row arrives, none is counted twice.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

from mimomem.history.agent_db import import_agent_db
from mimomem.history.history_store import HistoryStore

T0 = 1_764_320_000_000
SCHEMA = (
    "CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT, title TEXT, time_created INTEGER,"
    " time_updated INTEGER);"
    "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER,"
    " data TEXT);"
    "CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER,"
    " time_updated INTEGER, data TEXT);"
)


def _add(conn: sqlite3.Connection, n: int, when: int) -> None:
    """Message ``n`` and its text part, both stamped ``when`` (one transaction, as an agent writes)."""
    with conn:
        conn.execute(
            "INSERT INTO message VALUES (?, 'ses1', ?, ?, ?)", (f"m{n:05}", when, when, json.dumps({"role": "user"}))
        )
        conn.execute(
            "INSERT INTO part VALUES (?, ?, 'ses1', ?, ?, ?)",
            (f"p{n:05}", f"m{n:05}", when, when, json.dumps({"type": "text", "text": f"message {n}"})),
        )


def _database(path: Path, count: int) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(SCHEMA)
    with conn:
        conn.execute("INSERT INTO session VALUES ('ses1', NULL, '/work/app', 't', ?, ?)", (T0, T0))
    for n in range(count):
        _add(conn, n, T0 + n * 1000)
    conn.close()


def test_rows_committed_during_and_after_an_import_with_old_times_all_arrive_once(tmp_path: Path) -> None:
    db = tmp_path / "mimocode.db"
    _database(db, 2700)
    done = threading.Event()

    def writer() -> None:  # a running agent: new rows, stamped when their transaction began (long ago)
        conn = sqlite3.connect(db, timeout=30)
        for n in range(2700, 2950):
            _add(conn, n, T0 + (n - 2700) * 10)
        conn.close()
        done.set()

    with HistoryStore(tmp_path / "history.db") as store:
        thread = threading.Thread(target=writer)
        thread.start()
        first = import_agent_db(store, db)
        thread.join(60)
        assert done.is_set()
        late = sqlite3.connect(db)
        for n in range(2950, 3000):  # committed after the import, older than anything it saw
            _add(late, n, T0 + n)
        late.close()
        second = import_agent_db(store, db)
        third = import_agent_db(store, db)
        stored = store.conn.execute("SELECT count(*) FROM messages").fetchone()[0]
        parts = store.conn.execute("SELECT count(*) FROM parts").fetchone()[0]
    assert stored == 3000 and parts == 3000
    assert first.messages + second.messages == 3000  # none counted twice
    assert third.messages == 0 and third.parts == 0


def test_an_update_committed_late_with_an_older_time_is_read_again(tmp_path: Path) -> None:
    db = tmp_path / "mimocode.db"
    _database(db, 10)
    with HistoryStore(tmp_path / "history.db") as store:
        import_agent_db(store, db)
        conn = sqlite3.connect(db)
        with conn:  # the part of message 3 completes; its writer stamped it before the newest row we saw
            conn.execute(
                "UPDATE part SET data = ?, time_updated = ? WHERE id = 'p00003'",
                (json.dumps({"type": "text", "text": "message 3, edited"}), T0 + 5000),
            )
        conn.close()
        import_agent_db(store, db)
        texts = {r[0] for r in store.conn.execute("SELECT text FROM parts")}
    assert "message 3, edited" in texts
