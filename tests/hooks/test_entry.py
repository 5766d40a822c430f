"""The prompt hook served from its plan (``hooks.entry`` + ``served.plans``).

The served answer must be the slow path's answer, and a plan must never be used once anything
it was built from changed: each kind of change below makes the served path step aside (and the
hook then answers from the files, with the change in it).
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hook_calls import git_project, hook_reading_memory, hook_served, served_outside

from mimomem.curated.store import CuratedMemory
from mimomem.hooks import entry
from mimomem.served import plans
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

SID = "served-session"
PROMPT = "部署前数据库端口要改成多少？pnpm 构建"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = git_project(tmp_path, monkeypatch)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Discovered durable knowledge\n\n- 部署前数据库端口是 5433（staging 和 prod 相同）。\n",
        Writer("main", project_id=pid, worktree=repo),
    )
    store = CuratedMemory(project_root=repo)
    store.remember("decisions", "pnpm 构建用 node 20", "构建前先 pnpm install", author="user", load_when=["pnpm 构建"])
    (tmp_path / "t.jsonl").write_text("", encoding="utf-8")
    return repo


def _payload(repo: Path, prompt: str = PROMPT, cwd: Path | None = None) -> bytes:
    event = {"hook_event_name": "UserPromptSubmit", "prompt": prompt, "session_id": SID}
    event |= {"cwd": str(cwd or repo), "transcript_path": str(repo.parent / "t.jsonl")}
    return json.dumps(event, ensure_ascii=False).encode("utf-8")


def test_a_current_plan_serves_the_slow_paths_answer(repo: Path) -> None:
    raw = _payload(repo)
    assert hook_served(raw) is None  # no plan yet
    slow = hook_reading_memory(raw)
    assert "5433" in slow and "pnpm 构建用 node 20" in slow
    assert hook_served(raw) == slow
    for prompt in ("pnpm 构建失败了", "数据库端口", "nothing about it at all", "  "):
        other = _payload(repo, prompt)
        assert hook_served(other) == hook_reading_memory(other)  # one plan serves every prompt of the session


def _edit_memory(repo: Path) -> None:
    tree = MemoryTree()
    path = tree.project_memory(tree.project_id(repo).id)
    path.write_text(path.read_text(encoding="utf-8").replace("5433", "6543"), encoding="utf-8")  # by hand, in place


def _edit_keeping_size_and_mtime(repo: Path) -> None:
    tree = MemoryTree()
    path = tree.project_memory(tree.project_id(repo).id)
    before = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace("5433", "5434"), encoding="utf-8")  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the modification time put back (touch -r)


def _new_note(repo: Path) -> None:
    tree = MemoryTree()
    note = tree.session_dir(SID) / "notes.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("## Notes\n\n- 部署前数据库端口改成 7777 了\n", encoding="utf-8")


def _new_curated(repo: Path) -> None:
    CuratedMemory(project_root=repo).remember("facts", "数据库端口 8888", "部署前确认", author="user")


def _forget_curated(repo: Path) -> None:
    store = CuratedMemory(project_root=repo)
    [memory] = [m for m in store.memories() if "node 20" in m.summary]
    store.forget(memory.id)


def _hand_edit_curated(repo: Path) -> None:
    path = repo / ".memory" / "decisions" / "pnpm-构建用-node-20.md"
    path.write_text(path.read_text(encoding="utf-8").replace("node 20", "node 22"), encoding="utf-8")


def _global_memory(repo: Path) -> None:
    tree = MemoryTree()
    (tree.root / "global").mkdir(parents=True, exist_ok=True)
    (tree.root / "global" / "MEMORY.md").write_text("- 部署前数据库端口一律 9999\n", encoding="utf-8")


def _nested_repo(repo: Path) -> None:
    (repo / "src" / ".git").mkdir()  # the prompt's directory is now another project


CHANGES: dict[str, Callable[[Path], None]] = {
    "memory edited in place": _edit_memory,
    "an edit keeping size and mtime": _edit_keeping_size_and_mtime,
    "a new session note": _new_note,
    "a curated memory added": _new_curated,
    "a curated memory forgotten": _forget_curated,
    "a curated file edited by hand": _hand_edit_curated,
    "global memory written": _global_memory,
    "a nested repository": _nested_repo,
}


@pytest.mark.parametrize("change", list(CHANGES), ids=list(CHANGES))
def test_a_plan_is_never_served_after_a_change(repo: Path, change: str) -> None:
    raw = _payload(repo, cwd=repo / "src")
    hook_reading_memory(raw)
    before = hook_served(raw)
    assert before is not None
    CHANGES[change](repo)
    assert hook_served(raw) is None  # stale: the hook answers from the files
    after = hook_reading_memory(raw)
    assert after != before or change == "a nested repository"
    assert hook_served(raw) == after  # and saved a new plan


def test_a_symlinked_directory_pointed_elsewhere_is_another_project(repo: Path, tmp_path: Path) -> None:
    """The working directory is a symlink; pointed at another repository, its memory is that one's."""
    other = tmp_path / "other-repo"
    (other / ".git").mkdir(parents=True)
    tree = MemoryTree()
    pid = tree.project_id(other).id
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Discovered durable knowledge\n\n- 部署前数据库端口是 7777。\n",
        Writer("main", project_id=pid, worktree=other),
    )
    link = tmp_path / "link"
    link.symlink_to(repo)
    raw = _payload(repo, cwd=link)
    hook_reading_memory(raw)
    assert "5433" in str(hook_served(raw))
    link.unlink()
    link.symlink_to(other)
    assert hook_served(raw) is None  # the plan of the other repository is not this one
    assert "7777" in hook_reading_memory(raw) and "5433" not in hook_reading_memory(raw)


