"""What mimomem keeps is private: 0600 files in 0700 directories under umask 022, older files tightened."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from session_cycle import make_roots, run_session

from mimomem.common.files import atomic_write
from mimomem.common.private import private_database, private_dir, tighten


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def modes(top: Path) -> dict[str, int]:
    """Permission bits of ``top`` and everything under it (symlinks not followed)."""
    found = {".": stat.S_IMODE(top.stat().st_mode)}
    for path in top.rglob("*"):
        found[str(path.relative_to(top))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def not_private(top: Path) -> dict[str, str]:
    wrong = {}
    for name, mode in modes(top).items():
        is_dir = (top / name).is_dir() and not (top / name).is_symlink()
        if mode & 0o077 or (is_dir and mode != 0o700):
            wrong[name] = oct(mode)
    return wrong


@pytest.mark.usefixtures("umask_022")
def test_after_a_session_every_kept_file_is_0600_and_every_directory_0700(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    roots = make_roots(tmp_path, monkeypatch)
    run_session(roots, monkeypatch, capsys)
    names = {Path(name).name for top in ("home", "cache") for name in modes(roots[top])}
    assert {"MEMORY.md", "notes.md", "history.db", "mimomem.db", "entries.cache"} <= names
    assert any(name.endswith(".plan") for name in names)
    assert {top: not_private(roots[top]) for top in ("home", "cache")} == {"home": {}, "cache": {}}


@pytest.mark.usefixtures("umask_022")
def test_files_and_directories_made_before_are_tightened_when_next_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    roots = make_roots(tmp_path, monkeypatch)
    run_session(roots, monkeypatch, capsys)
    for top in ("home", "cache"):  # as an older mimomem left them: 0644 files in 0755 directories
        for path in [roots[top], *roots[top].rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.writer import Writer

    tree = MemoryTree()
    pid = tree.project_id(roots["repo"]).id
    memory = tree.project_memory(pid)
    tree.write(
        memory, memory.read_text(encoding="utf-8") + "- 以后提交前都先跑 make lint。\n", Writer("main", project_id=pid)
    )
    run_session(roots, monkeypatch, capsys)
    assert "make lint" in next(roots["home"].rglob("MEMORY.md")).read_text(encoding="utf-8")
    memory = next(roots["home"].rglob("MEMORY.md"))
    for path in (
        memory,
        memory.parent,
        next(roots["home"].rglob("history.db")),
        next(roots["home"].rglob("mimomem.db")),
    ):
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path


@pytest.mark.usefixtures("umask_022")
def test_atomic_write_is_private_unless_told_otherwise(tmp_path: Path) -> None:
    atomic_write(tmp_path / "kept", "x")
    atomic_write(tmp_path / "host", "x", private=False)
    (tmp_path / "old").write_text("x")
    (tmp_path / "old").chmod(0o664)
    atomic_write(tmp_path / "old", "y")
    assert [stat.S_IMODE((tmp_path / n).stat().st_mode) for n in ("kept", "host", "old")] == [0o600, 0o644, 0o600]


@pytest.mark.parametrize("mask", [0o000, 0o022, 0o077, 0o277])
def test_private_dir_is_0700_whatever_the_umask(tmp_path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        private_dir(tmp_path / "a" / "b" / "c")
    finally:
        os.umask(old)
    assert [stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "a", tmp_path / "a/b", tmp_path / "a/b/c")] == [
        0o700
    ] * 3


def test_private_dir_refuses_a_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    with pytest.raises(OSError):
        private_dir(tmp_path / "f")


@pytest.mark.usefixtures("umask_022")
@pytest.mark.parametrize("journal", ["WAL", "DELETE"])
def test_a_database_and_its_journal_files_are_private(tmp_path: Path, journal: str) -> None:
    path = tmp_path / "db" / "x.db"
    private_database(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA journal_mode = {journal}")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("CREATE TABLE t(x)")
    conn.execute("INSERT INTO t VALUES (1)")
    beside = sorted(p.name for p in path.parent.iterdir())
    found = {p.name: oct(stat.S_IMODE(p.stat().st_mode)) for p in path.parent.iterdir()}
    conn.execute("COMMIT")
    conn.close()
    assert len(beside) >= 2  # the journal or the -wal file was there to check
    assert set(found.values()) == {"0o600"}
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_tighten_leaves_other_bits_and_symlinks_alone(tmp_path: Path) -> None:
    target = tmp_path / "t"
    target.write_text("")
    target.chmod(0o755)
    link = tmp_path / "l"
    link.symlink_to(target)
    tighten(link)
    assert stat.S_IMODE(target.stat().st_mode) == 0o755
    tighten(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o700
