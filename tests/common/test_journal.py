"""WAL only on SQLite versions without the WAL-reset bug; the rollback journal otherwise."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from mimomem.common.journal import journal_choice, use_journal, wal_is_safe


@pytest.mark.parametrize(
    ("version", "safe"),
    [
        ((3, 6, 23), True),  # no WAL at all
        ((3, 7, 0), False),
        ((3, 40, 1), False),  # this machine's
        ((3, 44, 5), False),
        ((3, 44, 6), True),
        ((3, 44, 9), True),
        ((3, 45, 0), False),
        ((3, 50, 6), False),
        ((3, 50, 7), True),
        ((3, 51, 0), False),
        ((3, 51, 2), False),
        ((3, 51, 3), True),
        ((3, 52, 0), True),
        ((4, 0, 0), True),
    ],
)
def test_wal_only_where_the_wal_reset_bug_is_fixed(version: tuple[int, int, int], safe: bool) -> None:
    assert wal_is_safe(version) is safe
    mode, why = journal_choice(version)
    assert mode == ("wal" if safe and version >= (3, 7, 0) else "delete")
    assert ".".join(map(str, version)) in why


@pytest.mark.parametrize(("version", "expected"), [((3, 40, 1), "delete"), ((3, 51, 3), "wal")])
def test_use_journal_sets_the_mode_chosen(tmp_path: Path, version: tuple[int, int, int], expected: str) -> None:
    conn = sqlite3.connect(tmp_path / "x.db")
    try:
        assert use_journal(conn, version) == expected
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == expected
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == (1 if expected == "wal" else 2)  # NORMAL / FULL
    finally:
        conn.close()


def test_a_database_left_in_wal_goes_back_to_the_rollback_journal(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "x.db")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t(x)")
    conn.close()
    conn = sqlite3.connect(tmp_path / "x.db")
    try:
        assert use_journal(conn, (3, 40, 1)) == "delete"
        assert not (tmp_path / "x.db-wal").exists()
    finally:
        conn.close()


def test_the_databases_use_the_mode_for_this_sqlite(tmp_path: Path) -> None:
    from mimomem.history.history_store import HistoryStore
    from mimomem.search.db import connect

    expected = journal_choice()[0]
    conn = connect(tmp_path / "mimomem.db")
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == expected
    finally:
        conn.close()
    with HistoryStore(tmp_path / "history.db") as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == expected


def test_concurrent_writers_wait_on_the_rollback_journal(tmp_path: Path) -> None:
    """Two connections writing at once in rollback mode: the busy timeout makes the second wait."""
    from mimomem.search.db import connect

    path = tmp_path / "mimomem.db"
    connect(path).close()
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            conn = connect(path)
            try:
                for i in range(30):
                    conn.execute("BEGIN IMMEDIATE")
                    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (f"k{n}-{i}", "v"))
                    conn.execute("COMMIT")
            finally:
                conn.close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_paths_says_which_journal_and_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mimomem.cli import main

    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["paths", "--json", "--project", str(tmp_path)]) == 0
    info = json.loads(capsys.readouterr().out)
    mode, why = journal_choice()
    assert info["journal"] == f"{mode} - {why}" and info["cache_dir"] == str(tmp_path / "cache")
