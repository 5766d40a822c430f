"""Reconcile: bring the index in line with the Markdown files on disk.

The files are the truth.  A reconcile walks the memory root (and, when enabled, the
Claude Code roots ``<base>/<slug>/memory/``), drops rows whose files are gone, and
re-reads only files whose *fingerprint* changed.

Fingerprint = ``<size>-<mtime_ns>-<inode>-<ctime_ns>``.  Size and mtime catch ordinary
edits; nanoseconds (MiMo-Code truncates to milliseconds) catch two writes in the same
millisecond; the inode catches ``mimomem.common.files.atomic_write`` and editors that save by
rename.  The ctime (which no program can set back) catches what those three miss: a
same-size save that restores the mtime into a reused inode, and a ``chmod`` (a file made
unreadable is then re-read, fails, and is dropped from the index with a skip reason).  A
changed fingerprint whose content turns out identical (``touch``, ``chmod``) only updates
the stored fingerprint; nothing is re-tokenized.  Two same-size writes within one tick of
the filesystem clock that restore the mtime remain invisible to any stat-based check.

What is skipped, each with a reason kept in ``file_issues`` (``mimomem index stats``):
hidden files and directories (name starts with ``.``), non-Markdown files, files over
the size limit, symlinks (never followed, so nothing outside the root is read),
names that are not UTF-8 (recorded with backslash escapes, ``\\xff``), paths that are not
memory files, unreadable files and directories.  A file that is not valid UTF-8 is
indexed with U+FFFD replacement characters and reported as a warning.

Symlink races: below each root, directories are opened relative to their parent's
descriptor with ``O_NOFOLLOW`` (walking and reading), so a directory swapped for a symlink
during a reconcile is skipped with a reason instead of being read through.

Concurrency: the whole reconcile runs in one ``BEGIN IMMEDIATE`` transaction, which
serialises reconcilers across processes; the time of the last one is kept in ``meta``,
so callers arriving within ``interval`` seconds of it skip the walk.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, TextIO

from mimomem.search import db
from mimomem.tree.layout import classify_path, split_memory_path
from mimomem.tree.names import NOT_UTF8, is_utf8, printable

DEFAULT_MAX_FILE_BYTES = 1024 * 1024
"""Files larger than this are skipped (memory files are notes, not logs)."""

PROGRESS_THRESHOLD = 500
"""Report progress on stderr when at least this many files must be read."""

MARKDOWN_SUFFIXES = (".md",)
_NOT_MEMORY = "not a memory file path (expected global/<key>.md or <scope>/<scope_id>/<key>.md)"


class Issue(NamedTuple):
    """A file not indexed (``kind="skipped"``) or indexed with a problem (``"warning"``)."""

    path: str
    kind: str
    reason: str


@dataclass
class ReconcileReport:
    """What a reconcile did.  ``ran`` is False when a recent one made it unnecessary."""

    ran: bool = True
    indexed: int = 0
    pruned: int = 0
    touched: int = 0
    unchanged: int = 0
    seconds: float = 0.0
    issues: list[Issue] = field(default_factory=list)

    @property
    def skipped(self) -> list[Issue]:
        """The files that were not indexed, with reasons."""
        return [i for i in self.issues if i.kind == "skipped"]

    @property
    def warnings(self) -> list[Issue]:
        """Files indexed despite a problem (e.g. invalid UTF-8)."""
        return [i for i in self.issues if i.kind == "warning"]


def fingerprint(st: os.stat_result) -> str:
    """``<size>-<mtime_ns>-<inode>-<ctime_ns>`` of a stat result."""
    return f"{st.st_size}-{st.st_mtime_ns}-{st.st_ino}-{st.st_ctime_ns}"


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


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
_DIR_FLAGS = _ROOT_FLAGS | _NOFOLLOW
_FILE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC  # O_NONBLOCK: a FIFO swapped in cannot block


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
        found[full] = f"{st.st_size}-{st.st_mtime_ns}-{st.st_ino}-{st.st_ctime_ns}"  # = fingerprint(st), inlined
    return subdirectories


def _open_subdirectory(dir_fd: int, name: str, path: str, real_root: str, issues: list[Issue]) -> int | None:
    """Open ``name`` in ``dir_fd`` without following a symlink; None (and an issue) if it cannot be."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
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


class _Parents:
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
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
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
    fd = os.open(path if dir_fd is None else os.path.basename(path), _FILE_FLAGS, dir_fd=dir_fd)
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
        return data.decode("utf-8"), fingerprint(st), None
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        return text, fingerprint(st), f"invalid UTF-8 from byte {exc.start}; undecodable bytes shown as U+FFFD"


