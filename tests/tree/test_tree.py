from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from mimomem.errors import (
    BadMemoryPathError,
    InvalidMemoryIdError,
    MimomemError,
    NotInWriterAllowlistError,
    NotOwnerError,
    OutsideAllowedAreaError,
    ReservedForRoleError,
    ReservedTaskPathError,
    SecretRefusedError,
    WriteDeniedError,
    WritingDisabledError,
)
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import parse_notes
from mimomem.tree.writer import Writer


class Env:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.root = tmp / "data" / "memory"
        self.root.mkdir(parents=True)
        self.wt = tmp / "wt"
        self.wt.mkdir()
        self.outside = tmp / "outside"
        self.outside.mkdir()
        self.tree = MemoryTree(self.root)
        self.main = Writer(agent="main", session_id="S1", project_id="P1", worktree=self.wt)
        self.writer = self.main._replace(agent="checkpoint-writer")
        self.dream = self.main._replace(agent="dream")

    def m(self, rel: str) -> Path:
        return self.root / rel


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return Env(tmp_path)


def _files(base: Path) -> set[str]:
    return {str(p.relative_to(base)) for p in base.rglob("*") if p.is_file() or p.is_symlink()}


# --- layer paths ---


def test_layer_paths(env):
    t, r = env.tree, env.root
    assert t.global_memory() == r / "global" / "MEMORY.md"
    assert t.project_memory("P1") == r / "projects" / "P1" / "MEMORY.md"
    assert t.project_topic("P1", "db") == r / "projects" / "P1" / "memory-db.md"
    assert t.checkpoint("S1") == r / "sessions" / "S1" / "checkpoint.md"
    assert t.checkpoint_topic("S1", "lexer") == r / "sessions" / "S1" / "checkpoint-lexer.md"
    assert t.notes("S1") == r / "sessions" / "S1" / "notes.md"
    assert t.tasks_dir("S1") == r / "sessions" / "S1" / "tasks"
    assert t.progress("S1", "T3.1") == r / "sessions" / "S1" / "tasks" / "T3.1" / "progress.md"
    assert t.layers(project_id="P1", session_id="S1", task_id="T2")["progress"] == t.progress("S1", "T2")
    assert set(t.layers()) == {"root", "global"}


@pytest.mark.parametrize(
    "call", [lambda t: t.notes("../x"), lambda t: t.project_memory(""), lambda t: t.progress("S", "x")]
)
def test_layer_paths_validate_ids(env, call):
    with pytest.raises(InvalidMemoryIdError):
        call(env.tree)


def test_error_classes():
    for cls in (
        WritingDisabledError,
        BadMemoryPathError,
        OutsideAllowedAreaError,
        NotInWriterAllowlistError,
        ReservedTaskPathError,
        NotOwnerError,
    ):
        assert issubclass(cls, WriteDeniedError)
    assert issubclass(WriteDeniedError, PermissionError) and issubclass(WriteDeniedError, MimomemError)


# --- basic writes ---


def test_main_agent_canonical_writes(env):
    t = env.tree
    for target in (t.notes("S1"), t.project_memory("P1"), env.m("sessions/S1/scratch.md")):
        assert t.write(target, "hello\n", env.main) == target
        assert target.read_text() == "hello\n"
    assert not [p for p in env.root.rglob(".*")]  # no temp files left


@pytest.mark.parametrize("rel", ["global/MEMORY.md", "global/extra.md", "sessions/S1/checkpoint.md"])
def test_main_agent_never_writes_the_users_or_the_writers_files(env, rel):
    with pytest.raises(ReservedForRoleError, match=r"memory_note|ask the user"):
        env.tree.write(env.m(rel), "x", env.main)
    with pytest.raises(ReservedForRoleError):
        env.tree.write(env.m(rel), "x", env.main._replace(agent="subagent-1"))
    assert not env.m(rel).exists()


