"""Atomic file writes, lock files, and reads of cache files that cannot hang.

``atomic_write``: a reader sees the old file or the new one, never a partial one.
``file_lock``: an exclusive ``flock`` on a lock file that is never reached through a symlink.
``open_regular``: open a file for reading only if it is a regular file (a FIFO planted at a
cache path would otherwise block the reader, e.g. a hook, forever).
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from mimomem.common.nofollow import open_nofollow
from mimomem.errors import MimomemError

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _mode_for(st: os.stat_result | None, *, private: bool) -> int:
    """The new file's mode: the old regular file's permission bits, else what open() would give.

    Never copied through a symlink, and never setuid/setgid/sticky bits.  ``private``: 0600
    for a new file, an old one's bits without group and other access (tightened).
    """
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode) & (0o700 if private else 0o777)
    return 0o600 if private else 0o666 & ~_umask()


def atomic_write(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    encoding: str = "utf-8",
    dir_fd: int | None = None,
    durable: bool = True,
    private: bool = True,
) -> None:
    """Write ``data`` to ``path`` via a temp file in the same directory, then rename it over ``path``.

    The directory must exist.  On any failure the temp file is removed and the old
    content of ``path`` (if any) is untouched.  The new file keeps the old regular file's
    permission bits (not a symlink's target's, never setuid/setgid/sticky), less group and
    other access unless ``private=False`` (a file mimomem keeps is 0600 whatever the umask,
    :mod:`mimomem.common.private`; a host's own file keeps its mode).  The temp file
    is created ``O_EXCL | O_NOFOLLOW`` under an unguessable name, so a planted link is
    never written through.

    ``durable=True`` fsyncs the file and then its directory, so the rename survives a
    crash.  ``durable=False`` skips both (bulk writes: the caller syncs once at the end).
    With ``dir_fd`` (an open directory), only ``path``'s last component is used, relative
    to that directory: a parent directory swapped for a symlink meanwhile cannot redirect
    the write.
    """
    target = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    name = target.name if dir_fd is not None else os.fspath(target)
    _replace(name, payload, dir_fd=dir_fd, durable=durable, private=private)
    if durable:
        _sync_directory(target.parent, dir_fd)


def _replace(name: str, payload: bytes, *, dir_fd: int | None, durable: bool, private: bool) -> None:
    """Write ``payload`` to a fresh temp file beside ``name`` and rename it to ``name``."""
    try:
        mode = _mode_for(os.stat(name, dir_fd=dir_fd, follow_symlinks=False), private=private)
    except FileNotFoundError:
        mode = _mode_for(None, private=private)
    fd, tmp = _open_temp(name, dir_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)  # created 0600: give it the old file's mode
            handle.write(payload)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise


def _open_temp(name: str, dir_fd: int | None) -> tuple[int, str]:
    """Create ``.<name>.<pid>.<random>.tmp`` next to ``name`` exclusively; its fd and path.

    The pid tells a cleaner whether the writer is still alive (a killed writer's temp file stays).
    """
    head, tail = os.path.split(name)
    for _ in range(100):
        tmp = os.path.join(head, f".{tail}.{os.getpid()}.{os.urandom(8).hex()}.tmp")
        try:
            return open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, dir_fd=dir_fd), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"could not create a temporary file next to {name}; remove stale .{tail}.*.tmp files")


def _sync_directory(directory: Path, dir_fd: int | None) -> None:
    """fsync a directory so a rename in it is durable (best effort: some filesystems refuse)."""
    if dir_fd is not None:
        with suppress(OSError):
            os.fsync(dir_fd)
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def file_lock(path: str | os.PathLike[str], *, symlink_error: type[MimomemError]) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the lock file ``path`` (created if missing) for the block.

    The file is opened ``O_NOFOLLOW``: a lock file planted as a symlink must not create or
    open a file elsewhere.  Then ``symlink_error`` (the caller's error class, so the message
    reads in the caller's terms) is raised, naming the path and what to do.
    """
    try:
        fd = open_nofollow(path, os.O_RDWR | os.O_CREAT)  # a FIFO planted there cannot hang the open
    except OSError:
        if os.path.islink(path):
            message = f"{os.fspath(path)} is a symlink; remove it (mimomem recreates its lock file)"
            raise symlink_error(message) from None
        raise
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``open(path, "rb")``, refusing anything but a regular file without blocking on it.

    Opened non-blocking, so a FIFO or a device at ``path`` returns at once; then anything
    that is not a regular file raises ``OSError`` (``EINVAL``), as an unreadable file would.
    """
    fd = os.open(path, os.O_RDONLY | _CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
