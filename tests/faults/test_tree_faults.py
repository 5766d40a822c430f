"""Regression tests for the memory-tree faults of the hardening issue, one test per fault.

Each test's docstring reads "what the user saw -> what happens now".
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from mimomem import errors
from mimomem.errors import BadMemoryPathError, MimomemError, ProjectIdError, WriteDeniedError
from mimomem.tree import gate as gate_mod
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.names import MAX_NAME_BYTES
from mimomem.tree.project import ID_FILE, ProjectIdentity, project_id
from mimomem.tree.writer import Writer


class Env:
    def __init__(self, tmp: Path) -> None:
        self.root = tmp / "data" / "memory"
        (self.root / "sessions").mkdir(parents=True)
        self.wt = tmp / "wt"
        self.wt.mkdir()
        self.outside = tmp / "outside"
        self.outside.mkdir()
        self.tree = MemoryTree(self.root)
        self.main = Writer(agent="main", session_id="S1", project_id="P1", worktree=self.wt)

    def m(self, rel: str) -> Path:
        return self.root / rel


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return Env(tmp_path)


def _names(directory: Path) -> list[bytes]:
    return sorted(os.listdir(os.fsencode(directory))) if directory.exists() else []


# --- fault 1: names that are not UTF-8 ---


@pytest.mark.parametrize("name", ["\udcff.md", "\ud800.md", "a\udcfeb.md", "\udcc3\udca9.md"])
@pytest.mark.parametrize("op", ["write", "create", "append"])
def test_fault_gate_refuses_names_that_are_not_utf8(env, name, op):
    """write() created '\\xff.md' (or raised a raw UnicodeEncodeError) -> InvalidFileNameError naming it escaped."""
    with pytest.raises(errors.InvalidFileNameError) as caught:
        getattr(env.tree, op)(env.m("sessions/S1") / name, "x", env.main)
    assert isinstance(caught.value, BadMemoryPathError)
    message = str(caught.value)
    assert "UTF-8" in message and ("\\x" in message or "\\u" in message)
    message.encode("utf-8")  # the message itself can be printed and stored
    assert [] == _names(env.m("sessions/S1"))


# --- fault 11: raw OS errors out of write / delete ---


def test_fault_long_names_get_a_clear_refusal(env):
    """A 242-255 byte name failed with ENAMETOOLONG about the temp file -> refused up front, the limit named."""
    s1 = env.m("sessions/S1")
    fits = "a" * (MAX_NAME_BYTES - 3) + ".md"
    env.tree.write(s1 / fits, "x", env.main)
    assert (s1 / fits).read_text() == "x"
    for size in (MAX_NAME_BYTES + 1, 242, 255, 300):
        name = "b" * (size - 3) + ".md"
        limit = MAX_NAME_BYTES if size <= 255 else 255
        with pytest.raises(errors.InvalidFileNameError, match=f"{size} bytes.*{limit} bytes"):
            env.tree.write(s1 / name, "x", env.main)
    wide = "é" * 120 + ".md"  # 243 bytes in UTF-8, 123 characters
    with pytest.raises(errors.InvalidFileNameError, match="bytes"):
        env.tree.write(s1 / wide, "x", env.main)
    assert [os.fsencode(fits)] == _names(s1)


@pytest.mark.parametrize("op", ["write", "create", "append", "delete"])
def test_fault_target_is_a_directory(env, op):
    """IsADirectoryError escaped from write / delete -> BadMemoryPathError saying it is a directory."""
    target = env.m("sessions/S1/x.md")
    target.mkdir(parents=True)
    args = (target,) if op == "delete" else (target, "x")
    with pytest.raises(BadMemoryPathError, match="directory"):
        getattr(env.tree, op)(*args, env.main)
    assert target.is_dir() and [] == os.listdir(target)


def test_fault_parent_is_a_regular_file(env):
    """FileExistsError escaped when projects/<pid> was a file -> BadMemoryPathError naming it."""
    (env.root / "projects").mkdir()
    env.m("projects/P1").write_text("not a directory")
    with pytest.raises(BadMemoryPathError, match="not a directory"):
        env.tree.write(env.tree.project_memory("P1"), "x", env.main)
    assert env.m("projects/P1").read_text() == "not a directory"


def test_fault_project_id_file_is_a_fifo(tmp_path):
    """`mimomem paths` hung on a FIFO at .git/mimomem-project-id -> ProjectIdError at once."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    os.mkfifo(repo / ".git" / ID_FILE)
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(project_id(repo))
        except Exception as exc:  # the assertion below names it
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(5)
    if worker.is_alive():  # unblock the reader so the thread ends, then fail
        os.close(os.open(repo / ".git" / ID_FILE, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail("project_id blocked on a FIFO")
    assert len(outcome) == 1 and isinstance(outcome[0], ProjectIdError), outcome
    assert "regular file" in str(outcome[0]) and "delete" in str(outcome[0])


def test_fault_commondir_is_a_fifo(tmp_path):
    """A FIFO at .git/worktrees/<w>/commondir hung the id lookup -> the worktree's own git dir is used."""
    main = tmp_path / "main"
    admin = main / ".git" / "worktrees" / "w"
    admin.mkdir(parents=True)
    os.mkfifo(admin / "commondir")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {admin}\n")
    done: list[ProjectIdentity] = []
    worker = threading.Thread(target=lambda: done.append(project_id(wt)), daemon=True)
    worker.start()
    worker.join(5)
    if worker.is_alive():
        os.close(os.open(admin / "commondir", os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail("project_id blocked on a FIFO commondir")
    assert done and done[0].git_dir == admin


# --- fault 12: nested paths in the tree ---


@pytest.mark.parametrize(
    "rel", ["projects/P1/a/b.md", "sessions/S1/deep/x.md", "global/a/b.md", "sessions/S1/memory-x/y.md"]
)
def test_fault_nested_memory_paths_are_refused(env, rel):
    """The gate accepted projects/<pid>/a/b.md although the README refuses it -> BadMemoryPathError."""
    with pytest.raises(BadMemoryPathError, match="sub-director"):
        env.tree.write(env.m(rel), "x", env.main)
    assert not env.m(rel).parent.exists()


def test_fault_readme_states_the_nested_path_rule():
    """The README said nested paths were refused while the gate took them -> both say 'no sub-directories'."""
    readme = (Path(__file__).resolve().parents[2] / "docs" / "guide.md").read_text(encoding="utf-8")
    assert "no sub-directories (except a task's own `sessions/<sid>/tasks/<TID>/`)" in readme
    assert "no sub-directories" in (gate_mod.__doc__ or "")


def test_fault_nested_task_paths_keep_their_own_rule(env):
    """(unchanged) a subagent still writes anywhere below its own tasks/<TID>/."""
    target = env.m("sessions/S1/tasks/T1/a/b.md")
    env.tree.write(target, "x", env.main._replace(task_id="T1"))
    assert target.read_text() == "x"


# --- fault 9: a parent swapped for a symlink between the verdict and the write ---


def test_fault_swapped_parent_creates_nothing_outside(env, monkeypatch):
    """Directories were created outside the root before the swap was noticed -> nothing outside changes."""
    real_check = gate_mod.check_write

    def check_then_swap(*args: object, **kwargs: object) -> Path:
        verdict = real_check(*args, **kwargs)  # type: ignore[arg-type]
        os.rename(env.m("sessions"), env.m("sessions.old"))
        env.m("sessions").symlink_to(env.outside)
        return verdict

    monkeypatch.setattr(gate_mod, "check_write", check_then_swap)
    with pytest.raises(WriteDeniedError, match="symlink"):
        env.tree.write(env.tree.notes("S1"), "x", env.main)
    assert [] == os.listdir(env.outside)


# --- fault 10: agent names that look like a restricted agent ---


@pytest.mark.parametrize(
    "agent",
    [
        "checkpoint\u2010writer",  # hyphen
        "checkpoint\u2013writer",  # en dash
        "checkpoint\u2212writer",  # minus sign
        "checkpoint writer",
        "checkpointwriter",
        "d\u0433eam",  # Cyrillic ge
        "distill\x00",
        "checkpoint_writer",
        "Dream",
        "dream\u200b",
        "\u0501istill",  # Cyrillic komi de
        "di\u0455till",  # Cyrillic dze
        "DISTILL",
        "distiII",  # capital i for l
        "drearn",  # rn for m
        "dr\u00e9am",
    ],
)
def test_fault_lookalike_agent_names_are_refused(env, agent):
    """Spellings like 'checkpoint‐writer' ran as unrestricted agents -> InvalidAgentNameError."""
    with pytest.raises(errors.InvalidAgentNameError) as caught:
        env.tree.check_write(env.tree.notes("S1"), env.main._replace(agent=agent))
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, MimomemError)
    str(caught.value).encode("utf-8")


@pytest.mark.parametrize("agent", ["main\x00", "ma\x1bin", "main\n", "x\x7f"])
def test_fault_control_characters_in_agent_names_are_refused(env, agent):
    """Control characters in an agent name were accepted -> InvalidAgentNameError."""
    with pytest.raises(errors.InvalidAgentNameError, match="control"):
        env.tree.check_write(env.tree.notes("S1"), env.main._replace(agent=agent))


@pytest.mark.parametrize("agent", ["main", "checkpoint-writer", "dream", "distill", "dream-helper", "general", "审阅"])
def test_fault_exact_and_unrelated_agent_names_still_work(env, agent):
    """(unchanged) exact restricted names and unrelated names are accepted."""
    target = env.tree.notes("S1") if agent != "checkpoint-writer" else env.tree.checkpoint("S1")
    assert env.tree.check_write(target, env.main._replace(agent=agent)) == target