def test_the_user_writes_global_memory_and_the_checkpoint(env):
    user = env.main._replace(agent="user")
    for target in (env.tree.global_memory(), env.tree.checkpoint("S1")):
        env.tree.write(target, "mine\n", user)
        assert target.read_text() == "mine\n"


def test_write_replaces_atomically_and_failure_keeps_old(env):
    target = env.tree.notes("S1")
    env.tree.write(target, "old", env.main)
    with pytest.raises(UnicodeEncodeError):
        env.tree.write(target, "bad \udcff", env.main)
    assert target.read_text() == "old"
    assert _files(env.root) == {"sessions/S1/notes.md"}


def test_relative_target_is_relative_to_worktree(env):
    assert env.tree.write("src/a.py", "x", env.main) == env.wt / "src" / "a.py"


def test_create_never_overwrites(env):
    target = env.tree.notes("S1")
    assert env.tree.create(target, "first", env.main) is True
    assert env.tree.create(target, "second", env.main) is False
    assert target.read_text() == "first"


def test_append_separates_lines_and_keeps_bytes(env):
    target = env.tree.notes("S1")
    env.tree.append(target, "a", env.main)
    env.tree.append(target, "b\n", env.main)
    env.tree.append(target, "c", env.main)
    assert target.read_text() == "a\nb\nc"
    target.write_bytes(b"\xff\xfe raw")
    env.tree.append(target, "d", env.main)
    assert target.read_bytes() == b"\xff\xfe raw\nd"


def test_append_breaks_hard_links_instead_of_writing_through(env):
    victim = env.outside / "victim.txt"
    victim.write_text("precious")
    target = env.tree.notes("S1")
    target.parent.mkdir(parents=True)
    os.link(victim, target)
    env.tree.append(target, "entry", env.main)
    assert victim.read_text() == "precious"
    assert target.read_text() == "precious\nentry"


def test_delete(env):
    target = env.tree.notes("S1")
    env.tree.write(target, "x", env.main)
    assert env.tree.delete(target, env.main) is True
    assert not target.exists()
    assert env.tree.delete(target, env.main) is False
    env.tree.write(env.m("sessions/S2/notes.md"), "x", env.main._replace(session_id="S2"))
    with pytest.raises(NotOwnerError):
        env.tree.delete(env.m("sessions/S2/notes.md"), env.main)
    assert env.m("sessions/S2/notes.md").exists()


def test_secrets_are_refused_before_writing(env):
    target = env.tree.notes("S1")
    token = "ghp_" + "a1B2c3D4e5" * 4
    with pytest.raises(SecretRefusedError, match="github-token"):
        env.tree.write(target, f"token {token}", env.main)
    with pytest.raises(SecretRefusedError):
        env.tree.append(target, f"token {token}", env.main)
    with pytest.raises(SecretRefusedError):
        env.tree.write(env.wt / "config.md", f"token {token}", env.main)
    assert not target.exists() and not (env.wt / "config.md").exists()


def test_bad_arguments(env):
    with pytest.raises(ValueError, match="agent"):
        env.tree.write(env.tree.notes("S1"), "x", env.main._replace(agent=""))
    with pytest.raises(InvalidMemoryIdError):
        env.tree.write(env.tree.notes("S1"), "x", env.main._replace(session_id="../S1"))
    with pytest.raises(InvalidMemoryIdError):
        env.tree.write(env.tree.notes("S1"), "x", env.main._replace(task_id="7"))
    with pytest.raises(TypeError):
        env.tree.write(env.tree.notes("S1"), b"bytes", env.main)  # type: ignore[arg-type]


# --- the gate on its own (mimomem.tree.gate) ---


