"""The ``memory_*`` tools through the SDK's own in-memory client: refusals, gate decisions, what leaves the server.

In-process (``mcp.Client`` on the server object): the same protocol path as stdio, without a
subprocess, so each test costs milliseconds.  Stdio itself is covered by test_mcp_server.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'mimomem[mcp]'")

from inprocess_client import in_process, text

from mimomem.errors import InvalidAgentNameError
from mimomem.mcp.server import build_server
from mimomem.mcp.state import Options
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import checkpoint_template

T = TypeVar("T")
AWS_KEY = "AKIA" + "QWERTYUIOPASDFGH"


def serve(project: Path, body: Callable[[Any], Awaitable[T]], *, session: str | None = "s-1", **options: Any) -> T:
    return in_process(project, body, session=session, **options)


def calls(project: Path, *steps: tuple[str, dict[str, Any]], **options: Any) -> list[tuple[bool, str]]:
    """Each tool call's (is_error, text), in order, on one connection."""

    async def body(client: Any) -> list[tuple[bool, str]]:
        out = []
        for name, args in steps:
            result = await client.call_tool(name, args)
            out.append((bool(result.is_error), text(result)))
        return out

    return serve(project, body, **options)


def test_the_checkpoint_tool_refuses_an_answer_that_drops_content_and_keeps_the_old_one(repo: Path) -> None:
    first = checkpoint_template().replace("## §5 Current work\n", "## §5 Current work\n\n- migrating the cache\n", 1)
    second = first.replace("- migrating the cache", "- the cache is migrated")
    (ok, wrote), (again_error, again), (refused, why), (ok2, replaced) = calls(
        repo,
        ("memory_checkpoint", {"text": first}),
        ("memory_checkpoint", {"text": first}),
        ("memory_checkpoint", {"text": "# Session checkpoint\n\n## §1 Active intent\n\n> hi\n"}),
        ("memory_checkpoint", {"text": second}),
    )
    assert not ok and wrote.startswith("wrote the checkpoint ") and "previous one" not in wrote
    assert not again_error and again == "the checkpoint already holds this text; nothing changed"
    assert refused and "'## §5 Current work' had content and the answer drops it" in why
    assert not ok2 and "the previous one is kept as " in replaced
    undo = Path(replaced.rsplit(" ", 1)[1])
    assert "migrating the cache" in undo.read_text(encoding="utf-8")
    assert "the cache is migrated" in MemoryTree().checkpoint("s-1").read_text(encoding="utf-8")


def test_the_gate_keeps_the_checkpoint_from_memory_write(repo: Path) -> None:
    [(refused, why)] = calls(repo, ("memory_write", {"target": "checkpoint", "text": checkpoint_template()}))
    assert refused and "checkpoint" in why
    assert not MemoryTree().checkpoint("s-1").exists()


def test_a_server_never_writes_as_the_user(repo: Path) -> None:
    """Only a person's own CLI writes as ``user`` (global memory); a server always serves an agent."""
    with pytest.raises(InvalidAgentNameError, match="never writes as 'user'"):
        build_server(Options(project=str(repo), session="s-1", agent="user"))
    with pytest.raises(InvalidAgentNameError):
        build_server(Options(project=str(repo), session="s-1", agent="checkpoint\u2010writer"))  # a look-alike
    tree = MemoryTree()
    assert not tree.global_memory().exists()


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("memory_note", {"text": "   \n\t"}, "the note is empty"),
        ("memory_write", {"target": "project", "text": "  \n"}, "text is empty"),
        ("memory_remember", {"category": "facts", "summary": "x", "supersedes": "facts/nope"}, "facts/nope"),
        ("memory_forget", {"id": "rules"}, "rules"),
    ],
)
def test_empty_and_unknown_inputs_are_tool_errors_that_say_why(
    repo: Path, name: str, args: dict[str, Any], expected: str
) -> None:
    [(is_error, message)] = calls(repo, (name, args))
    assert is_error and expected in message
    assert not MemoryTree().notes("s-1").exists()


def test_a_near_duplicate_memory_is_refused_naming_the_one_it_repeats(repo: Path) -> None:
    summary = {"category": "facts", "summary": "The staging database listens on port 5433"}
    (first_error, first), (dup_error, dup) = calls(
        repo, ("memory_remember", summary), ("memory_remember", {**summary, "summary": summary["summary"] + "."})
    )
    assert not first_error and first.startswith("remembered facts/")
    memory_id = first.split()[1]
    assert dup_error and memory_id in dup


def test_a_secret_typed_into_a_memory_file_never_leaves_the_server(repo: Path) -> None:
    """Hand-edited files bypass the gate; resources, search and context still redact what leaves."""
    tree = MemoryTree()
    path = tree.project_memory(tree.project_id(repo).id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Project memory\n\n## Discovered durable knowledge\n\n- deploy key {AWS_KEY}\n", "utf-8")

    async def body(client: Any) -> list[str]:
        return [
            text(await client.read_resource("memory://project")),
            text(await client.call_tool("memory_search", {"query": "deploy key"})),
            text(await client.call_tool("memory_context", {})),
            text(await client.call_tool("memory_context", {"prompt": "deploy key"})),
        ]

    for shown in serve(repo, body):
        assert "deploy key" in shown and AWS_KEY not in shown, shown[:300]


def test_a_project_outside_git_has_no_curated_outline_and_shares_global_memory(tmp_path: Path, repo: Path) -> None:
    plain = tmp_path / "scratch"
    plain.mkdir()

    async def body(client: Any) -> tuple[str, str]:
        return (
            text(await client.read_resource("memory://curated/root")),
            text(await client.read_resource("memory://project")),
        )

    curated, project = serve(plain, body)
    assert curated.startswith("(nothing here: memory://curated/root needs a git repository")
    assert project.startswith("(empty: ") and "global" in project


def test_search_without_a_hit_says_how_to_look_further(repo: Path) -> None:
    [(is_error, message)] = calls(repo, ("memory_search", {"query": "zanzibar", "scope": "project"}))
    assert not is_error and message.startswith("No matches for 'zanzibar'.")
    assert "mimomem mcp --claude-code" not in message


def test_a_note_reaches_the_next_prompts_context(repo: Path) -> None:
    (_, noted), (_, context) = calls(
        repo,
        ("memory_note", {"text": "用户说：数据库端口改成 6543"}),
        ("memory_context", {"prompt": "数据库端口是多少"}),
    )
    assert noted.startswith("noted as turn 1 in ")
    assert '"budget": 1200' in context and "6543" in context


def test_the_client_session_is_used_when_the_server_names_none(repo: Path) -> None:
    async def body(client: Any) -> str:
        return text(await client.call_tool("memory_note", {"text": "from the client"}, meta={"sessionId": "client-9"}))

    assert "(session client-9)" in serve(repo, body, session=None)
    assert "from the client" in MemoryTree().notes("client-9").read_text(encoding="utf-8")


def test_an_unknown_resource_is_an_error_not_a_crash(repo: Path) -> None:
    async def body(client: Any) -> tuple[bool, str]:
        try:
            await client.read_resource("memory://nope")
        except Exception as exc:  # the SDK raises the server's JSON-RPC error
            failed: tuple[bool, str] = (True, str(exc))
        else:
            failed = (False, "")
        alive = text(await client.call_tool("memory_note", {"text": "still serving"}))
        return failed[0], alive

    failed, alive = serve(repo, body)
    assert failed and alive.startswith("noted as turn 1")