class Progress:
    """A count on stderr (``mimomem: reconcile: 500/12000 files``), only for large batches."""

    def __init__(self, total: int, stream: TextIO | None, every: int = PROGRESS_THRESHOLD) -> None:
        self.total, self.stream, self.every = total, stream, every
        self.active = stream is not None and total >= PROGRESS_THRESHOLD

    def step(self, done: int) -> None:
        if self.active and (done % self.every == 0 or done == self.total):
            end = "\n" if done == self.total else "\r"
            print(f"mimomem: reconcile: {done}/{self.total} files", end=end, file=self.stream, flush=True)


def reconcile(
    conn: sqlite3.Connection,
    roots: Iterable[str | os.PathLike[str]],
    *,
    classify_root: str | os.PathLike[str],
    interval: float = 0.0,
    max_bytes: int = DEFAULT_MAX_FILE_BYTES,
    progress: TextIO | None = None,
    clock: Callable[[], float] = time.time,
    wait_ms: int | None = None,
) -> ReconcileReport:
    """Sync the ``memory_fts`` rows with the Markdown files under ``roots``.

    ``classify_root`` is the memory root that ``layout.classify_path`` judges paths
    against (Claude Code roots are recognised by their own shape).  Skips the work and
    returns ``ran=False`` when another reconcile of the same ``roots`` finished less than
    ``interval`` seconds ago (any process).  Raises ``sqlite3.OperationalError`` if another writer
    holds the database longer than ``wait_ms`` (default: the connection's busy timeout).
    """
    started = time.perf_counter()
    report = ReconcileReport()
    paths: list[str] = [os.fspath(r) for r in roots]
    walked = "\n".join(paths)  # a run over other roots (Claude Code on/off) does not count as recent
    with db.reporting_corruption(conn), db.transaction(conn, wait_ms=wait_ms):
        last = db.get_meta(conn, "last_reconcile")
        now = clock()
        recent = last is not None and 0 <= now - float(last) < interval
        if interval > 0 and recent and db.get_meta(conn, "last_reconcile_roots") == printable(walked):
            return ReconcileReport(ran=False)
        issues: list[Issue] = []
        on_disk: dict[str, str] = {}
        for root in paths:
            on_disk.update(walk(Path(root), max_bytes, issues))
        indexed: dict[str, str] = dict(conn.execute("SELECT path, fingerprint FROM memory_fts"))  # covering index
        gone = [p for p in indexed if p not in on_disk]
        report.pruned = db.delete_paths(conn, gone)
        changed = sorted(p for p, fp in on_disk.items() if indexed.get(p) != fp)
        report.unchanged = len(on_disk) - len(changed)
        reader = _Reader(conn, paths, os.fspath(classify_root), max_bytes, issues)
        new_rows, report.touched = reader.read_changed(changed, indexed, now_ms=int(now * 1000), progress=progress)
        report.indexed = db.put_rows(conn, new_rows, now=int(now * 1000))
        # Files indexed before but skipped now (grown too big, unreadable) must not stay searchable.
        gone_set = set(gone)
        skipped_now = [i.path for i in issues if i.kind == "skipped" and i.path in indexed and i.path not in gone_set]
        report.pruned += db.delete_paths(conn, skipped_now)
        _store_issues(conn, issues, reader.warned, set(changed), gone_set | set(skipped_now))
        db.set_meta(conn, "last_reconcile", repr(now))
        db.set_meta(conn, "last_reconcile_roots", printable(walked))
        report.issues = issues + [Issue(p, "warning", r) for p, r in reader.warned.items()]
    report.seconds = time.perf_counter() - started
    if progress is not None and len(on_disk) >= PROGRESS_THRESHOLD * 10 and report.indexed:
        print(
            f"mimomem: reconcile: {len(on_disk)} files, {report.indexed} indexed, {report.pruned} pruned", file=progress
        )
    return report