def test_the_gate_judges_without_a_memory_tree_and_writes_nothing(env):
    from dataclasses import dataclass

    from mimomem.tree import gate

    @dataclass
    class Bare:  # all the gate needs to know about a tree
        root: Path
        write_enabled: bool = True
        worktree_dotdir: str = ".mimomem"

    own = env.root / "sessions" / "S1" / "notes.md"
    assert gate.check_write(Bare(env.root), own, env.main) == env.tree.check_write(own, env.main)
    with pytest.raises(NotOwnerError):
        gate.check_write(Bare(env.root), env.root / "sessions" / "S2" / "notes.md", env.main)
    with pytest.raises(WritingDisabledError):
        gate.check_write(Bare(env.root, write_enabled=False), own, env.main)
    with pytest.raises(NotInWriterAllowlistError, match=r"Allowed: .*checkpoint\.md"):
        gate.check_write(Bare(env.root), env.root / "sessions" / "S1" / "other.md", env.writer)
    assert [] == list(env.root.iterdir())


# --- writing disabled ---


@pytest.mark.parametrize(
    ("who", "target"),
    [
        ("writer", "projects/P1/MEMORY.md"),
        ("writer", "sessions/S1/checkpoint.md"),
        ("writer", "sessions/S1/notes.md"),
        ("writer", "sessions/S1/tasks/T1/progress.md"),
        ("main", "projects/P1/MEMORY.md"),
        ("main", "sessions/S1/notes.md"),
        ("task", "sessions/S1/tasks/T1/progress.md"),
        ("main", "not/even/valid.txt"),
    ],
)
def test_disabled_refuses_every_memory_write(env, who, target):
    tree = MemoryTree(env.root, write_enabled=False)
    kw = {"writer": env.writer, "main": env.main, "task": env.main._replace(task_id="T1")}[who]
    with pytest.raises(WritingDisabledError) as info:
        tree.write(env.m(target), "x", kw)
    msg = str(info.value)
    assert "WRITING is disabled" in msg and "Do NOT retry with another memory path" in msg
    assert "READABLE" in msg and "search" in msg
    assert not env.m(target).exists()


def test_disabled_also_covers_dotdir_but_not_other_worktree_files(env):
    tree = MemoryTree(env.root, write_enabled=False)
    with pytest.raises(WritingDisabledError):
        tree.write(env.wt / ".mimomem" / "skill.md", "x", env.dream)
    with pytest.raises(WritingDisabledError):
        tree.write(env.wt / ".mimomem" / "skill.md", "x", env.main)
    assert tree.write(env.wt / "src.py", "x", env.main).read_text() == "x"
    assert tree.ensure_templates(Writer(agent="checkpoint-writer", session_id="S1", project_id="P1")) == []
    assert _files(env.root) == set()


@pytest.mark.parametrize("value", [True, None, "false", "true", 0, 1, []])
def test_only_literal_false_disables(env, value):
    assert MemoryTree(env.root, write_enabled=value).write_enabled is True
    assert MemoryTree(env.root, write_enabled=False).write_enabled is False


# --- shape ---


@pytest.mark.parametrize(
    "rel",
    [
        "foo.md",  # directly in root
        "tasks/T1/progress.md",  # not a scope
        "cc/slug/x.md",  # cc is read-only
        "projects/x.md",  # no id directory
        "sessions/S1/_meta.json",  # not Markdown
        "sessions/S1/.hidden.md",
        "sessions/S1/dir/.md",
        "sessions/S1/bad\x01name.md",
    ],
)
def test_bad_shapes(env, rel):
    with pytest.raises(BadMemoryPathError) as info:
        env.tree.write(env.m(rel), "x", env.main)
    msg = str(info.value)
    assert str(env.tree.project_memory("P1")) in msg and str(env.tree.notes("S1")) in msg


def test_root_itself_is_refused(env):
    with pytest.raises(OutsideAllowedAreaError, match="memory root"):
        env.tree.write(env.root, "x", env.main._replace(worktree=env.tmp))


# --- tasks/ is reserved ---


def test_main_agent_cannot_write_tasks(env):
    for rel in ("sessions/S1/tasks/T1/progress.md", "sessions/S1/tasks/loose.md", "sessions/S1/tasks/T1/a/b.md"):
        with pytest.raises(ReservedTaskPathError, match="pass task_id"):
            env.tree.write(env.m(rel), "x", env.main)


