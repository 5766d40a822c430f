"""Checks of every record before the history store keeps it: types, text, nesting depth, times.

Transcripts and agent databases are outside input that drifts between versions, and one bad
item must never stop an import (or, once stored, every later pass).  So each record is checked
on its way in (:class:`Checks`, used by ``HistoryStore.put_*`` and ``Writes``):

- an id, session id or role that is not a non-empty string: the item is skipped;
- an optional text field of the wrong JSON type (an object where a string belongs): dropped;
- text that is not encodable as UTF-8 (a lone surrogate from a cut emoji): repaired, each
  lone surrogate becomes U+FFFD;
- a time outside what a human session can have (before 2000, or more than a day ahead of
  the clock; ``1e308``, ``1e15`` ms): dropped, the record kept without it.

Every skip and repair is counted under its reason (:meth:`Checks.take`), and the importer
moves on.  :func:`too_deep` tells an importer that a parsed object nests deeper than
:data:`MAX_DEPTH` before it serializes or walks it.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from mimomem.history.records import MessageRecord, SessionRecord, TextPart, ToolPart
from mimomem.history.transcript import clean

MIN_TIME = 946_684_800_000
"""2000-01-01T00:00:00Z in ms: no agent session is older."""

FUTURE_SLACK = 86_400_000
"""A time may be at most a day ahead of this machine's clock (clocks drift; sessions do not)."""

MAX_DEPTH = 100
"""Deepest nesting of arrays and objects kept (tool inputs are a few levels deep)."""

UNEXPECTED = (TypeError, ValueError, AttributeError, OverflowError, RecursionError, KeyError)
"""What converting one odd source item may raise; an importer skips that item and counts it."""

R = TypeVar("R", SessionRecord, MessageRecord, TextPart, ToolPart)

_REQUIRED = {
    SessionRecord: ("id", "origin", "source"),
    MessageRecord: ("id", "session_id", "role", "agent"),
    TextPart: ("uid", "message_id", "session_id", "text"),
    ToolPart: ("uid", "message_id", "session_id", "tool", "input", "status"),
}
_OPTIONAL_TEXT = {
    SessionRecord: ("cwd", "title", "parent_id"),
    MessageRecord: (),
    TextPart: (),
    ToolPart: ("call_id", "output", "error"),
}
_TIMES = {
    SessionRecord: ("started_at", "updated_at"),
    MessageRecord: ("time",),
    TextPart: ("time",),
    ToolPart: ("time", "end_time"),
}


def too_deep(obj: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``obj`` nests lists and dicts deeper than ``limit`` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(obj, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def utf8_text(text: str) -> tuple[str, bool]:
    """``text`` with every lone surrogate replaced by U+FFFD, and whether anything was replaced."""
    fixed = clean(text)
    return fixed, fixed is not text


def human_time(value: Any, now_ms: int | None = None) -> int | None:
    """``value`` as ms since the epoch when a human session can have it, else None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    now = int(time.time() * 1000) if now_ms is None else now_ms
    return value if MIN_TIME <= value <= now + FUTURE_SLACK else None


class Checks:
    """The record checks of one store, and the counts of what they skipped or repaired."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.latest = int(time.time() * 1000) + FUTURE_SLACK

    def take(self) -> Counter[str]:
        """The counts since the last call (an importer adds them to its report's ``skipped``)."""
        out, self.counts = self.counts, Counter()
        self.latest = int(time.time() * 1000) + FUTURE_SLACK  # the clock moves on between imports
        return out

    def text(self, value: str) -> str:
        """``value`` made storable (lone surrogates repaired, counted)."""
        fixed, repaired = utf8_text(value)
        if repaired:
            self.counts["text with a lone UTF-16 surrogate (repaired as U+FFFD)"] += 1
        return fixed

    def record(self, rec: R) -> R | None:
        """``rec`` made storable, or None (counted) when it cannot be stored."""
        if _FINE[type(rec)](rec, self.latest):
            return rec  # the common case, checked in one expression (an import runs this per record)
        return self.repaired(rec)

    def repaired(self, rec: R) -> R | None:
        """The slow path of :meth:`record`: what is wrong with ``rec``, fixed or counted."""
        kind = type(rec)
        name = kind.__name__
        changes: dict[str, Any] = {}
        for field in _REQUIRED[kind]:
            value = getattr(rec, field)
            if not isinstance(value, str) or (not value and field in _NON_EMPTY[kind]):
                self.counts[f"{name} whose {field} is not a string (skipped)"] += 1
                return None
            fixed = self.text(value)
            if fixed is not value:
                changes[field] = fixed
        for field in _OPTIONAL_TEXT[kind]:
            value = getattr(rec, field)
            if value is not None and not isinstance(value, str):
                self.counts[f"{name} {field} of the wrong type (dropped)"] += 1
                changes[field] = None
            elif value is not None:
                fixed = self.text(value)
                if fixed is not value:
                    changes[field] = fixed
        for field in _TIMES[kind]:
            value = getattr(rec, field)
            if value is not None and human_time(value) is None:
                self.counts["time outside what a session can have (dropped)"] += 1
                changes[field] = None
        return dataclasses.replace(rec, **changes) if changes else rec


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _ok(text: Any) -> bool:
    return type(text) is str and (text.isascii() or _encodes(text))


def _ok_time(value: Any, latest: int) -> bool:
    return value is None or (type(value) is int and MIN_TIME <= value <= latest)


def _fine_session(r: SessionRecord, latest: int) -> bool:
    return (
        _ok(r.id) and _ok(r.origin) and _ok(r.source) and bool(r.id and r.origin and r.source)
        and (r.cwd is None or _ok(r.cwd)) and (r.title is None or _ok(r.title))
        and (r.parent_id is None or _ok(r.parent_id))
        and _ok_time(r.started_at, latest) and _ok_time(r.updated_at, latest)
    )  # fmt: skip


def _fine_message(r: MessageRecord, latest: int) -> bool:
    return (
        _ok(r.id) and _ok(r.session_id) and _ok(r.role) and _ok(r.agent)
        and bool(r.id and r.session_id and r.role and r.agent) and _ok_time(r.time, latest)
    )  # fmt: skip


def _fine_text(r: TextPart, latest: int) -> bool:
    return (
        _ok(r.uid) and _ok(r.message_id) and _ok(r.session_id) and _ok(r.text)
        and bool(r.uid and r.message_id and r.session_id) and _ok_time(r.time, latest)
    )  # fmt: skip


def _fine_tool(r: ToolPart, latest: int) -> bool:
    return (
        _ok(r.uid) and _ok(r.message_id) and _ok(r.session_id) and _ok(r.tool) and _ok(r.input) and _ok(r.status)
        and bool(r.uid and r.message_id and r.session_id and r.tool and r.status)
        and (r.call_id is None or _ok(r.call_id)) and (r.output is None or _ok(r.output))
        and (r.error is None or _ok(r.error)) and _ok_time(r.time, latest) and _ok_time(r.end_time, latest)
    )  # fmt: skip


_FINE: dict[type, Callable[[Any, int], bool]] = {
    SessionRecord: _fine_session,
    MessageRecord: _fine_message,
    TextPart: _fine_text,
    ToolPart: _fine_tool,
}
"""Per record type: is everything already storable (the fast path of ``Checks.record``)?"""
_NON_EMPTY = {kind: tuple(f for f in fields if f not in ("text", "input")) for kind, fields in _REQUIRED.items()}


__all__ = ["FUTURE_SLACK", "MAX_DEPTH", "MIN_TIME", "UNEXPECTED", "Checks", "human_time", "too_deep", "utf8_text"]
