"""Trust-boundary fault 5 (history part): one bad item wedged ``history import`` and the passes.

``history import`` crashed on every run, never reaching later transcripts, on deep nesting, a
field of the wrong JSON type, a lone surrogate or a numeric timestamp like ``1e308``; a
far-future timestamp (``1e15`` ms) imported and then crashed dream, checkpoint and every history
command; one secret anywhere in the history stopped ``checkpoint`` and ``distill --write``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mimomem.history.agent_db import import_agent_db
from mimomem.history.claude_code import import_claude_code
from mimomem.history.history_store import HistoryStore
from mimomem.history.records import iso_day, iso_time
from mimomem.passes.base import PassContext
from mimomem.passes.checkpoint import run_checkpoint
from mimomem.passes.distill import run_distill
from mimomem.passes.dream import run_dream
from mimomem.passes.wording import absolute_dates
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate

ROOT = Path(__file__).resolve().parents[2]
SECRET = "AKIAZ7QH3KX5MRW2TPLE"
NOW = int(time.time() * 1000)


def _user(uid: str, sid: str, cwd: str, text: Any, when: Any = "2026-11-28T09:00:00Z") -> dict[str, Any]:
    return {"type": "user", "uuid": uid, "sessionId": sid, "timestamp": when, "cwd": cwd, "message": {"content": text}}


def _bash(uid: str, sid: str, cwd: str, command: str, when: str) -> list[dict[str, Any]]:
    call = f"call-{uid}"
    use = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}
    result = {"type": "tool_result", "tool_use_id": call, "content": "ok", "is_error": False}
    return [
        {"type": "assistant", "uuid": uid, "sessionId": sid, "timestamp": when, "cwd": cwd,
         "message": {"content": [use]}},
        {"type": "user", "uuid": uid + "r", "sessionId": sid, "timestamp": when, "cwd": cwd,
         "message": {"content": [result]}},
    ]  # fmt: skip


def _write(path: Path, lines: list[Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write((line if isinstance(line, str) else json.dumps(line)) + "\n")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def _bad_transcript(path: Path, cwd: str) -> None:
    deep = '{"type": "user", "uuid": "deep", "message": {"content": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    nested = json.dumps(_user("nested", "S1", cwd, [{"type": "text", "text": "x", "n": [[[[1]]]]}]))
    nested = nested.replace("[[[[1]]]]", "[" * 150 + "1" + "]" * 150)  # parses, but deeper than a session has
    _write(
        path,
        [
            deep,
            nested,
            {"type": {"an": "object"}, "uuid": "t1", "message": {"content": "x"}},
            _user("obj", {"sid": 1}, {"cwd": 1}, [{"type": {"x": 1}, "text": {"y": 2}}]),  # type: ignore[arg-type]
            '{"type": "user", "uuid": "sur", "sessionId": "S1", "message": {"content": "cut emoji \\ud83d here"}}',
            _user("huge", "S1", cwd, "a huge timestamp", 1e308),
            '{"type": "user", "uuid": "inf", "sessionId": "S1", "message": {"content": "inf"}, "timestamp": 1e309}',
            _user("future", "S1", cwd, "a far-future timestamp", 1e15),
            _user("good1", "S1", cwd, "use pnpm, not npm"),
        ],
    )


def test_bad_lines_are_skipped_and_counted_and_the_rest_imports(tmp_path: Path, project: Path) -> None:
    projects = tmp_path / "projects"
    _bad_transcript(projects / "p" / "a.jsonl", str(project))
    _write(projects / "p" / "b.jsonl", [_user("good2", "S2", str(project), "the later transcript")])
    with HistoryStore(tmp_path / "history.db") as store:
        report = import_claude_code(store, projects)
        again = import_claude_code(store, projects)
        texts = {r[0] for r in store.conn.execute("SELECT text FROM parts WHERE kind = 'text'")}
        times = [r[0] for r in store.conn.execute("SELECT time FROM messages WHERE time IS NOT NULL")]
    assert "the later transcript" in texts and "use pnpm, not npm" in texts
    assert "cut emoji \ufffd here" in texts
    assert all(t <= NOW + 86_400_000 for t in times), times
    skipped = " | ".join(report.skipped)
    for reason in ("nested too deep", "nested deeper than", "type is not a string", "time outside"):
        assert reason in skipped, report.skipped
    assert again.messages == 0 and again.parts == 0  # the offset moved past the bad lines


def _agent_db(path: Path, cwd: str) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT, title TEXT,"
        " time_created INTEGER, time_updated INTEGER);"
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER,"
        " data TEXT);"
        "CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER,"
        " time_updated INTEGER, data TEXT);"
    )
    t = 1_764_320_000_000
    conn.execute("INSERT INTO session VALUES ('ses1', NULL, ?, 'title', ?, ?)", (cwd, t, t))
    messages = [
        ("m1", json.dumps({"role": "user", "time": "not an object"})),
        ("m2", json.dumps({"role": {"an": "object"}})),
        ("m3", '{"role": "user", "x": ' + "[" * 5000 + "]" * 5000 + "}"),
        ("m4", json.dumps({"role": "assistant"})),
    ]
    conn.executemany("INSERT INTO message VALUES (?, 'ses1', ?, ?, ?)", [(i, t, t, d) for i, d in messages])
    parts = [
        ("p1", "m1", json.dumps({"type": "text", "text": "good text"})),
        ("p2", "m1", json.dumps({"type": {"x": 1}, "text": "odd type"})),
        ("p3", "m1", '{"type": "text", "text": "lone \\udc80 surrogate"}'),
        ("p4", "m4", json.dumps({"type": "tool", "tool": "bash", "state": {"status": "completed", "output": {}}})),
    ]
    conn.executemany("INSERT INTO part VALUES (?, ?, 'ses1', ?, ?, ?)", [(i, m, t, t, d) for i, m, d in parts])
    conn.execute(
        "INSERT INTO part VALUES ('p5', 'm1', 'ses1', ?, ?, ?)", (10**15, 10**15, '{"type":"text","text":"f"}')
    )
    conn.commit()
    conn.close()
    return path


def test_bad_agent_database_rows_are_skipped_and_counted(tmp_path: Path, project: Path) -> None:
    db = _agent_db(tmp_path / "mimocode.db", str(project))
    with HistoryStore(tmp_path / "history.db") as store:
        report = import_agent_db(store, db)
        texts = {r[0] for r in store.conn.execute("SELECT text FROM parts WHERE kind = 'text'")}
        future = store.conn.execute("SELECT count(*) FROM parts WHERE time > ?", (NOW + 86_400_000,)).fetchone()[0]
    assert {"good text", "lone \ufffd surrogate", "f"} <= texts and future == 0
    assert report.messages == 2 and report.skipped["message without a JSON role"] == 2, report.skipped
    assert any("surrogate" in reason for reason in report.skipped), report.skipped


def _plant_far_future(store: HistoryStore, cwd: str) -> None:
    """Rows an older mimomem stored before it checked times: far-future, bad UTF-8."""
    far = 10**15
    store.conn.execute(
        "INSERT INTO sessions(id, origin, source, cwd, project, started_at, updated_at)"
        " VALUES ('old', 'claude-code', 'x', ?, ?, ?, ?)",
        (cwd, cwd, far, far),
    )
    store.conn.execute("INSERT INTO messages(id, session_id, source, role, agent, time) VALUES ('om', 'old', 'x',"
                       " 'user', 'main', ?)", (far,))  # fmt: skip
    store.conn.execute(
        "INSERT INTO parts(uid, message_id, session_id, kind, synthetic, text, time)"
        " VALUES ('op', 'om', 'old', 'text', 0, CAST(X'6661722066757475726520ff20616c7761797320646f' AS TEXT), ?)",
        (far,),
    )
    store.index_new()


def test_far_future_rows_already_stored_do_not_crash_the_readers(tmp_path: Path, project: Path) -> None:
    assert (iso_day(10**15), iso_time(10**15), absolute_dates("yesterday", 10**15)) == (
        "unknown date",
        "unknown time",
        "yesterday",
    )
    tree = MemoryTree(tmp_path / "data" / "memory")
    db = tmp_path / "data" / "history.db"
    with HistoryStore(db) as store:
        _plant_far_future(store, str(project))
        where = locate(project, session_id="old", tree=tree, env={})
        ctx = PassContext.open(where, store, now=NOW)
        run_dream(ctx, dry_run=True)
        run_checkpoint(ctx, dry_run=True)
        run_distill(ctx, dry_run=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MIMOMEM_"))}
    env |= {"MIMOMEM_HOME": str(tmp_path / "home"), "HOME": str(tmp_path / "user")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    for args in (["search", "future"], ["evidence", "--project", str(project)]):
        run = subprocess.run(
            [sys.executable, "-m", "mimomem", "history", *args, "--db", str(db)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr


def test_one_secret_in_the_history_does_not_stop_checkpoint_or_distill(tmp_path: Path, project: Path) -> None:
    cwd = str(project)
    lines: list[Any] = []
    for n, sid in enumerate(("S1", "S2")):
        when = f"2026-11-2{n + 1}T09:00:00Z"
        lines += _bash(f"{sid}a", sid, cwd, "pnpm install", when) + _bash(f"{sid}b", sid, cwd, "pnpm test", when)
        lines += _bash(f"{sid}c", sid, cwd, f"aws configure set key {SECRET}", when)
        lines += _bash(f"{sid}d", sid, cwd, f"export AWS_ACCESS_KEY_ID={SECRET}", when)
    lines.append(_user("last", "S2", cwd, f"deploy with key {SECRET} please", "2026-11-22T10:00:00Z"))
    _write(tmp_path / "projects" / "p" / "s.jsonl", lines)
    tree = MemoryTree(tmp_path / "data" / "memory")
    with HistoryStore(tmp_path / "data" / "history.db") as store:
        import_claude_code(store, tmp_path / "projects")
        where = locate(project, session_id="S2", tree=tree, env={})
        ctx = PassContext.open(where, store, now=NOW, days=0)
        checkpoint = run_checkpoint(ctx)
        distill = run_distill(ctx, write=True)
    text = tree.checkpoint("S2").read_text(encoding="utf-8")
    assert "deploy with key" in text and SECRET not in text
    assert any("secret" in line for line in checkpoint.sections.get("Filled", []) + checkpoint.sections["Kept"])
    skills = list((project / ".claude" / "skills").glob("*/SKILL.md"))
    assert all(SECRET not in p.read_text(encoding="utf-8") for p in skills)
    assert any("likely secret" in line for line in distill.sections.get("Skipped", [])), distill.sections
    assert SECRET not in distill.render()
