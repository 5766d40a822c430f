"""``memory_options`` behind the real host: ``query()`` runs Claude Code's own CLI against the stand-in.

Session 1: the user states a rule and a fact.  Session 2, a new ``query()`` with the same options:
the model's very first request already holds both, put there in-process (read from the
requests the stand-in recorded, behind the host's own ``UserPromptSubmit`` marker); the memory
tools the model calls work, on the session the hooks use.  Nothing is written under the
repository, and no settings file names a hook command.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sdk_calls import files_under, require_host, require_sdk

from mimomem.bench.host import Sandbox, Script, StandIn, ToolCall, Turn, injected, injected_text, step, tool_results
from mimomem.tree.memory_tree import MemoryTree

RULE = "Always run `make lint` before committing."
FACT = "The staging database port is 5433."
QUESTION = "Which port does the staging database use?"
NOTE = "the user asked about the staging port"


class ProjectOnly(Sandbox):
    """The host tests' sandbox (its ``HOME``, a git project, the system ``PATH``), nothing installed:
    the harness brings mimomem in-process."""

    def install(self) -> None:
        pass


def session_one() -> Script:
    return Script([Turn(f"{RULE} {FACT}", final="Noted.")])


def session_two() -> Script:
    calls = (
        ToolCall("mcp__mimomem__memory_note", {"text": NOTE}),
        ToolCall("mcp__mimomem__memory_search", {"query": "staging port"}),
    )
    return Script([Turn(QUESTION, steps=(step(*calls),), final="Port 5433.")])


async def run(prompt: str, options: Any) -> tuple[str, list[Any]]:
    """One ``query()`` to its end: the session id and every message."""
    from claude_agent_sdk import ResultMessage, query

    messages = [m async for m in query(prompt=prompt, options=options)]
    sid = next(m.session_id for m in messages if isinstance(m, ResultMessage))
    return sid, messages


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    host = require_host()
    box = ProjectOnly(tmp_path / "sdk", host).prepare({"README.md": "# shop-api\n", "Makefile": "lint:\n\ttrue\n"})
    # mimomem runs in this process: its memory and caches go where the sandbox's would
    monkeypatch.setenv("MIMOMEM_HOME", str(box.home / "mimomem"))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(box.home / ".cache" / "mimomem"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(box.home / ".config"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    return box


def test_a_new_query_receives_the_last_session_s_rule_and_fact_in_process(sandbox: Sandbox) -> None:
    if os.environ.get("MIMOMEM_PURE", "") not in ("", "0"):
        pytest.skip("pure pass: the real-host suite runs natively; test_claude_agent_sdk.py covers this code pure")
    sdk = require_sdk()
    from mimomem.integrations.claude_agent_sdk import memory_options, settle

    repo = sandbox.project
    before = files_under(repo)
    with StandIn(session_one()) as model:
        options = sdk.ClaudeAgentOptions(
            cwd=str(repo),
            cli_path=str(sandbox.host.path),
            env=sandbox.env(model.url),
            **memory_options(repo),
        )
        first, _ = asyncio.run(run(f"{RULE} {FACT}", options))
        assert settle(30)  # the Stop thread promoted the turn the host wrote after Stop
        tree = MemoryTree()
        promoted = tree.project_memory(tree.project_id(repo).id).read_text(encoding="utf-8")
        assert "make lint" in promoted and "5433" in promoted and first[:8] in promoted

        model.set_script(session_two())
        seen = len(model.requests)
        second, _ = asyncio.run(run(QUESTION, options))
        assert settle(30)
    assert second != first
    requests = [r for r in model.requests[seen:] if r.main_loop]
    assert requests, "the host sent session 2 no main-loop request"
    # the model's first request of session 2 already holds both, in-process, behind the host's marker
    given = injected_text(requests[:1], "UserPromptSubmit")
    assert "make lint" in given and "5433" in given
    assert "# Memory system" in given  # what SessionStart would have given, on the first prompt
    assert [i.event for i in injected(requests[:1])] == ["UserPromptSubmit", "UserPromptSubmit"]
    # the memory tools ran in-process, on the session the hooks use
    results = {r.name: r for r in tool_results(requests)}
    assert not results["mcp__mimomem__memory_note"].is_error
    assert f"(session {second})" in results["mcp__mimomem__memory_note"].output
    assert NOTE in MemoryTree().notes(second).read_text(encoding="utf-8")
    assert "5433" in results["mcp__mimomem__memory_search"].output
    # no hook command anywhere the host reads settings: every hook was a callback of this process
    settings = [sandbox.home / ".claude" / "settings.json", repo / ".claude" / "settings.json"]
    assert not any(p.exists() and "mimomem" in p.read_text(encoding="utf-8") for p in settings)
    # nothing written under the repository but mimomem's project id in .git (every route keeps it there;
    # the sandbox pins it when it makes the repository, bench/host/sandbox.py, so it may be there before)
    assert files_under(repo) - before <= {os.path.join(".git", "mimomem-project-id")}
    assert os.path.isfile(repo / ".git" / "mimomem-project-id")
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=repo, capture_output=True, text=True)
    assert status.stdout == ""
