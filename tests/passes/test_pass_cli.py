"""The command line: history import / search / evidence, and dream, distill, checkpoint."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from trajectory_fixtures import SID_B, make_project, write_claude_code, write_mimocode

from mimomem.cli import main
from mimomem.history import agent_db


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with Claude Code transcripts, a MiMo-Code database and a project; returns the project."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "mm"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    monkeypatch.delenv("MIMOMEM_MODEL_URL", raising=False)
    project = make_project(tmp_path)
    write_claude_code(tmp_path / ".claude" / "projects", str(project))
    write_mimocode(tmp_path / "mimocode.db", str(project))
    return project


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_import_then_search(env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "history", "import", "--mimocode", str(tmp_path / "mimocode.db"), "--claude-code")
    assert (0, "") == (status, err)
    assert out.startswith("mimocode: 1 sources, 1 new sessions") or "claude-code: 3 sources, 3 new sessions" in out
    assert "history: 4 sessions" in out and str(tmp_path / "mm" / "data" / "history.db") in out
    status, out, _ = _run(capsys, "history", "import", "--json")
    data = json.loads(out)
    assert (0, 0) == (status, data["sources"]["claude-code"]["parts"])
    status, out, _ = _run(capsys, "history", "search", "数据库端口", "--project", str(env))
    assert 0 == status and "<<数据库端口>>" in out and "[session cccccccc-3333" in out
    status, out, err = _run(capsys, "history", "search", "kubernetes")
    assert (1, "") == (status, out) and "no match" in err
    status, out, _ = _run(capsys, "history", "search", "pnpm", "--session", SID_B, "--json", "--limit", "2")
    assert 0 == status and {SID_B} == {h["session_id"] for h in json.loads(out)}


def test_import_problems_are_reported_and_other_sources_still_run(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(agent_db, "WAIT_SECONDS", 0.1)
    holder = sqlite3.connect(tmp_path / "mimocode.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        status, out, err = _run(
            capsys, "history", "import", "--claude-code", "--mimocode", str(tmp_path / "mimocode.db")
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert 0 == status
    assert "claude-code: 3 sources" in out
    assert "mimocode:" in err and "locked by a running agent" in err
    status, out, err = _run(capsys, "history", "import", "--opencode", str(tmp_path / "nothing"))
    assert 1 == status and "no OpenCode data" in err


def test_the_passes_from_the_command_line(env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "history", "import", "--claude-code", "--mimocode", str(tmp_path / "mimocode.db"))
    common = ["--project", str(env), "--days", "0"]
    status, out, _ = _run(capsys, "dream", "--dry-run", "--no-model", *common)
    assert 0 == status and "(dry run: nothing written)" in out and "+- 以后都用 pnpm (user, 2026-11-28" in out
    status, out, _ = _run(capsys, "dream", *common)
    assert 0 == status and "## Written" in out and "MEMORY.md" in out
    memory = next((tmp_path / "mm" / "data" / "memory" / "projects").glob("*/MEMORY.md"))
    assert "- 以后都用 pnpm (user, 2026-11-28, s:aaaaaaaa)" in memory.read_text(encoding="utf-8")
    status, out, _ = _run(capsys, "dream", "--json", *common)
    assert 0 == status and [] == json.loads(out)["consolidated"]
    status, out, _ = _run(capsys, "distill", "--write", *common)
    assert 0 == status and (env / ".claude" / "skills" / "ruff-pnpm-test" / "SKILL.md").is_file()
    status, out, _ = _run(capsys, "checkpoint", "--project", str(env), "--session", SID_B)
    assert 0 == status and "OK: all 11 sections" in out
    status, out, _ = _run(capsys, "dream", "--emit-prompt", *common)
    assert 0 == status and out.startswith('<mimomem-pass name="dream"')
    status, out, _ = _run(capsys, "history", "evidence", "--project", str(env), "--session", SID_B)
    assert 0 == status and "## Tool trace" in out and "pnpm run deploy:staging" in out


def test_usage_errors(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, "checkpoint", "--project", str(env))
    assert 2 == status and "needs a session" in err
    status, _, err = _run(capsys, "dream", "--project", str(env), "--days", "-1")
    assert 2 == status and "--days" in err
    status, _, err = _run(capsys, "dream", "--project", str(env), "--dry-run", "--emit-prompt")
    assert 2 == status and "do not combine" in err
    status, _, err = _run(capsys, "history", "search", "x", "--limit", "0")
    assert 2 == status and "--limit" in err
