"""A Claude Code session replayed from recorded hook payloads (tests/hooks/data/*.json)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mimomem.hooks import claude_code
from mimomem.tree.store import MemoryTree

DATA = Path(__file__).parent / "data"
SID = "4b1f7c2e-9a0d-4c3e-8f51-2d6a1b9e0c77"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with project memory in a private MIMOMEM_HOME."""
    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。\n\n"
        "## Discovered durable knowledge\n\n- 数据库端口是 5433（staging 和 prod 都一样）。\n",
        agent="main",
        project_id=pid,
        worktree=repo,
    )
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text(
        (DATA / "transcript.jsonl").read_text(encoding="utf-8").replace("{cwd}", str(repo)), encoding="utf-8"
    )
    return repo


def payload(name: str, repo: Path) -> str:
    text = (DATA / name).read_text(encoding="utf-8")
    return text.replace("{cwd}", str(repo)).replace("{transcript}", str(repo.parent / "transcript.jsonl"))


def call(raw: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert claude_code.run(io.StringIO(raw), out, err) == 0
    return out.getvalue(), err.getvalue()


def context_of(stdout: str, event: str) -> str:
    data = json.loads(stdout)
    assert data["hookSpecificOutput"]["hookEventName"] == event
    return str(data["hookSpecificOutput"]["additionalContext"])


def test_session_start_injects_project_memory(project: Path) -> None:
    out, err = call(payload("session_start_startup.json", project))
    assert err == ""
    text = context_of(out, "SessionStart")
    assert "数据库端口是 5433" in text
    assert "# Memory system" in text
    assert "(none yet)" not in text


def test_chinese_prompt_brings_relevant_memory(project: Path) -> None:
    out, _ = call(payload("user_prompt_zh.json", project))
    assert "5433" in context_of(out, "UserPromptSubmit")


def test_unrelated_prompt_adds_nothing(project: Path) -> None:
    out, err = call(payload("user_prompt_unrelated.json", project))
    assert (out, err) == ("", "")


def test_pre_compact_digest_comes_back_after_compaction(project: Path) -> None:
    out, err = call(payload("pre_compact.json", project))
    assert (out, err) == ("", "")
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert "以后都用 pnpm" in notes
    assert "pnpm run deploy:staging" in notes
    assert "Missing script" in notes  # the error, then the fix
    assert "subagent prompt" not in notes
    text = context_of(call(payload("session_start_compact.json", project))[0], "SessionStart")
    assert "## Session notes" in text and "以后都用 pnpm" in text


def test_digest_is_incremental(project: Path) -> None:
    call(payload("pre_compact.json", project))
    call(payload("session_end.json", project))  # nothing new in the transcript since
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert notes.count("Transcript digest") == 1


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "{",
        "[1, 2]",
        '{"hook_event_name": "SessionStart"}',
        '{"hook_event_name": "SessionStart", "session_id": "../../etc", "cwd": "/"}',
        '{"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": "relative/dir", "prompt": "x"}',
        '{"hook_event_name": "PreCompact", "session_id": "s1", "cwd": "/", "transcript_path": "/nonexistent.jsonl"}',
        '{"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": "/", "prompt": 3}',
        "x" * (claude_code.MAX_PAYLOAD_BYTES + 10),
    ],
)
def test_bad_input_fails_open(raw: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    out, err = call(raw)
    assert out == ""
    assert err.startswith("mimomem hook: ") and err.count("\n") == 1
    assert not (tmp_path / "home" / "data" / "memory" / "sessions").exists()


def test_symlinked_transcript_is_refused(project: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "transcript.jsonl")
    raw = payload("pre_compact.json", project).replace(str(tmp_path / "transcript.jsonl"), str(link))
    out, err = call(raw)
    assert out == "" and "cannot read the transcript" in err


def test_unknown_event_is_silent(project: Path) -> None:
    raw = json.dumps({"hook_event_name": "PostToolUse", "session_id": SID, "cwd": str(project)})
    assert call(raw) == ("", "")


def test_hook_command_end_to_end(project: Path) -> None:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "mimomem", "hook", "claude-code"],
        input=payload("session_start_startup.json", project),
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "5433" in context_of(proc.stdout, "SessionStart")


@pytest.mark.parametrize(
    ("prompt", "relevant"),
    [
        ('"部署" OR NEAR(数据库 端口) AND title:*', True),
        ("数据库端口" * 20_000, True),
        ("\x00\ud800 端口 5433", True),
        (")))((( ^^^ -- ;", False),
    ],
)
def test_hostile_prompts_get_the_relevant_memory_or_nothing(project: Path, prompt: str, relevant: bool) -> None:
    """Query syntax, a 100,000-character prompt, NUL and a lone surrogate are text: the memory
    about the database port still reaches the model, within the host's output limit; a prompt
    with no word in common with any memory gets no output at all. (The hook's CPU cost is
    measured in benchmarks/bench_hook.py against ``python -c pass``, not timed here.)"""
    raw = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": SID, "cwd": str(project), "prompt": prompt})
    out, err = call(raw)
    assert err == ""
    if not relevant:
        assert out == ""
        return
    assert len(out.encode("utf-16-le")) // 2 <= 10_000
    text = context_of(out, "UserPromptSubmit").replace("<<", "").replace(">>", "")  # snippet highlights
    assert "数据库端口是 5433（staging 和 prod 都一样）" in text
