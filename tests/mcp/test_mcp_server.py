"""``mimomem mcp`` driven by the SDK's stdio client: listing, every tool, resources, prompts, sessions, robustness."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import pytest

pytest.importorskip("mcp.client.stdio", reason="the MCP SDK is not installed: pip install 'mimomem[mcp]'")

TOOLS = {
    "memory_search",
    "memory_recall",
    "memory_remember",
    "memory_forget",
    "memory_inspect",
    "memory_note",
    "memory_write",
    "memory_checkpoint",
    "memory_context",
}
RESOURCES = {
    "memory://global",
    "memory://project",
    "memory://session/checkpoint",
    "memory://session/notes",
    "memory://curated/root",
}
PROMPTS = {"checkpoint", "dream", "distill"}


def test_lists_tools_resources_and_prompts(served: Any) -> None:
    async def body(session: Any) -> tuple[Any, Any, Any]:
        return await session.list_tools(), await session.list_resources(), await session.list_prompts()

    tools, resources, prompts = served.run(body)
    assert TOOLS == {t.name for t in tools.tools}
    for tool in tools.tools:
        assert tool.description and len(tool.description) < 400
        assert tool.input_schema["additionalProperties"] is False
        assert all(p.get("description") for p in tool.input_schema["properties"].values())
    by_name = {t.name: t for t in tools.tools}
    assert by_name["memory_search"].annotations.read_only_hint is True
    assert by_name["memory_forget"].annotations.destructive_hint is True
    assert RESOURCES == {str(r.uri) for r in resources.resources}
    assert PROMPTS == {p.name for p in prompts.prompts}


def test_every_tool_works_end_to_end(served: Any) -> None:
    async def body(session: Any) -> dict[str, str]:
        out = {}

        async def call(key: str, name: str, args: dict[str, Any]) -> None:
            result = await session.call_tool(name, args)
            out[key] = served.text(result)
            assert not result.is_error, (name, out[key])

        await call("note", "memory_note", {"text": "数据库端口是 5433（staging 和 prod 都一样）"})
        await call("search", "memory_search", {"query": "5433"})
        await call("search_scoped", "memory_search", {"query": "5433", "scope": "session", "limit": 3})
        await call("search_typed", "memory_search", {"query": "5433", "type": "notes"})
        await call(
            "remember",
            "memory_remember",
            {
                "category": "decisions",
                "summary": "Use PostgreSQL on port 5433",
                "body": "5432 is taken by the host",
                "load_when": ["configure the database"],
            },
        )
        await call("rule", "memory_remember", {"category": "rules", "summary": "Run pnpm test before every deploy"})
        await call("recall", "memory_recall", {"query": "PostgreSQL port", "limit": 2})
        await call("inspect", "memory_inspect", {})
        project = "# Project memory\n\n## Rules\n\n- 用 pnpm\n"
        await call("write", "memory_write", {"target": "project", "text": project})
        await call("append", "memory_write", {"target": "notes", "text": "- appended line\n", "append": True})
        await call("context", "memory_context", {})
        await call("prompt_context", "memory_context", {"prompt": "which port does PostgreSQL use", "budget": 800})
        memory_id = re.search(r"remembered (\S+)", out["remember"]).group(1)  # type: ignore[union-attr]
        await call("forget", "memory_forget", {"id": memory_id})
        await call("recall_after", "memory_recall", {"query": "PostgreSQL port"})
        out["project"] = served.text(await session.read_resource("memory://project"))
        out["notes"] = served.text(await session.read_resource("memory://session/notes"))
        return out

    out = served.run(body, args=["--session", "s-1"])
    assert "turn 1" in out["note"] and "s-1" in out["note"]
    assert "5433" in out["search"] and "notes.md" in out["search"]
    assert "session s-1" in out["search_scoped"] and "· notes" in out["search_typed"]
    assert "decisions/" in out["remember"]
    assert "rule-proposal" in out["rule"] and "mimomem rules accept" in out["rule"]
    assert "Use PostgreSQL on port 5433" in out["recall"] and "why: matched" in out["recall"]
    assert "proposal" in out["inspect"] and "2 memories" in out["inspect"]
    assert out["write"].startswith("wrote ") and "用 pnpm" in out["project"]
    assert out["append"].startswith("appended to ") and "- appended line" in out["notes"]
    head = json.loads(out["context"].split("\n\n", 1)[0])
    assert head["tokens"] <= head["budget"] == 4000 and {b["name"] for b in head["blocks"]} >= {"instructions"}
    assert json.loads(out["prompt_context"].split("\n\n", 1)[0])["budget"] == 800
    assert out["forget"].startswith("forgot decisions/")
    assert "No curated memory matched" in out["recall_after"]


def test_resources_and_prompts_read_the_session(served: Any) -> None:
    served.cli("note", "--session", "s-2", "the user wants 部署 on Fridays only")
    tasks = served.home / "mimomem" / "data" / "memory" / "sessions" / "s-2" / "tasks" / "T1"
    tasks.mkdir(parents=True)
    (tasks / "progress.md").write_text("# Task T1 progress\n\n## §1 Task identity\n\n- task_id: T1 migrate\n")

    async def body(session: Any) -> dict[str, str]:
        out = {uri: served.text(await session.read_resource(uri)) for uri in sorted(RESOURCES)}
        for name in sorted(PROMPTS):
            result = await session.get_prompt(name)
            out[name] = result.messages[0].content.text
        return out

    out = served.run(body, args=["--session", "s-2"])
    assert "部署 on Fridays" in out["memory://session/notes"]
    assert out["memory://global"].startswith("(empty: ")
    assert out["memory://session/checkpoint"].startswith("(empty: ")
    checkpoint = out["checkpoint"]
    for heading in ("§1 Active intent", "§11 Open notes", "(at most 500 tokens)"):
        assert heading in checkpoint
    assert "部署 on Fridays" in checkpoint and "T1 migrate" in checkpoint
    assert "memory_checkpoint(text=" in checkpoint
    for name in ("dream", "distill"):
        assert "minimal version" in out[name] and "history store" in out[name]
        assert "部署 on Fridays" in out[name]


def test_session_comes_from_flag_env_client_or_a_new_id(served: Any) -> None:
    async def note(session: Any, meta: dict[str, Any] | None = None) -> str:
        return served.text(await session.call_tool("memory_note", {"text": "x"}, meta=meta))

    assert "(session from-flag)" in served.run(note, args=["--session", "from-flag"], env={"MIMOMEM_SESSION": "env"})
    assert "(session from-env)" in served.run(note, env={"MIMOMEM_SESSION": "from-env"})
    fresh = served.run(note)
    assert re.search(r"\(session mcp-[0-9a-f]{12}\)", fresh)

    async def from_client(session: Any) -> tuple[str, str]:
        first = await note(session, {"sessionId": "client-7"})
        return first, await note(session)

    first, later = served.run(from_client)
    assert "(session client-7)" in first and "(session client-7)" in later


def test_twenty_concurrent_calls(served: Any) -> None:
    async def body(session: Any) -> list[tuple[bool, str]]:
        results: list[tuple[bool, str]] = []

        async def one(i: int) -> None:
            if i % 2:
                result = await session.call_tool("memory_note", {"text": f"concurrent note {i}"})
            else:
                result = await session.call_tool("memory_search", {"query": f"concurrent {i}"})
            results.append((bool(result.is_error), served.text(result)))

        async with anyio.create_task_group() as group:
            for i in range(20):
                group.start_soon(one, i)
        return results

    results = served.run(body, args=["--session", "s-20"])
    assert len(results) == 20 and not [text for error, text in results if error]
    notes = (served.home / "mimomem" / "data" / "memory" / "sessions" / "s-20" / "notes.md").read_text()
    assert sorted(int(t) for t in re.findall(r"## \[turn (\d+)", notes)) == list(range(1, 11))


def test_a_write_by_another_process_is_seen_by_the_next_search(served: Any) -> None:
    async def body(session: Any) -> tuple[str, str]:
        before = served.text(await session.call_tool("memory_search", {"query": "zanzibar"}))
        done = await anyio.to_thread.run_sync(
            lambda: served.cli("note", "--session", "other-1", "deploy window is zanzibar time")
        )
        assert done.returncode == 0, done.stderr
        after = served.text(await session.call_tool("memory_search", {"query": "zanzibar"}))
        return before, after

    before, after = served.run(body, args=["--session", "s-3"])
    assert before.startswith("No matches") and "0 results does not mean" in before
    assert "zanzibar" in after and "session other-1" in after


def test_a_call_the_client_abandons_leaves_the_server_serving(served: Any) -> None:
    async def body(session: Any) -> str:
        with anyio.move_on_after(0.001):
            await session.call_tool("memory_context", {})
        return served.text(await session.call_tool("memory_note", {"text": "still here"}))

    assert "noted as turn" in served.run(body)
    assert "Traceback" not in served.stderr()


def test_a_client_that_disconnects_mid_call_leaves_whole_files(served: Any) -> None:
    text = "# Session checkpoint\n\n" + "- a line of the checkpoint\n" * 4000
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
    }
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "memory_write", "arguments": {"target": "notes", "text": text}},
    }
    with (
        served.errlog.open("wb") as errlog,
        subprocess.Popen(
            served.command("mcp", "--session", "s-4"),
            cwd=served.repo,
            env=served.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
        ) as proc,
    ):
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write((json.dumps(initialize) + "\n").encode())
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())  # stdout carries protocol only: the first line is the reply
            assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "mimomem"
            for message in ({"jsonrpc": "2.0", "method": "notifications/initialized"}, call):
                proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
            proc.stdin.close()  # gone before the reply: both pipes closed
            proc.stdout.close()
            status = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert status == 0 and "Traceback" not in served.stderr(), served.stderr()
    notes = served.home / "mimomem" / "data" / "memory" / "sessions" / "s-4" / "notes.md"
    assert not notes.exists() or notes.read_text() == text

    async def body(session: Any) -> Any:
        return await session.call_tool("memory_search", {"query": "checkpoint line"})

    assert not served.run(body, args=["--session", "s-4"]).is_error


def test_the_tool_list_costs_few_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mimomem.mcp.state import MemoryState, Options
    from mimomem.mcp.tools import build_tools, token_costs

    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path))
    costs = token_costs(build_tools(MemoryState(Options(session="s-1"))))
    assert set(costs) == TOOLS | {"total"}
    assert costs["total"] <= 1800, costs  # the whole list is paid on every turn of every session
    assert all(costs[name] <= 400 for name in TOOLS), costs


def test_stdout_of_the_command_is_protocol_only(served: Any) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mimomem", "mcp"],
        cwd=served.repo,
        env=served.env,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout == ""


def test_the_tool_literals_are_the_library_value_sets() -> None:
    """The MCP schema spells scopes, types and categories as literals; they must be the library's one set each."""
    from typing import get_args

    from mimomem.curated.memory import DEFAULT_CATEGORIES
    from mimomem.mcp import tools
    from mimomem.search.params import SEARCH_TYPES
    from mimomem.tree.vocabulary import SCOPES

    assert SCOPES == get_args(tools.Scope)
    assert DEFAULT_CATEGORIES == get_args(tools.Category)
    assert SEARCH_TYPES == get_args(tools.MemoryType)  # the type filter of every front end
