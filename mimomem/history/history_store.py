"""The trajectory store: sessions, messages and parts of every imported agent, in ``<data>/history.db``.

A cache of the agents' own transcripts and databases (those stay the truth): delete the
file and ``mimomem history import`` rebuilds it.  Every text is redacted on its way in
(:func:`mimomem.common.redaction.redact`, before clipping: a cut secret is no longer found).  Tables:

- ``sources``: one row per imported file or database, with how far it was read (byte
  offset of a transcript, newest ``time_updated`` of a database) and a hash of its first
  bytes, so a replaced file is re-read from the start;
- ``sessions``, ``messages``, ``parts``: the records of :mod:`mimomem.history.records`; a
  tool call is one part, updated in place when its result arrives;
- ``part_fts``: a contentless FTS5 index of each part's searchable text as bigram tokens
  (the same tokenizer as the memory search).  New parts are indexed in bulk when a write
  batch ends (:meth:`HistoryStore.index_new`: the parts above the ``indexed`` mark of
  ``meta``, tokenized with ``tokenize_many``); a stored part that changes or goes is kept
  in step by triggers that call ``mimomem_part_tokens``, a function every connection of
  this module registers.  (Schema 1 indexed every insert in a trigger too: a statement
  per part made FTS5 do per-statement work that cost more than the tokenizing.)

The file itself (schema, connection, migration, indexing) is :mod:`mimomem.history.history_db`.
A different tokenizer version rebuilds the index.  A database that holds other tables (an
agent's own database passed by mistake) is refused, never changed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mimomem.common.redaction import redact
from mimomem.errors import ProjectIdError
from mimomem.history.history_db import connect, index_new
from mimomem.history.records import OUTPUT_LIMIT, TEXT_LIMIT, MessageRecord, SessionRecord, TextPart, ToolPart, clip
from mimomem.history.validate import Checks, human_time
from mimomem.search.db import transaction

FILENAME = "history.db"


def default_path(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """``<data>/history.db`` (``data_dir`` defaults to mimomem's data directory)."""
    from mimomem.tree import locations

    return Path(data_dir if data_dir is not None else locations.data_dir()) / FILENAME


def project_of(cwd: str | None) -> str | None:
    """The repository root holding ``cwd`` (nothing is created), else ``cwd`` itself.

    A relative ``cwd`` (a damaged record) is kept as written: resolving it against this
    process's directory would file the session under an unrelated project.
    """
    if not cwd:
        return None
    if not os.path.isabs(cwd):
        return cwd
    from mimomem.tree.project import find_git

    try:
        found = find_git(cwd)
    except (OSError, ProjectIdError):
        found = None
    return str(found[0]) if found is not None else os.path.realpath(cwd)


@dataclass(frozen=True)
class SourceState:
    """How far a source was imported."""

    path: str
    kind: str
    offset: int = 0
    watermark: int = 0
    head: str = ""
    size: int | None = None
    mtime_ns: int | None = None


MESSAGE_UPSERT = (
    "INSERT INTO messages(id, session_id, source, role, agent, time) VALUES (?, ?, ?, ?, ?, ?)"
    " ON CONFLICT(id) DO UPDATE SET role = excluded.role, agent = excluded.agent,"
    " time = coalesce(excluded.time, messages.time)"
    " WHERE messages.role IS NOT excluded.role OR messages.agent IS NOT excluded.agent"
    " OR messages.time IS NOT coalesce(excluded.time, messages.time)"
)
TEXT_UPSERT = (
    "INSERT INTO parts(uid, message_id, session_id, kind, synthetic, text, time)"
    " VALUES (?, ?, ?, 'text', ?, ?, coalesce(?, (SELECT time FROM messages WHERE id = ?)))"
    " ON CONFLICT(uid) DO UPDATE SET"
    " text = excluded.text, synthetic = excluded.synthetic, time = coalesce(excluded.time, parts.time)"
    " WHERE parts.text IS NOT excluded.text OR parts.synthetic IS NOT excluded.synthetic"
)
TOOL_UPSERT = (
    "INSERT INTO parts(uid, message_id, session_id, kind, tool, call_id, input, status, output, error,"
    " time, end_time) VALUES (?, ?, ?, 'tool', ?, ?, ?, ?, ?, ?,"
    " coalesce(?, (SELECT time FROM messages WHERE id = ?)), ?) ON CONFLICT(uid) DO UPDATE SET"
    " tool = excluded.tool, input = excluded.input, status = excluded.status, output = excluded.output,"
    " error = excluded.error, time = coalesce(excluded.time, parts.time), end_time = excluded.end_time"
    " WHERE parts.status IS NOT excluded.status OR parts.input IS NOT excluded.input"
    " OR parts.output IS NOT excluded.output OR parts.error IS NOT excluded.error"
)
TOOL_STATUS, TOOL_OUTPUT, TOOL_ERROR, TOOL_END = 6, 7, 8, 11
"""Where a ``tool_row`` keeps what a result changes."""


def message_row(rec: MessageRecord, source: str) -> list[Any]:
    """The parameters of ``MESSAGE_UPSERT`` for ``rec``."""
    return [rec.id, rec.session_id, source, rec.role, rec.agent, rec.time]


def text_row(part: TextPart) -> list[Any]:
    """The parameters of ``TEXT_UPSERT`` for ``part`` (its text clipped)."""
    text = clip(redact(part.text), TEXT_LIMIT)
    return [part.uid, part.message_id, part.session_id, int(part.synthetic), text, part.time, part.message_id]


def tool_row(part: ToolPart) -> list[Any]:
    """The parameters of ``TOOL_UPSERT`` for ``part`` (output and error clipped)."""
    output = None if part.output is None else clip(redact(part.output), OUTPUT_LIMIT)
    error = None if part.error is None else clip(redact(part.error), OUTPUT_LIMIT)
    return [
        part.uid,
        part.message_id,
        part.session_id,
        part.tool,
        part.call_id,
        redact(part.input),
        part.status,
        output,
        error,
        part.time,
        part.message_id,
        part.end_time,
    ]


def tool_result(ok: bool, text: str) -> tuple[str, str | None, str | None]:
    """``(status, output, error)`` of a call that returned ``text`` (clipped)."""
    text = redact(text)
    if ok:
        return "completed", clip(text, OUTPUT_LIMIT), None
    return "error", None, clip(text, OUTPUT_LIMIT)


class HistoryStore:
    """The history database: open, write records in batches, and query with SQL (``conn``)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.conn = connect(self.path)
        self.checks = Checks()
        """Record checks on the way in (``mimomem.history.validate``); importers report ``checks.take()``."""
        self._projects: dict[str, str | None] = {}
        self._batches = 0

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def batch(self) -> Iterator[HistoryStore]:
        """One write transaction (all or nothing) around a run of ``put_*`` calls; new parts indexed at its end."""
        with transaction(self.conn):
            self._batches += 1
            try:
                yield self
            finally:
                self._batches -= 1
            self.index_new()

    def index_new(self) -> int:
        """Index the parts not in ``part_fts`` yet (inside the caller's transaction); how many."""
        return index_new(self.conn)

    # --- sources ---

    def source_state(self, path: str) -> SourceState | None:
        """How far ``path`` was imported, or None if never."""
        row = self.conn.execute(
            "SELECT path, kind, offset, watermark, head, size, mtime_ns FROM sources WHERE path = ?", (path,)
        ).fetchone()
        return None if row is None else SourceState(*row)

    def save_source(self, state: SourceState, *, now: int) -> None:
        """Record how far a source was imported."""
        self.conn.execute(
            "INSERT OR REPLACE INTO sources(path, kind, offset, watermark, head, size, mtime_ns, imported_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (state.path, state.kind, state.offset, state.watermark, state.head, state.size, state.mtime_ns, now),
        )

    def forget_source(self, path: str) -> None:
        """Delete everything imported from ``path`` (it was replaced; it will be read again)."""
        c = self.conn
        c.execute("DELETE FROM parts WHERE message_id IN (SELECT id FROM messages WHERE source = ?)", (path,))
        c.execute("DELETE FROM messages WHERE source = ?", (path,))
        c.execute(
            "DELETE FROM sessions WHERE source = ? AND id NOT IN (SELECT DISTINCT session_id FROM messages)", (path,)
        )
        c.execute("DELETE FROM sources WHERE path = ?", (path,))

    # --- records ---

    def put_session(self, rec: SessionRecord) -> bool:
        """Insert or complete a session (missing fields filled, time span widened); True if new."""
        checked = self.checks.record(rec)
        if checked is None:
            return False
        rec = checked
        key = rec.cwd or ""
        if key not in self._projects:
            self._projects[key] = project_of(rec.cwd)
        project = self._projects[key]
        new = self.conn.execute("SELECT 1 FROM sessions WHERE id = ?", (rec.id,)).fetchone() is None
        self.conn.execute(
            "INSERT INTO sessions(id, origin, source, parent_id, title, cwd, project, started_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET"
            " parent_id = coalesce(sessions.parent_id, excluded.parent_id),"
            " title = coalesce(excluded.title, sessions.title),"
            " cwd = coalesce(sessions.cwd, excluded.cwd), project = coalesce(sessions.project, excluded.project),"
            " started_at = min(coalesce(sessions.started_at, excluded.started_at),"
            "                  coalesce(excluded.started_at, sessions.started_at)),"
            " updated_at = max(coalesce(sessions.updated_at, excluded.updated_at),"
            "                  coalesce(excluded.updated_at, sessions.updated_at))",
            (
                rec.id,
                rec.origin,
                rec.source,
                rec.parent_id,
                None if rec.title is None else redact(rec.title),
                rec.cwd,
                project,
                rec.started_at,
                rec.updated_at,
            ),
        )
        return new

    def put_message(self, rec: MessageRecord, *, source: str) -> bool:
        """Insert or replace a message; True if it was new."""
        checked = self.checks.record(rec)
        return checked is not None and self.conn.execute(MESSAGE_UPSERT, message_row(checked, source)).rowcount > 0

    def put_text(self, part: TextPart) -> bool:
        """Insert a text part, or update it when its text changed; True if anything was written."""
        checked = self.checks.record(part)
        return checked is not None and self.put_many(TEXT_UPSERT, [text_row(checked)]) > 0

    def put_tool(self, part: ToolPart) -> bool:
        """Insert a tool call, or update it when its state changed; True if anything was written."""
        checked = self.checks.record(part)
        return checked is not None and self.put_many(TOOL_UPSERT, [tool_row(checked)]) > 0

    def put_many(self, sql: str, rows: list[list[Any]]) -> int:
        """Run one of ``MESSAGE_UPSERT`` / ``TEXT_UPSERT`` / ``TOOL_UPSERT`` for each row; rows written.

        Outside :meth:`batch`, new parts are indexed right away.
        """
        if len(rows) == 1:
            written = max(0, self.conn.execute(sql, rows[0]).rowcount)
        else:
            written = max(0, self.conn.executemany(sql, rows).rowcount)
        if not self._batches and sql is not MESSAGE_UPSERT:
            self.index_new()
        return written

    def finish_tool(self, session_id: str, call_id: str, *, ok: bool, text: str, end_time: int | None) -> bool:
        """Record the result of call ``call_id``; False when that call was never imported."""
        status, output, error = tool_result(ok, self.checks.text(text))
        end_time = human_time(end_time)
        cur = self.conn.execute(
            "UPDATE parts SET status = ?, output = ?, error = ?, end_time = ?"
            " WHERE session_id = ? AND call_id = ? AND kind = 'tool'",
            (status, output, error, end_time, session_id, call_id),
        )
        return cur.rowcount > 0

    # --- reading ---

    def counts(self) -> dict[str, int]:
        """Rows per table: sessions, messages, parts, sources."""
        out = {}
        for table in ("sessions", "messages", "parts", "sources"):
            out[table] = int(self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        return out
