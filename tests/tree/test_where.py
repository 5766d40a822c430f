"""Which project and session a call is in: every entry point agrees, and bad ids are refused before any write."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.errors import InvalidMemoryIdError
from mimomem.tree.layout import GLOBAL_ID
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate, project_names, session_projects
from mimomem.tree.writer import Writer


@pytest.fixture
def tree(tmp_path: Path) -> MemoryTree:
    return MemoryTree(tmp_path / "data" / "memory")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "app"
    (path / ".git").mkdir(parents=True)
    return path


def test_the_project_comes_from_the_git_repository_around_the_directory(tree: MemoryTree, repo: Path) -> None:
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    top, inner = locate(repo, tree=tree, env={}), locate(sub, tree=tree, env={})
    assert top.project_id == inner.project_id != GLOBAL_ID
    assert (inner.worktree, inner.project_name) == (repo, "app")
    assert project_names(tree) == {top.project_id: "app"}


def test_outside_git_the_project_is_global(tree: MemoryTree, tmp_path: Path) -> None:
    plain = tmp_path / "notes"
    plain.mkdir()
    where = locate(plain, tree=tree, env={})
    assert (where.project_id, where.project_name, where.worktree) == (GLOBAL_ID, "global", None)


def test_an_explicit_session_wins_over_the_environment(tree: MemoryTree, repo: Path) -> None:
    env = {"MIMOMEM_SESSION": "from-env"}
    assert locate(repo, tree=tree, env=env).session_id == "from-env"
    assert locate(repo, session_id="given", tree=tree, env=env).session_id == "given"
    assert locate(repo, tree=tree, env={"MIMOMEM_SESSION": ""}).session_id is None
    where = locate(repo, session_id="given", tree=tree, env={})
    assert session_projects(tree)["given"] == where.project_id


@pytest.mark.parametrize("bad", ["../x", "a/b", ".", "..", "x\x00y", "a b/../c"])
def test_an_unsafe_session_id_is_refused_and_nothing_is_recorded(tree: MemoryTree, repo: Path, bad: str) -> None:
    with pytest.raises(InvalidMemoryIdError):
        locate(repo, session_id=bad, tree=tree, env={})
    with pytest.raises(InvalidMemoryIdError):
        locate(repo, tree=tree, env={"MIMOMEM_SESSION": bad})
    assert session_projects(tree) == {}


def test_the_writer_names_the_caller_for_the_gate(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree, env={})
    assert where.writer("checkpoint-writer", task_id="T1") == Writer(
        agent="checkpoint-writer", session_id="S1", project_id=where.project_id, task_id="T1", worktree=repo
    )
    assert where.writer() == Writer("main", "S1", where.project_id, worktree=repo)  # main, as a model
    assert where.writer(delegated=True, author="user") == Writer(
        "main", "S1", where.project_id, worktree=repo, delegated=True, author="user"
    )


def test_an_unreadable_state_directory_never_stops_a_call(tree: MemoryTree, repo: Path) -> None:
    state = tree.data_dir / "state"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text("not a directory", encoding="utf-8")  # the records cannot be kept: best effort
    where = locate(repo, session_id="S1", tree=tree, env={})
    assert where.session_id == "S1"
    assert session_projects(tree) == {} and project_names(tree) == {}


def test_one_session_id_in_two_projects_gets_two_notes(tree: MemoryTree, repo: Path, tmp_path: Path) -> None:
    """MIMOMEM_SESSION=my-session in two projects shared one sessions/my-session/notes.md -> one per project."""
    other = tmp_path / "blog"
    (other / ".git").mkdir(parents=True)
    env = {"MIMOMEM_SESSION": "my-session"}
    first, second = locate(repo, tree=tree, env=env), locate(other, tree=tree, env=env)
    assert first.session_id == "my-session" and second.session_id == f"my-session.{second.project_id[:8]}"
    assert tree.notes(first.session_id) != tree.notes(second.session_id)
    tree.append_note("甲项目的笔记", first.writer())
    tree.append_note("乙项目的笔记", second.writer())
    assert "乙项目" not in tree.notes(first.session_id).read_text(encoding="utf-8")
    assert "甲项目" not in tree.notes(second.session_id).read_text(encoding="utf-8")
    again = locate(repo, tree=tree, env=env), locate(other, tree=tree, env=env)  # stable, both ways
    assert [w.session_id for w in again] == [first.session_id, second.session_id]
    owners = session_projects(tree)
    assert owners[first.session_id] == first.project_id and owners[second.session_id] == second.project_id


def test_the_session_comes_from_the_hosts_shell_when_none_is_given(tree: MemoryTree, repo: Path) -> None:
    """Claude Code's Bash has CLAUDE_CODE_SESSION_ID (the hooks' session_id), Codex's CODEX_THREAD_ID."""
    claude = {"CLAUDE_CODE_SESSION_ID": "9532e95d-b6cc-4e25-ad80-776cafec2291"}
    assert locate(repo, tree=tree, env=claude).session_id == claude["CLAUDE_CODE_SESSION_ID"]
    assert locate(repo, tree=tree, env={"CODEX_THREAD_ID": "t-1"}).session_id == "t-1"
    assert locate(repo, tree=tree, env={**claude, "MIMOMEM_SESSION": "mine"}).session_id == "mine"
    assert locate(repo, session_id="given", tree=tree, env=claude).session_id == "given"
    assert locate(repo, tree=tree, env={"CLAUDE_CODE_SESSION_ID": ""}).session_id is None


@pytest.mark.parametrize("variable", ["CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID", "MIMOMEM_SESSION"])
def test_an_unsafe_id_from_the_environment_is_refused_naming_its_variable(
    tree: MemoryTree, repo: Path, variable: str
) -> None:
    with pytest.raises(InvalidMemoryIdError, match=f"{variable}=.*--session") as caught:
        locate(repo, tree=tree, env={variable: "../../etc"})
    assert "not a usable session id" in str(caught.value)
    assert session_projects(tree) == {}
