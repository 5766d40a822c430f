"""Reconcile: bring the index in line with the Markdown files on disk.

The files are the truth.  A reconcile walks the memory root (and, when enabled, the
Claude Code roots ``<base>/<slug>/memory/``), drops rows whose files are gone, and
re-reads only files whose *fingerprint* changed.

Fingerprint = ``<size>-<mtime_ns>-<inode>``.  Size and mtime catch ordinary edits;
nanoseconds (MiMo-Code truncates to milliseconds) catch two writes in the same
millisecond; the inode catches ``mimomem.common.files.atomic_write`` and editors that save by
rename - the new file gets a new inode even when size and mtime happen to match (equal
length rewrites on coarse-clock filesystems, or tools that restore mtime).  A changed
fingerprint whose content turns out identical (``touch``) only updates the stored
fingerprint; nothing is re-tokenized.

What is skipped, each with a reason kept in ``file_issues`` (``mimomem index stats``):
hidden files and directories (name starts with ``.``), non-Markdown files, files over
the size limit, symlinks (never followed, so nothing outside the root is read),
paths that are not memory files, unreadable files and directories.  A file that is not
valid UTF-8 is indexed with U+FFFD replacement characters and reported as a warning.

Concurrency: the whole reconcile runs in one ``BEGIN IMMEDIATE`` transaction, which
serialises reconcilers across processes; the time of the last one is kept in ``meta``,
so callers arriving within ``interval`` seconds of it skip the walk.
"""

from __future__ import annotations

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
    """``<size>-<mtime_ns>-<inode>`` of a stat result."""
    return f"{st.st_size}-{st.st_mtime_ns}-{st.st_ino}"


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


def walk(root: Path, max_bytes: int, issues: list[Issue]) -> dict[str, str]:
    """Markdown files under ``root`` (absolute path -> fingerprint); skips go to ``issues``."""
    found: dict[str, str] = {}
    real_root = os.path.realpath(root)
    stack = [str(root)]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except FileNotFoundError:
            continue
        except OSError as exc:
            issues.append(Issue(directory, "skipped", f"unreadable directory ({exc.strerror or exc})"))
            continue
        for entry in entries:
            name, path = entry.name, entry.path
            try:
                if entry.is_symlink():
                    issues.append(Issue(path, "skipped", _symlink_reason(path, real_root)))
                    continue
                if name.startswith("."):
                    issues.append(Issue(path, "skipped", "hidden"))
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(path)
                    continue
                if not entry.is_file(follow_symlinks=False):
                    issues.append(Issue(path, "skipped", "not a regular file"))
                    continue
                if not name.endswith(MARKDOWN_SUFFIXES):
                    issues.append(Issue(path, "skipped", "not Markdown (only *.md is indexed)"))
                    continue
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                issues.append(Issue(path, "skipped", f"unreadable ({exc.strerror or exc})"))
                continue
            if st.st_size > max_bytes:
                issues.append(Issue(path, "skipped", f"oversized ({st.st_size} bytes > limit {max_bytes})"))
                continue
            found[path] = f"{st.st_size}-{st.st_mtime_ns}-{st.st_ino}"  # = fingerprint(st), inlined
    return found


def _symlink_reason(path: str, real_root: str) -> str:
    target = os.path.realpath(path)
    if target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep):
        return "symlink (not followed; its target is indexed under its own path)"
    return "symlink to outside the memory root (never followed)"


