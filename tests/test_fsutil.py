"""atomic_write: content replaced whole, permissions kept, no temp files left behind."""

from __future__ import annotations

import os
import stat

import pytest

from mimomem.fsutil import atomic_write


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
