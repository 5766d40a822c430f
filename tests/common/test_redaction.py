"""Secrets planted in a transcript are found nowhere after a whole session cycle (the one redaction point).

Which values must be absent is what the scanner redacts where they were planted (a shape it
does not catch yet is the scanner's to learn, not a redaction leak); see ``session_cycle``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from session_cycle import (
    COMMAND,
    GITHUB,
    PASSWORD,
    ROUND_TWO,
    TOOL_OUTPUT,
    USER_TEXTS,
    make_roots,
    planted,
    run_session,
)

from mimomem.common.redaction import redact, was_redacted


@pytest.fixture
def roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    return make_roots(tmp_path, monkeypatch)


def test_planted_secrets_are_nowhere_after_a_session(
    roots: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secrets = planted()
    assert {"aws", "github", "password", "url", "pem line 1"} <= set(secrets)  # the shapes the scanner knows
    assert set(ROUND_TWO) <= set(secrets)  # and those of the second round (none caught before it)
    outputs = run_session(roots, monkeypatch, capsys)
    written = [p for key in ("home", "cache") for p in roots[key].rglob("*") if p.is_file() and not p.is_symlink()]
    assert any(p.name == "history.db" for p in written) and any(p.name == "MEMORY.md" for p in written)
    assert any("[redacted " in o for o in outputs)  # the cycle did see them
    hits = [
        (name, str(p.relative_to(roots["home"].parent)))
        for p in written
        for name, value in secrets.items()
        if value.encode() in p.read_bytes()
    ]
    hits += [(name, f"output {i}") for i, out in enumerate(outputs) for name, value in secrets.items() if value in out]
    assert hits == [], hits


def test_a_line_that_held_a_secret_is_never_promoted(
    roots: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mimomem.tree.memory_tree import MemoryTree

    run_session(roots, monkeypatch, capsys)
    tree = MemoryTree()
    memory = tree.project_memory(tree.project_id(roots["repo"]).id).read_text(encoding="utf-8")
    assert "以后都用 pnpm" in memory  # the rule without a secret is kept
    assert all(not was_redacted(line) for line in memory.splitlines())


@pytest.mark.parametrize(
    "data",
    [
        {"command": COMMAND},
        {"headers": {"Authorization": f"token {GITHUB}"}, "args": [f"--password={PASSWORD}"]},
        {"password": PASSWORD, "user": "admin"},
        COMMAND,
    ],
    ids=["command", "nested", "key-value", "string"],
)
def test_a_tool_input_is_redacted_where_it_is_read(data: Any) -> None:
    from collections import Counter

    from mimomem.history.transcript import message_of

    block = {"type": "tool_use", "id": "t", "name": "Bash", "input": data}
    message = message_of(
        {"type": "assistant", "message": {"content": [block]}}, default_sid="s", offset=0, skips=Counter()
    )
    assert message is not None
    raw = json.dumps(data)
    caught = [v for v in (GITHUB, PASSWORD) if v in raw and v not in redact(raw)]
    assert caught  # each input holds a secret the scanner finds in it
    shown = json.dumps(message.blocks[0].input, ensure_ascii=False)
    assert [v for v in caught if v in shown] == []


def test_redact_is_idempotent_and_leaves_clean_text_alone() -> None:
    for text in (*USER_TEXTS, COMMAND, TOOL_OUTPUT, "no secret here, 部署用 pnpm", ""):
        once = redact(text)
        assert redact(once) == once
    assert redact("no secret here") == "no secret here" and not was_redacted("no secret here")
    assert was_redacted(redact(TOOL_OUTPUT))


@pytest.mark.parametrize("value", ["Nq4wEr7tYu2i", "  Xk9mP2vLq8\n", "C0rrect-Horse-9z"])
def test_a_credential_sent_alone_is_redacted(value: str) -> None:
    """A secret split across turns (the label in one, the value alone in the next) was kept raw."""
    done = redact(value)
    assert value.strip() not in done and was_redacted(done)


@pytest.mark.parametrize(
    "text",
    [
        "v1.2.3",
        "5433",
        "3f9a2c1e8b",
        "getUserName",
        "HEAD~3",
        "main",
        "ERR_PNPM_NO_SCRIPT",
        "db-test-3.internal",
        "feature/login-v2",
        "MyComponent",
        "a1b2c3d4e5",
        "ok, use Nq4wEr7tYu2i style names",
    ],
)
def test_a_lone_token_that_is_no_credential_stays(text: str) -> None:
    assert redact(text) == text


def test_the_value_turn_after_a_label_turn_is_read_redacted() -> None:
    from collections import Counter

    from mimomem.history.transcript import message_of

    turns = ["The vault unseal passphrase is in my next message.", "Nq4wEr7tYu2i"]
    skips: Counter[str] = Counter()
    texts = [
        block.text
        for i, turn in enumerate(turns)
        for block in message_of(
            {"type": "user", "sessionId": "s", "uuid": f"u{i}", "message": {"role": "user", "content": turn}},
            default_sid="s",
            offset=i,
            skips=skips,
        ).blocks  # type: ignore[union-attr]
    ]
    assert texts[0] == turns[0] and "Nq4wEr7tYu2i" not in texts[1] and was_redacted(texts[1])


def test_each_read_has_a_window_of_its_own() -> None:
    """A label one read ended on never makes the first text of another read its value: the digest
    and then promotion read one transcript twice at SessionEnd, and a long-lived process (the MCP
    server, an SDK harness) reads many sessions' transcripts one after the other."""
    from mimomem.common.redaction import redaction_window

    answer = "it's Kq7vLm2xPz"
    with redaction_window():
        assert redact("What's the Jenkins admin password?") == "What's the Jenkins admin password?"
        assert "Kq7vLm2xPz" not in redact(answer)  # the next text of the same read: its value
    with redaction_window():
        redact("What's the Jenkins admin password?")
    with redaction_window():
        assert redact(answer) == answer  # another read's first text: no label before it


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("deploy/prod.env:3:WORKER_CONCURRENCY=24", True),  # a one-hit `grep -rn`: a name and its value
        ("config/app.env:12:PORT=8080", True),
        ("src/Main.java:7:logLevel=Debug2", True),
        ("FOO_SECRET=Nq4wEr7tYu2i", False),  # the value after the name is judged alone
        ("notes.txt:4:Nq4wEr7tYu2i", False),
    ],
)
def test_a_named_value_is_judged_by_its_value(text: str, kept: bool) -> None:
    """A tool result of one grep line used to be redacted whole (three character classes, no space)."""
    done = redact(text)
    assert (done == text) is kept, done
    if not kept:
        assert "Nq4wEr7tYu2i" not in done and done.split("[")[0] in text
