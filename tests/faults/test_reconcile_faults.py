"""Regression tests for the reconcile, cache and search-parameter faults of the hardening issue.

Each test's docstring reads "what the user saw -> what happens now".
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mimomem import errors
from mimomem.errors import LocationError, MimomemError
from mimomem.search import reconcile as reconcile_mod
from mimomem.search import walk as walk_mod
from mimomem.search.document_index import DocumentIndex
from mimomem.search.index import MemoryIndex
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "data" / "memory"
    write(r, "sessions/S1/notes.md", "hello memory notes\n")
    write(r, "projects/p1/MEMORY.md", "postgres listens on 5433\n")
    return r


def found(index: MemoryIndex, query: str) -> list[str]:
    return [os.path.relpath(h.path, index.root) for h in index.search(query)]


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _bump_ctime(path: Path, old_ctime_ns: int, change) -> None:  # type: ignore[no-untyped-def]
    """Apply ``change`` until the file's ctime moved (timestamps tick coarsely on some kernels)."""
    for _ in range(200):
        change()
        if os.stat(path, follow_symlinks=False).st_ctime_ns != old_ctime_ns:
            return
        time.sleep(0.005)
    pytest.fail("ctime never moved")


# --- fault 1: file and directory names that are not UTF-8 ---


def test_fault_names_that_are_not_utf8_are_skipped_with_an_escaped_reason(root):
    """A file named b'\\xff.txt' made every search fail with UnicodeEncodeError -> skipped, named escaped."""
    s1 = os.fsencode(root / "sessions" / "S1")
    for name in (b"\xff.txt", b"\xfe.md"):
        with open(os.path.join(s1, name), "wb") as handle:
            handle.write(b"hello from a bad name\n")
    bad_dir = os.path.join(os.fsencode(root / "sessions"), b"\xfd")
    os.mkdir(bad_dir)
    with open(os.path.join(bad_dir, b"notes.md"), "wb") as handle:
        handle.write(b"hello inside a bad directory\n")
    index = MemoryIndex(root, reconcile_interval=0)
    assert ["sessions/S1/notes.md"] == found(index, "hello")
    issues = {i.path: i for i in index.issues()}
    for shown in ("sessions/S1/\\xff.txt", "sessions/S1/\\xfe.md", "sessions/\\xfd"):
        issue = issues[str(root / shown)]
        assert "skipped" == issue.kind and "UTF-8" in issue.reason
    assert all(_utf8(i.path) and _utf8(i.reason) for i in index.reconcile().issues)
    assert index.stats().rows == 2


names = st.one_of(
    st.binary(min_size=1, max_size=255).filter(lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b"..")),
    st.text(st.characters(blacklist_characters="/\x00"), min_size=1, max_size=300),
    st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=4).map(lambda s: s + ".md"),
)


