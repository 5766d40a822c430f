"""Buffered writes of one import: the same rows as ``put_*`` one by one, for a fraction of the cost.

An importer that calls ``HistoryStore.put_*`` for each record pays a statement per record,
and a tool call pays twice: stored as pending, then updated by its result.  :class:`Writes`
keeps the records of a run of lines in memory, in order, and applies them in runs of one
statement (``executemany``) when ``limit`` records are waiting and at :meth:`~Writes.flush`.
A result whose call is still waiting completes it in memory, so that call is written once,
already completed.

The database ends up exactly as with ``put_*`` and ``finish_tool`` one by one:

- records are applied in the order they came, except that messages go after the parts
  buffered with them; the only statement that reads another table (a part without a time
  takes its message's) sees the same rows, because a part of a buffered message, or a
  message seen twice, flushes first (an importer writes a message after its parts); a part
  id seen twice flushes first too;
- a result also updates the calls stored before the flush (an earlier import, an earlier
  flush), after the buffered parts are written: those parts are all new rows (checked when
  flushing), so none of them is a stored call;
- when a buffered call's id is already stored (a resumed session repeats earlier messages),
  completing in memory could differ from the one-by-one order, so that flush replays it
  record by record, each result as ``finish_tool``.

Results are counted when they are written: :attr:`~Writes.results` matched a call,
:attr:`~Writes.unmatched` did not.
"""

from __future__ import annotations

from typing import Any

from mimomem.history.history_store import (
    MESSAGE_UPSERT,
    TEXT_UPSERT,
    TOOL_END,
    TOOL_ERROR,
    TOOL_OUTPUT,
    TOOL_STATUS,
    TOOL_UPSERT,
    HistoryStore,
    message_row,
    text_row,
    tool_result,
    tool_row,
)
from mimomem.history.records import MessageRecord, TextPart, ToolPart
from mimomem.history.validate import human_time

LIMIT = 4096
"""Records kept before they are written (bounds the memory of one import)."""

_Part = tuple[str, list[Any], list[Any] | None]
"""A part: its statement, its row, and for a call the row as first seen (pending)."""
_Result = tuple[str, str, tuple[Any, ...], bool]
"""A result: session, call id, (status, output, error, end_time), whether a buffered call took it."""


