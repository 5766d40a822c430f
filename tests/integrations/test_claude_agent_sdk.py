"""``memory_options``: its callbacks driven as the SDK drives them, with the host's payloads (no binary).

The real host runs them in ``test_claude_agent_sdk_host.py``; here each behaviour is pinned on its
own: what the SDK is given, the merge with a harness's options, the first prompt's start
context, compaction and resume, a turn's promotion after ``Stop`` (once, and only after the host
wrote it), and the session a memory tool writes to.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
import typing
from pathlib import Path
from typing import Any

import pytest
from sdk_calls import call, context_of, files_under, git_project, payload, recorded_transcript, require_sdk

from mimomem.errors import AgentSdkMissingError, AgentSdkOptionsError, LocationError
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

SID = "4b1f7c2e-9a0d-4c3e-8f51-2d6a1b9e0c77"  # the recorded transcript's session
RULE = "以后都用 pnpm，不要再用 npm"


@pytest.fixture
def sdk() -> Any:
    return require_sdk()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sdk: Any) -> Path:
    repo = git_project(tmp_path, monkeypatch)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。\n",
        Writer("main", project_id=pid, worktree=repo),
    )
    return repo


def memory(repo: Path) -> Any:
    from mimomem.integrations.claude_agent_sdk import SessionMemory

    return SessionMemory(repo)


def project_memory(repo: Path) -> str:
    tree = MemoryTree()
    return tree.project_memory(tree.project_id(repo).id).read_text(encoding="utf-8")


def prompt(mem: Any, data: dict[str, Any]) -> tuple[str, str]:
    """(start context, prompt context) of one UserPromptSubmit."""
    return context_of(call(mem.start_context, data)), context_of(call(mem.prompt_context, data))


# -- what the SDK is given --------------------------------------------------------------------------
def test_the_pinned_sdk_has_no_session_start_or_end_callback(sdk: Any) -> None:
    """Why the first prompt carries the start context: the SDK's hook events have no SessionStart."""
    events = {value for literal in typing.get_args(sdk.types.HookEvent) for value in typing.get_args(literal)}
    assert {"UserPromptSubmit", "Stop", "PreCompact", "PreToolUse"} <= events
    assert not {"SessionStart", "SessionEnd"} & events


def test_options_are_callbacks_and_an_in_process_server(repo: Path, sdk: Any) -> None:
    from mcp.server import Server

    from mimomem.integrations.claude_agent_sdk import memory_options

    before = files_under(repo)
    options = memory_options(repo)
    assert set(options) == {"hooks", "mcp_servers", "allowed_tools"}
    assert set(options["hooks"]) == {"UserPromptSubmit", "Stop", "PreCompact", "PreToolUse"}
    assert all(isinstance(m, sdk.HookMatcher) for ms in options["hooks"].values() for m in ms)
    assert options["hooks"]["PreToolUse"][0].matcher == "mcp__mimomem__.*"
    server = options["mcp_servers"]["mimomem"]
    assert server["type"] == "sdk" and isinstance(server["instance"], Server)
    assert "mcp__mimomem__memory_note" in options["allowed_tools"]
    assert "mcp__mimomem__memory_forget" not in options["allowed_tools"]  # destructive: the harness decides
    sdk.ClaudeAgentOptions(cwd=str(repo), **options)  # accepted as keyword arguments
    assert files_under(repo) == before


