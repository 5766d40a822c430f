"""atomic_write: content replaced whole, permissions kept, no temp files left behind."""

from __future__ import annotations

import os
import stat

import pytest

from mimomem.common.files import atomic_write


def test_writes_and_replaces(tmp_path):
    target = tmp_path / "MEMORY.md"
    atomic_write(target, "一")
    atomic_write(target, "二")
    assert target.read_text(encoding="utf-8") == "二"
    assert os.listdir(tmp_path) == ["MEMORY.md"]


def test_new_file_gets_umask_mode_and_existing_mode_is_kept(tmp_path):
    target = tmp_path / "notes.md"
    atomic_write(target, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    target.chmod(0o640)
    atomic_write(target, "y")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


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
    assert stat.S_IMODE(link.stat().st_mode) == 0o666 & ~mask
    assert os.listdir(inside) == ["m.md"]


def test_setuid_bits_are_not_kept(tmp_path):
    target = tmp_path / "run.md"
    target.write_text("x")
    target.chmod(0o4750)
    atomic_write(target, "y")
    assert stat.S_IMODE(target.stat().st_mode) == 0o750


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