class _Reader:
    """Reads the files whose fingerprint changed; skips go to ``issues``, warnings to ``warned``."""

    def __init__(
        self, conn: sqlite3.Connection, roots: list[str], mimo_root: str, max_bytes: int, issues: list[Issue]
    ) -> None:
        self.conn, self.roots, self.mimo_root, self.max_bytes = conn, roots, mimo_root, max_bytes
        self.issues = issues
        self.warned: dict[str, str] = {}

    def read_changed(
        self, changed: list[str], indexed: dict[str, str], *, now_ms: int, progress: TextIO | None
    ) -> tuple[list[db.Row], int]:
        """``(rows to write, touched)``: a file whose text and class are unchanged (a ``touch``)
        only gets its new fingerprint stored; ``touched`` counts those."""
        bar = Progress(len(changed), progress)
        new_rows: list[db.Row] = []
        touched = 0
        parents = _Parents(self.roots)
        try:
            for n, path in enumerate(changed, 1):
                bar.step(n)
                row = self.read_one(path, parents)
                if row is None:
                    continue
                if path in indexed and self.same_as_stored(row, now_ms):
                    touched += 1
                    continue
                new_rows.append(row)
        finally:
            parents.close()
        return new_rows, touched

    def read_one(self, path: str, parents: _Parents) -> db.Row | None:
        """The row for ``path``, or None (the reason appended to ``issues``)."""
        mimo_prefix = self.mimo_root.rstrip(os.sep) + os.sep
        if path.startswith(mimo_prefix) and split_memory_path(self.mimo_root, path) is None:
            self.issues.append(Issue(path, "skipped", _NOT_MEMORY))  # decided from the path alone
            return None
        try:
            text, fp, problem = read_text(path, self.max_bytes, dir_fd=parents.open(path))
        except ValueError as exc:
            self.issues.append(Issue(path, "skipped", str(exc)))
            return None
        except OSError as exc:
            self.issues.append(Issue(path, "skipped", _unreadable(exc)))
            return None
        cls = classify_path(self.mimo_root, path, text=text)
        if cls is None:
            self.issues.append(Issue(path, "skipped", _NOT_MEMORY))
            return None
        if problem:
            self.warned[path] = problem
        return db.Row(path, cls.scope, cls.scope_id, cls.type, text, fp)

    def same_as_stored(self, row: db.Row, now_ms: int) -> bool:
        """True (and the new fingerprint stored) when the indexed row already holds this text and class."""
        stored = self.conn.execute(
            "SELECT id, body, scope, scope_id, type FROM memory_fts WHERE path = ?", (row.path,)
        ).fetchone()
        if stored is None or tuple(stored[1:]) != (row.body, row.scope, row.scope_id, row.type):
            return False
        self.conn.execute(
            "UPDATE memory_fts SET fingerprint = ?, last_indexed_at = ? WHERE id = ?",
            (row.fingerprint, now_ms, stored[0]),
        )
        return True


def _unreadable(exc: OSError) -> str:
    """The skip reason for a file that could not be read (a swapped-in symlink named as such)."""
    if exc.errno == errno.ELOOP:
        return "symlink (swapped in during the reconcile; never followed)"
    if exc.errno == errno.ENOTDIR:
        return "a parent directory changed during the reconcile (not a directory now)"
    return f"unreadable ({exc.strerror or exc})"


def _store_issues(
    conn: sqlite3.Connection,
    issues: list[Issue],
    warned: dict[str, str],
    reread: set[str],
    removed: set[str],
) -> None:
    """Replace the skip list; keep warnings of files not re-read, drop those re-read or gone.

    Paths and reasons are stored through :func:`printable`, so a name that is not UTF-8
    (already escaped by the walk) or an odd error text can never make the write fail.
    """
    old_skips = set(conn.execute("SELECT path, kind, reason FROM file_issues WHERE kind = 'skipped'"))
    new_skips = {(printable(i.path), i.kind, printable(i.reason)) for i in issues if i.kind == "skipped"}
    if old_skips != new_skips:
        conn.execute("DELETE FROM file_issues WHERE kind = 'skipped'")
        conn.executemany("INSERT OR REPLACE INTO file_issues(path, kind, reason) VALUES (?, ?, ?)", sorted(new_skips))
    stale = [(p,) for p in reread | removed if p not in warned]
    if stale:
        conn.executemany("DELETE FROM file_issues WHERE path = ? AND kind = 'warning'", stale)
    if warned:
        conn.executemany(
            "INSERT OR REPLACE INTO file_issues(path, kind, reason) VALUES (?, 'warning', ?)",
            sorted((p, printable(r)) for p, r in warned.items()),
        )


def stored_issues(conn: sqlite3.Connection) -> list[Issue]:
    """Skipped and warned files recorded by the last reconcile."""
    return [Issue(*row) for row in conn.execute("SELECT path, kind, reason FROM file_issues ORDER BY kind, path")]


__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "Issue",
    "ReconcileReport",
    "cc_memory_roots",
    "fingerprint",
    "read_text",
    "reconcile",
    "stored_issues",
    "walk",
]
