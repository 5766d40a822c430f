"""Import MiMo-Code's (and OpenCode's) SQLite trajectory database into the history store.

Both agents keep tables ``session``, ``message`` and ``part``; a message's and a part's
payload is a JSON ``data`` column (``$.role``; ``$.type`` text / tool / …, a tool part's
``$.tool``, ``$.callID`` and ``$.state{status, input, output, error, time}``).  MiMo-Code
adds ``message.agent_id`` (``'main'`` for the main agent); OpenCode marks subagents as
child sessions (``session.parent_id``).

The database is opened read-only (``file:…?mode=ro``), never written.  A database locked
by a running agent raises :class:`~mimomem.errors.HistoryLockedError`; a file that is not
such a database raises :class:`~mimomem.errors.HistorySourceError`, whose message names
what is missing.  Sessions deleted in the agent stay in the history.

Incremental and consistent under a running agent: one import reads all three tables in one
read transaction (one snapshot, so a message and its parts agree), and the next import reads
every row added since (``rowid`` above the largest one seen, whatever its times say) and every
row updated since (``time_updated`` at least :data:`OVERLAP_MS` before the newest one seen, so a
writer whose transaction began earlier but committed after the snapshot is not skipped).  Rows
are upserted by id, so what is read twice is stored and counted once.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from mimomem.errors import HistoryLockedError, HistorySourceError
from mimomem.history.history_store import HistoryStore, SourceState
from mimomem.history.records import ImportReport, MessageRecord, SessionRecord, TextPart, ToolPart, parse_time
from mimomem.history.validate import FUTURE_SLACK, UNEXPECTED, too_deep

OVERLAP_MS = 10 * 60 * 1000
"""How far before the newest ``time_updated`` seen the next import starts reading updates again."""

WAIT_SECONDS = 2.0
"""How long to wait for an agent's write lock before reporting the database as locked."""

REQUIRED = {"session": ("id",), "message": ("id", "session_id", "data"), "part": ("id", "message_id", "data")}
IGNORED_PARTS = frozenset(
    {
        "reasoning",
        "step-start",
        "step-finish",
        "snapshot",
        "patch",
        "file",
        "agent",
        "checkpoint",
        "subtask",
        "compaction",
        "retry",
    }
)
"""Part types that are not conversation text or tool calls; not counted as unknown."""


