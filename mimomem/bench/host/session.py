"""One real Claude Code session: typed turns in, stream events and the model's requests out.

The CLI runs as ``claude -p --input-format stream-json --output-format stream-json --verbose``
in the sandbox project.  Each turn's line is written after the previous turn's ``result`` event
(lines sent earlier are queued, and lost if stdin closes first); closing stdin ends the session,
which runs ``SessionEnd``.  A session that does not finish in time is killed, and the error says
where it stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from mimomem.bench.host.extract import Injection, ToolResult, injected, tool_results
from mimomem.bench.host.sandbox import Sandbox
from mimomem.bench.host.script import Script
from mimomem.bench.host.standin import Request, StandIn
from mimomem.errors import HostSessionError

TOOLS = "Bash,Edit,Write,Read"
"""The tools allowed without a prompt (as root the CLI refuses ``--dangerously-skip-permissions``)."""

STREAM_ARGS = (
    *("-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"),
    *("--include-hook-events", "--allowedTools", TOOLS),
)
TURN_SECONDS = 60.0
END_SECONDS = 30.0


@dataclass
class Session:
    """What one session produced."""

    session_id: str
    events: list[dict[str, Any]]
    requests: list[Request]
    returncode: int
    stderr: str
    seconds: float
    transcript: Path | None = None
    hook_events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def main_requests(self) -> list[Request]:
        return [r for r in self.requests if r.main_loop]

    @property
    def hook_contexts(self) -> list[str]:
        """What the hooks returned as context (the host's ``hook_response`` events)."""
        from mimomem.bench.host.extract import hook_contexts

        return hook_contexts(self.hook_events)

    def injected(self, event: str | None = None) -> list[Injection]:
        """What mimomem injected, as the model received it in this session's requests."""
        return injected(self.requests, event, self.hook_contexts)

    def injected_text(self, event: str | None = None) -> str:
        return "\n".join(i.text for i in self.injected(event))

    def tool_results(self) -> list[ToolResult]:
        """The tool calls of this session and what the host sent back for each."""
        return tool_results(self.requests)

    @property
    def results(self) -> list[dict[str, Any]]:
        """The ``result`` event of each turn."""
        return [e for e in self.events if e.get("type") == "result"]


def run_session(
    sandbox: Sandbox,
    model: StandIn,
    script: Script,
    *,
    extra_args: list[str] | None = None,
    turn_seconds: float = TURN_SECONDS,
    resume: str | None = None,
    end: bool = True,
) -> Session:
    """Run ``script``'s turns through the host in ``sandbox`` against ``model``; raises ``HostSessionError``.

    ``end=False``: the session never ends (killed after its last turn, as a crash or a closed
    terminal would: no ``SessionEnd``)."""
    model.set_script(script)
    first = len(model.requests)
    argv = [
        str(sandbox.host.path),
        *STREAM_ARGS,
        *sandbox.session_args(),
        *(["--resume", resume] if resume else []),
        *(extra_args or []),
    ]
    started = time.monotonic()
    proc = _spawn(argv, sandbox, model)
    lines: queue.Queue[str | None] = queue.Queue()
    stderr: list[str] = []
    readers = [
        threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True),
        threading.Thread(target=_collect, args=(proc.stderr, stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    events: list[dict[str, Any]] = []
    try:
        for number, turn in enumerate(script.turns, 1):
            _send(proc, turn.prompt)
            for text in turn.queued:
                time.sleep(1.0)
                _send(proc, text)
            _until_result(lines, events, turn_seconds, f"turn {number} of {len(script.turns)}")
        if not end:
            _kill(proc)
        assert proc.stdin is not None
        with contextlib.suppress(OSError):
            proc.stdin.close()  # the session ends: SessionEnd runs
        _until_exit(proc, lines, events, END_SECONDS)
    except HostSessionError as exc:
        _kill(proc)
        _close(proc, readers)
        raise HostSessionError(f"{exc}; stderr: {''.join(stderr).strip()[-600:] or '(empty)'}") from None
    _close(proc, readers)
    session = _session(sandbox, events, model.requests[first:], proc.returncode, "".join(stderr), started)
    if proc.returncode != 0 and end:
        raise HostSessionError(f"the host exited {proc.returncode}: {session.stderr.strip()[-600:]}")
    return session


def _spawn(argv: list[str], sandbox: Sandbox, model: StandIn) -> subprocess.Popen[str]:
    return subprocess.Popen(
        argv,
        cwd=sandbox.project,
        env=sandbox.env(model.url),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        start_new_session=True,
    )


def _session(
    sandbox: Sandbox, events: list[dict[str, Any]], requests: list[Request], code: int, stderr: str, started: float
) -> Session:
    session_id = next((str(e["session_id"]) for e in events if e.get("session_id")), "")
    return Session(
        session_id=session_id,
        events=[e for e in events if not _is_hook_event(e)],
        requests=requests,
        returncode=code,
        stderr=stderr,
        seconds=time.monotonic() - started,
        transcript=transcript_path(sandbox, session_id) if session_id else None,
        hook_events=[e for e in events if _is_hook_event(e)],
    )


def transcript_path(sandbox: Sandbox, session_id: str) -> Path | None:
    """``~/.claude/projects/<project path, / as ->/<session>.jsonl``, when the host wrote it."""
    projects = sandbox.home / ".claude" / "projects"
    slug = "".join(c if c.isalnum() else "-" for c in str(sandbox.project.resolve()))
    path = projects / slug / f"{session_id}.jsonl"
    if path.is_file():
        return path
    return next(iter(projects.glob(f"*/{session_id}.jsonl")), None)


def _is_hook_event(event: dict[str, Any]) -> bool:
    return event.get("type") == "system" and str(event.get("subtype", "")).startswith("hook_")


def _send(proc: subprocess.Popen[str], text: str) -> None:
    line = json.dumps({"type": "user", "message": {"role": "user", "content": text}}, ensure_ascii=False)
    assert proc.stdin is not None
    try:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    except OSError as exc:
        raise HostSessionError(f"the host stopped reading its input ({exc})") from None


def _pump(stream: IO[str] | None, out: queue.Queue[str | None]) -> None:
    assert stream is not None
    for line in stream:
        out.put(line)
    out.put(None)


def _collect(stream: IO[str] | None, out: list[str]) -> None:
    assert stream is not None
    for line in stream:
        out.append(line)


def _next_event(lines: queue.Queue[str | None], deadline: float, where: str) -> dict[str, Any] | None:
    try:
        line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
    except queue.Empty:
        raise HostSessionError(f"the host gave no result for {where} in time") from None
    if line is None:
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return {"type": "unparsed", "line": line.rstrip("\n")}
    return value if isinstance(value, dict) else {"type": "unparsed", "line": line.rstrip("\n")}


def _until_result(lines: queue.Queue[str | None], events: list[dict[str, Any]], seconds: float, where: str) -> None:
    deadline = time.monotonic() + seconds
    while True:
        event = _next_event(lines, deadline, where)
        if event is None:
            raise HostSessionError(f"the host exited during {where}")
        events.append(event)
        if event.get("type") == "result":
            return


def _until_exit(
    proc: subprocess.Popen[str], lines: queue.Queue[str | None], events: list[dict[str, Any]], seconds: float
) -> None:
    deadline = time.monotonic() + seconds
    while (event := _next_event(lines, deadline, "the session's end")) is not None:
        events.append(event)
    try:
        proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise HostSessionError("the host did not exit after its input closed") from None


def _close(proc: subprocess.Popen[str], readers: list[threading.Thread]) -> None:
    for reader in readers:
        reader.join(timeout=5)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def _kill(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=10)