def test_a_harness_s_own_options_are_kept_first(repo: Path, sdk: Any) -> None:
    from mimomem.integrations.claude_agent_sdk import memory_options

    async def mine(data: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
        return {}

    theirs = sdk.ClaudeAgentOptions(
        cwd=str(repo),
        hooks={"UserPromptSubmit": [sdk.HookMatcher(hooks=[mine])], "PostToolUse": [sdk.HookMatcher(hooks=[mine])]},
        mcp_servers={"tracker": {"type": "stdio", "command": "tracker-mcp"}},
        allowed_tools=["Read", "mcp__mimomem__memory_search"],
    )
    merged = dataclasses.replace(theirs, **memory_options(repo, options=theirs))
    assert merged.hooks["UserPromptSubmit"][0].hooks == [mine] and len(merged.hooks["UserPromptSubmit"]) == 2
    assert merged.hooks["PostToolUse"][0].hooks == [mine] and "Stop" in merged.hooks
    assert list(merged.mcp_servers) == ["tracker", "mimomem"]
    assert merged.allowed_tools[:2] == ["Read", "mcp__mimomem__memory_search"]
    assert merged.allowed_tools.count("mcp__mimomem__memory_search") == 1
    as_dict = memory_options(repo, options={"hooks": None, "allowed_tools": ["Bash"]})
    assert as_dict["allowed_tools"][0] == "Bash" and list(as_dict["mcp_servers"]) == ["mimomem"]


@pytest.mark.parametrize(
    ("servers", "says"),
    [("/etc/mcp.json", "path or JSON text"), ({"mimomem": {"type": "stdio", "command": "x"}}, "already has")],
)
def test_options_that_cannot_take_the_server_are_refused(repo: Path, servers: Any, says: str) -> None:
    from mimomem.integrations.claude_agent_sdk import memory_options

    with pytest.raises(AgentSdkOptionsError, match=says):
        memory_options(repo, options={"mcp_servers": servers})


def test_without_the_sdk_the_error_says_how_to_install(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mimomem.integrations.claude_agent_sdk import memory_options

    monkeypatch.setitem(sys.modules, "claude_agent_sdk", None)  # import fails as when it is not installed
    with pytest.raises(AgentSdkMissingError, match=r'pip install "mimomem\[host\]"'):
        memory_options(repo)
    with pytest.raises(ImportError):  # also an ImportError, for code that already catches that
        memory_options(repo)


def test_settings_hooks_for_the_same_project_are_warned_about(
    repo: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The SDK loads the settings files' hooks too: mimomem's there would inject everything twice."""
    import json

    from mimomem.hooks.install import hooks_config
    from mimomem.integrations.claude_agent_sdk import memory_options

    monkeypatch.setenv("HOME", str(repo.parent / "user-home"))
    memory_options(repo)
    assert not caplog.records
    settings = repo / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(hooks_config("/opt/venv/bin/mimomem hook claude-code")), encoding="utf-8")
    memory_options(repo)
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert str(settings) in caplog.text and "twice" in caplog.text
    caplog.clear()
    memory_options(repo, options={"setting_sources": []})  # the SDK then loads no settings file
    assert not caplog.records


def test_a_missing_directory_is_refused(tmp_path: Path, sdk: Any) -> None:
    from mimomem.integrations.claude_agent_sdk import memory_options

    with pytest.raises(LocationError, match="not a directory"):
        memory_options(tmp_path / "nowhere")


# -- context ----------------------------------------------------------------------------------------
def test_the_first_prompt_of_a_session_carries_its_start_and_later_prompts_do_not(repo: Path) -> None:
    mem = memory(repo)
    first = payload(repo, "s-new-1", "UserPromptSubmit", repo.parent / "s-new-1.jsonl", prompt="部署前要跑什么？")
    start, ctx = prompt(mem, first)
    assert "# Memory system" in start and "部署前先跑 `pnpm test`" in start
    assert "# Memory system" not in ctx
    start, _ = prompt(mem, {**first, "prompt": "还有别的吗？"})
    assert start == ""
    other = payload(repo, "s-new-2", "UserPromptSubmit", repo.parent / "s-new-2.jsonl", prompt="hello")
    assert "# Memory system" in prompt(mem, other)[0]  # another session: its own start


def test_a_compaction_digests_and_the_next_prompt_carries_the_start_again(repo: Path) -> None:
    mem = memory(repo)
    transcript = recorded_transcript(repo, repo.parent / f"{SID}.jsonl")
    asks = payload(repo, SID, "UserPromptSubmit", transcript, prompt="继续")
    prompt(mem, asks)  # started (as a resume: the transcript has lines)
    assert prompt(mem, asks)[0] == ""
    assert call(mem.pre_compact, payload(repo, SID, "PreCompact", transcript, trigger="auto")) == {}
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert notes.count("Transcript digest") == 1  # the resume's; the compaction found nothing new
    assert "# Memory system" in prompt(mem, asks)[0]


def test_a_resumed_session_gets_the_digest_its_last_run_could_not_write(repo: Path) -> None:
    mem = memory(repo)
    transcript = recorded_transcript(repo, repo.parent / f"{SID}.jsonl")
    start, _ = prompt(mem, payload(repo, SID, "UserPromptSubmit", transcript, prompt="继续"))
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert "Transcript digest (resume)" in notes and "pnpm" in notes
    assert "# Memory system" in start


def test_a_callback_with_a_bad_payload_answers_nothing(repo: Path) -> None:
    mem = memory(repo)
    bad = {"session_id": "s1", "cwd": "relative/dir", "hook_event_name": "UserPromptSubmit", "prompt": "x"}
    assert call(mem.prompt_context, bad) == {} and call(mem.start_context, bad) == {}
    assert call(mem.turn_ended, {"hook_event_name": "Stop"}) == {}


# -- promotion at Stop ------------------------------------------------------------------------------
def stop(mem: Any, repo: Path, transcript: Path) -> None:
    from mimomem.integrations.claude_agent_sdk import settle

    assert call(mem.turn_ended, payload(repo, SID, "Stop", transcript)) == {}
    assert settle(30)


def test_a_turn_is_promoted_after_stop_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mimomem.hooks import entry
    from mimomem.integrations import claude_agent_sdk

    monkeypatch.setattr(claude_agent_sdk, "SETTLE_SECONDS", 0.3)  # the file is complete already
    mem = memory(repo)
    transcript = recorded_transcript(repo, repo.parent / f"{SID}.jsonl")
    stop(mem, repo, transcript)
    promoted = project_memory(repo)
    assert RULE in promoted and "(user, 2026-11-30, s:4b1f7c2e)" in promoted
    stop(mem, repo, transcript)  # nothing new in the transcript: nothing doubled
    assert project_memory(repo) == promoted
    # the next prompt's plan was built after the promotion: that prompt is served from it
    import json

    asks = payload(repo, SID, "UserPromptSubmit", transcript, prompt="npm 还能用吗")
    assert entry.served(json.dumps(asks), __import__("os").environ) is not None


def test_stop_waits_for_the_host_to_write_the_turn(repo: Path) -> None:
    """The host writes the transcript about 0.1 s after Stop: the turn written late is still promoted."""
    mem = memory(repo)
    transcript = repo.parent / f"{SID}.jsonl"
    transcript.write_text('{"type":"permission-mode","permissionMode":"default"}\n', encoding="utf-8")
    later = threading.Timer(0.4, recorded_transcript, (repo, transcript))
    later.start()
    stop(mem, repo, transcript)
    later.join()
    assert RULE in project_memory(repo)


def test_wait_for_turn_gives_up_when_the_file_never_grows(tmp_path: Path, sdk: Any) -> None:
    from mimomem.integrations.claude_agent_sdk import wait_for_turn

    path = tmp_path / "t.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    began = time.monotonic()
    assert wait_for_turn(str(path), path.stat().st_size, timeout=0.3) is False
    assert time.monotonic() - began >= 0.3
    grow = threading.Timer(0.1, lambda: path.write_text("{}\n{}\n", encoding="utf-8"))
    grow.start()
    assert wait_for_turn(str(path), 3, timeout=5.0) is True
    grow.join()


# -- the memory tools' session ----------------------------------------------------------------------
def test_a_memory_tool_call_belongs_to_the_session_that_issued_it(repo: Path) -> None:
    mem = memory(repo)
    assert mem.session_of(None) is None
    prompt(mem, payload(repo, "s-a", "UserPromptSubmit", repo.parent / "a.jsonl", prompt="hi"))
    prompt(mem, payload(repo, "s-b", "UserPromptSubmit", repo.parent / "b.jsonl", prompt="hi"))
    use = payload(repo, "s-a", "PreToolUse", repo.parent / "a.jsonl", tool_name="mcp__mimomem__memory_note")
    assert call(mem.tool_call, {**use, "tool_use_id": "toolu_7"}) == {}
    assert mem.session_of({"claudecode/toolUseId": "toolu_7"}) == "s-a"
    assert mem.session_of({"claudecode/toolUseId": "toolu_unknown"}) == "s-b"  # the last prompt's
    assert mem.session_of({}) == "s-b"
