"""A new session's SessionStart served from its project's plan (``hooks.entry_session``).

The served text must be the hook's for the same memory, for any new session id, and the plan must
never be used once anything the context (or the hook's promotion) depends on changed, nor for a
session that is not new: each case below makes the served path step aside, and the hook then
answers from the files.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hook_calls import git_project, hook_reading_memory, hook_served, served_outside

from mimomem.context.assemble import session_context
from mimomem.curated.store import CuratedMemory
from mimomem.hooks import entry, entry_session
from mimomem.served import plans
from mimomem.served.hosts import CLAUDE_CODE
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate
from mimomem.tree.writer import Writer

FIRST = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
NEW_IDS = (
    "9b2d7c1a-5e4f-4a3b-8c6d-0e1f2a3b4c5d",  # Claude Code's shape
    "s",  # another length: other instructions tokens, another room for the rebuild blocks
    "ghp_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2",  # looks like a secret: redacted in the instructions
    "a" * 128,
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = git_project(tmp_path, monkeypatch)
    monkeypatch.setenv("MIMOMEM_SESSION_BUDGET", "4000")  # the default, set: the budget change below is undone
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    rules = "".join(
        f"- 第{i}条：部署前数据库端口是 {5000 + i}，先跑 pnpm 构建。\n" for i in range(100)
    )  # room for the instructions' paths
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Rules\n\n" + rules + "\n## Discovered durable knowledge\n\n- 端口 5433。\n",
        Writer("main", project_id=pid, worktree=repo),
    )
    store = CuratedMemory(project_root=repo)
    store.remember("decisions", "pnpm 构建用 node 20", "构建前先 pnpm install", author="user", load_when=["pnpm 构建"])
    store.remember("rules", "never push to main", "open a pull request", author="user")
    return repo


def _start(repo: Path, sid: str, *, source: str = "startup", cwd: Path | None = None, transcript: str = "") -> bytes:
    event = {"hook_event_name": "SessionStart", "source": source, "session_id": sid, "cwd": str(cwd or repo)}
    event["transcript_path"] = transcript or str(repo.parent / f"{sid[:40]}.jsonl")
    return json.dumps(event).encode("utf-8")


def _planned(repo: Path) -> None:
    """A first session started (the hook, which saves the project's plan)."""
    assert "5433" in hook_reading_memory(_start(repo, FIRST))


def test_a_new_session_is_served_the_hooks_text_whatever_its_id(repo: Path) -> None:
    assert hook_served(_start(repo, NEW_IDS[0])) is None  # no plan yet
    _planned(repo)
    for sid in NEW_IDS:
        raw = _start(repo, sid)
        served = hook_served(raw)
        assert served is not None
        _forget_session(sid)  # the served start made the session's directory: the hook would see it started
        assert served == hook_reading_memory(raw)  # the hook registers the session and saves the plan again
        if sid.startswith("ghp_"):
            assert sid not in served and "[redacted" in served


def _forget_session(sid: str) -> None:
    import shutil

    shutil.rmtree(MemoryTree().session_dir(sid))


def test_both_starts_make_the_sessions_notes_before_the_agent_is_told_to_append(repo: Path) -> None:
    """The instructions name ``notes.md``; Claude Code's agent appends to it from its first turn."""
    tree = MemoryTree()
    _planned(repo)
    for sid, start in ((FIRST, None), (NEW_IDS[0], hook_served)):
        if start is not None:
            assert start(_start(repo, sid)) is not None  # served
        notes = tree.notes(sid)
        assert notes.is_file() and str(tree.session_dir(sid)) in hook_reading_memory(_start(repo, sid, source="resume"))
        assert os.stat(notes).st_mode & 0o777 == 0o600 and os.stat(notes.parent).st_mode & 0o777 == 0o700
        assert notes.read_text(encoding="utf-8").startswith("# Session notes")
    notes.write_text(notes.read_text(encoding="utf-8") + "\n## [turn 1 · 2026-12-07T10:00Z]\nmine\n", encoding="utf-8")
    hook_reading_memory(_start(repo, NEW_IDS[0], source="resume"))
    assert notes.read_text(encoding="utf-8").endswith("mine\n")  # never written over


def test_the_plans_text_is_the_librarys_session_context(repo: Path) -> None:
    """The hook answers a new session from the plan; ``session_context`` (``mimomem context``) reads the files."""
    _planned(repo)
    for sid in NEW_IDS:
        served = hook_served(_start(repo, sid))
        where = locate(repo, session_id=sid, tree=MemoryTree())
        expected = session_context(where, budget=entry_session.BUDGET_DEFAULT, char_cap=CLAUDE_CODE.safe_chars)
        assert served == entry.hook_output("SessionStart", expected.text)


def _edit_memory(repo: Path, sid: str) -> None:
    tree = MemoryTree()
    path = tree.project_memory(tree.project_id(repo).id)
    path.write_text(path.read_text(encoding="utf-8").replace("5433", "6543"), encoding="utf-8")  # by hand, in place


def _new_topic(repo: Path, sid: str) -> None:
    tree = MemoryTree()
    (tree.project_dir(tree.project_id(repo).id) / "memory-deploy.md").write_text("# Deploy\n\n- 用 pnpm\n")


def _new_curated(repo: Path, sid: str) -> None:
    CuratedMemory(project_root=repo).remember("rules", "always run pytest", "before a push", author="user")


def _forget_curated(repo: Path, sid: str) -> None:
    store = CuratedMemory(project_root=repo)
    [memory] = [m for m in store.memories() if "never push" in m.summary]
    store.forget(memory.id)


def _global_memory(repo: Path, sid: str) -> None:
    tree = MemoryTree()
    (tree.root / "global").mkdir(parents=True, exist_ok=True)
    (tree.root / "global" / "MEMORY.md").write_text("# Global\n\n## Rules\n\n- 回答用中文\n", encoding="utf-8")


def _nested_repo(repo: Path, sid: str) -> None:
    (repo / "src" / ".git").mkdir()  # the session's directory is now another project


def _pending(repo: Path, sid: str) -> None:
    """The first session's transcript grew since its promotion: the hook promotes it first."""
    line = {"type": "user", "message": {"role": "user", "content": "以后部署都用 pnpm，不要再用 npm。"}}
    (repo.parent / f"{FIRST}.jsonl").write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")


def _other_session(repo: Path, sid: str) -> None:
    """Another session of the project registered by its prompt, with a transcript to promote."""
    transcript = repo.parent / "other.jsonl"
    line = {"type": "user", "message": {"role": "user", "content": "以后日志都写到 /var/log/shop。"}}
    transcript.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "日志", "session_id": "other", "cwd": str(repo)}
    hook_reading_memory(json.dumps({**prompt, "transcript_path": str(transcript)}).encode())


