"""Curated-store faults of the hardening issue: each test failed on the code before its fix."""

from __future__ import annotations

import datetime as dt
import errno
import os
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pytest

import mimomem.common.files as files_module
from mimomem.cli import main
from mimomem.curated import render, roots
from mimomem.curated.store import CuratedMemory
from mimomem.errors import InvalidMemoryError, OutsideRootError

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def _full_disk(code: int = errno.ENOSPC):
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    return refuse


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_fault_full_disk_remember_is_all_or_nothing(
    store: CuratedMemory, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """Disk full while compiling: memory kept, retry refused as duplicate -> rolled back, the retry works."""
    store.remember("facts", "redis runs on port 6380", author="user")
    root = store.roots["project"]
    before = sorted(p.name for p in (root / "facts").iterdir())
    with monkeypatch.context() as patch:
        patch.setattr(render, "atomic_write", _full_disk(code))
        with pytest.raises(OSError) as info:
            store.remember("facts", "kafka listens on 9092", author="user")
    assert "disk is full" in str(info.value)
    assert before == sorted(p.name for p in (root / "facts").iterdir())  # nothing new, no temp file
    assert ["facts/redis-runs-on-port-6380"] == [m.id for m in store.memories()]
    assert CuratedMemory(root.parent, store.roots["global"], now=NOW).inspect().ok
    memory = store.remember("facts", "kafka listens on 9092", author="user")  # the retry is not a duplicate
    assert memory.id == "facts/kafka-listens-on-9092"
    assert store.inspect().ok


def test_fault_full_disk_supersede_rolls_back_the_old_memory(
    store: CuratedMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed superseding write left the old memory marked superseded -> the old file is restored."""
    old = store.remember("facts", "api served on port 8000", author="user")
    text = old.path.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(render, "atomic_write", _full_disk())
        with pytest.raises(OSError):
            store.remember("facts", "api moved to port 9000", author="user", supersedes=old.id)
    assert text == old.path.read_bytes()
    assert [old.id] == [m.id for m in store.memories()]
    assert store.inspect().ok


def test_fault_full_disk_bulk_is_all_or_nothing(store: CuratedMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    """remember_many on a full disk kept part of the batch -> none of it is kept, and the error says disk full."""
    items = [{"category": "facts", "summary": f"bulk fact {i} about topic{i}"} for i in range(5)]
    with monkeypatch.context() as patch:
        patch.setattr(render, "atomic_write", _full_disk())
        with pytest.raises(OSError, match="disk is full"):
            store.remember_many(items, author="user")
    assert [] == store.memories()
    assert 5 == len(store.remember_many(items, author="user").written)
    assert store.inspect().ok


def test_fault_full_disk_reported_as_disk_full_by_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI blamed the path's permissions (or another process) for a full disk -> it says the disk is full."""
    (tmp_path / "p").mkdir()
    args = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    monkeypatch.setattr(render, "atomic_write", _full_disk())
    assert 0 != main(["remember", "facts", "something to keep", *args])
    err = capsys.readouterr().err
    assert "disk is full" in err and "permission" not in err and "another process" not in err


def test_fault_recall_answers_when_hit_counts_cannot_be_saved(
    store: CuratedMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """recall failed when .state.json could not be written -> results come back, with a warning."""
    store.remember("facts", "redis runs on port 6380", author="user")
    monkeypatch.setattr(roots, "atomic_write", _full_disk())
    with pytest.warns(RuntimeWarning, match="disk is full"):
        results = store.recall("redis port")
    assert ["facts/redis-runs-on-port-6380"] == [r.id for r in results]


def test_fault_carriage_return_leaves_no_drift(store: CuratedMemory) -> None:
    """remember facts $'only\\rcr' left drift that inspect --fix could not clear -> line endings normalised."""
    with pytest.raises(InvalidMemoryError, match="one non-empty line"):
        store.remember("facts", "only\rcr", author="user")  # a line break in a summary, like "\n"
    assert [] == store.memories()
    store.remember("facts", "windows line ends\r\n", "first\r\nsecond\rthird", author="user")
    assert store.inspect().ok, store.inspect().problems
    stored = store.get("facts/windows-line-ends")
    assert "first\nsecond\nthird" == stored.body
    assert b"\r" not in stored.path.read_bytes()
    # a memory file edited by hand with a carriage return in its summary: compiling clears the drift
    hand = store.roots["project"] / "facts" / "hand-edited.md"
    hand.write_bytes(b'---\nsummary: "hand\\rmade"\n---\nbody\r\n')
    store.reload()
    store.compile()
    assert store.inspect().ok, store.inspect().problems


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_fault_crash_residue_is_cleaned_on_open(tmp_path: Path) -> None:
    """kill -9 inside remember_many left a temp file forever and drifted outlines -> both repaired on the next open."""
    project, global_root = tmp_path / "proj", tmp_path / "global"
    CuratedMemory(project, global_root, now=NOW).remember("facts", "seed memory", author="user")
    crash = textwrap.dedent(
        f"""
        import os, signal
        import mimomem.common.files as files
        from mimomem.curated.store import CuratedMemory

        real_replace = os.replace
        def replace(src, dst, *args, **kwargs):
            if str(dst).endswith(("index.md", "ROOT.md")):
                os.kill(os.getpid(), signal.SIGKILL)  # killed mid-compile: the temp file stays
            return real_replace(src, dst, *args, **kwargs)
        files.os.replace = replace
        items = [{{"category": "facts", "summary": f"bulk fact {{i}} about topic{{i}}"}} for i in range(3)]
        CuratedMemory({str(project)!r}, {str(global_root)!r}).remember_many(items, author="user")
        """
    )
    done = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True)
    assert done.returncode == -9, done.stderr
    memory_root = project / ".memory"
    leftovers = [p for p in memory_root.rglob(".*.tmp")]
    assert leftovers, "the simulated crash should leave a temp file"
    # and one more temp file named as a dead writer's, as the new naming does
    planted = memory_root / "facts" / f".index.md.{_dead_pid()}.0123456789abcdef.tmp"
    planted.write_text("partial")
    old = time.time() - 120
    for path in [*leftovers, planted]:
        os.utime(path, (old, old))
    reopened = CuratedMemory(project, global_root, now=NOW)
    assert 4 == len(reopened.memories())
    assert [] == list(memory_root.rglob(".*.tmp"))
    assert reopened.inspect().ok, reopened.inspect().problems


def test_fault_crash_residue_is_cleaned_on_the_next_write(tmp_path: Path) -> None:
    """Stale compiled files stayed until inspect --fix -> the next write recompiles every outline."""
    store = CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)
    store.remember("pitfalls", "never run migrations twice", author="user")
    root = store.roots["project"]
    index = root / "pitfalls" / "index.md"
    index.write_text(index.read_text().replace("never run", "NEVER run"))  # stale (hand-edited) outline
    temp = root / "pitfalls" / f".index.md.{_dead_pid()}.fedcba9876543210.tmp"
    temp.write_text("partial")
    old = time.time() - 120
    os.utime(temp, (old, old))
    store.remember("facts", "an unrelated fact", author="user")
    assert not temp.exists()
    assert store.inspect().ok, store.inspect().problems


def test_fault_live_writers_temp_files_are_kept(tmp_path: Path) -> None:
    """(guard) cleaning must not touch a live writer's temp file, nor a fresh one."""
    store = CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)
    store.remember("facts", "seed", author="user")
    facts = store.roots["project"] / "facts"
    live = facts / f".index.md.{os.getpid()}.0123456789abcdef.tmp"
    fresh = facts / f".index.md.{_dead_pid()}.00112233aabbccdd.tmp"
    live.write_text("mine")
    fresh.write_text("new")
    old = time.time() - 120
    os.utime(live, (old, old))
    store.remember("facts", "another one", author="user")
    CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW).memories()
    assert live.exists() and fresh.exists()


