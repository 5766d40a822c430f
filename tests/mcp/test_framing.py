"""The stdio framing in front of the SDK: good lines pass unchanged, bad requests are answered."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mimomem.mcp.framing import INVALID_REQUEST, FramedLines, _scan_id, classify

PING = '{"jsonrpc": "2.0", "id": 7, "method": "ping"}'


def test_the_id_of_a_document_too_deep_to_parse_is_found_without_recursion() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert 42 == _scan_id('{"jsonrpc": "2.0", "params": {"a": ' + deep + '}, "id": 42, "method": "x"}')
    assert "r-9" == _scan_id('{"x": "[{", "id": "r-9", "y": ' + deep + "}")  # brackets inside strings
    assert _scan_id('{"params": {"id": 3}, "x": ' + deep + "}") is None  # only the top-level id counts


def test_classify_keeps_the_sdk_s_choice_for_good_lines() -> None:
    assert classify(PING).forward
    verdict = classify('{"jsonrpc": "2.0", "id": "r-1", "method": "ping", "params": "x"}')
    assert verdict.reply is not None and "r-1" == verdict.reply["id"]
    assert INVALID_REQUEST == verdict.reply["error"]["code"]


def test_framed_lines_forward_good_lines_and_answer_bad_ones() -> None:
    sent: list[Any] = []

    async def source() -> AsyncIterator[str]:
        for line in (PING + "\n", '{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": 5}\n', "\n"):
            yield line

    async def send(message: Any) -> None:
        sent.append(json.loads(message.message.model_dump_json(by_alias=True, exclude_unset=True)))

    async def run() -> list[str]:
        lines = FramedLines(source())
        lines.send = send
        lines.ready.set()
        return [line async for line in lines]

    assert [PING + "\n"] == anyio.run(run)
    assert [8] == [m["id"] for m in sent] and "error" in sent[0]