def test_fault_fuzz_file_names_through_the_gate_and_reconcile():
    """Odd names (bytes, surrogates, 300 characters) raised raw errors -> MimomemError or success, never a crash."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "data" / "memory"
        s1 = root / "sessions" / "S1"
        write(root, "global/MEMORY.md", "global memory\n")
        index = MemoryIndex(root, reconcile_on_search=False)
        tree = MemoryTree(root)
        who = Writer(agent="main", session_id="S1", project_id="P1")

        @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(name=names)
        def run(name: str | bytes) -> None:
            shutil.rmtree(s1, ignore_errors=True)
            s1.mkdir(parents=True)
            text = name if isinstance(name, str) else os.fsdecode(name)
            try:
                written = tree.write(s1 / text, "fuzzed memory\n", who)
            except MimomemError:
                written = None
            if written is not None:
                assert _utf8(written.name) and len(written.name.encode("utf-8")) <= 255
                assert written.read_text() == "fuzzed memory\n"
            if isinstance(name, bytes):
                try:
                    fd = os.open(os.path.join(os.fsencode(s1), name), os.O_WRONLY | os.O_CREAT, 0o644)
                except OSError:
                    pass
                else:
                    os.write(fd, b"raw memory\n")
                    os.close(fd)
            report = index.reconcile()
            assert all(_utf8(i.path) and _utf8(i.reason) for i in report.issues)
            assert all(_utf8(i.path) and _utf8(i.reason) for i in index.issues())
            index.search("memory")

        run()
        index.close()


# --- fault 5: fingerprint misses ---


def test_fault_same_size_rewrite_with_restored_mtime_is_reindexed(root):
    """A same-size save that restored the mtime (inode reused) was never indexed -> the ctime catches it."""
    index = MemoryIndex(root, reconcile_on_search=False)
    index.reconcile()
    notes = root / "sessions" / "S1" / "notes.md"
    before = os.stat(notes)

    def rewrite() -> None:
        notes.write_text("hello memory facts\n", encoding="utf-8")  # same length, same inode
        os.utime(notes, ns=(before.st_atime_ns, before.st_mtime_ns))

    _bump_ctime(notes, before.st_ctime_ns, rewrite)
    after = os.stat(notes)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    index.reconcile()
    assert ["sessions/S1/notes.md"] == found(index, "facts")
    assert [] == found(index, "notes")


def test_fault_unreadable_indexed_file_is_dropped(root, monkeypatch):
    """`chmod 000` left the old text searchable -> the file is dropped with an 'unreadable' skip reason."""
    index = MemoryIndex(root, reconcile_on_search=False)
    index.reconcile()
    notes = root / "sessions" / "S1" / "notes.md"
    real_read = walk_mod.read_text

    def deny(path: str, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        if path == str(notes):  # as root, chmod 000 does not stop a read: simulate what a user sees
            raise PermissionError(13, "Permission denied")
        return real_read(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reconcile_mod, "read_text", deny)
    _bump_ctime(notes, os.stat(notes).st_ctime_ns, lambda: os.chmod(notes, 0))
    report = index.reconcile()
    assert [] == found(index, "hello")
    (issue,) = [i for i in report.skipped if i.path == str(notes)]
    assert "unreadable" in issue.reason
    os.chmod(notes, 0o644)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_fault_chmod_000_drops_the_file(root):
    """(real permissions) `chmod 000` on an indexed file -> dropped from the index with a reason."""
    index = MemoryIndex(root, reconcile_on_search=False)
    index.reconcile()
    notes = root / "sessions" / "S1" / "notes.md"
    _bump_ctime(notes, os.stat(notes).st_ctime_ns, lambda: os.chmod(notes, 0))
    try:
        index.reconcile()
        assert [] == found(index, "hello")
        assert any(i.path == str(notes) and "unreadable" in i.reason for i in index.issues())
    finally:
        os.chmod(notes, 0o644)


# --- fault 9: directories swapped for symlinks during a reconcile ---


def _outside(tmp: Path) -> Path:
    out = tmp / "outside"
    write(out, "S1/notes.md", "hello OUTSIDE_SECRET\n")
    write(out, "notes.md", "hello OUTSIDE_SECRET\n")
    return out


def test_fault_directory_swapped_between_walk_and_read(root, tmp_path, monkeypatch):
    """A directory swapped for a symlink after the walk got files from outside indexed -> nothing outside is read."""
    out = _outside(tmp_path)
    s1 = root / "sessions" / "S1"
    index = MemoryIndex(root, reconcile_on_search=False)
    real_walk = walk_mod.walk

    def walk_then_swap(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real_walk(*args, **kwargs)
        os.rename(s1, root / "sessions" / "S1.old")
        s1.symlink_to(out)
        return result

    monkeypatch.setattr(reconcile_mod, "walk", walk_then_swap)
    report = index.reconcile()
    monkeypatch.undo()
    assert [] == found(index, "OUTSIDE_SECRET")
    assert any(i.path == str(s1 / "notes.md") and "symlink" in i.reason for i in report.skipped)


class _Listing:
    """What ``os.scandir`` returns, already read (works with ``list()`` and ``with``)."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self.entries = entries

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.entries)

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def close(self) -> None:
        pass


