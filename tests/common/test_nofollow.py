"""The one no-follow open (mimomem.common.nofollow): never through a symlink, never blocking, never inherited."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mimomem.common.nofollow import DIRECTORY, open_nofollow, open_regular_nofollow


def test_a_symlink_is_refused(tmp_path: Path) -> None:
    (tmp_path / "target").write_text("secret")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    with pytest.raises(OSError):
        open_nofollow(tmp_path / "link")
    with pytest.raises(OSError):  # nor created through: the link's target stays as it was
        open_nofollow(tmp_path / "link", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    assert (tmp_path / "target").read_text() == "secret"


def test_a_fifo_does_not_block_and_is_no_regular_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    os.close(open_nofollow(tmp_path / "fifo"))  # returns at once, no writer needed
    with pytest.raises(OSError, match="not a regular file"):
        open_regular_nofollow(tmp_path / "fifo")


def test_new_files_are_private_and_not_inherited(tmp_path: Path) -> None:
    fd = open_nofollow(tmp_path / "new", os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    try:
        assert os.fstat(fd).st_mode & 0o077 == 0
        assert not os.get_inheritable(fd)
    finally:
        os.close(fd)


def test_regular_file_and_directory(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("hello")
    fd, st = open_regular_nofollow("a.md", dir_fd=(d := open_nofollow(tmp_path, DIRECTORY)))
    try:
        assert os.read(fd, 10) == b"hello" and st.st_size == 5
    finally:
        os.close(fd)
        os.close(d)
