"""All-or-nothing writes: the undo log, full-disk errors, interrupted writes and stale temp files."""

from __future__ import annotations

import datetime as dt
import errno
import os
import time
from pathlib import Path

import pytest

from mimomem.curated import render
from mimomem.curated.store import CuratedMemory
from mimomem.curated.undo import Undo
from mimomem.errors import DiskFullError, SecretRefusedError

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def _no_space(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_forget_on_a_full_disk_keeps_the_memory(store: CuratedMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = store.remember("facts", "kept on a full disk", author="user")
    with monkeypatch.context() as patch:
        patch.setattr(render, "atomic_write", _no_space)
        with pytest.raises(DiskFullError) as info:
            store.forget(memory.id)
    assert isinstance(info.value, OSError) and info.value.errno == errno.ENOSPC
    assert memory.path.exists()
    assert [memory.id] == [m.id for m in store.memories()]
    assert store.inspect().ok


def test_accept_rule_on_a_full_disk_leaves_the_proposal(store: CuratedMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    proposal = store.remember("rules", "always run the linter", author="model")
    with monkeypatch.context() as patch:
        patch.setattr(render, "atomic_write", _no_space)
        with pytest.raises(DiskFullError):
            store.accept_rule(proposal.id)
    assert "rule-proposal" == store.get(proposal.id).kind
    assert store.inspect().ok


def test_a_new_category_directory_is_removed_on_undo(store: CuratedMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    store.remember("facts", "a first fact", author="user")
    with monkeypatch.context() as patch:
        patch.setattr(render, "atomic_write", _no_space)
        with pytest.raises(DiskFullError):
            store.remember("pitfalls", "a pitfall on a full disk", author="user")
    assert not (store.roots["project"] / "pitfalls").exists()


def test_a_refused_write_changes_nothing_and_clears_its_note(store: CuratedMemory) -> None:
    store.remember("facts", "a first fact", author="user")
    root = store.roots["project"]
    before = (root / "ROOT.md").read_bytes()
    with pytest.raises(SecretRefusedError):
        store.remember("facts", "token", "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", author="user")
    assert before == (root / "ROOT.md").read_bytes()
    assert b"" == (root / ".lock").read_bytes()


def test_undo_puts_back_replaced_and_removes_created_files(tmp_path: Path) -> None:
    kept, created = tmp_path / "kept.md", tmp_path / "created.md"
    kept.write_text("old")
    undo = Undo()
    assert not undo
    undo.note(kept)
    undo.note(created)
    kept.write_text("new")
    created.write_text("brand new")
    undo.note(kept)  # only the first change counts
    assert undo and undo.undo()
    assert "old" == kept.read_text() and not created.exists()


def test_interrupted_write_is_a_dead_writers_note(store: CuratedMemory, tmp_path: Path) -> None:
    store.remember("facts", "a first fact", author="user")
    root = store._roots["project"]
    assert not root.interrupted_write(locked=False)
    (root.path / ".lock").write_text(f"{os.getpid()}\n")
    assert not root.interrupted_write(locked=False)  # our own (live) process: maybe writing now
    assert root.interrupted_write(locked=True)
    (root.path / ".lock").write_text("999999999\n")  # no such process
    assert root.interrupted_write(locked=False)


def test_temp_files_without_a_pid_go_only_under_the_lock(store: CuratedMemory) -> None:
    store.remember("facts", "a first fact", author="user")
    root = store._roots["project"]
    legacy = root.path / "facts" / ".index.md.0123456789abcdef.tmp"
    legacy.write_text("partial")
    old = time.time() - 120
    os.utime(legacy, (old, old))
    assert [] == root.clean_stale_temps(locked=False)
    assert [legacy] == root.clean_stale_temps(locked=True)


def test_a_planted_temp_symlink_is_never_followed_or_removed(store: CuratedMemory, tmp_path: Path) -> None:
    store.remember("facts", "a first fact", author="user")
    root = store._roots["project"]
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = root.path / "facts" / ".index.md.999999999.0123456789abcdef.tmp"
    link.symlink_to(victim)
    assert [] == root.clean_stale_temps(locked=True)
    assert link.is_symlink() and "precious" == victim.read_text()


def test_opening_a_store_removes_dead_writers_temps_in_root_and_categories(tmp_path: Path) -> None:
    """A read lists each category directory once (``scan`` keeps its temp files); the clean-up still
    sees a dead writer's temp files there and in the root, and leaves a live writer's alone."""
    project = tmp_path / "p"
    CuratedMemory(project, tmp_path / "g", now=NOW).remember("facts", "a first fact", author="user")
    memory = project / ".memory"
    dead = [
        memory / "facts" / ".x.md.999999999.0123456789abcdef.tmp",
        memory / ".state.json.999999999.0123456789abcdee.tmp",
    ]
    live = memory / "facts" / f".y.md.{os.getpid()}.0123456789abcdef.tmp"
    old = time.time() - 120
    for path in [*dead, live]:
        path.write_text("partial")
        os.utime(path, (old, old))
    CuratedMemory(project, tmp_path / "g", now=NOW).recall("fact")
    assert not any(path.exists() for path in dead) and live.exists()
