"""Evidence queries over the history: what happened, how often, and where it was seen.

Library functions, not prompt text: every pass (dream, distill, checkpoint) and every
``--emit-prompt`` is built from these.  :class:`Evidence` loads one window of history once
(a project, a time range, or one session) and answers:

- :meth:`~Evidence.trace`: one session's tool calls in order, with status and result;
- :meth:`~Evidence.repeated_commands`: shell commands run more than once, normalised
  (:func:`~mimomem.history.signals.normalize_command`), with counts and sessions;
- :meth:`~Evidence.failures`: failed calls and the call that fixed them (the next success
  of the same program or tool, with the files edited in between);
- :meth:`~Evidence.statements`: the user's explicit rules and decisions, in English or Chinese,
  from what the user typed only (pasted blocks, quotes and code fences never state a rule);
- :meth:`~Evidence.files_touched`: the files edited most.

The items, each with its provenance, and the promotion rule are in ``history.evidence_items``.
"""

from __future__ import annotations

import functools
import json
import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mimomem.history.evidence_items import (
    FailureFix,
    FileTouch,
    Provenance,
    RepeatedCommand,
    RepeatedFailure,
    Step,
    UserStatement,
)
from mimomem.history.history_store import HistoryStore
from mimomem.history.provenance import typed_text
from mimomem.history.signals import (
    command_family,
    command_of,
    error_signature,
    files_of,
    first_line,
    is_trivial,
    normalize_command,
    statements_in,
)


@dataclass(frozen=True)
class Window:
    """Which history to look at: one project (its root path), a time range (ms), one session."""

    project: str | None = None
    since: int | None = None
    until: int | None = None
    session_id: str | None = None


@dataclass
class _Event:
    session_id: str
    role: str
    agent: str
    kind: str
    text: str
    tool: str | None
    data: Any
    status: str | None
    output: str | None
    error: str | None
    time: int | None
    project: str | None