def _checkpoint(repo: Path, sid: str) -> None:
    """The starting session has a checkpoint: it is not new."""
    path = MemoryTree().checkpoint(sid)
    path.parent.mkdir(parents=True)
    path.write_text("# Checkpoint\n\n## Current state\n\n- 端口迁移做了一半\n", encoding="utf-8")


def _registered(repo: Path, sid: str) -> None:
    """The starting session was registered before (a prompt, a note): it is not new."""
    locate(repo, session_id=sid, tree=MemoryTree())


def _budget(repo: Path, sid: str) -> None:
    os.environ["MIMOMEM_SESSION_BUDGET"] = "900"  # undone by the fixture's monkeypatch (it set the variable)


CHANGES: dict[str, Callable[[Path, str], None]] = {
    "memory edited in place": _edit_memory,
    "a project topic file added": _new_topic,
    "a curated memory added": _new_curated,
    "a curated memory forgotten": _forget_curated,
    "global memory written": _global_memory,
    "a nested repository": _nested_repo,
    "a pending promotion": _pending,
    "another session's promotion pending": _other_session,
    "a checkpoint of the session": _checkpoint,
    "the session registered": _registered,
    "another session budget": _budget,
}
SAME_TEXT = ("the session registered",)
"""Changes the text does not show: the plan still must not be used."""
NOT_NEW = ("a checkpoint of the session", "the session registered")
"""Changes that make the starting session not new: the hook answers it from its files and saves no plan."""


@pytest.mark.parametrize("change", list(CHANGES), ids=list(CHANGES))
def test_a_plan_is_never_served_after_a_change(repo: Path, change: str) -> None:
    _planned(repo)
    sid = NEW_IDS[0]
    raw = _start(repo, sid, cwd=repo / "src")
    hook_reading_memory(_start(repo, "builds-the-plan-here", cwd=repo / "src"))
    before = hook_served(raw)
    assert before is not None
    _forget_session(sid)  # as if never started: only the change may stop the plan
    CHANGES[change](repo, sid)
    assert hook_served(raw) is None  # the hook answers from the files
    after = hook_reading_memory(raw)
    assert (after != before) == (change not in SAME_TEXT)
    if change == "a pending promotion":
        tree = MemoryTree()
        promoted = tree.project_memory(tree.project_id(repo).id).read_text(encoding="utf-8")
        assert "不要再用 npm" in promoted  # promoted before the context was read
    other, third = (_start(repo, sid, cwd=repo / "src") for sid in NEW_IDS[1:3])
    if change in NOT_NEW:
        hook_reading_memory(other)  # the next new session's hook saves the plan again
    served = hook_served(third)
    _forget_session(NEW_IDS[2])
    assert served == hook_reading_memory(third)


@pytest.mark.parametrize("source", ["resume", "compact"])
def test_resume_and_compact_go_to_the_hook(repo: Path, source: str) -> None:
    """They read the transcript's recent prompts and the session's own memory: never served."""
    _planned(repo)
    transcript = repo.parent / "resumed.jsonl"
    said = "把部署脚本里的数据库端口改成 6000，然后先跑一遍 pytest 再提交，别忘了同步更新 staging 的配置。"
    line = {"type": "user", "message": {"role": "user", "content": said}}
    transcript.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    raw = _start(repo, NEW_IDS[0], source=source, transcript=str(transcript))
    assert hook_served(raw) is None
    assert said in hook_reading_memory(raw)


