"""A bulk load (no triggers, then one FTS5 'rebuild' per index) stores what row-by-row writes store."""

from __future__ import annotations

import random

import pytest

from mimomem.search import db, lazy_index
from mimomem.search import rows as rows_module
from mimomem.search.rows import Row, delete_paths, put_rows

WORDS = ["部署", "脚本", "端口", "数据库", "pnpm", "lockfile", "postgres", "5433", "Crème", "缓存"]
QUERIES = ['"部署"', '"脚本" OR "5433"', '"数据 据库"', '"creme"', '"pnpm" OR "lockfile"']


def _rows(n: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 15)))
        rows.append(Row(f"/m/{rng.randrange(n // 2)}.md", "projects", f"p{i % 3}", "memory", text, f"fp{i}"))
    return rows  # about half the paths repeat: later versions replace earlier ones


def _state(conn) -> tuple[list[tuple], dict[str, list[tuple]]]:
    """Rows in id order (a bulk load spends no ids on versions it replaces), FTS5 results by path."""
    rows = conn.execute("SELECT path, body, tokens, fingerprint FROM memory_fts ORDER BY id").fetchall()
    path_of = dict(conn.execute("SELECT id, path FROM memory_fts"))
    found = {}
    for spec in lazy_index.built_indexes(conn):
        t = spec.table
        conn.execute(f"INSERT INTO {t}({t}) VALUES ('integrity-check')")
        for q in QUERIES:
            match = q if spec.column == "tokens" else q.replace(" OR ", " ")
            sql = f"SELECT rowid, bm25({t}) FROM {t} WHERE {t} MATCH ?"
            found[f"{t} {q}"] = sorted((path_of[i], score) for i, score in conn.execute(sql, (match,)))
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").fetchall()
    return rows + triggers, found


@pytest.mark.parametrize("unicode61", [False, True], ids=["unicode61-lazy", "unicode61-built"])
@pytest.mark.parametrize("existing", [0, 300])
def test_bulk_load_equals_row_by_row(monkeypatch, existing, unicode61):
    first, second = _rows(existing, 1), _rows(2400, 2)
    states = []
    for bulk in (False, True):
        monkeypatch.setattr(rows_module, "BULK_MIN_ROWS", 1000 if bulk else 10**9)
        conn = db.connect(":memory:")
        if unicode61:  # queried before: the bulk load rebuilds it too
            assert lazy_index.ensure_index(conn, "fts5-unicode61")
        epoch, generation = db.generation(conn)
        with db.transaction(conn):
            put_rows(conn, first, now=5)
        with db.transaction(conn):
            assert put_rows(conn, second, now=7) == len(second)
        assert db.generation(conn) == (epoch, generation + (2 if first else 1))
        states.append(_state(conn))
        # the triggers are back: later row-by-row writes keep both indexes in step
        with db.transaction(conn):
            put_rows(conn, second[:5], now=9)
            delete_paths(conn, [second[7].path])
        states.append(_state(conn))
        assert unicode61 == lazy_index.is_built(conn, "fts5-unicode61")  # a bulk load never builds a lazy index
        conn.close()
    assert states[0] == states[2]
    assert states[1] == states[3]


def test_small_writes_to_a_large_table_are_row_by_row(monkeypatch):
    conn = db.connect(":memory:")
    with db.transaction(conn):
        put_rows(conn, [row._replace(path=f"/m/x{i}.md") for i, row in enumerate(_rows(1200, 3))])
    calls = []
    monkeypatch.setattr(rows_module, "bulk_load", lambda *args: calls.append(args))
    with db.transaction(conn):
        put_rows(conn, _rows(1100, 4))  # fewer rows than the table holds: triggers, no rebuild
    assert calls == []


def test_bulk_load_leaves_fts5_merging_as_it_found_it():
    conn = db.connect(":memory:")
    assert lazy_index.ensure_index(conn, "fts5-unicode61")  # queried before: rebuilt by the bulk load too
    with db.transaction(conn):
        put_rows(conn, [row._replace(path=f"/m/x{i}.md") for i, row in enumerate(_rows(1500, 5))])
    for spec in db.INDEXES.values():
        t = spec.table
        settings = dict(conn.execute(f"SELECT k, v FROM {t}_config"))
        assert rows_module.FTS5_AUTOMERGE == settings.get("automerge")  # merging was off during the rebuild only
        conn.execute(f"INSERT INTO {t}({t}) VALUES ('integrity-check')")
    conn.close()
