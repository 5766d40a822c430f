"""SessionEnd within Claude Code's time limit: a large unread transcript is digested and promoted in
the background (one process, digest first), a small one inline as before; PreCompact always inline."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from mimomem.common import detach
from mimomem.hooks import claude_code
from mimomem.memory import carry
from mimomem.passes import promote
from mimomem.served.hosts import CLAUDE_CODE
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import parse_notes
from mimomem.tree.writer import Writer

DATA = Path(__file__).parent / "data"
SID = "4b1f7c2e-9a0d-4c3e-8f51-2d6a1b9e0c77"
MEMORY = "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。\n"


def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repo: Path, name: str) -> None:
    """A private MIMOMEM_HOME ``name`` holding the same project memory."""
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / name))
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(tree.project_memory(pid), MEMORY, Writer("main", project_id=pid, worktree=repo))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    _home(tmp_path, monkeypatch, repo, "home")
    return repo


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The argv of every detached process the hook starts (none is started)."""
    started: list[list[str]] = []
    monkeypatch.setattr(detach, "spawn_detached", lambda argv, log: started.append(list(argv)))
    return started


def transcript(project: Path, size: int) -> Path:
    """The recorded session's transcript (real Claude Code lines), repeated to at least ``size`` bytes."""
    text = (DATA / "transcript.jsonl").read_text(encoding="utf-8").replace("{cwd}", str(project))
    path = project.parent / "transcript.jsonl"
    path.write_text(text * (size // len(text.encode("utf-8")) + 1), encoding="utf-8")
    return path


def hook(name: str, project: Path, path: Path, **fields: Any) -> tuple[str, str]:
    raw = {"session_id": SID, "transcript_path": str(path), "cwd": str(project), "hook_event_name": name, **fields}
    out, err = io.StringIO(), io.StringIO()
    assert claude_code.run(io.StringIO(json.dumps(raw)), out, err) == 0
    return out.getvalue(), err.getvalue()


def run_detached(argvs: list[list[str]]) -> None:
    """Do in this process what the detached processes would have done, in order."""
    for argv in argvs:
        assert argv[1] == "-m"
        if argv[2] == "mimomem.memory.carry":
            carry.run_background(*argv[3:])
        elif argv[2] == "mimomem.passes.promote":
            promote.run_background(*argv[3:])


def memory_now(project: Path) -> tuple[list[tuple[int, str]], str]:
    """(turn and body of each notes entry, project MEMORY.md)."""
    tree = MemoryTree()
    notes = parse_notes(tree.notes(SID).read_text(encoding="utf-8"))
    return [(e.turn, e.body) for e in notes], tree.project_memory(tree.project_id(project).id).read_text("utf-8")


def test_a_large_session_end_is_digested_then_promoted_in_one_background_process(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    spawned: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = transcript(project, carry.INLINE_BYTES + 1)
    assert carry.unread_bytes(carry_where(project), str(path)) > carry.INLINE_BYTES

    out, err = hook("SessionEnd", project, path, reason="exit")

    err += capsys.readouterr().err  # the hook's notices go to the real stderr
    assert out == "" and err.count("\n") == 1 and "in the background" in err
    assert not MemoryTree().notes(SID).exists()  # nothing digested inline
    assert [argv[2:] for argv in spawned] == [["mimomem.memory.carry", str(project), SID, str(path), "exit"]]
    run_detached(spawned)
    background = memory_now(project)
    assert "Transcript digest (exit)" in background[0][0][1] and "pnpm" in background[1].split("## Rules")[1]

    # the same session ended inline, as before (limit raised), in a fresh home: the same notes and memory
    _home(tmp_path, monkeypatch, project, "inline-home")
    monkeypatch.setattr(carry, "INLINE_BYTES", path.stat().st_size)
    spawned.clear()
    assert hook("SessionEnd", project, path, reason="exit")[1] == "" and "background" not in capsys.readouterr().err
    assert MemoryTree().notes(SID).exists() and all(a[2] != "mimomem.memory.carry" for a in spawned)
    run_detached(spawned)  # a promotion the deadline cut short, if any
    assert memory_now(project) == background


def test_an_inline_session_end_past_its_deadline_hands_the_promotion_to_one_background_process(
    project: Path, monkeypatch: pytest.MonkeyPatch, spawned: list[list[str]]
) -> None:
    """A loaded machine: the inline digest leaves no time to promote.  The promotion is not left undone: it
    goes to a detached process (the one way to start one, :func:`mimomem.common.detach.spawn_detached`),
    and what that process does is what an inline promotion would have done.  (On a loaded machine the old
    test of the large session saw "promoted nothing, spawned nothing": the promotion module had bound the
    spawner at import, so its worker was a real process the test neither saw nor waited for.)"""
    path = transcript(project, 1)
    monkeypatch.setattr(claude_code, "CLAUDE_CODE", CLAUDE_CODE._replace(inline_seconds=0.0))
    assert hook("SessionEnd", project, path, reason="exit") == ("", "")
    assert MemoryTree().notes(SID).exists()  # digested inline
    assert "以后都用 pnpm" not in memory_now(project)[1]  # not promoted inline: the deadline had passed
    assert [argv[2:] for argv in spawned] == [["mimomem.passes.promote", str(project), SID]]
    run_detached(spawned)
    assert "以后都用 pnpm" in memory_now(project)[1]


def test_the_background_digest_is_not_digested_again_by_a_later_hook(project: Path, spawned: list[list[str]]) -> None:
    path = transcript(project, carry.INLINE_BYTES + 1)
    hook("SessionEnd", project, path, reason="exit")
    run_detached(spawned)
    spawned.clear()
    assert hook("SessionEnd", project, path, reason="exit") == ("", "")  # nothing unread: inline, nothing new
    assert hook("PreCompact", project, path, trigger="auto") == ("", "")
    assert spawned == [] and len(memory_now(project)[0]) == 1


def test_a_small_session_end_still_digests_inline(project: Path, spawned: list[list[str]]) -> None:
    path = transcript(project, 0)  # one copy of the recording
    assert carry.unread_bytes(carry_where(project), str(path)) == path.stat().st_size <= carry.INLINE_BYTES
    assert hook("SessionEnd", project, path, reason="exit") == ("", "")
    assert all(argv[2] != "mimomem.memory.carry" for argv in spawned)
    [(_turn, body)] = memory_now(project)[0]
    assert "Transcript digest (exit)" in body and "以后都用 pnpm" in body


def test_pre_compact_digests_a_large_transcript_inline(project: Path, spawned: list[list[str]]) -> None:
    """The digest must be in the notes before the compacted session starts again; PreCompact has no 1.5 s limit."""
    path = transcript(project, carry.INLINE_BYTES + 1)
    assert hook("PreCompact", project, path, trigger="auto") == ("", "")
    assert all(argv[2] != "mimomem.memory.carry" for argv in spawned)
    assert "Transcript digest (auto)" in memory_now(project)[0][0][1]


def carry_where(project: Path) -> Any:
    from mimomem.tree.where import locate

    return locate(project, session_id=SID, tree=MemoryTree(), env={})
