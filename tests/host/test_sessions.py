"""Real multi-turn sessions through Claude Code, both install routes, mimomem off the agent's PATH.

Session 1: the user states a rule and a fact, in English and in Chinese, and the session ends
(``SessionEnd``: the digest and promotion).  Session 2: the model's requests carry them in what
mimomem injected (``SessionStart``), a prompt's own context reaches the model
(``UserPromptSubmit``), and no injected block is over the host's 10,000-character cap.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from host_sandbox import pure_pass, sandbox

from mimomem.bench.host import Host, Script, StandIn, Turn, bash, step
from mimomem.bench.host.extract import PERSISTED
from mimomem.bench.host.session import run_session

CAP = 10_000

FIRST = Script(
    [
        Turn("Rule: always run `make check` before committing. The staging DB port is 6543."),
        Turn("规则：提交信息一律用中文写。发票服务的端口是 8087。"),
        Turn(
            "make check fails, please fix it",
            (step(bash("make check")), step(bash("mkdir -p invoicing && touch invoicing/__init__.py"))),
            "Created the missing invoicing package.",
        ),
    ]
)
SECOND = Script([Turn("What is the staging DB port?"), Turn("发票服务的端口是多少？")])
FILES = {"README.md": "# shop-api\n", "Makefile": "check:\n\tpython3 -c 'import invoicing'\n"}


def two_sessions(tmp_path: Path, host: Host, model: StandIn, route: str):  # type: ignore[no-untyped-def]
    box = sandbox(tmp_path, host, route, FILES)
    first = run_session(box, model, FIRST)
    assert box.settle() == []
    second = run_session(box, model, SECOND)
    return first, second


@pytest.mark.parametrize("route", ["settings", "plugin"])
def test_next_session_receives_rule_and_fact(tmp_path: Path, host: Host, model: StandIn, route: str) -> None:
    if pure_pass() and route != "settings":
        pytest.skip("pure pass: one real session pair (the settings route) is enough to see the pure twins in the host")
    first, second = two_sessions(tmp_path, host, model, route)
    assert first.transcript is not None and first.transcript.is_file()
    assert [h.get("exit_code") for h in first.hook_events if h.get("subtype") == "hook_response"] == [0] * 4
    # what the first session's model saw of the failing command: the host's real tool result
    failed = [r for r in first.tool_results() if r.command == "make check"]
    assert failed and failed[0].exit_code == 2 and "invoicing" in failed[0].printed

    start = second.injected_text("SessionStart")
    assert "make check" in start and "6543" in start  # the English rule and fact
    assert "中文" in start and "8087" in start  # the Chinese rule and fact
    prompts = second.injected("UserPromptSubmit")
    assert any("6543" in p.text for p in prompts)  # "What is the staging DB port?"
    assert any("8087" in p.text for p in prompts)  # "发票服务的端口是多少？"
    for item in first.injected() + second.injected():
        assert len(item.text) < CAP and PERSISTED not in item.text
    # every main-loop request of the second session carries the start context (it stays in messages)
    assert all("6543" in r for r in (str(q.body.get("messages")) for q in second.main_requests))


def test_nothing_injected_before_anything_was_said(tmp_path: Path, host: Host, model: StandIn) -> None:
    """The check can fail: a fresh install's first session carries no fact the user has not stated."""
    if pure_pass():
        pytest.skip("pure pass: covered by the native pass (no text processing differs)")
    box = sandbox(tmp_path, host, "settings", FILES)
    only = run_session(box, model, Script([Turn("hello")]))
    text = only.injected_text()
    assert "# Memory system" in text and "6543" not in text and "8087" not in text
