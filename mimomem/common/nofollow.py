"""Opening a file never through a symlink, never blocking, never inherited: the one spelling.

Everything mimomem opens under a directory someone else can write to (the memory tree, the
curated roots, the cache and state folders, a host's memory folder) must not be redirected by a
symlink planted at the last component, nor hang on a FIFO planted there, nor leak into a child
process.  :func:`open_nofollow` is ``os.open`` with ``O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC`` added
(regular files ignore ``O_NONBLOCK``); :func:`open_regular_nofollow` opens a file for reading and refuses
anything but a regular file.  Light on purpose: a served prompt hook imports it.
"""

from __future__ import annotations

import os
import stat

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
ADDED = NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
"""The flags :func:`open_nofollow` adds to the caller's."""
DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
"""The flags for a directory opened to act on its entries (``dir_fd=``)."""


def open_nofollow(
    path: str | os.PathLike[str], flags: int = os.O_RDONLY, mode: int = 0o600, *, dir_fd: int | None = None
) -> int:
    """``os.open(path, flags | ADDED, mode, dir_fd=dir_fd)``: a symlink at ``path`` raises ``OSError``
    (``ELOOP``; Linux says ``ENOTDIR`` with ``O_DIRECTORY``), a FIFO returns at once.  New files are 0600 unless
    ``mode`` says otherwise."""
    return os.open(path, flags | ADDED, mode, dir_fd=dir_fd)


def open_regular_nofollow(path: str | os.PathLike[str], *, dir_fd: int | None = None) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file at ``path`` for reading, and its stat (:func:`open_nofollow`).

    Anything but a regular file (a FIFO, a device, a directory) raises ``OSError`` naming it.
    The descriptor stays non-blocking (regular files ignore it); the caller closes it.
    """
    fd = open_nofollow(path, dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise OSError(0, "not a regular file", os.fspath(path))
    return fd, st


__all__ = ["ADDED", "DIRECTORY", "NOFOLLOW", "open_nofollow", "open_regular_nofollow"]
