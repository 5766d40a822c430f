"""Memory for Claude Agent SDK harnesses, in-process: :func:`memory_options` gives keyword arguments
for ``ClaudeAgentOptions`` (the ``host`` extra: ``pip install "mimomem[host]"``).

What the settings hooks and ``mimomem mcp`` give Claude Code, without a process per prompt and
without writing into the repository (no ``.claude/settings.json``):

- ``UserPromptSubmit`` answers with the per-prompt context, the hook command's own text
  (:func:`mimomem.hooks.entry.served`, else :func:`mimomem.hooks.claude_code.handle`).  The SDK
  has no ``SessionStart`` callback (0.2.190 lists none; one registered anyway never fires), so the
  first prompt a session has in this process also carries what ``SessionStart`` would have given,
  from a second callback (each text keeps the host's 10,000-character cap of its own):
  ``startup`` for a new transcript, ``resume`` for one that already has lines, ``compact`` after
  a ``PreCompact``.  Like ``SessionStart`` it first promotes what earlier sessions left pending.
- ``Stop`` (the end of each turn) hands the turn to a thread: the host writes the transcript
  after the callback returns (about 0.1 s later), so the thread waits until the file has grown
  and holds still, then promotes the session from where its last promotion stopped (a marker
  keeps the offset: a turn is read once, never promoted twice) and builds the session's next
  prompt plan, so the next prompt is served from it.
- The digest (the transcript since the last digest, into the session's notes) is written where
  its text is needed, as the hooks do: at ``PreCompact``, and when a session is resumed (in
  place of the ``SessionEnd`` the SDK does not have).  Not at every turn: the session's own notes
  are in its prompts' recall scope, and would hand the conversation back to itself.
- The ``memory_*`` tools: mimomem's MCP server (:class:`mimomem.mcp.server.MemoryServer`) served
  in-process.  A call's ``_meta`` carries its tool-use id and a ``PreToolUse`` callback saw which
  session issued it, so ``memory_note`` writes to the session the hooks use.

Not covered: a session killed mid-turn has no ``Stop``: its last turn is promoted when the next
session of the project starts (a first prompt promotes what is pending, as ``SessionStart``
does) and digested if the session is resumed.  ``SessionEnd``'s plan for the next new session is
not saved (that first prompt builds it), and due consolidation passes start at a session's first
``Stop``.  A turn's promotion is its own: a failure in one turn and its fix in a later one are
not paired.  Subagents' transcripts are not promoted (as with the hooks).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mimomem.tree.where import Where

log = logging.getLogger("mimomem.integrations")

SERVER = "mimomem"
"""The key of mimomem's server in ``mcp_servers``: its tools are ``mcp__mimomem__memory_*``."""

TOOL_PREFIX = f"mcp__{SERVER}__"

ALLOWED_TOOLS = tuple(
    TOOL_PREFIX + name
    for name in ("memory_search", "memory_recall", "memory_inspect", "memory_context", "memory_note", "memory_remember")
)
"""Tools allowed without a permission prompt: reading, and adding through the write gate.  The
ones that replace or delete (``memory_write``, ``memory_forget``, ``memory_checkpoint``) stay
under the harness's own permission settings."""

HOOK_TIMEOUT = 30.0
"""Seconds the host waits for one of these callbacks (its default is 60)."""

SETTLE_SECONDS = 3.0
"""The most a turn's thread waits for the host to write the turn into the transcript."""

QUIET_SECONDS = 0.2
"""A transcript that has grown and then kept its size this long holds the turn."""

PROMOTE_SECONDS = 5.0
"""Promotion a turn's thread does itself before the rest goes to a background process (rare)."""

KEPT = 4096
"""Sessions and tool calls remembered per :func:`memory_options` (the oldest are forgotten)."""

_TURNS: set[threading.Thread] = set()
_TURNS_LOCK = threading.Lock()


def memory_options(cwd: str | os.PathLike[str], *, options: Any = None, agent: str = "main") -> dict[str, Any]:
    """Keyword arguments for ``ClaudeAgentOptions``: ``hooks``, ``mcp_servers``, ``allowed_tools``.

    ``cwd``: the project (give the session's ``cwd``).  ``options``: the harness's own
    ``ClaudeAgentOptions`` (or a dict of its keyword arguments), whose hooks, servers and allowed
    tools are kept, its own first::

        options = dataclasses.replace(options, **memory_options(cwd, options=options))

    Raises ``AgentSdkMissingError`` when ``claude-agent-sdk`` (or ``mcp`` 2) is not installed,
    ``AgentSdkOptionsError`` when ``options`` cannot take mimomem's server.
    """
    memory = SessionMemory(cwd, agent=agent)
    mine = {"hooks": memory.hooks(), "mcp_servers": {SERVER: memory.server()}, "allowed_tools": list(ALLOWED_TOOLS)}
    sources = _option(options, "setting_sources") if options is not None else None
    for path in settings_with_hooks(memory.cwd) if sources != [] else []:  # []: the SDK loads no settings
        log.warning(
            "mimomem: %s also runs mimomem's hook command, and the SDK loads it unless setting_sources leaves it "
            "out: the model would get the context twice (run `mimomem uninstall claude-code`, or keep one route)",
            path,
        )
    return mine if options is None else merged(options, mine)