@dataclass
class Evidence:
    """One window of history, loaded once; each method is one evidence query."""

    events: list[_Event] = field(default_factory=list)
    session_order: list[str] = field(default_factory=list)
    _steps: list[Step] | None = field(default=None, repr=False)

    @classmethod
    def gather(cls, store: HistoryStore, window: Window | None = None) -> Evidence:
        """Load the user text and tool calls of ``window`` (default: everything)."""
        window = window or Window()
        where, args = ["(p.kind = 'tool' OR (m.role = 'user' AND p.synthetic = 0))"], []
        for clause, value in (
            ("s.project = ?", window.project),
            ("p.time >= ?", window.since),
            ("p.time < ?", window.until),
            ("p.session_id = ?", window.session_id),
        ):
            if value is not None:
                where.append(clause)
                args.append(value)
        sql = (
            "SELECT p.session_id, coalesce(m.role, ''), coalesce(m.agent, 'main'), p.kind, p.text, p.tool, p.input,"
            " p.status, p.output, p.error, p.time, s.project FROM parts p"
            " LEFT JOIN messages m ON m.id = p.message_id JOIN sessions s ON s.id = p.session_id"
            f" WHERE {' AND '.join(where)} ORDER BY coalesce(s.started_at, 0), p.session_id, coalesce(p.time, 0), p.id"
        )
        out = cls()
        for row in store.conn.execute(sql, args):
            sid, role, agent, kind, text, tool, raw, status, output, error, when, project = row
            data = _loads(raw) if kind == "tool" else None
            out.events.append(_Event(sid, role, agent, kind, text, tool, data, status, output, error, when, project))
            if not out.session_order or out.session_order[-1] != sid:
                out.session_order.append(sid)
        return out

    def sessions(self) -> list[str]:
        """Session ids in the window, oldest first."""
        return list(dict.fromkeys(self.session_order))

    # --- per-session trace ---

    def trace(self, session_id: str | None = None) -> list[Step]:
        """Tool calls in order (one session, or all), each with its status and first result line."""
        if self._steps is None and session_id is not None:  # one session: no need to read every call
            return [self._step(e) for e in self.events if e.kind == "tool" and e.session_id == session_id]
        if self._steps is None:
            self._steps = [self._step(e) for e in self.events if e.kind == "tool"]
        if session_id is None:
            return list(self._steps)
        return [s for s in self._steps if s.provenance.session_id == session_id]

    def _step(self, e: _Event) -> Step:
        command = command_of(e.tool, e.data)
        files = tuple(_rel(p, e.project) for p in files_of(e.tool, e.data))
        if command is not None:
            summary = first_line(command, 200) if "\n" not in command.strip() else _clip(" ".join(command.split()))
        elif files:
            summary = f"{e.tool} {', '.join(files)}"
        else:
            summary = f"{e.tool} {_first_string(e.data)}".strip()
        result = first_line(e.error) if e.status == "error" else first_line(e.output)
        status = e.status or "pending"
        norm = normalize_command(command) if command is not None else None
        return Step(Provenance(e.session_id, e.time), e.agent, e.tool or "?", summary, status, result, norm, files)

    # --- repeated commands ---

    def repeated_commands(self, min_count: int = 2, *, include_trivial: bool = False) -> list[RepeatedCommand]:
        """Normalised shell commands run at least ``min_count`` times, most frequent first."""
        groups: dict[str, list[Step]] = defaultdict(list)
        for step in self.trace():
            if step.command and (include_trivial or not is_trivial(step.command)):
                groups[step.command].append(step)
        out = []
        for command, steps in groups.items():
            if len(steps) < min_count:
                continue
            sessions = tuple(dict.fromkeys(s.provenance.session_id for s in steps))
            examples = tuple(dict.fromkeys(s.summary for s in steps))[:3]
            failures = sum(s.status == "error" for s in steps)
            out.append(
                RepeatedCommand(
                    command,
                    command_family(command),
                    len(steps),
                    failures,
                    sessions,
                    examples,
                    steps[0].provenance,
                    steps[-1].provenance,
                )
            )
        out.sort(key=lambda r: (-r.count, -len(r.sessions), r.command))
        return out

    # --- failures and fixes ---

    def failures(self) -> list[FailureFix]:
        """Every failed call with what fixed it, in the order they failed."""
        by_session: dict[str, list[Step]] = defaultdict(list)
        for step in self.trace():
            by_session[step.provenance.session_id].append(step)
        out: list[FailureFix] = []
        for sid in self.sessions():
            out += _session_failures(by_session[sid])
        return out

    def repeated_failures(self, min_count: int = 2) -> list[RepeatedFailure]:
        """Failures of the same call with the same error shape, seen at least ``min_count`` times."""
        groups: dict[tuple[str, str], list[FailureFix]] = defaultdict(list)
        for f in self.failures():
            groups[(normalize_command(f.call), f.signature)].append(f)
        out = []
        for items in groups.values():
            if len(items) >= min_count:
                fixes = tuple(dict.fromkeys(f.fix for f in items if f.fix))
                sessions = tuple(dict.fromkeys(f.provenance.session_id for f in items))
                out.append(
                    RepeatedFailure(items[0].call, items[0].error, len(items), fixes, sessions, items[0].provenance)
                )
        out.sort(key=lambda r: (-r.count, r.call))
        return out

    # --- statements ---

    def statements(self) -> list[UserStatement]:
        """The user's explicit rules and decisions (main agent only), each once, oldest first."""
        seen: dict[str, list[tuple[str, str, Provenance]]] = {}
        for e in self.events:
            if e.kind != "text" or e.role != "user" or e.agent != "main":
                continue
            for statement in statements_in(typed_text(e.text)):  # pasted text never states a rule
                key = statement_key(statement.text)
                seen.setdefault(key, []).append((statement.text, statement.kind, Provenance(e.session_id, e.time)))
        out = []
        for said in seen.values():
            text, kind, first = said[0]
            sessions = tuple(dict.fromkeys(p.session_id for _, _, p in said))
            out.append(UserStatement(text, kind, first, len(said), sessions))
        return out

    def latest_request(self, session_id: str) -> tuple[str, Provenance] | None:
        """The user's last typed message in ``session_id`` (main agent), with its provenance."""
        for e in reversed(self.events):
            mine = e.session_id == session_id and e.kind == "text" and e.role == "user" and e.agent == "main"
            typed = typed_text(e.text).strip() if mine else ""
            if typed:
                return typed, Provenance(e.session_id, e.time)
        return None

    # --- files ---

    def files_touched(self, limit: int = 20) -> list[FileTouch]:
        """Files edited or written most, with the sessions that did it."""
        edits: dict[str, list[Provenance]] = defaultdict(list)
        for step in self.trace():
            if step.status != "error":
                for path in step.files:
                    edits[path].append(step.provenance)
        out = [
            FileTouch(path, len(provs), tuple(dict.fromkeys(p.session_id for p in provs)), provs[-1])
            for path, provs in edits.items()
        ]
        out.sort(key=lambda f: (-f.edits, f.path))
        return out[:limit]


