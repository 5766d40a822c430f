"""The bulk paths give the same store as the one-by-one ones: buffered import writes, the index
filled at the end of a batch (schema 2), and the two-step history search."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from trajectory_fixtures import Transcript, day, make_project, write_claude_code

from mimomem.history import search, writes
from mimomem.history.claude_code import import_claude_code
from mimomem.history.history_store import HistoryStore
from mimomem.history.records import TextPart, ToolPart
from mimomem.history.search import search_history

WORDS = ["pnpm test", "ruff check .", "数据库端口", "缓存 失败", "deploy staging", "vite 配置"]


def _messy_transcripts(projects: Path, cwd: str, seed: int) -> None:
    """Transcripts with what the buffer must get right: duplicate message ids, lines without a
    time, results of calls from another file or never made, calls never answered."""
    rng = random.Random(seed)
    for s in range(3):
        t = Transcript(f"{s:08x}-aaaa-4aaa-8aaa-{seed:012x}", cwd, day(20 + s))
        for _ in range(40):
            roll = rng.random()
            if roll < 0.3:
                t.user(rng.choice(WORDS) + f" {rng.randrange(5)}")
            else:
                t.bash(rng.choice(WORDS), "ok " * rng.randrange(1, 4), ok=rng.random() < 0.8)
        lines = t.lines
        for line in rng.sample(lines, 8):
            line.pop("timestamp", None)
        lines += [dict(x) for x in rng.sample(lines, 6)]  # the same uuids again (a resumed session)
        lines.insert(rng.randrange(len(lines)), lines.pop(rng.randrange(len(lines))))  # a result before its call
        cross = {"type": "tool_result", "tool_use_id": "toolu_elsewhere", "content": "late", "is_error": False}
        lines.append({**lines[-1], "uuid": f"x-{s}", "message": {"role": "user", "content": [cross]}})
        pending = {"type": "tool_use", "id": f"toolu_open{s}", "name": "Bash", "input": {"command": "sleep 1"}}
        lines.append({**lines[-1], "type": "assistant", "uuid": f"y-{s}", "message": {"content": [pending]}})
        t.write(projects)


def _dump(db: Path) -> dict[str, Any]:
    conn = sqlite3.connect(db)
    try:
        out: dict[str, Any] = {}
        for table in ("sessions", "messages", "parts"):
            out[table] = conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
        conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, part_fts, 'instance')")
        out["fts"] = conn.execute("SELECT term, doc, col, offset FROM temp.v ORDER BY 1, 2, 3, 4").fetchall()
        return out
    finally:
        conn.close()


def _import_twice(tmp_path: Path, limit: int, monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[Any, Any]:
    monkeypatch.setattr(writes, "LIMIT", limit)
    db = tmp_path / f"{name}.db"
    with HistoryStore(db) as store:
        first = import_claude_code(store, tmp_path / "projects").as_dict()
        with (tmp_path / "projects" / "late.jsonl").open("w", encoding="utf-8") as handle:
            late = Transcript("00000001-aaaa-4aaa-8aaa-000000000007", "/w", day(25)).bash("pnpm test", "fine")
            handle.write(late.text())
        second = import_claude_code(store, tmp_path / "projects").as_dict()
    (tmp_path / "projects" / "late.jsonl").unlink()
    return (first, second), _dump(db)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_buffered_import_equals_writing_each_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    project = make_project(tmp_path)
    write_claude_code(tmp_path / "projects", str(project))
    _messy_transcripts(tmp_path / "projects", str(project), seed)
    one_by_one = _import_twice(tmp_path, 1, monkeypatch, "one")
    assert one_by_one == _import_twice(tmp_path, 7, monkeypatch, "small")
    assert one_by_one == _import_twice(tmp_path, writes.LIMIT, monkeypatch, "bulk")
    reports, dump = one_by_one
    assert reports[0]["skipped"]["tool result without its call"] >= 3
    assert any(row[10] == "pending" for row in dump["parts"])  # parts.status of the calls never answered


def test_writes_needs_a_positive_limit(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.db") as store, pytest.raises(ValueError, match="at least 1"):
        writes.Writes(store, limit=0)


def test_parts_written_outside_a_batch_are_indexed_and_updates_reindexed(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.db") as store:
        store.put_text(TextPart("m1#0", "m1", "s1", "缓存命中率太低"))
        assert [h.message_id for h in search_history(store, "缓存")] == ["m1"]
        store.put_tool(ToolPart("m2#0", "m2", "s1", "Bash", "c1", json.dumps({"command": "pnpm test"})))
        with store.batch():
            store.finish_tool("s1", "c1", ok=False, text="ERR_PNPM_NO_SCRIPT", end_time=None)
        assert [h.message_id for h in search_history(store, "ERR_PNPM_NO_SCRIPT")] == ["m2"]
        store.put_text(TextPart("m1#0", "m1", "s1", "数据库端口"))  # changed: the old tokens leave the index
        assert search_history(store, "缓存") == []
        assert [h.message_id for h in search_history(store, "数据库端口")] == ["m1"]
        indexed = store.conn.execute("SELECT value FROM meta WHERE key = 'indexed'").fetchone()[0]
        assert int(indexed) == store.conn.execute("SELECT max(id) FROM parts").fetchone()[0]


def test_a_schema_1_store_is_upgraded_in_place(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    write_claude_code(tmp_path / "projects", str(project))
    db = tmp_path / "h.db"
    with HistoryStore(db) as store:
        import_claude_code(store, tmp_path / "projects")
        before = search_history(store, "pnpm deploy", limit=5)
        conn = store.conn
        conn.execute("DELETE FROM meta WHERE key = 'indexed'")  # as schema 1 left it, with its insert trigger
        conn.execute(
            "CREATE TRIGGER parts_ai AFTER INSERT ON parts BEGIN INSERT INTO part_fts(rowid, tokens)"
            " VALUES (new.id, mimomem_part_tokens(new.kind, new.text, new.tool, new.input, new.output, new.error));"
            " END"
        )
        conn.execute("PRAGMA user_version = 1")
    with HistoryStore(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 2
        names = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        assert names == {"parts_ad", "parts_au"}
        assert search_history(store, "pnpm deploy", limit=5) == before
        store.put_text(TextPart("new#0", "new", "s9", "kubernetes rollout"))
        assert [h.message_id for h in search_history(store, "kubernetes")] == ["new"]


def test_two_step_search_equals_one_statement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = make_project(tmp_path)
    write_claude_code(tmp_path / "projects", str(project))
    for seed in (1, 2):
        _messy_transcripts(tmp_path / "projects", str(project), seed)
    with HistoryStore(tmp_path / "h.db") as store:
        import_claude_code(store, tmp_path / "projects")
        sid = store.conn.execute("SELECT id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]
        cases: list[dict[str, Any]] = [
            {},
            {"limit": 1},
            {"limit": 200},
            {"include_synthetic": True},
            {"session_id": sid},
            {"project": str(project)},
            {"project": "/elsewhere"},
            {"since": int(day(21).timestamp() * 1000), "limit": 30},
        ]
        queries = [*WORDS, "ok", "pnpm"]
        two_step = [search_history(store, q, **kw) for q in queries for kw in cases]
        monkeypatch.setattr(search, "TWO_STEP_MAX_FETCH", 0)  # every search as one joined statement
        assert two_step == [search_history(store, q, **kw) for q in queries for kw in cases]
        assert any(len(hits) >= 30 for hits in two_step)  # tied scores, broken by part id