def test_fault_directory_swapped_during_the_walk(root, tmp_path, monkeypatch):
    """A directory swapped for a symlink mid-walk was descended into -> refused as a symlink, nothing outside read."""
    out = _outside(tmp_path)
    sessions = root / "sessions"
    index = MemoryIndex(root, reconcile_on_search=False)
    real_scandir = os.scandir
    calls = []

    def scandir_then_swap(target):  # type: ignore[no-untyped-def]
        with real_scandir(target) as listing:
            entries = list(listing)
        calls.append(target)
        if len(calls) == 1:  # the root is listed: now sessions/ becomes a link out
            os.rename(sessions, root / "sessions.old")
            sessions.symlink_to(out)
        return _Listing(entries)

    monkeypatch.setattr(os, "scandir", scandir_then_swap)
    report = index.reconcile()
    monkeypatch.undo()
    assert [] == found(index, "OUTSIDE_SECRET")
    assert ["projects/p1/MEMORY.md"] == found(index, "postgres")
    assert any(i.path == str(sessions) and "symlink" in i.reason for i in report.skipped)


# --- fault 11: a corrupt cache ---


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_fault_corrupt_database_is_a_clear_error(root, tmp_path, damage):
    """A damaged cache raised a raw sqlite3.DatabaseError -> CorruptDatabaseError saying to delete it."""
    db_path = tmp_path / "data" / "mimomem.db"
    if damage == "garbage":
        db_path.write_bytes(b"this is not a database at all\n" * 200)
    else:
        MemoryIndex(root, db_path, reconcile_on_search=False).close()
        data = db_path.read_bytes()
        db_path.write_bytes(data[:100] + b"\xff" * (len(data) - 100))
    with pytest.raises(errors.CorruptDatabaseError) as caught, MemoryIndex(root, db_path) as index:
        index.search("hello")
    message = str(caught.value)
    assert str(db_path) in message and "delete" in message
    assert isinstance(caught.value, MimomemError) and isinstance(caught.value.__cause__, sqlite3.DatabaseError)
    with pytest.raises(errors.CorruptDatabaseError):
        DocumentIndex(db_path)


# --- fault 12: a mistyped root, unknown filters ---


def test_fault_missing_memory_root_is_refused(tmp_path):
    """MemoryIndex('<typo>/memory') created a database for a tree that does not exist -> MemoryRootNotFoundError."""
    typo = tmp_path / "typo" / "memory"
    with pytest.raises(errors.MemoryRootNotFoundError, match="does not exist") as caught:
        MemoryIndex(typo)
    assert isinstance(caught.value, LocationError)
    assert not (tmp_path / "typo").exists()
    with pytest.raises(errors.MemoryRootNotFoundError):
        MemoryIndex(str(tmp_path / "typo" / "memory"))


def test_fault_unknown_type_filter_is_refused(root):
    """`search --type bogus` printed "No matches" -> InvalidTypeError listing the valid types."""
    index = MemoryIndex(root)
    with pytest.raises(errors.InvalidTypeError, match="valid types: memory, checkpoint") as caught:
        index.search("hello", type="bogus")
    assert isinstance(caught.value, ValueError) and "feedback" in str(caught.value)
    with pytest.raises(errors.InvalidTypeError):
        index.docs.rank(index.docs.parse("hello", "fts5-bigram"), "fts5-bigram", limit=5, type="Notes")
    assert ["sessions/S1/notes.md"] == [os.path.relpath(h.path, root) for h in index.search("hello", type="notes")]
    assert ["sessions/S1/notes.md"] == [os.path.relpath(h.path, root) for h in index.search("hello", type="")]


def test_fault_type_filter_names_match_the_layout():
    """(consistency) the valid type filters are exactly the tree's types and Claude Code's."""
    from mimomem.search import params
    from mimomem.tree.vocabulary import CC_TYPES, TREE_TYPES, TYPES

    assert TREE_TYPES + CC_TYPES == TYPES
    assert params.TYPES is TYPES  # one value set, not a copy