def test_task_subagent_writes_only_its_task(env):
    sub = env.main._replace(agent="general", task_id="T4")
    for rel in ("sessions/S1/tasks/T4/progress.md", "sessions/S1/tasks/T4/spec.md", "sessions/S1/tasks/T4/n/x.md"):
        env.tree.write(env.m(rel), "x", sub)
    with pytest.raises(ReservedTaskPathError):
        env.tree.write(env.m("sessions/S1/tasks/T5/progress.md"), "x", sub)
    with pytest.raises(ReservedTaskPathError, match="bound to task T4"):
        env.tree.write(env.tree.notes("S1"), "x", sub)
    with pytest.raises(BadMemoryPathError):
        env.tree.write(env.m("sessions/S1/tasks/T4/raw"), "x", sub)
    with pytest.raises(NotOwnerError):
        env.tree.write(env.m("sessions/S2/tasks/T4/progress.md"), "x", sub)
    assert env.tree.write(env.wt / "code.py", "x", sub)  # outside the tree it is an ordinary agent


def test_task_message_names_own_task_dir(env):
    sub = env.main._replace(task_id="T4")
    with pytest.raises(ReservedTaskPathError) as info:
        env.tree.write(env.m("sessions/S1/tasks/T5/progress.md"), "x", sub)
    assert str(env.tree.task_dir("S1", "T4")) in str(info.value)


# --- checkpoint writer ---


@pytest.mark.parametrize(
    "rel",
    [
        "projects/P1/MEMORY.md",
        "projects/P1/memory-rules.md",
        "sessions/S1/checkpoint.md",
        "sessions/S1/checkpoint-lexer.md",
        "sessions/S1/notes.md",
        "sessions/S1/tasks/T1.2/notes.md",
        "sessions/S1/tasks/T1/progress-archive.md",
        "sessions/S1/tasks/T1/scratch.md",
    ],
)
def test_writer_allowlist(env, rel):
    env.tree.write(env.m(rel), "x", env.writer)
    assert env.m(rel).read_text() == "x"


@pytest.mark.parametrize(
    ("rel", "error"),
    [
        ("sessions/S1/checkpoint/snapshot.md", NotInWriterAllowlistError),
        ("projects/P1/pinned.md", NotInWriterAllowlistError),
        ("sessions/S1/scratch.md", NotInWriterAllowlistError),
        ("global/MEMORY.md", NotInWriterAllowlistError),
        ("sessions/S1/tasks/weird-name/x.md", ReservedTaskPathError),
        ("sessions/S1/tasks/T1/deeper/x.md", ReservedTaskPathError),
        ("projects/P1/memory.md", BadMemoryPathError),  # legacy spelling: write MEMORY.md
        ("projects/P1/MEMORY-rules.md", BadMemoryPathError),
        ("projects/P2/MEMORY.md", NotOwnerError),
        ("sessions/S2/checkpoint.md", NotOwnerError),
    ],
)
def test_writer_refusals(env, rel, error):
    with pytest.raises(error):
        env.tree.write(env.m(rel), "x", env.writer)
    assert not env.m(rel).exists()


def test_writer_message_lists_its_allowlist(env):
    with pytest.raises(NotInWriterAllowlistError) as info:
        env.tree.write(env.m("projects/P1/pinned.md"), "x", env.writer)
    msg = str(info.value)
    assert "not in the checkpoint-writer allowlist" in msg
    assert str(env.tree.checkpoint("S1")) in msg and str(env.tree.tasks_dir("S1")) in msg


def test_writer_never_writes_outside_the_tree(env):
    for target in (env.wt / "src.py", env.wt / ".mimomem" / "x.md", env.outside / "x.md"):
        with pytest.raises(OutsideAllowedAreaError, match="only write under the memory tree"):
            env.tree.write(target, "x", env.writer)


# --- ownership ---