def settings_with_hooks(cwd: str) -> list[str]:
    """The settings files Claude Code reads for ``cwd`` (project, local, user) that hold mimomem's hooks."""
    from pathlib import Path

    from mimomem.hooks.install import read_settings, strip

    places = [Path(cwd, ".claude", name) for name in ("settings.json", "settings.local.json")]
    found = []
    for path in [*places, Path(os.path.expanduser("~"), ".claude", "settings.json")]:
        try:
            if strip(read_settings(path)[1])[1]:
                found.append(str(path))
        except Exception:  # unreadable or not JSON: not ours to judge here
            continue
    return found


def merged(options: Any, mine: Mapping[str, Any]) -> dict[str, Any]:
    """``mine`` with ``options``' hooks, MCP servers and allowed tools kept, theirs first."""
    from mimomem.errors import AgentSdkOptionsError

    def get(name: str) -> Any:
        return _option(options, name)

    servers = get("mcp_servers") or {}
    if not isinstance(servers, Mapping):
        raise AgentSdkOptionsError(
            "options.mcp_servers is a path or JSON text, which cannot hold an in-process server: "
            "pass the servers as a dict of configurations"
        )
    if SERVER in servers:
        raise AgentSdkOptionsError(
            f"options.mcp_servers already has a server named {SERVER!r}: rename it, or drop it (mimomem adds its own)"
        )
    hooks = {event: list(matchers) for event, matchers in (get("hooks") or {}).items()}
    for event, matchers in mine["hooks"].items():
        hooks[event] = [*hooks.get(event, []), *matchers]
    allowed = list(get("allowed_tools") or [])
    allowed += [name for name in mine["allowed_tools"] if name not in allowed]
    return {"hooks": hooks, "mcp_servers": {**servers, **mine["mcp_servers"]}, "allowed_tools": allowed}


