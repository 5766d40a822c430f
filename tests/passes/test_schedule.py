"""Automatic dream / distill: per project, opt-in, interval-gated, started once, never blocking."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mimomem.passes import schedule
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import Where, locate

DAY = schedule.DAY


@pytest.fixture
def where(tmp_path: Path) -> Where:
    repo = tmp_path / "app"
    (repo / ".git").mkdir(parents=True)
    found = locate(repo, session_id="s1", tree=MemoryTree(tmp_path / "data" / "memory"))
    born = time.time() - 40 * DAY  # the project was first seen 40 days ago
    os.utime(found.tree.data_dir / "state" / "projects" / found.project_id, (born, born))
    return found


ON = {"MIMOMEM_AUTO_DREAM": "1", "MIMOMEM_AUTO_DISTILL": "1"}


def test_off_by_default(where: Where) -> None:
    assert not schedule.due(where, "dream", now=time.time(), env={})


def test_due_once_per_interval_per_project(where: Where, monkeypatch: pytest.MonkeyPatch) -> None:
    spawned: list[str] = []
    monkeypatch.setattr(schedule, "_spawn", lambda w, kind: spawned.append(kind))
    now = time.time()
    assert schedule.start_due_passes(where, env=ON, now=now) == ["dream", "distill"]
    assert schedule.start_due_passes(where, env=ON, now=now + 60) == []  # recorded before starting
    assert schedule.start_due_passes(where, env=ON, now=now + 8 * DAY) == ["dream"]
    assert spawned == ["dream", "distill", "dream"]


def test_young_project_and_writing_off_are_skipped(where: Where) -> None:
    now = time.time()
    assert not schedule.due(where, "distill", now=now - 20 * DAY, env=ON)  # 20 days old then
    off = Where(
        MemoryTree(where.tree.root, write_enabled=False),
        where.project_id,
        where.project_name,
        where.worktree,
        where.session_id,
    )
    assert not schedule.due(off, "dream", now=now, env=ON)


def test_interval_from_the_environment(where: Where) -> None:
    now = time.time()
    schedule.record_run(where, "dream", now - 2 * DAY)
    assert not schedule.due(where, "dream", now=now, env=ON)
    assert schedule.due(where, "dream", now=now, env={**ON, "MIMOMEM_DREAM_INTERVAL_DAYS": "1"})


def test_session_end_hook_starts_due_passes(where: Where, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from mimomem.hooks import claude_code

    spawned: list[str] = []
    monkeypatch.setattr(schedule, "_spawn", lambda w, kind: spawned.append(kind))
    monkeypatch.setattr(claude_code, "_where", lambda payload, env: where)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type":"user","message":{"role":"user","content":"hi"}}\n', encoding="utf-8")
    payload = {
        "hook_event_name": "SessionEnd",
        "session_id": "s1",
        "cwd": str(where.worktree),
        "transcript_path": str(transcript),
        "reason": "exit",
    }
    assert claude_code.handle(payload, env={"MIMOMEM_AUTO_DREAM": "1"}) == ""
    assert spawned == ["dream"]


def test_the_background_job_runs_the_cli_as_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """History import, then the pass, each ``python -m mimomem``; the pass's status is the job's."""
    ran: list[list[str]] = []

    def fake_run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        ran.append(args)
        return subprocess.CompletedProcess(args, 3 if "history" in args else 0)  # a failed import still runs the pass

    monkeypatch.setattr(subprocess, "run", fake_run)
    assert 0 == schedule.run("distill", "/p", ["--days", "0"])
    python = [sys.executable, "-m", "mimomem"]
    assert ran == [
        [*python, "history", "import", "--claude-code"],
        [*python, "distill", "--project", "/p", "--no-model", "--days", "0"],
    ]
