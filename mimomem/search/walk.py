"""Walk and read the Markdown memory files without following a symlink; fingerprint each one.

A reconcile (``search.reconcile``) re-reads only files whose *fingerprint* changed.

Fingerprint = the file's stamp as text (:func:`mimomem.common.stamp.stamp_text`: mtime and
ctime in nanoseconds, size, inode and mode), so an edit, a rename over it, a same-size save that
restores the mtime, and a ``chmod`` (a file made unreadable is then re-read, fails, and is
dropped from the index with a skip reason) all change it.  A changed fingerprint whose content
turns out identical (``touch``, ``chmod``) only updates the stored fingerprint; nothing is
re-tokenized.  Two same-size writes within one tick of the filesystem clock that restore the
mtime remain invisible to any stat-based check.

What is skipped, each with a reason kept in ``file_issues`` (``mimomem index stats``):
hidden files and directories (name starts with ``.``), non-Markdown files, files over
the size limit, symlinks (never followed, so nothing outside the root is read),
names that are not UTF-8 (recorded with backslash escapes, ``\\xff``), paths that are not
memory files, unreadable files and directories.  A file that is not valid UTF-8 is
indexed with U+FFFD replacement characters and reported as a warning.

Symlink races: below each root, directories are opened relative to their parent's
descriptor with ``O_NOFOLLOW`` (walking and reading), so a directory swapped for a symlink
during a reconcile is skipped with a reason instead of being read through.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from mimomem.common.nofollow import DIRECTORY, open_nofollow
from mimomem.common.stamp import stamp_text
from mimomem.tree.names import NOT_UTF8, is_utf8, printable

DEFAULT_MAX_FILE_BYTES = 1024 * 1024
"""Files larger than this are skipped (memory files are notes, not logs)."""

MARKDOWN_SUFFIXES = (".md",)


class Issue(NamedTuple):
    """A file not indexed (``kind="skipped"``) or indexed with a problem (``"warning"``)."""

    path: str
    kind: str
    reason: str


def cc_memory_roots(base: str | os.PathLike[str]) -> list[Path]:
    """``<base>/<slug>/memory`` directories (Claude Code), symlinked ones excluded."""
    out = []
    try:
        entries = sorted(os.scandir(base), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return []
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
            continue
        memory = Path(entry.path) / "memory"
        if memory.is_dir() and not memory.is_symlink():
            out.append(memory)
    return out


_ROOT_FLAGS = DIRECTORY | getattr(os, "O_CLOEXEC", 0)  # the root alone may be reached through a symlink


def walk(root: Path, max_bytes: int, issues: list[Issue]) -> dict[str, str]:
    """Markdown files under ``root`` (absolute path -> fingerprint); skips go to ``issues``.

    Only ``root`` is opened by path (it may be reached through a symlink the user set up);
    every directory below is opened relative to its parent's descriptor with
    ``O_NOFOLLOW`` and listed with ``os.scandir(fd)``, so a directory swapped for a
    symlink during the walk is reported, never followed.  Descriptors held: one per level.
    """
    found: dict[str, str] = {}
    top = str(root)
    if not is_utf8(top):
        issues.append(Issue(printable(top), "skipped", NOT_UTF8))
        return found
    try:
        fd = os.open(top, _ROOT_FLAGS)
    except FileNotFoundError:
        return found
    except OSError as exc:
        issues.append(Issue(top, "skipped", f"unreadable directory ({exc.strerror or exc})"))
        return found
    real_root = os.path.realpath(top)
    frames: list[tuple[str, int, list[str]]] = [(top, fd, [])]
    try:
        frames[0][2].extend(_scan(top, fd, real_root, max_bytes, found, issues))
        while frames:
            path, dir_fd, pending = frames[-1]
            if not pending:
                frames.pop()
                os.close(dir_fd)
                continue
            name = pending.pop()
            child = os.path.join(path, name)
            child_fd = _open_subdirectory(dir_fd, name, child, real_root, issues)
            if child_fd is not None:
                frames.append((child, child_fd, []))
                frames[-1][2].extend(_scan(child, child_fd, real_root, max_bytes, found, issues))
    finally:
        for _, dir_fd, _ in frames:
            os.close(dir_fd)
    return found


def _scan(
    path: str, dir_fd: int, real_root: str, max_bytes: int, found: dict[str, str], issues: list[Issue]
) -> list[str]:
    """Record the Markdown files of the open directory ``dir_fd`` in ``found``; its sub-directory names."""
    try:
        with os.scandir(dir_fd) as listing:
            entries = list(listing)
    except OSError as exc:
        issues.append(Issue(path, "skipped", f"unreadable directory ({exc.strerror or exc})"))
        return []
    prefix = path.rstrip(os.sep) + os.sep
    subdirectories: list[str] = []
    for entry in entries:
        name = entry.name
        full = prefix + name
        if not is_utf8(name):
            issues.append(Issue(printable(full), "skipped", NOT_UTF8))
            continue
        try:
            if entry.is_symlink():
                issues.append(Issue(full, "skipped", _symlink_reason(full, real_root)))
                continue
            if name.startswith("."):
                issues.append(Issue(full, "skipped", "hidden"))
                continue
            if entry.is_dir(follow_symlinks=False):
                subdirectories.append(name)
                continue
            if not entry.is_file(follow_symlinks=False):
                issues.append(Issue(full, "skipped", "not a regular file"))
                continue
            if not name.endswith(MARKDOWN_SUFFIXES):
                issues.append(Issue(full, "skipped", "not Markdown (only *.md is indexed)"))
                continue
            st = entry.stat(follow_symlinks=False)
        except OSError as exc:
            issues.append(Issue(full, "skipped", f"unreadable ({exc.strerror or exc})"))
            continue
        if st.st_size > max_bytes:
            issues.append(Issue(full, "skipped", f"oversized ({st.st_size} bytes > limit {max_bytes})"))
            continue
        found[full] = stamp_text(st)
    return subdirectories


def _open_subdirectory(dir_fd: int, name: str, path: str, real_root: str, issues: list[Issue]) -> int | None:
    """Open ``name`` in ``dir_fd`` without following a symlink; None (and an issue) if it cannot be."""
    try:
        return open_nofollow(name, DIRECTORY, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        try:
            swapped = stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
        except OSError:
            swapped = False
        reason = _symlink_reason(path, real_root) if swapped else f"unreadable directory ({exc.strerror or exc})"
        issues.append(Issue(path, "skipped", reason))
        return None


def _symlink_reason(path: str, real_root: str) -> str:
    target = os.path.realpath(path)
    if target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep):
        return "symlink (not followed; its target is indexed under its own path)"
    return "symlink to outside the memory root (never followed)"


class Parents:
    """Directories of the files being read, each reached from its root without following a symlink.

    Opening component by component with ``O_NOFOLLOW`` means a directory swapped for a
    symlink after the walk fails with ``ELOOP`` instead of being read through.  Files are
    read in path order, so the directory of the previous file is kept for the next one.
    """

    def __init__(self, roots: Iterable[str]) -> None:
        self.roots = sorted((r.rstrip(os.sep) or os.sep for r in roots), key=len, reverse=True)
        self.current: tuple[str, int] | None = None

    def open(self, path: str) -> int:
        """A descriptor of ``path``'s directory (owned by this object); raises ``OSError``."""
        parent = os.path.dirname(path)
        if self.current is not None and self.current[0] == parent:
            return self.current[1]
        self.close()
        root = next((r for r in self.roots if parent == r or parent.startswith(r.rstrip(os.sep) + os.sep)), parent)
        fd = os.open(root, _ROOT_FLAGS)
        try:
            for name in parent[len(root) :].split(os.sep):
                if name:
                    child = _open_component(fd, name)
                    os.close(fd)
                    fd = child
        except BaseException:
            os.close(fd)
            raise
        self.current = (parent, fd)
        return fd

    def close(self) -> None:
        if self.current is not None:
            os.close(self.current[1])
            self.current = None


