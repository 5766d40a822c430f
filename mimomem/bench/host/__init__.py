"""The real agent host as a test bed: Claude Code's own CLI against a loopback stand-in for the model.

Modules: ``binary`` (find the CLI bundled in the ``claude-agent-sdk`` wheel, or why it cannot
run), ``standin`` (the Messages API on 127.0.0.1, recording every request), ``script`` (typed
turns, model steps, tool calls the host really runs), ``sandbox`` (a ``HOME``, a git project,
mimomem installed by settings hooks or as a plugin, off the agent's ``PATH``), ``session``
(one session driven through stream-json), ``extract`` (what mimomem injected, what the tools
returned), ``commands`` (the commands the injected instructions name, run by the agent).
"""

from __future__ import annotations

from mimomem.bench.host.binary import Host, find_host, unavailable_reason
from mimomem.bench.host.extract import Injection, ToolResult, injected, injected_text, tool_results
from mimomem.bench.host.sandbox import ROUTES, Sandbox
from mimomem.bench.host.script import Script, Step, ToolCall, Turn, bash, edit, read, say, step, write
from mimomem.bench.host.session import Session, run_session
from mimomem.bench.host.standin import Request, StandIn

__all__ = [
    "ROUTES",
    "Host",
    "Injection",
    "Request",
    "Sandbox",
    "Script",
    "Session",
    "StandIn",
    "Step",
    "ToolCall",
    "ToolResult",
    "Turn",
    "bash",
    "edit",
    "find_host",
    "injected",
    "injected_text",
    "read",
    "run_session",
    "say",
    "step",
    "tool_results",
    "unavailable_reason",
    "write",
]
