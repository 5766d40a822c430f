"""Hostile tool calls: each comes back as ``is_error`` with a message that says what to do, and the server lives on."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("mcp.client.stdio", reason="the MCP SDK is not installed: pip install 'mimomem[mcp]'")

AWS_KEY = "AKIA" + "QWERTYUIOPASDFGH"
HUGE = "x" * 100_000

REFUSED: list[tuple[str, dict[str, Any], str]] = [
    # wrong types
    ("memory_search", {"query": 5}, "query: Input should be a valid string"),
    ("memory_search", {"query": "x", "limit": "many"}, "limit: Input should be a valid integer"),
    ("memory_search", {"query": "x", "limit": 0}, "limit: Input should be greater than or equal to 1"),
    ("memory_search", {"query": "x", "scope": "everywhere"}, "scope: Input should be 'global'"),
    ("memory_remember", {"category": "secrets", "summary": "x"}, "category: Input should be 'rules'"),
    ("memory_remember", {"category": "facts", "summary": "x", "load_when": "deploy"}, "load_when"),
    ("memory_write", {"target": ["project"], "text": "x"}, "target: Input should be a valid string"),
    # missing and extra arguments
    ("memory_search", {}, "query: missing (it is required)"),
    ("memory_note", {"txt": "hello"}, "txt: not an argument of memory_note"),
    ("memory_inspect", {"verbose": True}, "verbose: not an argument of memory_inspect"),
    # 100k-character strings
    ("memory_search", {"query": HUGE}, "query: String should have at most 1000 characters"),
    ("memory_note", {"text": HUGE}, "text: String should have at most 20000 characters"),
    ("memory_remember", {"category": "facts", "summary": HUGE}, "summary: String should have at most 300"),
    ("memory_write", {"target": "notes", "text": HUGE * 2}, "text: String should have at most 64000"),
    ("memory_forget", {"id": HUGE}, "id: String should have at most 200"),
    # traversal and bad ids
    ("memory_forget", {"id": "../x"}, "unknown category '..'"),
    ("memory_forget", {"id": "facts/../../etc/passwd"}, "facts/../../etc/passwd"),
    ("memory_forget", {"id": "facts/no-such-memory"}, "mimomem inspect"),
    ("memory_write", {"target": "../../../../etc/cron.d/x.md", "text": "x"}, "Allowed:"),
    ("memory_write", {"target": "/etc/passwd", "text": "x"}, "outside the memory tree"),
    ("memory_write", {"target": "progress:../../x", "text": "x"}, "invalid task id"),
    ("memory_write", {"target": "progress:T1", "text": "x"}, "reserved"),
    ("memory_remember", {"category": "facts", "summary": "two\nlines"}, "summary must be one non-empty line"),
    # secrets: refused, and the value is never echoed
    ("memory_note", {"text": f"the key is {AWS_KEY}"}, "likely secret: aws-access-key-id"),
    ("memory_write", {"target": "project", "text": f"key {AWS_KEY}\n"}, "likely secret"),
    ("memory_remember", {"category": "facts", "summary": "aws key", "body": AWS_KEY}, "likely secret"),
    # an unknown tool
    ("memory_delete_everything", {}, "unknown tool 'memory_delete_everything'; this server's tools are: memory_search"),
]

ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    # FTS5 syntax is text to search for, never an operator
    ("memory_search", {"query": '"unterminated'}),
    ("memory_search", {"query": "a AND b OR NOT c NEAR(d e, 3) f* ^g h:i"}),
    ("memory_search", {"query": "(((("}),
    ("memory_search", {"query": "'; DROP TABLE memory_fts; --"}),
    ("memory_recall", {"query": "NEAR(a b) OR *"}),
    ("memory_search", {"query": "x", "scope": None, "type": None}),  # explicit nulls for optional arguments
    ("memory_search", {"query": "部署 生产", "scope": "claude-code"}),
]


def test_hostile_calls_are_tool_errors_and_the_server_survives(served: Any) -> None:
    async def body(session: Any) -> tuple[list[tuple[str, bool, str]], list[tuple[str, bool, str]], str]:
        refused = []
        for name, args, _ in REFUSED:
            result = await session.call_tool(name, args)
            refused.append((name, bool(result.is_error), served.text(result)))
        accepted = []
        for name, args in ACCEPTED:
            result = await session.call_tool(name, args)
            accepted.append((name, bool(result.is_error), served.text(result)))
        alive = served.text(await session.call_tool("memory_note", {"text": "still alive"}))
        return refused, accepted, alive

    refused, accepted, alive = served.run(body, args=["--session", "s-h"])
    for (name, args, expected), (_, is_error, text) in zip(REFUSED, refused, strict=True):
        assert is_error, (name, args, text)
        assert expected in text, (name, expected, text[:500])
        assert AWS_KEY not in text and HUGE not in text
        assert len(text) < 2000, (name, len(text))
    for (name, args), (_, is_error, text) in zip(ACCEPTED, accepted, strict=True):
        assert not is_error, (name, args, text)
    assert "noted as turn 1" in alive
    assert "Traceback" not in served.stderr()


def test_claude_code_scope_says_how_to_enable_it(served: Any) -> None:
    async def body(session: Any) -> str:
        return served.text(await session.call_tool("memory_search", {"query": "x", "scope": "claude-code"}))

    assert "mimomem mcp --claude-code" in served.run(body)


def test_an_unusable_session_id_is_refused(served: Any) -> None:
    async def body(session: Any) -> tuple[bool, str]:
        result = await session.call_tool("memory_note", {"text": "x"}, meta={"sessionId": "../../etc"})
        return bool(result.is_error), served.text(result)

    is_error, text = served.run(body)
    assert is_error and "invalid session id" in text
    bad = served.cli("mcp", "--session", "../x")
    assert bad.returncode == 2 and "invalid session id" in bad.stderr and bad.stdout == ""
