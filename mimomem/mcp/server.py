"""The MCP server object and the stdio loop behind ``mimomem mcp``.

:class:`MemoryServer` is the SDK's ``MCPServer`` with the tools, resources and prompts of this
package, and with argument errors rewritten into one message that names the bad arguments
(never their values, which may be huge or secret) and lists the tool's arguments.  Nothing
but protocol goes to standard output: logging goes to standard error, and the SDK's stdio
transport points file descriptor 1 at standard error while it serves.  Each incoming line
passes :mod:`mimomem.mcp.framing` first, so a request the SDK's reader would drop (and leave
its client waiting forever) is answered with a JSON-RPC error.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

import mimomem
from mimomem.mcp.framing import serve_framed
from mimomem.mcp.prompts import build_prompts
from mimomem.mcp.resources import build_resources
from mimomem.mcp.state import MemoryState, Options
from mimomem.mcp.tools import build_tools

INSTRUCTIONS = (
    "mimomem is this project's persistent memory. Search it (memory_search, memory_recall) before asking the user "
    "or re-deriving something that may have been recorded; note findings and user quotes as you go (memory_note); "
    "store durable lessons with memory_remember. Every write passes a write gate and a secret scanner."
)


class MemoryServer(MCPServer[Any]):
    """``MCPServer`` over one :class:`MemoryState`, with readable argument errors."""

    def __init__(self, state: MemoryState) -> None:
        self.state = state
        tools = build_tools(state)
        self.tool_schemas = {tool.name: tool.parameters for tool in tools}
        super().__init__(
            "mimomem", version=mimomem.__version__, instructions=INSTRUCTIONS, tools=tools, log_level="WARNING"
        )
        for resource in build_resources(state):
            self.add_resource(resource)
        for prompt in build_prompts(state):
            self.add_prompt(prompt)

    async def run_stdio_async(self) -> None:
        """Serve over stdio behind :mod:`mimomem.mcp.framing`: a request the SDK cannot read is answered."""
        lowlevel = self._lowlevel_server  # what the SDK's own run_stdio_async runs

        async def run(read_stream: Any, write_stream: Any) -> None:
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())

        await serve_framed(run)

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool; an unknown name or invalid arguments raise a ``ToolError`` that says what to pass."""
        if name not in self.tool_schemas:
            raise ToolError(f"unknown tool {name!r}; this server's tools are: {', '.join(self.tool_schemas)}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(argument_errors(name, exc.__cause__, self.tool_schemas[name])) from exc.__cause__
            raise


def argument_errors(name: str, error: ValidationError, schema: dict[str, Any]) -> str:
    """``error`` as one line per bad argument (no values echoed), then the tool's arguments."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "missing":
            problems.append(f"{where}: missing (it is required)")
        elif item["type"] == "extra_forbidden":
            problems.append(f"{where}: not an argument of {name}")
        else:
            problems.append(f"{where}: {item['msg']}")
    required = set(schema.get("required", ()))
    known = [f"{arg}{' (required)' if arg in required else ''}" for arg in schema.get("properties", {})]
    return f"invalid arguments for {name}: " + "; ".join(problems) + f". Arguments: {', '.join(known) or 'none'}."


def build_server(options: Options) -> MemoryServer:
    """A server for ``options`` (project, session, agent, memory root)."""
    return MemoryServer(MemoryState(options))


def serve(options: Options) -> None:
    """Run the stdio server until the client disconnects; the search index is closed at the end.

    A client that closes the pipe while a reply is on its way ends the server quietly: the call
    itself ran to completion (a write is whole), only its answer had nowhere to go.
    """
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="mimomem mcp: %(levelname)s %(message)s")
    server = build_server(options)
    try:
        anyio.run(server.run_stdio_async)
    except Exception as exc:
        if not client_gone(exc):
            raise
        logging.getLogger("mimomem.mcp").info("the client disconnected; stopping")
    finally:
        server.state.close()


def client_gone(exc: BaseException) -> bool:
    """True when ``exc`` (or every error of an exception group) is the client closing its end of the pipe."""
    if isinstance(exc, (BrokenPipeError, ConnectionResetError)):
        return True
    inner: tuple[BaseException, ...] = getattr(exc, "exceptions", None) or ()
    return bool(inner) and all(client_gone(e) for e in inner)