class Writes:
    """Parts, messages and results on their way to ``store``; counters of what was written."""

    def __init__(self, store: HistoryStore, *, limit: int | None = None) -> None:
        limit = LIMIT if limit is None else limit
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        self.store = store
        self.limit = limit
        self.parts = self.messages = self.results = self.unmatched = 0
        self._ops: list[_Part | _Result] = []  # in the order they came
        self._messages: list[list[Any]] = []
        self._message_ids: set[str] = set()
        self._uids: set[str] = set()
        self._calls: dict[tuple[str, str], list[list[Any]]] = {}

    def text(self, part: TextPart) -> None:
        """Write ``part`` (as ``put_text``); a record the store's checks refuse is counted there."""
        checked = self.store.checks.record(part)
        if checked is not None:
            self._part(TEXT_UPSERT, text_row(checked))

    def tool(self, part: ToolPart) -> None:
        """Write the call ``part`` (as ``put_tool``); a later :meth:`finish` may still complete it."""
        checked = self.store.checks.record(part)
        if checked is None:
            return
        part = checked
        row = tool_row(part)
        self._part(TOOL_UPSERT, row)
        if part.call_id is not None:
            self._calls.setdefault((part.session_id, part.call_id), []).append(row)

    def message(self, rec: MessageRecord, *, source: str) -> None:
        """Write ``rec`` (as ``put_message``)."""
        checked = self.store.checks.record(rec)
        if checked is None:
            return
        rec = checked
        if rec.id in self._message_ids:
            self.flush()
        self._message_ids.add(rec.id)
        self._messages.append(message_row(rec, source))
        self._check()

    def finish(self, session_id: str, call_id: str, *, ok: bool, text: str, end_time: int | None) -> None:
        """Record the result of call ``call_id`` (as ``finish_tool``); counted when written."""
        status, output, error = tool_result(ok, self.store.checks.text(text))
        end_time = human_time(end_time)
        waiting = self._calls.get((session_id, call_id), [])
        for row in waiting:
            row[TOOL_STATUS], row[TOOL_OUTPUT], row[TOOL_ERROR], row[TOOL_END] = status, output, error, end_time
        self._ops.append((session_id, call_id, (status, output, error, end_time), bool(waiting)))
        self._check()

    def flush(self) -> None:
        """Write everything waiting (inside the caller's transaction)."""
        parts = [op for op in self._ops if len(op) == 3]
        results = [op for op in self._ops if len(op) == 4]
        if self._ops:
            stored = int(self.store.conn.execute("SELECT coalesce(max(id), 0) FROM parts").fetchone()[0])
            if stored and self._any_stored([op[1][0] for op in parts if op[2] is not None]):
                self._replay()
            else:
                self._apply(parts, results, stored)
        if self._messages:
            self.messages += self.store.put_many(MESSAGE_UPSERT, self._messages)
        self._ops, self._messages = [], []
        self._message_ids.clear()
        self._uids.clear()
        self._calls.clear()

    def _apply(self, parts: list[_Part], results: list[_Result], stored: int) -> None:
        """Parts in runs of one statement, then each result on the calls stored before (ids <= ``stored``)."""
        start = 0
        for end in range(1, len(parts) + 1):
            if end == len(parts) or parts[end][0] is not parts[start][0]:
                self.parts += self.store.put_many(parts[start][0], [op[1] for op in parts[start:end]])
                start = end
        sessions = {session_id for session_id, _, _, _ in results}
        known = {sid for sid in sessions if stored and self._has_calls(sid, stored)}
        for session_id, call_id, values, taken in results:
            hit = session_id in known and self._finish_stored(session_id, call_id, values, stored)
            self._count(taken or hit)

    def _replay(self) -> None:
        """Each record as the one-by-one calls would write it: calls pending, results as ``finish_tool``."""
        for op in self._ops:
            if len(op) == 3:
                sql, row, pristine = op
                self.parts += self.store.put_many(sql, [pristine if pristine is not None else row])
            else:
                session_id, call_id, values, _ = op
                self._count(self._finish_stored(session_id, call_id, values, None))

    def _has_calls(self, session_id: str, upto: int) -> bool:
        sql = "SELECT 1 FROM parts WHERE session_id = ? AND id <= ? LIMIT 1"
        return self.store.conn.execute(sql, (session_id, upto)).fetchone() is not None

    def _finish_stored(self, session_id: str, call_id: str, values: tuple[Any, ...], upto: int | None) -> bool:
        sql = (
            "UPDATE parts SET status = ?, output = ?, error = ?, end_time = ?"
            " WHERE session_id = ? AND call_id = ? AND kind = 'tool'"
        )
        args = [*values, session_id, call_id]
        if upto is not None:
            sql, args = sql + " AND id <= ?", [*args, upto]
        return bool(self.store.conn.execute(sql, args).rowcount > 0)

    def _count(self, matched: bool) -> None:
        if matched:
            self.results += 1
        else:
            self.unmatched += 1

    def _any_stored(self, uids: list[str]) -> bool:
        for start in range(0, len(uids), 500):
            chunk = uids[start : start + 500]
            sql = f"SELECT 1 FROM parts WHERE uid IN ({','.join('?' * len(chunk))}) LIMIT 1"
            if self.store.conn.execute(sql, chunk).fetchone() is not None:
                return True
        return False

    def _part(self, sql: str, row: list[Any]) -> None:
        if row[1] in self._message_ids or row[0] in self._uids:  # it may read that message, or rewrite that part
            self.flush()
        self._uids.add(row[0])
        self._ops.append((sql, row, list(row) if sql is TOOL_UPSERT else None))
        self._check()

    def _check(self) -> None:
        if len(self._ops) + len(self._messages) >= self.limit:
            self.flush()