def statement_key(text: str) -> str:
    """A statement folded for de-duplication: case, whitespace and punctuation ignored."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _session_failures(steps: Sequence[Step]) -> list[FailureFix]:
    """Pair each failure in one session's trace with the success that fixed it."""
    done: list[FailureFix] = []
    pending: list[tuple[Step, list[str]]] = []
    for step in steps:
        if step.status == "error":
            if not any(_same_call(p, step) and first_line(p.result) == first_line(step.result) for p, _ in pending):
                pending.append((step, []))
            continue
        if step.status != "completed":
            continue
        for _, edits in pending:
            edits.extend(step.files)
        fixed = [(p, edits) for p, edits in pending if _same_call(p, step)]
        for failed, edits in fixed:
            pending.remove((failed, edits))
            done.append(_fixed(failed, step, edits))
    done += [_fixed(failed, None, edits) for failed, edits in pending]
    done.sort(key=lambda f: f.provenance.time or 0)
    return done


def _same_call(failed: Step, step: Step) -> bool:
    """Whether ``step`` retries ``failed``: the same program (shell) or the same tool and target."""
    if failed.command is not None:
        return step.command is not None and command_family(step.command) == command_family(failed.command)
    return step.tool == failed.tool and (step.files == failed.files or not failed.files)


def _fixed(failed: Step, fix: Step | None, edits: list[str]) -> FailureFix:
    edited = tuple(dict.fromkeys(e for e in edits if fix is None or e not in fix.files))
    text: str | None = None
    if fix is not None:
        how = f"after editing {', '.join(edited)}, " if edited else ""
        same = (fix.command is not None and fix.command == failed.command) or fix.summary == failed.summary
        text = how + ("the same call succeeded" if same else f"`{fix.summary}` succeeded")
    return FailureFix(
        failed.summary,
        failed.result or "(no message)",
        error_signature(failed.result),
        text,
        edited,
        failed.provenance,
        fix.provenance if fix else None,
    )


def _loads(raw: str | None) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _first_string(data: Any) -> str:
    if isinstance(data, dict):
        for value in data.values():
            if isinstance(value, str) and value.strip():
                return _clip(" ".join(value.split()), 120)
    return ""


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rel(path: str, project: str | None) -> str:
    """``path`` relative to the project root when it lies inside it."""
    if project and os.path.isabs(path) and os.path.isabs(project):
        return _rel_absolute(path, project)
    return _rel_uncached(path, project)


@functools.lru_cache(maxsize=4096)
def _rel_absolute(path: str, project: str) -> str:
    """``_rel`` of two absolute paths (cached: the same files are edited again and again)."""
    return _rel_uncached(path, project)


def _rel_uncached(path: str, project: str | None) -> str:
    if project and os.path.isabs(path):
        try:
            rel = os.path.relpath(path, project)
        except ValueError:
            return path
        if not rel.startswith(".."):
            return rel
    return path


# --- the same queries as plain functions over a store ---


def tool_trace(store: HistoryStore, session_id: str) -> list[Step]:
    """One session's tool calls, in order."""
    return Evidence.gather(store, Window(session_id=session_id)).trace(session_id)


def repeated_commands(store: HistoryStore, window: Window | None = None, min_count: int = 2) -> list[RepeatedCommand]:
    """Shell commands run at least ``min_count`` times in ``window``."""
    return Evidence.gather(store, window).repeated_commands(min_count)


def failures_and_fixes(store: HistoryStore, window: Window | None = None) -> list[FailureFix]:
    """Failed calls in ``window`` and what fixed them."""
    return Evidence.gather(store, window).failures()


def user_statements(store: HistoryStore, window: Window | None = None) -> list[UserStatement]:
    """The user's explicit rules and decisions in ``window``."""
    return Evidence.gather(store, window).statements()


def files_touched(store: HistoryStore, window: Window | None = None, limit: int = 20) -> list[FileTouch]:
    """Files edited most in ``window``."""
    return Evidence.gather(store, window).files_touched(limit)