def test_ownership(env):
    with pytest.raises(NotOwnerError, match="another session"):
        env.tree.write(env.m("sessions/S2/notes.md"), "x", env.main)
    with pytest.raises(NotOwnerError, match="another project"):
        env.tree.write(env.m("projects/P2/MEMORY.md"), "x", env.main)
    with pytest.raises(NotOwnerError, match="pass session_id"):
        env.tree.write(env.m("sessions/S1/notes.md"), "x", Writer(agent="main", project_id="P1"))
    with pytest.raises(NotOwnerError, match="pass project_id"):
        env.tree.write(env.m("projects/P1/MEMORY.md"), "x", Writer(agent="main", session_id="S1"))
    with pytest.raises(NotOwnerError):  # only a literal True overrides
        env.tree.write(env.m("sessions/S2/notes.md"), "x", env.main._replace(allow_foreign="yes"))  # type: ignore[arg-type]
    env.tree.write(env.m("sessions/S2/notes.md"), "x", env.main._replace(allow_foreign=True))
    env.tree.write(env.m("projects/P2/MEMORY.md"), "x", Writer(agent="main", allow_foreign=True))
    env.tree.write(env.tree.global_memory(), "x", Writer(agent="user"))  # global has no owner (and is the user's)


def test_allow_foreign_does_not_open_tasks(env):
    with pytest.raises(ReservedTaskPathError):
        env.tree.write(env.m("sessions/S2/tasks/T1/progress.md"), "x", env.main._replace(allow_foreign=True))


# --- dream / distill and the worktree ---


@pytest.mark.parametrize("agent", ["dream", "distill"])
def test_consolidation_sandbox(env, agent):
    who = env.main._replace(agent=agent)
    env.tree.write(env.tree.project_memory("P1"), "x", who)
    env.tree.write(env.tree.global_memory(), "x", who)
    env.tree.write(env.wt / ".mimomem" / "skills" / "a.md", "x", who)
    env.tree.write(env.wt / "src" / ".." / ".mimomem" / "b.md", "x", who)  # in-bounds ..
    for target in (
        env.wt / "src.py",
        env.outside / "x",
        Path(str(env.root) + "-evil") / "x.md",
        env.wt / ".mimomem" / ".." / "escape.md",
        env.wt / ".mimomem",
    ):
        with pytest.raises(OutsideAllowedAreaError, match=r"\.mimomem"):
            env.tree.write(target, "x", who)


def test_main_agent_worktree_rules(env):
    env.tree.write(env.wt / "pkg" / "mod.py", "x", env.main)
    for target in (env.outside / "x.md", env.wt / ".git" / "config", env.wt / "sub" / ".git" / "hooks" / "pre-commit"):
        with pytest.raises(OutsideAllowedAreaError):
            env.tree.write(target, "x", env.main)
    with pytest.raises(OutsideAllowedAreaError, match="outside the memory tree and outside the worktree"):
        env.tree.write(env.wt / "a.py", "x", Writer(agent="main"))  # no worktree given
    with pytest.raises(OutsideAllowedAreaError):
        env.tree.write(env.wt / "a.py", "x", Writer(agent="main", worktree="/"))  # "/" means no worktree


# --- resolution: .., symlinks, case, Unicode, NUL ---


def test_dotdot_into_the_tree_gets_memory_rules(env):
    # MiMo's bypass: an absolute path that reaches the tree through ".." from the worktree.
    sneaky = env.wt / ".." / "data" / "memory" / "sessions" / "S1" / "tasks" / "T9" / "progress.md"
    with pytest.raises(ReservedTaskPathError):
        env.tree.write(sneaky, "x", env.main._replace(worktree=env.tmp))
    with pytest.raises(WritingDisabledError):
        MemoryTree(env.root, write_enabled=False).write(
            env.wt / ".." / "data" / "memory" / "global" / "x.md", "x", env.main._replace(worktree=env.tmp)
        )


