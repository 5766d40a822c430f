"""The SDK's own in-memory ``Client`` on a server object: the same protocol as stdio, no subprocess.

Each call costs milliseconds instead of a Python start, so tests of what the tools, resources and
prompts answer use it; the stdio transport itself is tested in test_mcp_server.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

TIMEOUT = 60.0
"""Seconds one in-process session may take before the test fails (never a hang)."""


def in_process(project: Path, body: Callable[[Any], Awaitable[T]], *, session: str | None, **options: Any) -> T:
    """``await body(client)`` against a fresh server for ``project`` over the SDK's in-memory transport."""
    from mcp import Client

    from mimomem.mcp.server import build_server
    from mimomem.mcp.state import Options

    server = build_server(Options(project=str(project), session=session, **options))

    async def main() -> T:
        async with Client(server) as client:
            return await body(client)

    try:
        return asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    finally:
        server.state.close()


def text(result: Any) -> str:
    """The text of a ``CallToolResult``, ``ReadResourceResult`` or ``GetPromptResult`` (all its text blocks)."""
    blocks = getattr(result, "content", None) or getattr(result, "contents", None)
    if blocks is None and getattr(result, "messages", None):
        blocks = [message.content for message in result.messages]
    assert blocks, result
    return "".join(getattr(block, "text", "") for block in blocks)
