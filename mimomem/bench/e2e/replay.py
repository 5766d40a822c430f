"""Replay recorded Claude Code sessions through ``mimomem hook claude-code`` as the host calls it.

Everything happens in a sandbox directory: ``HOME``, ``MIMOMEM_HOME``, ``CLAUDE_CONFIG_DIR``
and the XDG directories point inside it, and each project is a directory with a ``.git``
entry.  For one session the transcript file grows line by line, as Claude Code writes it:

- ``SessionStart`` (``source: startup``) before the first line;
- ``UserPromptSubmit`` for each typed prompt, *before* that prompt's line is appended;
- ``PreCompact`` before a ``compact_boundary`` line, then ``SessionStart`` (``source:
  compact``) once the compaction summary line is written;
- ``SessionEnd`` at the end, unless the session never ended (the manifest says so).

A truncated last line is appended as the partial bytes it is.  Hooks run in-process
through :func:`mimomem.hooks.entry.run` (what the hook command runs) with real JSON payloads, or as a fresh
``python -m mimomem hook claude-code`` process (``fresh_process=True``).  Scheduled passes
run synchronously at their scheduled moment on the transcripts' clock (see
:func:`scheduled_passes`), so days can pass in seconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mimomem.bench.e2e.dataset import SessionSpec

if TYPE_CHECKING:
    from mimomem.tree.where import Where

KEEP_ENV = ("PATH", "LANG", "LC_ALL", "MIMOMEM_PURE", "PYTHONPATH", "TMPDIR")
"""Variables of the calling environment the sandbox keeps; everything else is replaced."""


@dataclass
class HookCall:
    """One hook invocation and what the host got back."""

    event: str
    session_id: str
    stdout: str
    stderr: str
    seconds: float


@dataclass
class Clock:
    """The replay's "now" (seconds since the epoch), set from the transcript timestamps."""

    now: float = 0.0

    def set_from(self, stamp: object) -> None:
        """Move to an ISO 8601 timestamp (``...Z``); ignores anything unparsable or earlier."""
        when = parse_time(stamp)
        if when is not None:
            self.now = max(self.now, when)


def parse_time(stamp: object) -> float | None:
    """Seconds since the epoch of an ISO 8601 timestamp (``...Z``), or ``None``."""
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


@dataclass
class Sandbox:
    """A private home for one replay: data, config, Claude Code's projects and the project trees."""

    root: Path
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def data(self) -> Path:
        """``MIMOMEM_HOME`` (the data directory is ``<data>/data``)."""
        return self.root / "mimomem"

    @property
    def claude(self) -> Path:
        return self.home / ".claude"

    def env(self) -> dict[str, str]:
        """The environment every hook of this replay runs with."""
        env = {k: v for k, v in os.environ.items() if k in KEEP_ENV}
        env.update(
            {
                "HOME": str(self.home),
                "MIMOMEM_HOME": str(self.data),
                "CLAUDE_CONFIG_DIR": str(self.claude),
                "XDG_DATA_HOME": str(self.home / ".local" / "share"),
                "XDG_CONFIG_HOME": str(self.home / ".config"),
                "XDG_CACHE_HOME": str(self.home / ".cache"),
                "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            }
        )
        env.update(self.extra_env)
        return env

    def project_dir(self, project: str) -> Path:
        """The project's working tree (created with a ``.git`` directory on first use)."""
        path = self.root / "work" / project
        if not (path / ".git").is_dir():
            from mimomem.bench.e2e.pinned import pin_project_id

            (path / ".git").mkdir(parents=True, exist_ok=True)
            pin_project_id(path / ".git", project)  # the same id in every run: the injected paths hold it
        return path

    def transcript_path(self, project: str, session_id: str) -> Path:
        """Where Claude Code keeps the session's JSONL: ``~/.claude/projects/<slug>/<id>.jsonl``."""
        slug = str(self.project_dir(project)).replace("/", "-")
        return self.claude / "projects" / slug / f"{session_id}.jsonl"


@contextlib.contextmanager
def isolated(env: Mapping[str, str]) -> Iterator[None]:
    """``os.environ`` is exactly ``env`` inside the block (the library reads it directly)."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


class HookRunner:
    """Calls the Claude Code hook with a payload, in-process or as a fresh process; keeps a log."""

    def __init__(self, sandbox: Sandbox, *, fresh_process: bool = False) -> None:
        self.sandbox = sandbox
        self.fresh_process = fresh_process
        self.log: list[HookCall] = []

    def call(self, payload: dict[str, Any], *, fresh_process: bool | None = None) -> HookCall:
        """Run one hook event; ``fresh_process`` overrides the runner's mode for this call."""
        raw = json.dumps(payload, ensure_ascii=False)
        started = time.perf_counter()
        if self.fresh_process if fresh_process is None else fresh_process:
            out, err = _in_subprocess(raw, self.sandbox.env())
        else:
            out, err = _in_process(raw, self.sandbox.env())
        call = HookCall(str(payload["hook_event_name"]), str(payload["session_id"]), out, err, 0.0)
        call.seconds = time.perf_counter() - started
        self.log.append(call)
        return call


def _in_process(raw: str, env: dict[str, str]) -> tuple[str, str]:
    """The hook as ``mimomem hook claude-code`` runs it (``hooks.entry``: served from a plan when one is current)."""
    from mimomem.hooks import entry

    out, err = io.StringIO(), io.StringIO()
    with isolated(env):
        entry.run(io.StringIO(raw), out, err, env=env)
    return out.getvalue(), err.getvalue()


def _in_subprocess(raw: str, env: dict[str, str]) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "mimomem", "hook", "claude-code"],
        input=raw.encode("utf-8"),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    return done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def payload(event: str, session_id: str, transcript: Path, cwd: Path, **fields: Any) -> dict[str, Any]:
    """A hook payload with the common fields Claude Code sends."""
    return {
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": str(cwd),
        "hook_event_name": event,
        "permission_mode": "default",
        **fields,
    }


