"""Reconcile: bring the index in line with the Markdown files on disk.

The files are the truth.  A reconcile walks the memory root (and, when enabled, the
Claude Code roots ``<base>/<slug>/memory/``), drops rows whose files are gone, and
re-reads only files whose *fingerprint* changed.  The walk, the fingerprint, what is
skipped and why, and the symlink-safe reads are ``search.walk``'s.

Concurrency: the whole reconcile runs in one ``BEGIN IMMEDIATE`` transaction, which
serialises reconcilers across processes; the time of the last one is kept in ``meta``,
so callers arriving within ``interval`` seconds of it skip the walk.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from mimomem.search import db
from mimomem.search.rows import Row, delete_paths, put_rows
from mimomem.search.walk import DEFAULT_MAX_FILE_BYTES, Issue, Parents, read_text, walk
from mimomem.tree.layout import classify_path, split_memory_path
from mimomem.tree.names import printable

PROGRESS_THRESHOLD = 500
"""Report progress on stderr when at least this many files must be read."""

_NOT_MEMORY = "not a memory file path (expected global/<key>.md or <scope>/<scope_id>/<key>.md)"


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
        report.pruned = delete_paths(conn, gone)
        changed = sorted(p for p, fp in on_disk.items() if indexed.get(p) != fp)
        report.unchanged = len(on_disk) - len(changed)
        reader = _Reader(conn, paths, os.fspath(classify_root), max_bytes, issues)
        new_rows, report.touched = reader.read_changed(changed, indexed, now_ms=int(now * 1000), progress=progress)
        report.indexed = put_rows(conn, new_rows, now=int(now * 1000))
        # Files indexed before but skipped now (grown too big, unreadable) must not stay searchable.
        gone_set = set(gone)
        skipped_now = [i.path for i in issues if i.kind == "skipped" and i.path in indexed and i.path not in gone_set]
        report.pruned += delete_paths(conn, skipped_now)
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
    ) -> tuple[list[Row], int]:
        """``(rows to write, touched)``: a file whose text and class are unchanged (a ``touch``)
        only gets its new fingerprint stored; ``touched`` counts those."""
        bar = Progress(len(changed), progress)
        new_rows: list[Row] = []
        touched = 0
        parents = Parents(self.roots)
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

    def read_one(self, path: str, parents: Parents) -> Row | None:
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
        return Row(path, cls.scope, cls.scope_id, cls.type, text, fp)

    def same_as_stored(self, row: Row, now_ms: int) -> bool:
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
    "ReconcileReport",
    "reconcile",
    "stored_issues",
]
