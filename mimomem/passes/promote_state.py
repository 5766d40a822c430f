"""Promotion's durable bookkeeping: one marker per session, a lock per project, the session briefs.

``<data>/state/promote/<project id>/<session id>.json`` records the session's transcript,
how far it has been promoted (byte offset and head mark, so a replaced file starts again)
and the session's brief (goal, decisions, fixes, open threads).  A session is registered
when it starts, so one that never ends (no ``SessionEnd``: a crash, a killed terminal) is
still promoted - at the next hook call of its project - and a machine stopped mid-promotion
loses nothing: the marker moves only after memory was written, and writing the same items
again is a no-op (they are duplicates).  ``.lock`` (``flock``) keeps two sessions of one
project from promoting at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mimomem.common.files import atomic_write
from mimomem.common.nofollow import open_nofollow
from mimomem.common.private import private_dir
from mimomem.common.redaction import redact
from mimomem.tree.where import STATE, Where

KEPT_SESSIONS = 32
"""Promoted sessions of a project whose state is kept (the newest); older ones' files are removed."""

MAX_BRIEFS = 4
"""Sessions kept in ``memory-sessions.md`` (the newest; older ones stay in their notes and the history)."""

BRIEF_FIELDS = (("goal", "Goal"), ("changed", "Changed"), ("decided", "Decided"), ("fixed", "Fixed"), ("open", "Open"))
"""A brief's fields and their labels, in the order shown (:mod:`mimomem.passes.session_brief` says what each holds)."""
_PER_FIELD = 2


class Marker:
    """How far one session's transcript has been promoted, and its brief.

    A plain class, not a dataclass: every prompt hook reads markers, and ``dataclasses``
    (with ``inspect``) costs about 10 ms of a hook process.
    """

    __slots__ = ("brief", "head", "offset", "session_id", "time", "transcript")

    def __init__(
        self,
        session_id: str,
        transcript: str,
        offset: int = 0,
        head: str = "",
        time: int | None = None,
        brief: dict[str, list[str]] | None = None,
    ) -> None:
        self.session_id = session_id
        self.transcript = transcript
        self.offset = offset
        self.head = head
        self.time = time
        self.brief: dict[str, list[str]] = {} if brief is None else brief

    def _values(self) -> tuple[Any, ...]:
        return (self.session_id, self.transcript, self.offset, self.head, self.time, self.brief)

    def __repr__(self) -> str:
        names = ("session_id", "transcript", "offset", "head", "time", "brief")
        return "Marker(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self._values(), strict=True)) + ")"

    def __eq__(self, other: object) -> bool:
        return self._values() == other._values() if isinstance(other, Marker) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def pending(self) -> bool:
        """True when the transcript has bytes not promoted yet (or was replaced)."""
        try:
            size = os.stat(self.transcript, follow_symlinks=False).st_size
        except OSError:
            return False
        return size != self.offset

    def as_json(self) -> str:
        """The marker's file text; the brief passes the one redaction point as every kept text does (a brief
        read from a file an older scanner wrote is redacted again when next written)."""
        data = {"transcript": self.transcript, "offset": self.offset, "head": self.head, "time": self.time}
        brief = {k: [redact(v, before="") for v in vs] for k, vs in self.brief.items()} if self.brief else {}
        return json.dumps({**data, "brief": brief}, ensure_ascii=False, sort_keys=True)


def state_dir(where: Where) -> Path:
    """``<data>/state/promote/<project id>/``."""
    return where.tree.data_dir / STATE / "promote" / where.project_id


def marker_path(where: Where, session_id: str) -> Path:
    return state_dir(where) / f"{short_safe(session_id)}.json"


def short_safe(session_id: str) -> str:
    """A session id usable as a file name (ids come from the host; never trust their shape)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in session_id)[:120].lstrip(".")
    return safe or "session"


def read_marker(path: Path, session_id: str = "") -> Marker | None:
    """The marker at ``path``, or None when missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("transcript"), str):
        return None
    offset, head, when, brief = data.get("offset"), data.get("head"), data.get("time"), data.get("brief")
    return Marker(
        session_id or path.stem,
        data["transcript"],
        offset if isinstance(offset, int) and offset >= 0 else 0,
        head if isinstance(head, str) else "",
        when if isinstance(when, int) else None,
        {k: [str(v) for v in vs if isinstance(v, str)] for k, vs in brief.items() if isinstance(vs, list)}
        if isinstance(brief, dict)
        else {},
    )


def write_marker(where: Where, marker: Marker) -> None:
    path = marker_path(where, marker.session_id)
    private_dir(path.parent)
    atomic_write(path, marker.as_json())


