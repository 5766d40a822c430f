"""The stand-in for the Messages API and the readers of its record, without the real host."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from host_sandbox import REQUIRE_ENV

from mimomem.bench.host import Script, StandIn, Turn, bash, step
from mimomem.bench.host.commands import agent_commands
from mimomem.bench.host.extract import injected, tool_results
from mimomem.bench.host.standin import Request, sse_events, typed_turn

ROOT = Path(__file__).resolve().parents[2]
TOOLS = [{"name": "Bash", "input_schema": {"type": "object"}}]


def post(url: str, body: dict[str, object]) -> tuple[int, str]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def user(text: str) -> dict[str, object]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def test_main_loop_follows_the_script_and_side_requests_get_a_short_text() -> None:
    script = Script([Turn("fix it", (step(bash("make check")),), "fixed"), Turn("thanks")])
    with StandIn(script) as model:
        _, first = post(f"{model.url}/v1/messages", {"tools": TOOLS, "messages": [user("fix it")]})
        call = json.loads(first)["content"][0]
        assert call["type"] == "tool_use" and call["input"]["command"] == "make check"
        result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "ok"}]}
        messages = [user("fix it"), {"role": "assistant", "content": [call]}, result]
        _, second = post(f"{model.url}/v1/messages", {"tools": TOOLS, "messages": messages})
        assert json.loads(second)["content"] == [{"type": "text", "text": "fixed"}]
        # the next prompt merged into the message that carries the results still starts turn 2
        merged = [*messages[:2], {"role": "user", "content": [*result["content"], {"type": "text", "text": "thanks"}]}]
        _, third = post(f"{model.url}/v1/messages", {"tools": TOOLS, "messages": merged})
        assert json.loads(third)["content"] == [{"type": "text", "text": "Done."}]
        _, side = post(f"{model.url}/v1/messages", {"messages": [user("title this")]})
        assert json.loads(side)["stop_reason"] == "end_turn"
        status, tokens = post(f"{model.url}/v1/messages/count_tokens", {"messages": []})
        assert status == 200 and json.loads(tokens)["input_tokens"] >= 1
    assert [r.main_loop for r in model.requests] == [True, True, True, False, False]


def test_streamed_answer_is_the_messages_api_event_sequence() -> None:
    message = {
        "content": [
            {"type": "text", "text": "hi"},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
        ],
        "stop_reason": "tool_use",
    }
    names = [name for name, _ in sse_events(message)]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert names.count("content_block_start") == 2 == names.count("content_block_stop")
    deltas = [d["delta"] for n, d in sse_events(message) if n == "content_block_delta"]
    assert deltas[0] == {"type": "text_delta", "text": "hi"}
    assert json.loads(deltas[1]["partial_json"]) == {"command": "ls"}
    with StandIn(Script([Turn("go")])) as model:
        request = urllib.request.Request(
            f"{model.url}/v1/messages",
            json.dumps({"stream": True, "tools": TOOLS, "messages": [user("go")]}).encode(),
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read().decode()
            assert response.headers["Content-Type"] == "text/event-stream"
    assert body.startswith("event: message_start\ndata: ") and body.endswith(
        'event: message_stop\ndata: {"type": "message_stop"}\n\n'
    )


def test_unknown_paths_are_recorded() -> None:
    with StandIn() as model:
        try:
            post(f"{model.url}/v1/oauth/whatever", {})
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
    assert model.unknown == ["POST /v1/oauth/whatever"]


def test_typed_turn_reads_prompts_in_order() -> None:
    assert typed_turn([user("a"), user("b")], ["a", "b", "c"]) == 1
    assert typed_turn([user("b")], ["a", "b"]) == -1
    assert typed_turn([{"role": "user", "content": "a"}], ["a"]) == 0


def test_injected_reads_both_markers_and_stops_at_the_hosts_own_sections() -> None:
    system = (
        "SessionStart hook additional context: # Memory system\nrule A\n\n## Project memory\n- fact B\n"
        "\n\n# Environment\nYou have been invoked\n\nUserPromptSubmit hook additional context: ## Entries\n- C\n"
        "\n\nToday's date is 2026-12-07."
    )
    request = Request("/v1/messages", {"messages": [user("q"), {"role": "system", "content": system}]})
    found = injected([request, request])
    assert [(i.event, i.text) for i in found] == [
        ("SessionStart", "# Memory system\nrule A\n\n## Project memory\n- fact B\n"),
        ("UserPromptSubmit", "## Entries\n- C\n"),
    ]
    # known hook output decides the end exactly, even where the host's sections are new
    known = injected([request], known=["# Memory system\nrule A\n"])
    assert known[0].text == "# Memory system\nrule A\n"
    # what a user types is never read as injected context
    assert injected([Request("/v1/messages", {"messages": [user(system)]})]) == []


def test_tool_results_pair_calls_with_exit_codes() -> None:
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "false"}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "Exit code 1\nboom", "is_error": True}
    ok = {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "echo hi"}}
    ok_result = {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "hi"}]}
    messages = [{"role": "assistant", "content": [call, ok]}, {"role": "user", "content": [result, ok_result]}]
    found = tool_results([Request("/v1/messages", {"messages": messages})] * 2)
    assert [(r.command, r.exit_code, r.printed) for r in found] == [("false", 1, "boom"), ("echo hi", 0, "hi")]


def test_agent_commands_are_read_from_the_instructions() -> None:
    text = (
        "- Project memory: /m/projects/p1/MEMORY.md (rules)\n"
        "- This session: /m/sessions/s1/ - checkpoint.md, notes.md, tasks/<TID>/progress.md\n"
        'Notes: append to notes.md one entry per item, or run `mimomem note "TEXT"`.\n'
        'Recall: run `mimomem search "<1-3 distinctive words>"`; never `rm -rf /`.\n'
    )
    found = [(c.kind, c.line) for c in agent_commands(text)]
    assert ("command", 'mimomem note "checked from the host: the invoice service listens on 8087"') in found
    assert ("command", 'mimomem search "staging port"') in found
    assert ("path", "head -c 200 /m/projects/p1/MEMORY.md") in found
    assert ("path", "ls -d /m/sessions/s1") in found
    assert any(kind == "append" and "/m/sessions/s1/notes.md" in line for kind, line in found)
    assert not any("rm" in line or "progress.md" in line for _, line in found)


def test_ci_requires_the_host_and_the_test_extra_pins_it() -> None:
    assert f"export {REQUIRE_ENV}=1" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11+")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pin = extras["host"][0]
    assert pin.startswith("claude-agent-sdk==")
    assert any(dep.split(";")[0].strip() == pin for dep in extras["test"])