def _open_component(dir_fd: int, name: str) -> int:
    """Open the directory ``name`` in ``dir_fd``; a symlink there raises ``OSError(ELOOP)`` on every OS."""
    try:
        return open_nofollow(name, DIRECTORY, dir_fd=dir_fd)
    except NotADirectoryError:  # Linux answers ENOTDIR for O_DIRECTORY | O_NOFOLLOW on a symlink
        if stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), name) from None
        raise


def read_text(path: str, max_bytes: int, *, dir_fd: int | None = None) -> tuple[str, str, str | None]:
    """Read ``path`` without following symlinks: ``(text, fingerprint, problem)``.

    With ``dir_fd`` (its open parent directory) only the last component is opened,
    relative to it.  Invalid UTF-8 is replaced with U+FFFD and described in ``problem``.
    Raises ``OSError`` (the caller records it) and ``ValueError`` when the file grew past
    the limit.
    """
    fd = open_nofollow(path if dir_fd is None else os.path.basename(path), dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(0, "not a regular file")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise ValueError(f"oversized (more than {max_bytes} bytes)")
            chunks.append(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8"), stamp_text(st), None
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        return text, stamp_text(st), f"invalid UTF-8 from byte {exc.start}; undecodable bytes shown as U+FFFD"


__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "Issue",
    "Parents",
    "cc_memory_roots",
    "read_text",
    "walk",
]