def register(where: Where, session_id: str, transcript: str) -> Marker:
    """The session's marker, created (offset 0) when this is the first time it is seen."""
    path = marker_path(where, session_id)
    found = read_marker(path, session_id)
    if found is not None and found.transcript == transcript:
        return found
    marker = Marker(session_id, transcript, brief=found.brief if found else {})
    write_marker(where, marker)
    return marker


def markers(where: Where) -> list[Marker]:
    """Every session marker of the project, oldest promotion first."""
    try:
        names = sorted(p for p in state_dir(where).glob("*.json") if not p.is_symlink())
    except OSError:
        return []
    found = [m for m in (read_marker(p) for p in names) if m is not None]
    return sorted(found, key=lambda m: m.time or 0)


def session_files(where: Where, session_id: str) -> list[Path]:
    """The per-session state files: its promotion marker, digest state and lock, and its registration."""
    state = where.tree.data_dir / STATE
    safe = short_safe(session_id)
    return [
        marker_path(where, session_id),
        state / "claude-code" / f"{safe}.json",
        state / "claude-code" / f"{safe}.lock",
        state / "sessions" / safe,
    ]


def retire(where: Where, done: list[Marker]) -> int:
    """Remove the state of promoted sessions beyond the newest :data:`KEPT_SESSIONS`; how many went.

    Called under the project's promotion lock with the markers that have nothing pending.
    Without it every session left four files forever, and every promotion read every marker
    (SessionEnd's cost grew with the number of sessions).  A retired session that is resumed
    later starts a new marker: its transcript is promoted again, where duplicates are no-ops,
    and digested again into its notes from the start.
    """
    newest = sorted(done, key=lambda m: m.time or 0)
    gone = 0
    for marker in newest[: max(0, len(newest) - KEPT_SESSIONS)]:
        if marker.session_id == where.session_id:
            continue
        for path in session_files(where, marker.session_id):
            with contextlib.suppress(OSError):
                path.unlink()
        gone += 1
    return gone


@contextlib.contextmanager
def project_lock(where: Where, *, timeout: float) -> Iterator[bool]:
    """Hold the project's promotion lock; yields False when it stayed busy for ``timeout`` seconds."""
    path = state_dir(where) / ".lock"
    private_dir(path.parent)
    fd = open_nofollow(path, os.O_RDWR | os.O_CREAT)
    try:
        end = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= end:
                    yield False
                    return
                time.sleep(0.02)
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def merge_brief(old: dict[str, list[str]], new: dict[str, list[str]]) -> dict[str, list[str]]:
    """The brief after one more stretch: the first goal stays, decisions and fixes add up, open is the newest."""
    out: dict[str, list[str]] = {}
    out["goal"] = (old.get("goal") or new.get("goal") or [])[:1]
    for key in ("changed", "decided", "fixed"):
        out[key] = list(dict.fromkeys([*old.get(key, []), *new.get(key, [])]))[-_PER_FIELD:]
    out["open"] = (new.get("open") or old.get("open") or [])[:_PER_FIELD]
    return {k: v for k, v in out.items() if v}


def render_briefs(all_markers: list[Marker], superseded: tuple[str, ...] = ()) -> str:
    """``memory-sessions.md``: the newest sessions in brief, newest first.

    A brief line that says what a ``superseded`` item said (its words, in the brief's own clip)
    is left out: an old value is history, never shown beside the new one."""
    from mimomem.history.evidence_items import short_id  # the history package: not on the per-prompt path
    from mimomem.history.records import iso_day
    from mimomem.passes.session_brief import shown_line

    shown = sorted((m for m in all_markers if m.brief), key=lambda m: -(m.time or 0))[:MAX_BRIEFS]
    out = ["# Recent sessions", "", "_The last sessions of this project in brief, newest first (mimomem promote)._", ""]
    for m in shown:
        out.append(f"## {iso_day(m.time)} s:{short_id(m.session_id)}")
        for name, label in BRIEF_FIELDS:
            out += [
                f"- {label}: {redact(line, before='')}"
                for line in m.brief.get(name, [])
                if not _stale(line, superseded) and shown_line(name, line)
            ]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _stale(line: str, superseded: tuple[str, ...]) -> bool:
    key = _key(line.rstrip("…"))
    return bool(key) and any(key in _key(old) or _key(old) in key for old in superseded if len(_key(old)) >= 6)


def as_dict(marker: Marker) -> dict[str, Any]:
    """The marker as JSON-ready data (for reports)."""
    data: dict[str, Any] = json.loads(marker.as_json())
    return data