def test_a_session_whose_transcript_has_content_goes_to_the_hook(repo: Path) -> None:
    """Its new promotion marker would be pending: the hook registers and promotes it."""
    _planned(repo)
    transcript = repo.parent / "early.jsonl"
    transcript.write_text('{"type": "summary"}\n', encoding="utf-8")
    assert hook_served(_start(repo, NEW_IDS[0], transcript=str(transcript))) is None
    transcript.write_text("", encoding="utf-8")
    assert hook_served(_start(repo, NEW_IDS[0], transcript=str(transcript))) is not None


def test_session_end_leaves_a_current_plan_for_the_next_session(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session that had prompts changed the promotion state: its SessionEnd, after the digest and
    the promotion, saves the plan the next new session is served from.

    The inline budget is widened: on a loaded machine the 0.6 s is missed and the promotion goes to a
    background process instead (tests/hooks/test_session_end_size.py covers that path); this test is
    about what a SessionEnd that finished leaves behind, and failed under load for that reason alone."""
    from mimomem.hooks import claude_code

    monkeypatch.setattr(claude_code, "CLAUDE_CODE", CLAUDE_CODE._replace(inline_seconds=60.0))
    _planned(repo)
    transcript = repo.parent / f"{FIRST}.jsonl"
    lines = [
        {"type": "user", "message": {"role": "user", "content": "以后部署前都先跑 pytest。"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "好的。"}]}},
    ]
    transcript.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "部署", "session_id": FIRST, "cwd": str(repo)}
    hook_reading_memory(json.dumps({**prompt, "transcript_path": str(transcript)}).encode())
    raw = _start(repo, NEW_IDS[0])
    assert hook_served(raw) is None  # the first session's transcript is pending
    end = {"hook_event_name": "SessionEnd", "reason": "exit", "session_id": FIRST, "cwd": str(repo)}
    assert hook_reading_memory(json.dumps({**end, "transcript_path": str(transcript)}).encode()) == ""
    served = hook_served(raw)
    assert served is not None and "pytest" in served
    assert served == hook_reading_memory(raw)


def test_a_damaged_plan_is_rebuilt(repo: Path) -> None:
    _planned(repo)
    raw = _start(repo, NEW_IDS[0])
    expected = hook_served(raw)
    key = entry_session.start_key(str(repo), os.environ)
    path = Path(plans.plan_file(key, os.environ))
    for damage in (b"", b"\x00garbage", path.read_bytes()[:100]):
        _forget_session(NEW_IDS[0])
        path.write_bytes(damage)
        out = io.StringIO()
        entry.run(io.TextIOWrapper(io.BytesIO(raw)), out, io.StringIO())  # a damaged plan: the hook answers
        assert out.getvalue() == expected
        assert hook_served(_start(repo, NEW_IDS[1])) is not None  # and saved a new plan
        _forget_session(NEW_IDS[1])


@pytest.mark.parametrize("sid", ["../escape", "bad id", ".hidden", "", "a" * 129])
def test_an_unsafe_session_id_is_neverhook_served(repo: Path, sid: str) -> None:
    _planned(repo)
    raw = _start(repo, sid, transcript=str(repo.parent / "t.jsonl"))
    assert hook_served(raw) is None
    assert hook_reading_memory(raw) == ""  # the hook refuses it too


SERVED_PROBE = """
import io, json, sys
before = set(sys.modules)
from mimomem.hooks import entry
out = io.StringIO()
entry.run(sys.stdin, out, sys.stderr)
json.dump({"out": out.getvalue(), "new": sorted(set(sys.modules) - before)}, sys.__stdout__)
"""

NOT_SERVED_BY = (
    "mimomem.hooks.claude_code",
    "mimomem.hooks.session_start",
    "mimomem.tree.memory_tree",
    "mimomem.tree.where",
    "mimomem.curated.store",
    "mimomem.passes.promote_state",
    "mimomem.errors",
)
NOT_SERVED_BY_STDLIB = ("pathlib", "typing", "dataclasses", "inspect", "hashlib", "tempfile", "datetime", "sqlite3")


def test_a_served_start_loads_neither_the_tree_nor_the_store(repo: Path) -> None:
    import subprocess
    import sys

    def run(sid: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-c", SERVED_PROBE], input=_start(repo, sid), capture_output=True, check=True
        )
        found: dict[str, object] = json.loads(done.stdout)
        return found

    first, second = run(FIRST), run(NEW_IDS[0])
    assert "mimomem.hooks.claude_code" in first["new"]  # type: ignore[operator]  # the first builds the plan
    assert second["out"] == hook_reading_memory(_start(repo, NEW_IDS[0])) and "5433" in str(second["out"])
    loaded = [m for m in second["new"] if m in NOT_SERVED_BY + NOT_SERVED_BY_STDLIB]  # type: ignore[attr-defined]
    assert loaded == []
    assert served_outside(second["new"]) == []  # type: ignore[arg-type]  # the positive rule: mimomem.layers.SERVED