def test_fault_root_outline_links_only_non_empty_categories(store: CuratedMemory) -> None:
    """ROOT.md linked index.md files of empty categories and said "1 files" -> only non-empty ones, "1 file"."""
    store.remember("facts", "one lonely fact", author="user")
    top = (store.roots["project"] / "ROOT.md").read_text(encoding="utf-8")
    assert "- [facts/](facts/index.md): 1 live, 1 file\n" in top
    assert "1 files" not in top
    for empty in ("rules", "preferences", "decisions", "pitfalls"):
        assert f"({empty}/index.md)" not in top
    forgotten = store.remember("pitfalls", "temporary pitfall", author="user")
    store.forget(forgotten.id)  # the directory (and its index.md) stays, empty
    top = (store.roots["project"] / "ROOT.md").read_text(encoding="utf-8")
    assert "(pitfalls/index.md)" not in top
    assert store.inspect().ok


def test_fault_temp_names_carry_the_writers_pid(tmp_path: Path) -> None:
    """Temp files could not be told apart from a dead writer's -> their name carries the writer's pid."""
    seen: list[str] = []
    real_open = os.open

    def spy(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path).endswith(".tmp"):
            seen.append(os.path.basename(str(path)))
        return real_open(path, *args, **kwargs)

    target = tmp_path / "n.md"
    original = os.open
    os.open = spy  # type: ignore[assignment]
    try:
        files_module.atomic_write(target, "x")
    finally:
        os.open = original  # type: ignore[assignment]
    assert seen and all(f".{os.getpid()}." in name for name in seen)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "x" == target.read_text()


def test_fault_category_swapped_for_a_symlink_to_itself_is_seen_by_a_running_store(
    store: CuratedMemory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The category directory moved out of the root and a symlink to it put in its place: the
    followed stat is unchanged, yet a running store must refuse it as a new process does, before
    anything is written there (no file outside the root, not even for a moment)."""
    store.remember("facts", "redis listens on 6380", author="user")  # its category directory is checked now
    facts = store.roots["project"] / "facts"
    outside = tmp_path / "outside"
    outside.mkdir()
    os.rename(facts, outside / "facts")
    facts.symlink_to(outside / "facts", target_is_directory=True)
    written: list[str] = []
    real_write = files_module.atomic_write

    def noted(path: object, *args: object, **kwargs: object) -> None:
        written.append(os.path.realpath(os.fspath(path)))  # type: ignore[arg-type, call-overload]
        real_write(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("mimomem.curated.writing.atomic_write", noted)
    with pytest.raises(OutsideRootError, match="symlink"):
        store.remember("facts", "vite serves on 5173", author="user")
    assert not [p for p in written if p.startswith(str(outside))]
    assert [m.id for m in store.memories()] == [
        m.id for m in CuratedMemory(tmp_path / "proj", tmp_path / "global").memories()
    ]
    assert sorted(p.name for p in (outside / "facts").iterdir()) == ["index.md", "redis-listens-on-6380.md"]
