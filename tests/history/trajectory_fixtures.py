"""Realistic agent histories written by the tests: Claude Code JSONL transcripts and a MiMo-Code database.

Three Claude Code sessions of one project (Chinese and English) and one MiMo-Code session:

- A (2026-11-28, Chinese): "以后都用 pnpm。"; ``pnpm run deploy:staging`` fails with
  ERR_PNPM_NO_SCRIPT, package.json is edited, the retry works; ``pnpm test``.
- B (2026-11-29, English): "Always run ruff check before committing." and "We decided to
  use SQLite for the cache."; ``ruff check .`` then ``pnpm test``; the same deploy failure
  and the same fix; a commit.
- C (2026-11-30, Chinese): "记住：测试数据库端口是 5433。"; ``ruff check .`` then ``pnpm test``.
- D (MiMo-Code, 2026-11-30, English): "From now on, never push directly to main.";
  ``pnpm test`` and an edit.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

SID_A = "aaaaaaaa-1111-4111-8111-111111111111"
SID_B = "bbbbbbbb-2222-4222-8222-222222222222"
SID_C = "cccccccc-3333-4333-8333-333333333333"
SID_D = "ses_d4d4d4d4mimo"
DEPLOY_ERROR = "ERR_PNPM_NO_SCRIPT Missing script: deploy:staging"


@dataclass
class Transcript:
    """Builds the lines of one Claude Code transcript, ten seconds apart."""

    sid: str
    cwd: str
    start: datetime
    lines: list[dict[str, Any]] = field(default_factory=list)
    n: int = 0

    def _stamp(self) -> str:
        self.n += 1
        return (self.start + timedelta(seconds=10 * self.n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")

    def _base(self, kind: str) -> dict[str, Any]:
        return {
            "parentUuid": None,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.sid,
            "version": "2.0.14",
            "type": kind,
            "uuid": f"{self.sid[:8]}-{self.n + 1}",
            "timestamp": self._stamp(),
        }

    def user(self, text: str) -> Transcript:
        line = self._base("user")
        line["message"] = {"role": "user", "content": text}
        self.lines.append(line)
        return self

    def tool(self, name: str, data: dict[str, Any], result: str, *, ok: bool = True) -> Transcript:
        call = f"toolu_{self.sid[:4]}{self.n}"
        line = self._base("assistant")
        line["message"] = {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": call, "name": name, "input": data}],
        }
        self.lines.append(line)
        back = self._base("user")
        back["message"] = {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": call, "content": result, "is_error": not ok}],
        }
        self.lines.append(back)
        return self

    def bash(self, command: str, result: str = "ok", *, ok: bool = True) -> Transcript:
        return self.tool("Bash", {"command": command}, result, ok=ok)

    def edit(self, path: str) -> Transcript:
        return self.tool(
            "Edit", {"file_path": path, "old_string": "a", "new_string": "b"}, "The file has been updated."
        )

    def text(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)

    def write(self, projects: Path) -> Path:
        folder = projects / ("-" + self.cwd.strip("/").replace("/", "-"))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.sid}.jsonl"
        path.write_text(self.text(), encoding="utf-8")
        return path


def day(d: int, hour: int = 9) -> datetime:
    return datetime(2026, 11, d, hour, 0, 0, tzinfo=timezone.utc)


def session_a(cwd: str) -> Transcript:
    return (
        Transcript(SID_A, cwd, day(28))
        .user("把部署脚本改成用 pnpm。以后都用 pnpm。")
        .bash("pnpm install", "Done in 2.1s")
        .bash("pnpm run deploy:staging", DEPLOY_ERROR, ok=False)
        .edit(f"{cwd}/package.json")
        .bash("pnpm run deploy:staging", "deployed to staging")
        .bash("pnpm test", "12 passed")
    )


def session_b(cwd: str) -> Transcript:
    return (
        Transcript(SID_B, cwd, day(29))
        .user("Always run ruff check before committing. We decided to use SQLite for the cache.")
        .bash("ruff check .", "All checks passed!")
        .bash("pnpm test", "12 passed")
        .bash("cd " + cwd + " && pnpm run deploy:staging", DEPLOY_ERROR, ok=False)
        .edit(f"{cwd}/package.json")
        .bash("pnpm   run deploy:staging", "deployed to staging")
        .edit(f"{cwd}/src/cache.py")
        .bash('git commit -m "cache: SQLite"', "[main 1a2b3c4] cache: SQLite")
    )


def session_c(cwd: str) -> Transcript:
    return (
        Transcript(SID_C, cwd, day(30))
        .user("记住：测试数据库端口是 5433。")
        .bash("ls", "src tests")
        .bash("ruff check .", "All checks passed!")
        .bash("pnpm test 2>&1 | tail -5", "12 passed")
        .edit(f"{cwd}/src/cache.py")
    )


def write_claude_code(projects: Path, cwd: str) -> list[Path]:
    """Sessions A, B and C as transcripts under ``projects`` (a ``~/.claude/projects`` stand-in)."""
    return [s.write(projects) for s in (session_a(cwd), session_b(cwd), session_c(cwd))]


MIMO_SCHEMA = [
    "CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, directory TEXT, title TEXT,"
    " version TEXT, time_created INTEGER, time_updated INTEGER, last_checkpoint_message_id TEXT)",
    "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, agent_id TEXT NOT NULL DEFAULT 'main',"
    " time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL)",
    "CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,"
    " time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL)",
    "CREATE TABLE task (session_id TEXT, id TEXT, status TEXT, summary TEXT, PRIMARY KEY (session_id, id))",
]


def ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


def write_mimocode(path: Path, cwd: str) -> Path:
    """Session D in a MiMo-Code database (schema as in MiMo's session.sql.ts)."""
    conn = sqlite3.connect(path)
    for sql in MIMO_SCHEMA:
        conn.execute(sql)
    t0 = ms(day(30, 14))
    conn.execute(
        "INSERT INTO session VALUES (?, 'p1', NULL, ?, 'Push policy', '1.0', ?, ?, NULL)", (SID_D, cwd, t0, t0 + 60_000)
    )
    rows = [
        ("msg_1", "main", t0, {"role": "user", "time": {"created": t0}}),
        ("msg_2", "main", t0 + 10_000, {"role": "assistant", "time": {"created": t0 + 10_000}}),
        ("msg_3", "explore", t0 + 20_000, {"role": "user"}),
    ]
    for mid, agent, when, data in rows:
        conn.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?, ?)", (mid, SID_D, agent, when, when, json.dumps(data)))
    parts = [
        ("prt_1", "msg_1", t0, {"type": "text", "text": "From now on, never push directly to main."}),
        ("prt_2", "msg_2", t0 + 10_000, {"type": "step-start"}),
        ("prt_3", "msg_2", t0 + 11_000, _mimo_tool("call_1", "bash", {"command": "pnpm test"}, "12 passed")),
        ("prt_4", "msg_2", t0 + 12_000, _mimo_tool("call_2", "edit", {"filePath": f"{cwd}/README.md"}, "ok")),
        ("prt_5", "msg_2", t0 + 13_000, _mimo_tool("call_3", "bash", {"command": "git push"}, None, "rejected")),
        ("prt_6", "msg_2", t0 + 14_000, {"type": "hologram", "beam": 1}),
        ("prt_7", "msg_3", t0 + 20_000, {"type": "text", "text": "subagent: always say yes"}),
        ("prt_8", "msg_1", t0 + 1_000, {"type": "text", "text": "<injected context>", "synthetic": True}),
    ]
    for pid, mid, when, data in parts:
        conn.execute("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", (pid, mid, SID_D, when, when, json.dumps(data)))
    conn.commit()
    conn.close()
    return path


def _mimo_tool(
    call: str, tool: str, data: dict[str, Any], output: str | None, error: str | None = None
) -> dict[str, Any]:
    state: dict[str, Any] = {"status": "error" if error else "completed", "input": data}
    if error:
        state["error"] = error
    else:
        state["output"] = output
    return {"type": "tool", "tool": tool, "callID": call, "state": state}


def make_project(tmp: Path) -> Path:
    """A git working tree (a bare ``.git`` directory is enough for mimomem)."""
    project = tmp / "shop-api"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    return project
