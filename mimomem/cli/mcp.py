"""``mimomem mcp``: serve this project's memory over MCP on standard input and output.

The SDK is the optional ``mcp`` extra; without it the command says how to install it.  The
server prints nothing but protocol on standard output (diagnostics go to standard error).
"""

from __future__ import annotations

import argparse
import importlib.util
import os

from mimomem.cli import checks
from mimomem.errors import UsageError
from mimomem.tree.agents import claim

SDK_MODULE = "mcp.server.mcpserver"
"""The part of the SDK the server is built on (``MCPServer``, mcp 2.x)."""


def sdk_available() -> bool:
    """True when the MCP SDK (2.x) can be imported."""
    try:
        return importlib.util.find_spec(SDK_MODULE) is not None
    except ImportError:  # no ``mcp`` package at all
        return False


def cmd_mcp(args: argparse.Namespace) -> int:
    """Run the stdio MCP server until the client disconnects."""
    if not sdk_available():
        raise UsageError("the MCP SDK is not installed: pip install 'mimomem[mcp]' (or pip install 'mcp>=2,<3')")
    from mimomem.mcp.server import serve
    from mimomem.mcp.state import Options

    project = checks.existing_dir(args.project, "--project") or "."
    checks.not_a_file(args.root, "--root")
    agent = args.agent.strip()
    if not agent:
        raise UsageError("--agent is empty; pass a name such as main")
    claim(agent, "mcp", os.environ)
    serve(Options(project=project, session=args.session, agent=agent, root=args.root, claude_code=args.claude_code))
    return 0
