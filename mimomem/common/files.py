"""Atomic file writes: a reader sees the old file or the new one, never a partial one."""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _mode_for(st: os.stat_result | None) -> int:
    """The new file's mode: the old regular file's permission bits, else what open() would give.

    Never copied through a symlink, and never setuid/setgid/sticky bits.
    """
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode) & 0o777
    return 0o666 & ~_umask()


def atomic_write(
    path: str | os.PathLike[str], data: str | bytes, *, encoding: str = "utf-8", dir_fd: int | None = None
) -> None:
    """Write ``data`` to ``path`` via a temp file in the same directory, fsync, rename.

    The directory must exist.  On any failure the temp file is removed and the old
    content of ``path`` (if any) is untouched.  With ``dir_fd`` (an open directory),
    only ``path``'s last component is used, relative to that directory: a parent
    directory swapped for a symlink meanwhile cannot redirect the write.
    """
    target = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    if dir_fd is not None:
        _write_at(dir_fd, target.name, payload)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes 0600 files: keep the old file's mode, else what open() would give
        try:
            mode = _mode_for(os.lstat(target))
        except FileNotFoundError:
            mode = _mode_for(None)
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _write_at(dir_fd: int, name: str, payload: bytes) -> None:
    """``atomic_write`` of ``name`` inside the open directory ``dir_fd``."""
    try:
        mode = _mode_for(os.stat(name, dir_fd=dir_fd, follow_symlinks=False))
    except FileNotFoundError:
        mode = _mode_for(None)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o600, dir_fd=dir_fd)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"could not create a temporary file next to {name}")
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable
        os.fsync(dir_fd)
    except OSError:
        pass
