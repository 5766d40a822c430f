"""The records an importer hands to the history store, and what an import reports.

Every source (Claude Code transcripts, MiMo-Code's or OpenCode's database, OpenCode's JSON
files) is turned into the same four records: a session, its messages, and their parts,
where a part is either text or one tool call (input, status, output or error).  Times are
milliseconds since the epoch, UTC; ``None`` when the source did not say.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

TEXT_LIMIT = 32_000
"""Characters of one text part kept in the store (pasted logs can be megabytes)."""

OUTPUT_LIMIT = 4_000
"""Characters of a tool's output or error kept (enough for the message, not the whole dump)."""

ORIGINS = ("claude-code", "mimocode", "opencode")
"""Where a session came from."""


@dataclass(frozen=True)
class SessionRecord:
    """One agent session: its id in the source, where it ran and when."""

    id: str
    origin: str
    source: str
    cwd: str | None = None
    title: str | None = None
    parent_id: str | None = None
    started_at: int | None = None
    updated_at: int | None = None


@dataclass(frozen=True)
class MessageRecord:
    """One message: ``role`` is user or assistant; ``agent`` is main, sidechain or a subagent name."""

    id: str
    session_id: str
    role: str
    agent: str = "main"
    time: int | None = None


@dataclass(frozen=True)
class TextPart:
    """Text of a message; ``synthetic`` marks text the harness injected (summaries, wrappers)."""

    uid: str
    message_id: str
    session_id: str
    text: str
    synthetic: bool = False
    time: int | None = None


@dataclass(frozen=True)
class ToolPart:
    """One tool call: ``input`` as JSON text; ``status`` pending, completed or error."""

    uid: str
    message_id: str
    session_id: str
    tool: str
    call_id: str | None
    input: str
    status: str = "pending"
    output: str | None = None
    error: str | None = None
    time: int | None = None
    end_time: int | None = None


@dataclass
class ImportReport:
    """What one import did: counts, what was skipped and why, and per-source problems."""

    sources: int = 0
    sessions: int = 0
    messages: int = 0
    parts: int = 0
    results: int = 0
    pending_bytes: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def merge(self, other: ImportReport) -> None:
        """Add ``other``'s counts to this report."""
        self.sources += other.sources
        self.sessions += other.sessions
        self.messages += other.messages
        self.parts += other.parts
        self.results += other.results
        self.pending_bytes += other.pending_bytes
        self.skipped.update(other.skipped)
        self.problems += other.problems

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "sources": self.sources,
            "sessions": self.sessions,
            "messages": self.messages,
            "parts": self.parts,
            "results": self.results,
            "pending_bytes": self.pending_bytes,
            "skipped": dict(sorted(self.skipped.items())),
            "problems": list(self.problems),
        }


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with a marker saying how much was dropped."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters not kept]"


def parse_time(value: Any) -> int | None:
    """Milliseconds since the epoch from an ISO 8601 string or a number (seconds or ms); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
        if not math.isfinite(number):  # 1e309 in JSON is inf; NaN
            return None
        return int(number if number > 1e11 else number * 1000)  # ms, or seconds
    if not isinstance(value, str) or not value:
        return None
    text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        try:  # Python 3.10 wants 0, 3 or 6 fraction digits
            head, _, rest = text.partition(".")
            digits = "".join(ch for ch in rest if ch.isdigit())
            zone = rest[len(digits) :]
            when = datetime.fromisoformat(f"{head}.{digits[:6].ljust(6, '0')}{zone}" if digits else head + zone)
        except ValueError:
            return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return int(when.timestamp() * 1000)


def iso_day(millis: int | None) -> str:
    """``YYYY-MM-DD`` (UTC) of ``millis``, or ``unknown date``."""
    when = _datetime(millis)
    return "unknown date" if when is None else when.strftime("%Y-%m-%d")


def iso_time(millis: int | None) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ`` (UTC) of ``millis``, or ``unknown time``."""
    when = _datetime(millis)
    return "unknown time" if when is None else when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _datetime(millis: int | None) -> datetime | None:
    """``millis`` as a UTC datetime; None for None and for what no calendar holds (a far-future row)."""
    if millis is None:
        return None
    try:
        return datetime.fromtimestamp(millis / 1000, timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