def test_the_hook_process_answers_from_the_plan(repo: Path) -> None:
    """`entry.run` (what `mimomem hook claude-code` runs) gives the same bytes whether served or not."""
    raw = _payload(repo)
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        entry.run(io.TextIOWrapper(io.BytesIO(raw)), out, io.StringIO())
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1] and "5433" in outputs[0]


def test_a_damaged_plan_is_rebuilt(repo: Path) -> None:
    raw = _payload(repo)
    slow = hook_reading_memory(raw)
    key = plans.plan_key("UserPromptSubmit", json.loads(raw), os.environ)
    path = Path(plans.plan_file(key, os.environ))
    for damage in (b"", b"\x00garbage", path.read_bytes()[:100]):
        path.write_bytes(damage)
        assert hook_served(raw) is None
        assert hook_reading_memory(raw) == slow
        assert hook_served(raw) == slow
    whole = path.read_bytes()
    for cut in (len(whole) - 1, len(whole) // 2):  # the header intact, the bulk cut: answering fails
        path.write_bytes(whole[:cut])
        stat = path.stat()
        out = io.StringIO()
        entry.run(io.TextIOWrapper(io.BytesIO(raw)), out, io.StringIO())
        assert out.getvalue() == slow  # the hook answered instead, and saved a whole plan again
        assert path.stat().st_ino != stat.st_ino and hook_served(raw) == slow


def test_other_events_and_odd_payloads_go_to_the_hook(repo: Path) -> None:
    hook_reading_memory(_payload(repo))
    start = json.dumps({"hook_event_name": "SessionStart", "session_id": SID, "cwd": str(repo)}).encode()
    odd = [start, b"[]", b"{", b"", json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": 3}).encode()]
    odd.append(_payload(repo, cwd=repo / "missing"))
    for raw in odd:
        assert hook_served(raw) is None


def test_another_environment_never_shares_a_plan(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = _payload(repo)
    hook_reading_memory(raw)
    assert hook_served(raw) is not None
    monkeypatch.setenv("MIMOMEM_SESSION_BUDGET", "900")
    assert hook_served(raw) is None


SERVED_PROBE = """
import io, json, sys
before = set(sys.modules)
from mimomem.hooks import entry
out = io.StringIO()
entry.run(sys.stdin, out, sys.stderr)
json.dump({"out": out.getvalue(), "new": sorted(set(sys.modules) - before)}, sys.__stdout__)
"""

NOT_SERVED_BY = ("mimomem.hooks.claude_code", "mimomem.tree.memory_tree", "mimomem.curated.store", "mimomem.errors")
NOT_SERVED_BY_STDLIB = ("pathlib", "dataclasses", "inspect", "hashlib", "tempfile", "datetime", "sqlite3")


def test_a_served_prompt_loads_neither_the_tree_nor_the_store(repo: Path) -> None:
    import subprocess
    import sys

    raw = _payload(repo)
    runs = [
        json.loads(
            # cwd: the project, not the checkout, whose ``mimomem/`` (no compiled twin in a clean clone's
            # non-editable install) would shadow the installed package and serve the pure twins
            subprocess.run(
                [sys.executable, "-c", SERVED_PROBE], input=raw, capture_output=True, check=True, cwd=repo
            ).stdout
        )
        for _ in range(2)
    ]
    assert runs[0]["out"] == runs[1]["out"] and "5433" in runs[1]["out"]
    assert "mimomem.hooks.claude_code" in runs[0]["new"]  # the first builds the plan
    loaded = [m for m in runs[1]["new"] if m in NOT_SERVED_BY + NOT_SERVED_BY_STDLIB]
    assert loaded == []
    assert served_outside(runs[1]["new"]) == []  # the positive rule: mimomem.layers.SERVED, SERVED_STDLIB


def test_old_plans_are_pruned(repo: Path) -> None:
    """One plan per session and directory: the plans directory keeps the newest ``MAX_PLANS``."""
    first = _payload(repo)
    hook_reading_memory(first)
    key = plans.plan_key("UserPromptSubmit", json.loads(first), os.environ)
    folder = Path(plans.plan_file(key, os.environ)).parent
    for n in range(plans.MAX_PLANS + 5):
        event = json.loads(first) | {"session_id": f"other-{n}"}
        hook_reading_memory(json.dumps(event).encode("utf-8"))
    left = list(folder.glob("*.plan"))
    assert len(left) == plans.MAX_PLANS
    newest = plans.plan_file(plans.plan_key("UserPromptSubmit", event, os.environ), os.environ)
    assert Path(newest) in left and Path(plans.plan_file(key, os.environ)) not in left


def test_plans_share_one_cross_language_lookup_file(repo: Path) -> None:
    """The cross-language table (~250 KB) is kept once in the cache directory, stamped with the shipped
    file's size and mtime, and each prompt plan names it instead of holding a copy (issue 32)."""
    from mimomem.text import xlang

    xlang.shipped.cache_clear()  # this test's cache directory
    first = _payload(repo)
    assert "5433" in hook_reading_memory(first)
    lookup = xlang.lookup_path()
    assert lookup is not None and Path(lookup).is_file()
    key = plans.plan_key("UserPromptSubmit", json.loads(first), os.environ)
    folder = Path(plans.plan_file(key, os.environ)).parent
    for n in range(3):
        hook_reading_memory(json.dumps(json.loads(first) | {"session_id": f"other-{n}"}).encode("utf-8"))
    table = Path(lookup).stat().st_size
    assert all(p.stat().st_size < table / 4 for p in folder.glob("*.plan"))  # no plan carries the table
    assert len(list(Path(lookup).parent.glob("xlang-*.lookup"))) == 1
    mixed = _payload(repo, "数据库端口 before deploy")  # "deploy" looked up in the mapped table
    answer = hook_reading_memory(mixed)
    assert "5433" in answer and hook_served(mixed) == answer
    Path(lookup).unlink()  # the cache cleared: the plans naming it step aside, the next plan writes it again
    assert hook_served(first) is None
    again = hook_reading_memory(first)
    assert "5433" in again and Path(lookup).is_file() and hook_served(first) == again
