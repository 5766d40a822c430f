"""Where a write goes: the layer shortcuts resolve for the caller's project and session, near misses are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.errors import UsageError
from mimomem.memory.targets import resolve_target
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "shop"
    (path / ".git").mkdir(parents=True)
    return path


def test_the_shortcuts_name_this_callers_files(repo: Path, tmp_path: Path) -> None:
    where = locate(repo, session_id="s-1", tree=MemoryTree(tmp_path / "memory"), env={})
    tree = where.tree
    assert resolve_target(where, "project") == str(tree.project_memory(where.project_id))
    assert resolve_target(where, "global") == str(tree.global_memory())
    assert resolve_target(where, "checkpoint") == str(tree.checkpoint("s-1"))
    assert resolve_target(where, "notes") == str(tree.notes("s-1"))
    assert resolve_target(where, "progress:T1") == str(tree.progress("s-1", "T1"))
    assert resolve_target(where, "docs/x.md") == "docs/x.md"  # a path: the gate decides


def test_session_shortcuts_need_a_session(repo: Path, tmp_path: Path) -> None:
    where = locate(repo, tree=MemoryTree(tmp_path / "memory"), env={})
    for target in ("checkpoint", "notes", "progress:T1"):
        with pytest.raises(UsageError, match="needs a session"):
            resolve_target(where, target)


@pytest.mark.parametrize("target", ["MEMORY.md", "Project", "memory://project", "session/notes", "memory:notes"])
def test_a_near_miss_is_refused_with_the_valid_targets(repo: Path, tmp_path: Path, target: str) -> None:
    where = locate(repo, tree=MemoryTree(tmp_path / "memory"), env={})
    with pytest.raises(UsageError, match="valid targets"):
        resolve_target(where, target)