def settle(timeout: float | None = None) -> bool:
    """Wait until every turn handed over by a ``Stop`` is promoted; ``False`` on timeout.

    Not needed for a normal exit (the interpreter waits for these threads); for a harness that
    ends with ``os._exit``, or checks memory right after a session."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        with _TURNS_LOCK:
            pending = [t for t in _TURNS if t.is_alive()]
        if not pending:
            return True
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            return False
        pending[0].join(left)


class SessionMemory:
    """The callbacks and the server behind one :func:`memory_options`; library work one call at a time."""

    def __init__(self, cwd: str | os.PathLike[str], *, agent: str = "main") -> None:
        from mimomem.errors import LocationError

        self.sdk = _sdk()
        self.cwd = os.path.abspath(os.fspath(cwd))
        if not os.path.isdir(self.cwd):
            raise LocationError(f"memory_options: {self.cwd} is not a directory; pass the session's working directory")
        self.agent = agent
        self._work = threading.Lock()  # hooks' library calls, one at a time (the MCP server has its own)
        self._start = threading.Lock()
        self._started: OrderedDict[str, None] = OrderedDict()
        self._compacted: set[str] = set()
        self._start_text: dict[str, str] = {}
        self._tool_sessions: OrderedDict[str, str] = OrderedDict()
        self._last_session: str | None = None
        self._passes_checked: set[str] = set()

    # -- what the SDK is given ----------------------------------------------------------------------
    def hooks(self) -> dict[str, list[Any]]:
        """``ClaudeAgentOptions.hooks``: one matcher per event."""
        matcher = self.sdk.HookMatcher
        return {
            "UserPromptSubmit": [matcher(hooks=[self.start_context, self.prompt_context], timeout=HOOK_TIMEOUT)],
            "Stop": [matcher(hooks=[self.turn_ended], timeout=HOOK_TIMEOUT)],
            "PreCompact": [matcher(hooks=[self.pre_compact], timeout=60.0)],
            "PreToolUse": [matcher(matcher=f"{TOOL_PREFIX}.*", hooks=[self.tool_call], timeout=HOOK_TIMEOUT)],
        }

    def server(self) -> dict[str, Any]:
        """An SDK server configuration (``type: sdk``) for mimomem's MCP server, on the hooks' sessions."""
        try:
            from mimomem.mcp.server import MemoryServer
            from mimomem.mcp.state import MemoryState, Options
        except ImportError as exc:
            raise _missing(f"the memory tools need mcp 2 ({exc})") from exc
        from mimomem.tree.layout import check_id

        memory = self

        class HookSessionState(MemoryState):
            """A server state that follows the session which issued each call."""

            def adopt_session(self, meta: Mapping[str, Any] | None) -> None:
                sid = memory.session_of(meta)
                if sid is not None:
                    self.session_id = check_id(sid, kind="session")

        server = MemoryServer(HookSessionState(Options(project=self.cwd, agent=self.agent)))
        # the mcp.server.Server the SDK serves in-process (MemoryServer serves the same one on stdio)
        return {"type": "sdk", "name": SERVER, "instance": server._lowlevel_server}

    def session_of(self, meta: Mapping[str, Any] | None) -> str | None:
        """The session that issued a tool call (by its tool-use id), else the last one that had a prompt."""
        call = (meta or {}).get("claudecode/toolUseId")
        return self._tool_sessions.get(call, self._last_session) if isinstance(call, str) else self._last_session

    # -- callbacks ------------------------------------------------------------------------------------
    async def start_context(self, data: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        """``UserPromptSubmit``: what ``SessionStart`` would give, on the first prompt a session has here."""
        payload = _payload(data)
        if payload is None:
            return {}
        await _in_thread(self._ensure_started, payload)
        return _output(self._start_text.pop(payload["session_id"], ""))

    async def prompt_context(self, data: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        """``UserPromptSubmit``: the prompt's context, after the session's start (promotion first)."""
        payload = _payload(data)
        if payload is None or not isinstance(payload.get("prompt"), str):
            return {}
        self._last_session = payload["session_id"]
        await _in_thread(self._ensure_started, payload)
        return _output(await _in_thread(self._answer, payload))

    async def turn_ended(self, data: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        """``Stop``: the turn to a thread that promotes it once the host has written it."""
        payload = _payload(data)
        if payload is not None and os.path.isabs(payload.get("transcript_path") or ""):
            path = str(payload["transcript_path"])
            args = (payload["session_id"], payload["cwd"], path, _size(path))
            turn = threading.Thread(target=self._after_turn, args=args, name="mimomem-turn")
            with _TURNS_LOCK:
                _TURNS.add(turn)
            turn.start()
        return {}

    async def pre_compact(self, data: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        """``PreCompact``: the hook's digest and promotion; the next prompt carries the start context again."""
        payload = _payload(data)
        if payload is not None:
            await _in_thread(self._answer, payload)
            with self._start:
                self._started.pop(payload["session_id"], None)
                self._compacted.add(payload["session_id"])
        return {}

    async def tool_call(self, data: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        """``PreToolUse`` of a memory tool: which session issued the call (read by the server)."""
        call = tool_use_id or (data.get("tool_use_id") if isinstance(data, Mapping) else None)
        sid = data.get("session_id") if isinstance(data, Mapping) else None
        if isinstance(call, str) and isinstance(sid, str) and sid:
            _keep(self._tool_sessions, call, sid)
        return {}

    # -- the work (worker threads) --------------------------------------------------------------------
    def _ensure_started(self, payload: dict[str, Any]) -> None:
        """The session's start context, once per session (and again after a compaction).  A resumed
        session first gets the digest its last run could not write (there is no ``SessionEnd``)."""
        sid = payload["session_id"]
        with self._start:
            if sid in self._started:
                return
            _keep(self._started, sid, None)
            if sid in self._compacted:
                self._compacted.discard(sid)
                source = "compact"
            else:
                source = "resume" if _size(str(payload.get("transcript_path") or "")) > 0 else "startup"
            if source == "resume":
                with self._work:
                    self._digest(self._where(sid, payload["cwd"]), str(payload["transcript_path"]), "resume")
            start = {**payload, "hook_event_name": "SessionStart", "source": source}
            start.pop("prompt", None)
            self._start_text[sid] = self._answer(start)

    def _answer(self, payload: dict[str, Any]) -> str:
        """The hook command's context text for ``payload`` ("" for none, or on any problem: fail open)."""
        from mimomem.hooks import claude_code, entry

        event = payload["hook_event_name"]
        with self._work:
            try:
                try:
                    out = entry.served(json.dumps(payload), os.environ)
                except Exception:  # a damaged plan: the hook's own path answers and saves a new one
                    out = None
                if out is None:
                    out = claude_code.handle(payload, env=os.environ, plan_checked=event == "UserPromptSubmit")
            except Exception as exc:
                log.warning("mimomem: %s: no memory context (%s)", event, _reason(exc))
                return ""
        return _context_of(out)

    def _after_turn(self, sid: str, cwd: str, transcript: str, size_at_stop: int) -> None:
        """Wait for the turn in the transcript, then promote the session (never raises)."""
        try:
            wait_for_turn(transcript, size_at_stop)
            with self._work:
                self._carry(sid, cwd, transcript)
        except Exception as exc:
            log.warning("mimomem: Stop: promotion skipped (%s)", _reason(exc))
        finally:
            with _TURNS_LOCK:
                _TURNS.discard(threading.current_thread())

    def _carry(self, sid: str, cwd: str, transcript: str) -> None:
        """Promote the session's new lines, then build its next prompt's plan (off the prompt's path:
        the promotion changed what the plan was built from)."""
        from mimomem.hooks import claude_code

        where = self._where(sid, cwd)
        deadline = time.monotonic() + PROMOTE_SECONDS
        claude_code.promote(where, {"transcript_path": transcript}, deadline=deadline, only_this=True)
        payload = {"session_id": sid, "cwd": where_cwd(cwd, self.cwd), "transcript_path": transcript}
        claude_code.prompt_plan(where, payload, os.environ)
        if sid not in self._passes_checked:  # SessionEnd's job in the hooks; there is no end here
            from mimomem.passes.schedule import start_due_passes

            self._passes_checked.add(sid)
            start_due_passes(where)

    def _digest(self, where: Where, transcript: str, trigger: str) -> None:
        """The transcript since the session's last digest, into its notes (never raises)."""
        from mimomem.memory import carry

        try:
            carry.append_digest(where, transcript, trigger=trigger)
        except Exception as exc:
            log.warning("mimomem: no digest at %s (%s)", trigger, _reason(exc))

    def _where(self, sid: str, cwd: str) -> Where:
        from mimomem.tree.memory_tree import MemoryTree
        from mimomem.tree.where import locate

        return locate(where_cwd(cwd, self.cwd), session_id=sid, tree=MemoryTree())


def where_cwd(cwd: str, default: str) -> str:
    """The session's working directory when it still exists, else ``default``."""
    return cwd if os.path.isabs(cwd) and os.path.isdir(cwd) else default


def wait_for_turn(path: str, size_at_stop: int, *, timeout: float | None = None, quiet: float = QUIET_SECONDS) -> bool:
    """Wait until ``path`` has grown past ``size_at_stop`` and then kept its size ``quiet`` seconds;
    ``False`` when ``timeout`` (default :data:`SETTLE_SECONDS`) passed first (the caller goes on:
    what is missing is read next time)."""
    end = time.monotonic() + (SETTLE_SECONDS if timeout is None else timeout)
    last, since = size_at_stop, time.monotonic()
    while time.monotonic() < end:
        size = _size(path)
        now = time.monotonic()
        if size != last:
            last, since = size, now
        elif size > size_at_stop and now - since >= quiet:
            return True
        time.sleep(0.05)
    return False


# -- helpers ------------------------------------------------------------------------------------------
def _option(options: Any, name: str) -> Any:
    """``name`` of a ``ClaudeAgentOptions`` or of a dict of its keyword arguments (``None`` when unset)."""
    return options.get(name) if isinstance(options, Mapping) else getattr(options, name, None)


def _sdk() -> Any:
    try:
        import claude_agent_sdk
    except ImportError as exc:
        raise _missing(f"claude-agent-sdk is not installed ({exc})") from exc
    return claude_agent_sdk


def _missing(why: str) -> Exception:
    from mimomem.errors import AgentSdkMissingError

    return AgentSdkMissingError(
        f'mimomem\'s Agent SDK integration cannot run: {why}. Install it with: pip install "mimomem[host]"'
    )


def _payload(data: Any) -> dict[str, Any] | None:
    """The callback's input as a hook payload, or ``None`` (logged) when it lacks a session or cwd."""
    if not isinstance(data, Mapping):
        return None
    sid, cwd = data.get("session_id"), data.get("cwd")
    if not isinstance(sid, str) or not sid or not isinstance(cwd, str) or not os.path.isabs(cwd):
        log.warning("mimomem: %s without a session id or an absolute cwd; ignored", data.get("hook_event_name"))
        return None
    return dict(data)


def _output(text: str) -> dict[str, Any]:
    if not text:
        return {}
    return {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}}


def _context_of(out: str) -> str:
    """The ``additionalContext`` of the hook command's stdout ("" for none)."""
    if not out:
        return ""
    try:
        text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    except (ValueError, KeyError, TypeError):
        return ""
    return text if isinstance(text, str) else ""


async def _in_thread(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` on a worker thread: the harness's event loop keeps running meanwhile."""
    import anyio.to_thread

    return await anyio.to_thread.run_sync(fn, *args)


def _keep(table: OrderedDict[str, Any], key: str, value: Any) -> None:
    table[key] = value
    table.move_to_end(key)
    while len(table) > KEPT:
        table.popitem(last=False)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size if path else 0
    except OSError:
        return 0


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:299] + "…"
