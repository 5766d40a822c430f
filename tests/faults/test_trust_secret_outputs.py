"""Fault 7 of the trust-boundaries issue, output side: every path where text leaves mimomem redacts.

``--emit-prompt`` printed secrets that the ``--model`` path redacts, the dream report printed the
secret it refused to write (and the automatic pass logged it), the injected context and MCP
results showed a secret typed into a memory file, and history.db and the pass logs were created
0644.  Each test failed on the code before its fix.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "history"))

from trajectory_fixtures import Transcript, day, make_project

from mimomem.cli import main
from mimomem.context.assemble import session_context
from mimomem.mcp.resources import read_resource
from mimomem.mcp.state import MemoryState, Options
from mimomem.passes import schedule
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate

GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # FAKE
SID = "dddddddd-4444-4444-8444-444444444444"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose history holds a decision and a failing command that carry a (fake) token."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "mm"))
    for name in ("CLAUDE_CONFIG_DIR", "MIMOMEM_SESSION", "MIMOMEM_MODEL_URL"):
        monkeypatch.delenv(name, raising=False)
    project = make_project(tmp_path)
    transcript = Transcript(SID, str(project), day(29)).user(f"We decided to deploy with the token {GITHUB_TOKEN}.")
    for _ in range(2):
        transcript.bash(f"curl -H 'Authorization: token {GITHUB_TOKEN}' https://api.github.com/x", "401", ok=False)
    transcript.write(tmp_path / ".claude" / "projects")
    return project


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out + err


def test_fault_7_emit_prompt_is_redacted(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == _run(capsys, "history", "import", "--claude-code")[0]
    for name, extra in (("dream", ["--days", "0"]), ("distill", ["--days", "0"]), ("checkpoint", ["--session", SID])):
        status, out = _run(capsys, name, "--emit-prompt", "--project", str(project), *extra)
        assert 0 == status and "<mimomem-pass" in out
        assert GITHUB_TOKEN not in out and GITHUB_TOKEN[:16] not in out, name


def test_fault_7_dream_report_does_not_show_the_refused_secret(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert 0 == _run(capsys, "history", "import", "--claude-code")[0]
    for extra in ((), ("--json",), ("--dry-run",)):
        status, out = _run(capsys, "dream", "--project", str(project), "--days", "0", *extra)
        assert 0 == status and "likely secret" in out
        assert GITHUB_TOKEN[:12] not in out, extra


def test_fault_7_the_automatic_pass_logs_no_secret(project: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert 0 == schedule.run("dream", str(project), ["--days", "0"])  # child processes: their output is on fd 1/2
    out, err = capfd.readouterr()
    assert "automatic dream" in out and GITHUB_TOKEN[:12] not in out + err


def test_fault_7_history_db_and_pass_logs_are_private(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert 0 == _run(capsys, "history", "import", "--claude-code")[0]
    db = tmp_path / "mm" / "data" / "history.db"
    for path in (db, db.with_name("history.db-wal"), db.with_name("history.db-shm")):
        if path.exists():
            assert 0o600 == stat.S_IMODE(path.stat().st_mode), path
    assert db.exists()
    started: list[Any] = []

    class Shell:  # spawn_detached waits for the shell it starts
        def wait(self) -> int:
            return 0

    def popen(args: list[str], **kwargs: Any) -> Shell:  # record instead of starting a background pass
        started.append(args)
        return Shell()

    monkeypatch.setattr(subprocess, "Popen", popen)
    where = locate(project, tree=MemoryTree())
    schedule._spawn(where, "dream")
    log = next(Path(where.tree.data_dir).rglob("*.dream.log"))
    assert 0o600 == stat.S_IMODE(log.stat().st_mode) and started


def test_fault_7_injected_context_and_mcp_results_are_redacted(project: Path) -> None:
    tree = MemoryTree()
    where = locate(project, tree=tree)
    path = tree.project_memory(where.project_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Project memory\n\n## Rules\n- deploy token: {GITHUB_TOKEN}\n", encoding="utf-8")  # by hand
    text = session_context(where).text
    assert "deploy token" in text and GITHUB_TOKEN not in text
    state = MemoryState(Options(project=str(project)))
    try:
        shown = anyio.run(state.run, read_resource, "memory://project")
    finally:
        state.close()
    assert "deploy token" in shown and GITHUB_TOKEN not in shown
    assert json.dumps(shown)  # still a plain string
