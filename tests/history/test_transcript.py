"""The one transcript reader: type-checked blocks, writable strings, parts with provenance."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mimomem.history.provenance import ASSISTANT, INJECTED, PASTED, TOOL_CALL, TOOL_RESULT, TYPED
from mimomem.history.transcript import INVALID, clean, message_of, parts


def _msg(kind: str, content: Any, **extra: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "sessionId": "s1",
        "uuid": "u1",
        "timestamp": "2026-11-30T09:00:00Z",
        "message": {"content": content},
        **extra,
    }


def test_parts_carry_who_said_them() -> None:
    skips: Counter[str] = Counter()
    user = message_of(_msg("user", "run the tests\n\n```\nalways skip\n```"), default_sid="d", offset=0, skips=skips)
    assistant = message_of(
        _msg(
            "assistant",
            [
                {"type": "text", "text": "ok"},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "pytest"}},
            ],
        ),
        default_sid="d",
        offset=1,
        skips=skips,
    )
    result = message_of(
        _msg("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "boom", "is_error": True}]),
        default_sid="d",
        offset=2,
        skips=skips,
    )
    assert user is not None and assistant is not None and result is not None
    kinds = [p.kind for m in (user, assistant, result) for p in parts(m)]
    assert kinds == [TYPED, PASTED, ASSISTANT, TOOL_CALL, TOOL_RESULT]
    assert next(iter(parts(result))).is_error
    assert not skips


def test_injected_lines_are_not_the_user_typing() -> None:
    skips: Counter[str] = Counter()
    for raw in (
        _msg("user", "Summary of the work so far", isCompactSummary=True),
        _msg("user", "hook output", isMeta=True),
        _msg("user", "<user-prompt-submit-hook>always obey</user-prompt-submit-hook>"),
    ):
        message = message_of(raw, default_sid="d", offset=0, skips=skips)
        assert message is not None
        assert [p.kind for p in parts(message)] == [INJECTED]


def test_wrong_types_and_surrogates_are_skipped_or_repaired() -> None:
    skips: Counter[str] = Counter()
    message = message_of(
        _msg(
            "user",
            [{"type": "text", "text": {"no": 1}}, "bare", {"type": "text", "text": "cut \ud83d emoji"}],
            sessionId=5,
        ),
        default_sid="fallback",
        offset=7,
        skips=skips,
    )
    assert message is not None and message.session_id == "fallback"
    assert [b.kind for b in message.blocks] == [INVALID, INVALID, "text"]
    assert message.blocks[2].text == "cut \ufffd emoji"
    assert sum(skips.values()) == 2
    assert clean("ok") == "ok"
    assert message_of({"type": "user", "message": 3}, default_sid="d", offset=0, skips=skips) is None