def test_symlink_from_worktree_into_tree(env):
    (env.root / "sessions" / "S1").mkdir(parents=True)
    (env.wt / "link").symlink_to(env.root / "sessions" / "S1")
    with pytest.raises(ReservedTaskPathError):
        env.tree.write(env.wt / "link" / "tasks" / "T1" / "progress.md", "x", env.main)
    (env.wt / "other").symlink_to(env.root / "sessions")
    with pytest.raises(NotOwnerError):
        env.tree.write(env.wt / "other" / "S2" / "notes.md", "x", env.main)
    assert env.tree.write(env.wt / "link" / "notes.md", "x", env.main) == env.tree.notes("S1")
    with pytest.raises(WritingDisabledError):
        MemoryTree(env.root, write_enabled=False).write(env.wt / "link" / "notes.md", "y", env.main)


def test_symlinks_out_of_the_tree(env):
    victim = env.outside / "victim.txt"
    victim.write_text("precious")
    s1 = env.root / "sessions" / "S1"
    s1.mkdir(parents=True)
    (s1 / "out").symlink_to(env.outside)
    (s1 / "evil.md").symlink_to(victim)
    (s1 / "dangling.md").symlink_to(env.outside / "new.md")
    for target in (s1 / "out" / "x.md", s1 / "evil.md", s1 / "dangling.md"):
        for op in ("write", "append", "delete"):
            args = (target,) if op == "delete" else (target, "x")
            with pytest.raises(OutsideAllowedAreaError):
                getattr(env.tree, op)(*args, env.main._replace(worktree=None))
    assert victim.read_text() == "precious"
    assert sorted(os.listdir(env.outside)) == ["victim.txt"]


def test_symlink_loop(env):
    s1 = env.root / "sessions" / "S1"
    s1.mkdir(parents=True)
    (s1 / "a").symlink_to(s1 / "b")
    (s1 / "b").symlink_to(s1 / "a")
    with pytest.raises(BadMemoryPathError, match="loop"):
        env.tree.write(s1 / "a" / "x.md", "x", env.main)


@pytest.mark.parametrize(
    "rel",
    [
        "Sessions/S1/notes.md",
        "SESSIONS/S1/notes.md",
        "sessions/S1/TASKS/T1/progress.md",
        "sessions/S1/Checkpoint.md",
        "sessions/S1/NOTES.md",
        "projects/P1/Memory.md",
        "projects/P1/MEMORY-topic.md",
        "sessions/S1/ｔａｓｋｓ/T1/progress.md",  # full-width letters fold to "tasks"
    ],
)
def test_case_and_compat_variants_of_reserved_names(env, rel):
    with pytest.raises(BadMemoryPathError, match=r"variant|lower-case"):
        env.tree.write(env.m(rel), "x", env.main)
    assert _files(env.root) == set()


def test_case_variant_of_root_or_dotdir(env):
    upper_root = env.tmp / "data" / "MEMORY" / "sessions" / "S1" / "tasks" / "T1" / "progress.md"
    with pytest.raises(BadMemoryPathError, match="letter case"):
        env.tree.write(upper_root, "x", env.main._replace(worktree=env.tmp))
    with pytest.raises(BadMemoryPathError):
        env.tree.write(env.wt / ".MIMOMEM" / "x.md", "x", env.dream)
    with pytest.raises(BadMemoryPathError):
        env.tree.write(env.wt / ".Git" / "config", "x", env.main)
    assert not (env.tmp / "data" / "MEMORY").exists()


def test_unicode_free_names_are_written_exactly(env):
    nfc = unicodedata.normalize("NFC", "café.md")
    nfd = unicodedata.normalize("NFD", "café.md")
    p1 = env.tree.write(env.m(f"sessions/S1/{nfc}"), "nfc", env.main)
    p2 = env.tree.write(env.m(f"sessions/S1/{nfd}"), "nfd", env.main)
    assert p1.name == nfc and p2.name == nfd
    if os.path.samefile(p1, p2):  # normalization-insensitive filesystem (APFS, HFS+)
        assert p1.read_text() == "nfd"
    else:
        assert (p1.read_text(), p2.read_text()) == ("nfc", "nfd")