def read_text(path: str, max_bytes: int) -> tuple[str, str, str | None]:
    """Read ``path`` without following symlinks: ``(text, fingerprint, problem)``.

    Invalid UTF-8 is replaced with U+FFFD and described in ``problem``.  Raises
    ``OSError`` (the caller records it) and ``ValueError`` when the file grew past the limit.
    """
    # O_NONBLOCK: a file swapped for a FIFO after walk() must not block the open
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
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
    with db.transaction(conn, wait_ms=wait_ms):
        last = db.get_meta(conn, "last_reconcile")
        now = clock()
        recent = last is not None and 0 <= now - float(last) < interval
        if interval > 0 and recent and db.get_meta(conn, "last_reconcile_roots") == walked:
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

        new_rows, warned, report.touched = _read_changed(
            conn,
            changed,
            indexed,
            os.fspath(classify_root),
            max_bytes=max_bytes,
            now_ms=int(now * 1000),
            progress=progress,
            issues=issues,
        )
        report.indexed = db.put_rows(conn, new_rows, now=int(now * 1000))
        # Files indexed before but skipped now (grown too big, unreadable) must not stay searchable.
        gone_set = set(gone)
        skipped_now = [i.path for i in issues if i.kind == "skipped" and i.path in indexed and i.path not in gone_set]
        report.pruned += db.delete_paths(conn, skipped_now)

        _store_issues(conn, issues, warned, set(changed), gone_set | set(skipped_now))
        db.set_meta(conn, "last_reconcile", repr(now))
        db.set_meta(conn, "last_reconcile_roots", walked)
        report.issues = issues + [Issue(p, "warning", r) for p, r in warned.items()]
    report.seconds = time.perf_counter() - started
    if progress is not None and len(on_disk) >= PROGRESS_THRESHOLD * 10 and report.indexed:
        print(
            f"mimomem: reconcile: {len(on_disk)} files, {report.indexed} indexed, {report.pruned} pruned", file=progress
        )
    return report


def _read_changed(
    conn: sqlite3.Connection,
    changed: list[str],
    indexed: dict[str, str],
    mimo_root: str,
    *,
    max_bytes: int,
    now_ms: int,
    progress: TextIO | None,
    issues: list[Issue],
) -> tuple[list[db.Row], dict[str, str], int]:
    """Read the files whose fingerprint changed: ``(rows to write, warnings by path, touched)``.

    Skips are appended to ``issues``.  A file whose text and class are unchanged (a
    ``touch``) only gets its new fingerprint stored; ``touched`` counts those.
    """
    mimo_prefix = mimo_root.rstrip(os.sep) + os.sep
    bar = Progress(len(changed), progress)
    new_rows: list[db.Row] = []
    warned: dict[str, str] = {}
    touched = 0
    for n, path in enumerate(changed, 1):
        bar.step(n)
        if path.startswith(mimo_prefix) and split_memory_path(mimo_root, path) is None:
            issues.append(Issue(path, "skipped", _NOT_MEMORY))  # decided from the path alone
            continue
        try:
            text, fp, problem = read_text(path, max_bytes)
        except ValueError as exc:
            issues.append(Issue(path, "skipped", str(exc)))
            continue
        except OSError as exc:
            issues.append(Issue(path, "skipped", f"unreadable ({exc.strerror or exc})"))
            continue
        cls = classify_path(mimo_root, path, text=text)
        if cls is None:
            issues.append(Issue(path, "skipped", _NOT_MEMORY))
            continue
        if problem:
            warned[path] = problem
        if path in indexed:
            row = conn.execute(
                "SELECT id, body, scope, scope_id, type FROM memory_fts WHERE path = ?", (path,)
            ).fetchone()
            if row is not None and tuple(row[1:]) == (text, *cls):
                conn.execute(
                    "UPDATE memory_fts SET fingerprint = ?, last_indexed_at = ? WHERE id = ?", (fp, now_ms, row[0])
                )
                touched += 1
                continue
        new_rows.append(db.Row(path, cls.scope, cls.scope_id, cls.type, text, fp))
    return new_rows, warned, touched


def _store_issues(
    conn: sqlite3.Connection,
    issues: list[Issue],
    warned: dict[str, str],
    reread: set[str],
    removed: set[str],
) -> None:
    """Replace the skip list; keep warnings of files not re-read, drop those re-read or gone."""
    old_skips = set(conn.execute("SELECT path, kind, reason FROM file_issues WHERE kind = 'skipped'"))
    new_skips = {(i.path, i.kind, i.reason) for i in issues if i.kind == "skipped"}
    if old_skips != new_skips:
        conn.execute("DELETE FROM file_issues WHERE kind = 'skipped'")
        conn.executemany("INSERT OR REPLACE INTO file_issues(path, kind, reason) VALUES (?, ?, ?)", sorted(new_skips))
    stale = [(p,) for p in reread | removed if p not in warned]
    if stale:
        conn.executemany("DELETE FROM file_issues WHERE path = ? AND kind = 'warning'", stale)
    if warned:
        conn.executemany(
            "INSERT OR REPLACE INTO file_issues(path, kind, reason) VALUES (?, 'warning', ?)", sorted(warned.items())
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