def typed_prompt(line: Mapping[str, Any]) -> str | None:
    """The user's typed text if ``line`` is a prompt the user submitted, else ``None``."""
    if line.get("type") != "user" or line.get("isMeta") or line.get("isCompactSummary") or line.get("isSidechain"):
        return None
    message = line.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        text = content
    elif (
        isinstance(content, list) and content and all(isinstance(b, dict) and b.get("type") == "text" for b in content)
    ):
        text = "\n".join(str(b.get("text", "")) for b in content)
    else:
        return None
    return None if text.lstrip().startswith("<") else text


def replay_session(spec: SessionSpec, sandbox: Sandbox, runner: HookRunner, clock: Clock) -> None:
    """Feed one recorded session to the hooks, growing its transcript line by line."""
    cwd = sandbox.project_dir(spec.project)
    path = sandbox.transcript_path(spec.project, spec.session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = spec.transcript.read_bytes().replace(spec.cwd.encode(), str(cwd).encode())
    *lines, partial = raw.split(b"\n")
    clock.set_from(spec.start)
    runner.call(payload("SessionStart", spec.session_id, path, cwd, source="startup"))
    compacting = False
    with open(path, "ab") as out:
        for chunk in lines:
            line = _parse(chunk)
            clock.set_from(line.get("timestamp"))
            prompt = typed_prompt(line)
            if prompt is not None:
                runner.call(payload("UserPromptSubmit", spec.session_id, path, cwd, prompt=prompt))
            boundary = line.get("type") == "system" and line.get("subtype") == "compact_boundary"
            if boundary or (line.get("isCompactSummary") and not compacting):
                runner.call(payload("PreCompact", spec.session_id, path, cwd, trigger="manual", custom_instructions=""))
            compacting = boundary or (compacting and not line.get("isCompactSummary"))
            out.write(chunk + b"\n")
            out.flush()
            if line.get("isCompactSummary"):
                runner.call(payload("SessionStart", spec.session_id, path, cwd, source="compact"))
        out.write(partial)
    if spec.ends:
        runner.call(payload("SessionEnd", spec.session_id, path, cwd, reason=spec.end_reason))


def _parse(chunk: bytes) -> dict[str, Any]:
    try:
        obj = json.loads(chunk)
    except ValueError:
        return {}
    return obj if isinstance(obj, dict) else {}


@contextlib.contextmanager
def scheduled_passes(clock: Clock, env: Mapping[str, str]) -> Iterator[list[str]]:
    """While active, due passes start at the replay clock's time and run to the end synchronously.

    ``mimomem.passes.schedule`` normally detaches a process at ``time.time()``; here the
    same decision (:func:`~mimomem.passes.schedule.due`) is taken at the transcript's time,
    and the job the detached process would run (``schedule.run``) runs in-process, its
    output discarded.  Yields the list of passes started, as ``"<pass>@<ISO time>"``.

    A promotion a hook hands to a background process (``promote.detach``, when the inline one
    misses its deadline on a loaded machine) also runs here, to its end, before the hook returns:
    the next session and the questions see what a background promotion finishes long before a
    user opens one, whatever the load, and no process outlives the sandbox (under load the
    sandbox's removal met one still writing in it: "Directory not empty").
    """
    from mimomem.passes import promote as promotion
    from mimomem.passes import schedule

    started: list[str] = []
    original_start, original_spawn = schedule.start_due_passes, schedule._spawn

    def start(where: Where, *, env: Mapping[str, str] | None = None, now: float | None = None) -> list[str]:
        names = original_start(where, env=env, now=clock.now if now is None else now)
        stamp = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(clock.now))
        started.extend(f"{name}@{stamp}" for name in names)
        return names

    def spawn(where: Where, kind: str) -> None:
        quiet = contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO())
        with isolated(env), quiet[0], quiet[1], silenced_fds():  # its own processes write to fds 1 and 2
            schedule.run(kind, str(where.worktree), ("--days", str(window_days(clock.now))))

    def detach(where: Where) -> None:
        with contextlib.redirect_stdout(io.StringIO()):  # its one log line is not the hook's answer
            promotion.promote_all(where)

    original_detach = promotion.detach
    schedule.start_due_passes, schedule._spawn, promotion.detach = start, spawn, detach
    try:
        yield started
    finally:
        schedule.start_due_passes, schedule._spawn, promotion.detach = original_start, original_spawn, original_detach


def window_days(replay_now: float, *, days: int = 7, now: float | None = None) -> int:
    """The ``--days`` that gives a pass run today the default 7-day window ending at ``replay_now``.

    The pass measures its window from the real clock, the transcripts are dated earlier; the
    history holds nothing later than ``replay_now`` yet, so widening the window by the gap
    between the two clocks selects exactly the sessions a pass at ``replay_now`` would read."""
    gap = max(0.0, (time.time() if now is None else now) - replay_now)
    return days + int(gap // 86400) + 1


@contextlib.contextmanager
def silenced_fds() -> Iterator[None]:
    """File descriptors 1 and 2 point at /dev/null for the duration (child processes inherit them)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def backdate_project(sandbox: Sandbox, project: str, when: float) -> None:
    """Make the project's "first seen" record date from ``when`` (the schedule measures from it)."""
    from mimomem.tree.memory_tree import MemoryTree

    with isolated(sandbox.env()):
        tree = MemoryTree()
        pid = tree.project_id(sandbox.project_dir(project)).id
        record = tree.data_dir / "state" / "projects" / pid
    with contextlib.suppress(OSError):
        os.utime(record, (when, when))