def mimocode_db(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> Path:
    """MiMo-Code's database: ``path`` (a file, or a data directory holding ``mimocode.db``), else
    ``$MIMOCODE_DB``, else ``mimocode.db`` in MiMo-Code's data directory."""
    env = os.environ if env is None else env
    if path is None and env.get("MIMOCODE_DB"):
        path = env["MIMOCODE_DB"]
    if path is None:
        from mimomem.tree.locations import mimocode_data_dir

        return mimocode_data_dir(env) / "mimocode.db"
    given = Path(path)
    return given / "mimocode.db" if given.is_dir() else given


def open_readonly(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A read-only connection to the agent database at ``path`` whose tables look right."""
    target = Path(path)
    if not target.is_file():
        raise HistorySourceError(f"no database file at {target}; pass the agent's database file or data directory")
    uri = "file:" + urllib.parse.quote(os.path.abspath(target)) + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=WAIT_SECONDS, isolation_level=None)
    except sqlite3.Error as exc:
        raise HistorySourceError(f"cannot open {target} read-only ({exc}); check its permissions") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(WAIT_SECONDS * 1000)}")
        columns = table_columns(conn, target)
    except BaseException:
        conn.close()
        raise
    missing = [f"{t}.{c}" for t, needed in REQUIRED.items() for c in needed if c not in columns.get(t, ())]
    if missing:
        conn.close()
        raise HistorySourceError(
            f"{target} is not a MiMo-Code/OpenCode trajectory database (missing {', '.join(missing)}); "
            "pass the agent's own database file (mimocode.db, opencode.db)"
        )
    return conn


def table_columns(conn: sqlite3.Connection, target: Path) -> dict[str, tuple[str, ...]]:
    """Column names of the session, message and part tables; raises the clear errors."""
    try:
        return {t: tuple(r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')) for t in REQUIRED}
    except sqlite3.OperationalError as exc:
        raise _explain(exc, target) from None
    except sqlite3.DatabaseError as exc:
        raise HistorySourceError(f"{target} is not an SQLite database ({exc}); pass the agent's database") from None


def _explain(exc: sqlite3.Error, target: Path) -> HistorySourceError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return HistoryLockedError(
            f"{target} is locked by a running agent (waited {WAIT_SECONDS:g} s); run the import again when the agent "
            "is idle - nothing was imported from it"
        )
    return HistorySourceError(f"cannot read {target}: {text}")


def import_agent_db(store: HistoryStore, path: str | os.PathLike[str], *, origin: str = "mimocode") -> ImportReport:
    """Import what changed in the agent database at ``path`` since the last import."""
    target = Path(path)
    key = os.path.abspath(target)
    conn = open_readonly(target)
    try:
        columns = table_columns(conn, target)
        state = store.source_state(key)
        since = state.watermark if state else 0
        reader = _AgentDb(store, conn, columns, key, origin)
        reader.last_rowids = _rowids(state.head if state else "")
        try:
            with store.batch():
                conn.execute("BEGIN")  # one snapshot for the three tables
                try:
                    newest = reader.run(max(0, since - OVERLAP_MS) if since else 0)
                finally:
                    conn.execute("ROLLBACK")
                cursor = SourceState(key, origin, watermark=max(newest, since), head=json.dumps(reader.rowids))
                store.save_source(cursor, now=int(time.time() * 1000))
        except sqlite3.OperationalError as exc:
            raise _explain(exc, target) from None
        except sqlite3.DatabaseError as exc:
            raise HistorySourceError(f"{target} is damaged or not an agent database ({exc})") from None
    finally:
        conn.close()
    reader.report.sources = 1
    return reader.report


def _rowids(head: str) -> dict[str, int]:
    """The largest rowid per table seen by the previous import (kept in the source's ``head``)."""
    try:
        data = json.loads(head) if head else {}
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {t: v for t, v in data.items() if t in REQUIRED and isinstance(v, int) and not isinstance(v, bool)}


def _loads(raw: Any) -> dict[str, Any] | None:
    """A row's ``data`` as a JSON object; None when it is not one or nests deeper than ``MAX_DEPTH``."""
    if isinstance(raw, (bytes, str)):
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        return data if isinstance(data, dict) and not too_deep(data) else None
    return None


def _text_kind(value: Any) -> str | None:
    """A ``type`` / ``role`` field that is a string (an object there is skipped, not a crash)."""
    return value if isinstance(value, str) else None


class _AgentDb:
    """One import of one agent database."""

    def __init__(
        self, store: HistoryStore, conn: sqlite3.Connection, columns: dict[str, tuple[str, ...]], key: str, origin: str
    ) -> None:
        self.store, self.conn, self.columns, self.key, self.origin = store, conn, columns, key, origin
        self.report = ImportReport()
        self.subagent_sessions: set[str] = set()
        self.newest = 0
        self.last_rowids: dict[str, int] = {}
        self.rowids: dict[str, int] = {}

    def has(self, table: str, column: str) -> bool:
        return column in self.columns[table]

    def rows(self, table: str, wanted: tuple[str, ...], since: int) -> Iterator[dict[str, Any]]:
        """Rows updated at or after ``since`` or added since the last import (rowid cursor)."""
        cols = [c for c in wanted if self.has(table, c)]
        by_rowid = self.has_rowid(table)
        sql = f'SELECT {", ".join(cols)}{", _rowid_" if by_rowid else ""} FROM "{table}"'
        args: tuple[int, ...] = ()
        if self.has(table, "time_updated") and since:
            if by_rowid:
                sql, args = sql + " WHERE time_updated >= ? OR _rowid_ > ?", (since, self.last_rowids.get(table, 0))
            else:
                sql, args = sql + " WHERE time_updated >= ?", (since,)
        top = self.last_rowids.get(table, 0)
        for values in self.conn.execute(sql, args):
            row = dict(zip(cols, values[: len(cols)], strict=True))
            if by_rowid and isinstance(values[-1], int):
                top = max(top, values[-1])
            updated = row.get("time_updated")
            if isinstance(updated, (int, float)) and not isinstance(updated, bool) and math.isfinite(updated):
                self.newest = max(self.newest, min(int(updated), int(time.time() * 1000) + FUTURE_SLACK))
            yield row
        if by_rowid:
            self.rowids[table] = top

    def has_rowid(self, table: str) -> bool:
        """Whether ``table`` has a rowid (not ``WITHOUT ROWID``, no column shadowing ``_rowid_``)."""
        if self.has(table, "_rowid_"):
            return False
        try:
            self.conn.execute(f'SELECT _rowid_ FROM "{table}" LIMIT 0')
        except sqlite3.OperationalError:
            return False
        return True

    def run(self, since: int) -> int:
        for row in self.rows(
            "session", ("id", "parent_id", "directory", "title", "time_created", "time_updated"), since
        ):
            self.isolated("session", self.session, row)
        self.subagent_sessions |= {
            r[0] for r in self.store.conn.execute("SELECT id FROM sessions WHERE parent_id IS NOT NULL")
        }
        for row in self.rows(
            "message", ("id", "session_id", "agent_id", "time_created", "time_updated", "data"), since
        ):
            self.isolated("message", self.message, row)
        for row in self.rows("part", ("id", "message_id", "session_id", "time_created", "time_updated", "data"), since):
            self.isolated("part", self.part, row)
        self.report.skipped.update(self.store.checks.take())
        return self.newest

    def isolated(self, what: str, handle: Callable[[dict[str, Any]], None], row: dict[str, Any]) -> None:
        """``handle(row)``; a row of a shape nobody foresaw is skipped and counted, the rest goes on."""
        try:
            handle(row)
        except UNEXPECTED as exc:
            self.report.skipped[f"{what} row not importable ({type(exc).__name__})"] += 1

    def session(self, row: dict[str, Any]) -> None:
        sid = str(row["id"])
        record = SessionRecord(
            sid,
            self.origin,
            self.key,
            cwd=row.get("directory"),
            title=row.get("title"),
            parent_id=row.get("parent_id"),
            started_at=parse_time(row.get("time_created")),
            updated_at=parse_time(row.get("time_updated")),
        )
        self.report.sessions += self.store.put_session(record)

    def message(self, row: dict[str, Any]) -> None:
        data = _loads(row.get("data"))
        role = _text_kind(data.get("role")) if data is not None else None
        if data is None or role is None or role not in ("user", "assistant"):
            self.report.skipped["message without a JSON role"] += 1
            return
        sid = str(row["session_id"])
        agent = row.get("agent_id") or ("subagent" if sid in self.subagent_sessions else "main")
        times: dict[str, Any] = data["time"] if isinstance(data.get("time"), dict) else {}
        when = parse_time(row.get("time_created")) or parse_time(times.get("created"))
        record = MessageRecord(str(row["id"]), sid, role, str(agent), when)
        self.report.messages += self.store.put_message(record, source=self.key)

    def part(self, row: dict[str, Any]) -> None:
        data = _loads(row.get("data"))
        kind = _text_kind(data.get("type")) if data is not None else None
        mid = str(row["message_id"])
        sid = str(row.get("session_id") or (data or {}).get("sessionID") or self.session_of(mid))
        when = parse_time(row.get("time_created"))
        uid = f"{self.origin}:{row['id']}"
        if data is not None and kind == "text" and isinstance(data.get("text"), str):
            synthetic = bool(data.get("synthetic") or data.get("ignored"))
            self.report.parts += self.store.put_text(TextPart(uid, mid, sid, data["text"], synthetic, when))
        elif data is not None and kind == "tool":
            self.report.parts += self.store.put_tool(tool_part(uid, mid, sid, data, when))
        elif kind not in IGNORED_PARTS:
            self.report.skipped[f"unknown part type {str(kind)[:40]!r}"] += 1

    def session_of(self, message_id: str) -> str:
        found = self.store.conn.execute("SELECT session_id FROM messages WHERE id = ?", (message_id,)).fetchone()
        return str(found[0]) if found else ""


def tool_part(uid: str, message_id: str, session_id: str, data: dict[str, Any], when: int | None) -> ToolPart:
    """A ToolPart from an OpenCode-style tool part payload."""
    raw_state = data.get("state")
    state: dict[str, Any] = raw_state if isinstance(raw_state, dict) else {}
    found = state.get("status")
    status = found if isinstance(found, str) and found in ("pending", "running", "completed", "error") else "pending"
    raw_time = state.get("time")
    timing: dict[str, Any] = raw_time if isinstance(raw_time, dict) else {}
    output = state.get("output")
    error = state.get("error")
    return ToolPart(
        uid,
        message_id,
        session_id,
        str(data.get("tool") or "?"),
        data.get("callID") if isinstance(data.get("callID"), str) else None,
        json.dumps(state.get("input"), ensure_ascii=False, sort_keys=True),
        status="pending" if status == "running" else status,
        output=output if isinstance(output, str) else None,
        error=error if isinstance(error, str) else None,
        time=parse_time(timing.get("start")) or when,
        end_time=parse_time(timing.get("end")),
    )