def test_unicode_form_variant_of_root(tmp_path):
    root = tmp_path / unicodedata.normalize("NFC", "mémoire")
    root.mkdir()
    tree = MemoryTree(root)
    variant = tmp_path / unicodedata.normalize("NFD", "mémoire") / "sessions" / "S1" / "tasks" / "T1" / "progress.md"
    with pytest.raises(BadMemoryPathError, match="Unicode form"):
        tree.write(variant, "x", Writer(agent="main", session_id="S1", worktree=tmp_path))
    assert tree.write(root / "sessions" / "S1" / "notes.md", "x", Writer(agent="main", session_id="S1"))


@pytest.mark.parametrize("target", ["", "a\x00b", b"/tmp/x"])
def test_nul_empty_and_bytes_targets(env, target):
    with pytest.raises(BadMemoryPathError):
        env.tree.write(target, "x", env.main)  # type: ignore[arg-type]


def test_long_names_fail_cleanly(env):
    with pytest.raises(OSError):
        env.tree.write(env.m("sessions/S1/" + "a" * 300 + ".md"), "x", env.main)
    assert _files(env.root) == set()


# --- templates through the gate ---


def test_ensure_templates_creates_migrates_and_is_idempotent(env):
    pdir = env.root / "projects" / "P1"
    pdir.mkdir(parents=True)
    (pdir / "memory.md").write_text("legacy")
    created = env.tree.ensure_templates(Writer(agent="checkpoint-writer", session_id="S1", project_id="P1"))
    assert created == [env.tree.checkpoint("S1"), env.tree.notes("S1")]
    assert os.listdir(pdir) == ["MEMORY.md"] and (pdir / "MEMORY.md").read_text() == "legacy"
    assert env.tree.checkpoint("S1").read_text().startswith("# Session checkpoint")
    assert env.tree.ensure_templates(Writer(agent="checkpoint-writer", session_id="S1", project_id="P1")) == []
    env.tree.ensure_templates(Writer(agent="main", project_id="P2"))
    assert env.tree.project_memory("P2").read_text().startswith("# Project memory")


def test_tree_project_id_uses_mimocode_file_in_mimocode_mode(tmp_path):
    (tmp_path / "data" / "memory").mkdir(parents=True)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    tree = MemoryTree.from_mimocode(tmp_path / "data")
    ident = tree.project_id(repo)
    assert (repo / ".git" / "mimocode-project-id").read_text() == ident.id


# --- concurrency ---

_APPENDER = """
import os, sys, time
sys.path.insert(0, {src!r})
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import notes_entry
from mimomem.tree.writer import Writer
tree = MemoryTree({root!r})
while not os.path.exists({start!r}):
    time.sleep(0.001)
for i in range({n}):
    tree.append(tree.notes("S1"), notes_entry({w} * 1000 + i, "entry %d-%d" % ({w}, i)),
                Writer(agent="main", session_id="S1", project_id="P1"))
"""


def test_concurrent_appenders_lose_nothing(env):
    start = env.tmp / "go"
    src = str(Path(__file__).resolve().parents[2])
    workers, n = 4, 150
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _APPENDER.format(src=src, root=str(env.root), start=str(start), n=n, w=w)]
        )
        for w in range(workers)
    ]
    time.sleep(0.5)
    start.touch()
    for p in procs:
        assert p.wait(timeout=120) == 0
    entries = parse_notes(env.tree.notes("S1").read_text())
    assert sorted(e.turn for e in entries) == sorted(w * 1000 + i for w in range(workers) for i in range(n))
    assert _files(env.root) == {"sessions/S1/notes.md"}


# --- CLI ---


def test_cli_paths_json(tmp_path, capsys):
    import json

    from mimomem.cli import main

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    root = tmp_path / "mem"
    assert (
        main(["paths", "--project", str(repo), "--session", "S1", "--task", "T2", "--root", str(root), "--json"]) == 0
    )
    info = json.loads(capsys.readouterr().out)
    pid = (repo / ".git" / "mimomem-project-id").read_text()
    tree = MemoryTree(root)
    assert info["project_id"] == pid and info["repo_root"] == str(repo)
    assert info["project"] == str(tree.project_memory(pid))
    assert info["notes"] == str(tree.notes("S1")) and info["progress"] == str(tree.progress("S1", "T2"))
    assert not root.exists()  # showing paths creates nothing in the tree


