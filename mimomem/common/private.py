"""What mimomem keeps is private: files 0600, directories 0700, whatever the umask.

Memory, state, caches and the history quote what the user said (and once held what a tool
printed); Claude Code keeps its own transcripts 0600 for the same reason.  New files and
directories are made private here; one made by an older mimomem (0644 in 0755 under the
default umask 022) is tightened when it is next written.  Only group and other access is
taken away, and only from what the current user owns: nothing of anyone else's is changed.
"""

from __future__ import annotations

import os
import stat
from contextlib import suppress

from mimomem.common.nofollow import open_nofollow

FILE_MODE = 0o600
"""Mode of every file mimomem keeps (SQLite gives a database's -wal, -shm and -journal its mode)."""

DIR_MODE = 0o700
"""Mode of every directory mimomem makes for what it keeps."""

DATABASE_SUFFIXES = ("", "-wal", "-shm", "-journal")
"""A SQLite database and the files SQLite keeps beside it."""


def tighten(path: str | os.PathLike[str], st: os.stat_result | None = None) -> None:
    """Take group and other access from ``path`` if it is ours and has any; never through a symlink."""
    try:
        st = os.stat(path, follow_symlinks=False) if st is None else st
        if st.st_mode & 0o077 and st.st_uid == os.geteuid() and not stat.S_ISLNK(st.st_mode):
            os.chmod(path, stat.S_IMODE(st.st_mode) & 0o700)
    except (OSError, NotImplementedError):
        pass  # gone, or not ours to change: the write that follows says more


def private_dir(path: str | os.PathLike[str]) -> None:
    """Make directory ``path`` and its missing parents 0700; tighten ``path`` itself if it was there.

    Like ``mkdir -p``: an existing directory is fine; anything else in the way raises
    ``OSError`` as ``os.makedirs`` would.
    """
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        parent = os.path.dirname(os.path.abspath(path))
        if parent != path and not os.path.isdir(parent):
            private_dir(parent)
        try:
            os.mkdir(path, DIR_MODE)
        except FileExistsError:
            if not os.path.isdir(path):
                raise
        tighten(path)  # the umask may have left bits mkdir's mode asked not to have... or taken some
        with suppress(OSError):
            if stat.S_IMODE(os.stat(path).st_mode) & DIR_MODE != DIR_MODE:
                os.chmod(path, DIR_MODE)
        return
    if not stat.S_ISDIR(st.st_mode):
        raise FileExistsError(f"{path} exists and is not a directory")
    tighten(path, st)


def create_private(path: str | os.PathLike[str]) -> None:
    """Create ``path`` empty with mode 0600 unless it exists (before SQLite makes it 0644)."""
    with suppress(FileExistsError):
        os.close(open_nofollow(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))


def private_database(path: str | os.PathLike[str]) -> None:
    """Before SQLite opens ``path``: its folder 0700, the file created 0600, older files beside it tightened."""
    path = os.fspath(path)
    private_dir(os.path.dirname(os.path.abspath(path)))
    create_private(path)
    for suffix in DATABASE_SUFFIXES:
        tighten(path + suffix)


__all__ = ["DATABASE_SUFFIXES", "DIR_MODE", "FILE_MODE", "create_private", "private_database", "private_dir", "tighten"]
