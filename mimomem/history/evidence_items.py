"""What the evidence queries return: each item with its provenance, and the promotion rule.

Every item carries :class:`Provenance` (session id and time).  The promotion rule
(:func:`promotable`): an explicit statement, a clear decision, or two or more occurrences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mimomem.history.records import iso_day

_UUID_LIKE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-", re.I)


def short_id(session_id: str) -> str:
    """A session id short enough to cite: a UUID's first 8 characters, others at most 16."""
    if _UUID_LIKE.match(session_id):
        return session_id[:8]
    return session_id[:16]


@dataclass(frozen=True)
class Provenance:
    """Where a piece of evidence was seen: the session and the time (ms since the epoch, UTC)."""

    session_id: str
    time: int | None

    @property
    def day(self) -> str:
        """``YYYY-MM-DD`` (UTC)."""
        return iso_day(self.time)

    def cite(self) -> str:
        """``[session <short id>]``."""
        return f"[session {short_id(self.session_id)}]"

    def render(self) -> str:
        """``2026-11-30, [session 4b1f7c2e]``: the suffix of a promoted memory line."""
        return f"{self.day}, {self.cite()}"


@dataclass(frozen=True)
class Step:
    """One tool call of a session's trace."""

    provenance: Provenance
    agent: str
    tool: str
    summary: str
    status: str
    result: str
    command: str | None
    files: tuple[str, ...]


@dataclass(frozen=True)
class RepeatedCommand:
    """A normalised shell command run ``count`` times (``failures`` of them failed)."""

    command: str
    family: str
    count: int
    failures: int
    sessions: tuple[str, ...]
    examples: tuple[str, ...]
    first: Provenance
    last: Provenance


@dataclass(frozen=True)
class FailureFix:
    """A failed call, its error, and what fixed it (None when nothing did, yet)."""

    call: str
    error: str
    signature: str
    fix: str | None
    edits: tuple[str, ...]
    provenance: Provenance
    fixed_at: Provenance | None


@dataclass(frozen=True)
class RepeatedFailure:
    """The same failure (same call, same error shape) seen ``count`` times."""

    call: str
    error: str
    count: int
    fixes: tuple[str, ...]
    sessions: tuple[str, ...]
    first: Provenance


@dataclass(frozen=True)
class UserStatement:
    """An explicit rule or decision of the user, with every session that said it."""

    text: str
    kind: str
    provenance: Provenance
    count: int = 1
    sessions: tuple[str, ...] = ()


@dataclass(frozen=True)
class FileTouch:
    """A file edited ``edits`` times, in ``sessions``."""

    path: str
    edits: int
    sessions: tuple[str, ...]
    last: Provenance


def promotable(item: object) -> bool:
    """The promotion rule: an explicit statement or decision, or two or more occurrences."""
    if isinstance(item, UserStatement):
        return True
    count = getattr(item, "count", 0)
    return isinstance(count, int) and count >= 2