def test_cli_paths_text_and_errors(tmp_path, capsys):
    from mimomem.cli import main

    assert main(["paths", "--project", str(tmp_path), "--root", str(tmp_path / "m")]) == 0
    out = capsys.readouterr().out
    assert "project_id" in out and "global" in out and "repo_root" in out
    assert main(["paths", "--mimocode", str(tmp_path / "nowhere")]) == 2
    assert "no MiMo-Code memory tree" in capsys.readouterr().err
    assert main(["paths", "--session", "../x", "--root", str(tmp_path / "m")]) == 2


# --- adversarial review: names a macOS/NTFS filesystem takes for protected ones ---


@pytest.mark.parametrize(
    "rel",
    [
        "wt/.g\u200cit/config",  # HFS+ ignores U+200C: this is .git/config there
        "wt/\ufeff.git/hooks/pre-commit",
        "wt/.git./config",  # NTFS (and git's protectNTFS) drops trailing dots and spaces
        "wt/.git /config",
        "data/memory/sessions/S1/tas\u200dks/T1/progress.md",
        "data/memory/sessions/S1/tasks./T1/progress.md",
        "data/memory/projects/P1/MEMORY.md\u200e",
    ],
)
def test_ignorable_code_points_and_trailing_dots_are_variants(env, rel):
    with pytest.raises(BadMemoryPathError, match="variant"):
        env.tree.write(env.tmp / rel, "x", env.main._replace(worktree=env.wt))
    assert _files(env.root) == set() and _files(env.wt) == set()


@pytest.mark.parametrize("agent", ["Checkpoint-Writer", "checkpoint_writer", " dream", "DISTILL", "dream\u200b"])
def test_near_spellings_of_sandboxed_agents_are_refused(env, agent):
    # a typo must not turn a sandboxed background agent into one that may write source code
    with pytest.raises(ValueError, match="agent"):
        env.tree.write(env.wt / "a.py", "x", env.main._replace(agent=agent))
    assert _files(env.wt) == set()


def test_empty_worktree_is_refused_not_the_current_directory(env, monkeypatch):
    monkeypatch.chdir(env.outside)
    with pytest.raises(ValueError, match="worktree"):
        env.tree.write("x.py", "x", env.main._replace(worktree=""))
    assert os.listdir(env.outside) == []


def test_append_to_a_fifo_fails_instead_of_hanging(env, without_blocking):
    fifo = env.m("sessions/S1/pipe.md")
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    outcome = without_blocking(fifo, lambda: env.tree.append(fifo, "x", env.main))
    assert isinstance(outcome, BadMemoryPathError)
    assert "regular file" in str(outcome)


@pytest.mark.parametrize("op", ["write", "append", "create", "delete"])
def test_parent_swapped_for_a_symlink_after_the_verdict_changes_nothing_outside(env, monkeypatch, op):
    s1 = env.root / "sessions" / "S1"
    s1.mkdir(parents=True)
    (s1 / "notes.md").write_text("mine")
    victim = env.outside / "notes.md"
    victim.write_text("precious")
    real_flock = fcntl.flock

    def swap_then_lock(fd: int, how: int) -> None:
        # the attacker wins the race: after the gate's checks, sessions/S1 becomes a link out
        os.rename(s1, env.root / "sessions" / "S1.old")
        s1.symlink_to(env.outside)
        real_flock(fd, how)

    monkeypatch.setattr(fcntl, "flock", swap_then_lock)
    args = (s1 / "notes.md",) if op == "delete" else (s1 / "notes.md", "x")
    with contextlib.suppress(WriteDeniedError):
        getattr(env.tree, op)(*args, env.main)
    assert os.listdir(env.outside) == ["notes.md"] and victim.read_text() == "precious"
