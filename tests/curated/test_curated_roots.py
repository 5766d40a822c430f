"""Curated roots on disk: locations, symlinks, lock, change detection, hit counts."""

from __future__ import annotations

import datetime as dt
import math
import multiprocessing
import os
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.common.frontmatter import serialize
from mimomem.curated.roots import default_global_root
from mimomem.errors import NoProjectRootError, OutsideRootError

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def test_default_global_root_honours_xdg_config_home(tmp_path: Path) -> None:
    assert tmp_path / "mimomem" / "memory" == default_global_root({"XDG_CONFIG_HOME": str(tmp_path)})
    assert Path("/h/.config/mimomem/memory") == default_global_root({"XDG_CONFIG_HOME": "rel", "HOME": "/h"})
    assert Path("/h/.config/mimomem/memory") == default_global_root({"HOME": "/h"})


def test_roots_are_created_on_first_write_with_gitignore(store: CuratedMemory, tmp_path: Path) -> None:
    assert not (tmp_path / "proj" / ".memory").exists()
    assert [] == store.recall("anything")  # reading absent roots is fine
    store.remember("facts", "The staging host is stage-3", "", author="user")
    root = tmp_path / "proj" / ".memory"
    ignored = (root / ".gitignore").read_text().split()
    assert ".state.json" in ignored and ".lock" in ignored
    assert not (tmp_path / "global").exists()


def test_project_scope_needs_a_project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # not inside a git repository
    s = CuratedMemory(global_root=tmp_path / "g", now=NOW)
    assert "project" not in s.roots
    with pytest.raises(NoProjectRootError, match="--global"):
        s.remember("facts", "x y z", author="user")
    assert "global" == s.remember("facts", "x y z", author="user", scope="global").scope


def test_project_root_is_found_from_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    monkeypatch.chdir(repo / "src")
    s = CuratedMemory(global_root=tmp_path / "g", now=NOW)
    assert repo / ".memory" == s.roots["project"]


def test_symlinks_out_of_the_root_are_refused(store: CuratedMemory, tmp_path: Path) -> None:
    store.remember("facts", "seed memory", "", author="user")
    outside = tmp_path / "outside"
    outside.mkdir()
    (store.roots["project"] / "pitfalls").symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutsideRootError):
        store.remember("pitfalls", "should not escape", "", author="user")
    assert [] == list(outside.iterdir())
    (outside / "x.md").write_text(serialize({"summary": "planted"}, ""))
    (store.roots["project"] / "facts" / "planted.md").symlink_to(outside / "x.md")
    report = store.inspect()
    assert any(p.kind == "skipped" and "symlink" in p.message for p in report.problems)
    assert [] == store.recall("planted")


def test_lock_file_link_creates_nothing_outside(store: CuratedMemory, tmp_path: Path) -> None:
    root = store.roots["project"]
    root.mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".lock").symlink_to(outside / "created")
    with pytest.raises(OutsideRootError, match="symlink"):
        store.remember("facts", "lock test", "", author="user")
    assert list(outside.iterdir()) == []


def test_symlinked_root_is_refused_before_anything_is_written(store: CuratedMemory, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    store.roots["project"].parent.mkdir()
    store.roots["project"].symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutsideRootError, match="symlink"):
        store.remember("facts", "root link test", "", author="user")
    assert list(outside.iterdir()) == []


def test_fifos_and_directories_named_md_are_skipped_not_read(store: CuratedMemory, tmp_path: Path) -> None:
    # Opening a FIFO for reading blocks until a writer appears: it must be skipped, not read.
    store.remember("facts", "The staging host is stage-3", "", author="user")
    facts = tmp_path / "proj" / ".memory" / "facts"
    os.mkfifo(facts / "pipe.md")
    (facts / "folder.md").mkdir()
    fresh = CuratedMemory(store.project_dir, store.roots["global"], now=NOW)
    report = fresh.inspect()
    skipped = {Path(p.path).name: p.message for p in report.problems if p.kind == "skipped"}
    assert skipped == {"pipe.md": "not a regular file", "folder.md": "not a regular file"}
    assert ["facts/the-staging-host-is-stage-3"] == [m.id for m in report.memories]
    notes = tmp_path / "notes"
    notes.mkdir()
    os.mkfifo(notes / "pipe.md")
    (notes / "ok.md").write_text("# Redis TTL is one hour\n")
    result = fresh.import_dir(notes)
    assert ["facts/redis-ttl-is-one-hour"] == result.written
    assert [("pipe.md", "not a regular file")] == result.refused


def test_changes_by_another_writer_are_seen(store: CuratedMemory) -> None:
    store.remember("facts", "first memory", "", author="user")
    other = CuratedMemory(store.project_dir, store.roots["global"], now=NOW)
    other.remember("facts", "written by the other process about kafka", "", author="user")
    assert ["facts/written-by-the-other-process-about-kafka"] == [r.id for r in store.recall("kafka")]


def test_hits_are_counted_in_state_file(store: CuratedMemory) -> None:
    store.remember("facts", "jieba warm up at start", "", author="user")
    first = store.recall("jieba")
    second = store.recall("jieba")
    store.recall("jieba", count_hits=False)
    third = store.recall("jieba", count_hits=False)
    assert [0, 1, 2] == [first[0].hits, second[0].hits, third[0].hits]
    assert third[0].rehearsal == pytest.approx(1 + 0.1 * math.log2(3))
    fresh = CuratedMemory(store.project_dir, store.roots["global"], now=NOW)
    assert 2 == fresh.recall("jieba", count_hits=False)[0].hits


def _recall_many(project: str, global_root: str, n: int) -> None:
    s = CuratedMemory(project, global_root, now=NOW)
    for _ in range(n):
        assert len(s.recall("concurrency counter")) == 1


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
def test_hit_counters_survive_concurrent_processes(store: CuratedMemory) -> None:
    store.remember("facts", "concurrency counter target", "", author="user")
    ctx = multiprocessing.get_context("fork")
    args = (str(store.project_dir), str(store.roots["global"]), 15)
    procs = [ctx.Process(target=_recall_many, args=args) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [0, 0, 0, 0] == [p.exitcode for p in procs]
    assert 60 == store.recall("concurrency counter", count_hits=False)[0].hits
