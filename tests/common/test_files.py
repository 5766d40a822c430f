"""atomic_write (durable and bulk modes): content replaced whole, permissions kept, no temp files left behind;
file_lock: exclusive, never through a symlink."""

from __future__ import annotations

import fcntl
import os
import stat

import pytest

from mimomem.common.files import atomic_write, file_lock
from mimomem.errors import OutsideRootError, ProjectIdError


def test_writes_and_replaces(tmp_path):
    target = tmp_path / "MEMORY.md"
    atomic_write(target, "一")
    atomic_write(target, "二")
    assert target.read_text(encoding="utf-8") == "二"
    assert os.listdir(tmp_path) == ["MEMORY.md"]


def test_a_host_file_gets_the_umask_mode_and_keeps_its_mode(tmp_path):
    target = tmp_path / "settings.json"
    atomic_write(target, "x", private=False)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    target.chmod(0o640)
    atomic_write(target, "y", private=False)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_kept_file_is_0600_and_an_older_one_loses_group_and_other_access(tmp_path):
    target = tmp_path / "notes.md"
    atomic_write(target, "x")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.chmod(0o740)
    atomic_write(target, "y")
    assert stat.S_IMODE(target.stat().st_mode) == 0o700


def test_failure_leaves_old_content_and_no_temp_file(tmp_path):
    target = tmp_path / "a.md"
    atomic_write(target, "old")
    with pytest.raises(TypeError):
        atomic_write(target, 123)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["a.md"]


@pytest.mark.parametrize("use_dir_fd", [False, True])
def test_symlink_target_is_replaced_and_its_mode_not_copied(tmp_path, use_dir_fd):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    outside.chmod(0o4777)  # a world-writable setuid file must not lend its mode to ours
    inside = tmp_path / "d"
    inside.mkdir()
    link = inside / "m.md"
    link.symlink_to(outside)
    if use_dir_fd:
        fd = os.open(inside, os.O_RDONLY)
        try:
            atomic_write(link, "new", dir_fd=fd)
        finally:
            os.close(fd)
    else:
        atomic_write(link, "new")
    assert not link.is_symlink() and link.read_text() == "new" and outside.read_text() == "precious"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(link.stat().st_mode) == 0o600  # a kept file: private
    assert os.listdir(inside) == ["m.md"]


def test_setuid_bits_are_not_kept(tmp_path):
    target = tmp_path / "run.md"
    target.write_text("x")
    target.chmod(0o4750)
    atomic_write(target, "y")
    assert stat.S_IMODE(target.stat().st_mode) == 0o700  # and private


def test_dir_fd_write_lands_in_the_held_directory(tmp_path):
    held = tmp_path / "held"
    held.mkdir()
    fd = os.open(held, os.O_RDONLY)
    try:
        os.rename(held, tmp_path / "moved")
        held.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
        (tmp_path / "elsewhere").mkdir()
        atomic_write(held / "a.md", "x", dir_fd=fd)
    finally:
        os.close(fd)
    assert (tmp_path / "moved" / "a.md").read_text() == "x"
    assert os.listdir(tmp_path / "elsewhere") == [] and os.listdir(tmp_path / "moved") == ["a.md"]


# -- bulk mode (durable=False): same guarantees except the fsyncs ----------------------------------


def test_bulk_mode_replaces_and_tightens_the_mode(tmp_path):
    target = tmp_path / "bulk.md"
    atomic_write(target, "one", durable=False)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.chmod(0o640)
    atomic_write(target, "two", durable=False)
    assert target.read_text(encoding="utf-8") == "two"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # tightened
    assert os.listdir(tmp_path) == ["bulk.md"]


@pytest.mark.parametrize("durable", [True, False])
def test_both_modes_drop_setuid_and_never_copy_a_link_targets_mode(tmp_path, durable):
    target = tmp_path / "run.md"
    target.write_text("x")
    target.chmod(0o4750)
    atomic_write(target, "y", durable=durable)
    assert stat.S_IMODE(target.stat().st_mode) == 0o700  # and private
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    outside.chmod(0o4777)
    link = tmp_path / "link.md"
    link.symlink_to(outside)
    atomic_write(link, "new", durable=durable)
    assert not link.is_symlink() and link.read_text() == "new" and outside.read_text() == "precious"
    assert stat.S_IMODE(link.stat().st_mode) & 0o7000 == 0


@pytest.mark.parametrize("durable", [True, False])
def test_failure_in_either_mode_leaves_no_temp_file(tmp_path, durable):
    target = tmp_path / "a.md"
    atomic_write(target, "old", durable=durable)
    with pytest.raises(TypeError):
        atomic_write(target, 123, durable=durable)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old" and os.listdir(tmp_path) == ["a.md"]


def test_temp_names_are_unguessable(tmp_path, monkeypatch):
    seen: list[str] = []
    real_open = os.open

    def spy(path, flags, mode=0o777, *, dir_fd=None):
        if os.fspath(path).endswith(".tmp"):
            seen.append(os.path.basename(os.fspath(path)))
            assert flags & os.O_EXCL and flags & os.O_NOFOLLOW
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", spy)
    for durable in (True, False):
        atomic_write(tmp_path / "n.md", "x", durable=durable)
    assert len(seen) == 2 and len(set(seen)) == 2
    assert all(name.startswith(".n.md.") and len(name) >= len(".n.md..tmp") + 16 for name in seen)


# -- file_lock --------------------------------------------------------------------------------------


def test_lock_is_exclusive_and_released(tmp_path):
    lock = tmp_path / ".lock"
    with file_lock(lock, symlink_error=OutsideRootError):
        other = os.open(lock, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(other)
    other = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again
    finally:
        os.close(other)


@pytest.mark.parametrize("error", [OutsideRootError, ProjectIdError])
def test_lock_refuses_a_symlink_and_creates_nothing_through_it(tmp_path, error):
    outside = tmp_path / "outside"
    outside.mkdir()
    lock = tmp_path / ".lock"
    lock.symlink_to(outside / "created")
    with pytest.raises(error, match=r"\.lock is a symlink; remove it"), file_lock(lock, symlink_error=error):
        pass  # pragma: no cover - never entered
    assert os.listdir(outside) == []
    (outside / "existing").write_text("x")
    lock.unlink()
    lock.symlink_to(outside / "existing")
    with pytest.raises(error, match="symlink"), file_lock(lock, symlink_error=error):
        pass  # pragma: no cover - never entered


def test_lock_on_a_fifo_does_not_hang(tmp_path):
    lock = tmp_path / ".lock"
    os.mkfifo(lock)
    with file_lock(lock, symlink_error=OutsideRootError):  # O_NONBLOCK: the open returns at once
        pass


def test_open_regular_reads_files_and_refuses_fifos_and_directories_without_blocking(tmp_path):
    from mimomem.common.files import open_regular

    (tmp_path / "f").write_bytes(b"data")
    with open_regular(tmp_path / "f") as handle:
        assert handle.read() == b"data"
    os.mkfifo(tmp_path / "fifo")  # no writer: a plain open() would block here forever
    for bad in (tmp_path / "fifo", tmp_path):
        with pytest.raises(OSError, match=r"not a regular file|Is a directory"):
            open_regular(bad)
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "missing")
