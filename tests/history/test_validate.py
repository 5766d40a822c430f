"""Every record is checked on its way into the history store: bad ones skipped or repaired, each counted."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mimomem.history.history_store import HistoryStore
from mimomem.history.records import MessageRecord, SessionRecord, TextPart, ToolPart
from mimomem.history.validate import MIN_TIME, Checks, human_time, too_deep, utf8_text

NOW = 1_796_000_000_000  # 2026-12-01, in ms
T = NOW - 3_600_000


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "history.db") as opened:
        yield opened


def test_times_a_session_cannot_have_are_none() -> None:
    assert human_time(T, NOW) == T
    for bad in (MIN_TIME - 1, NOW + 2 * 86_400_000, 10**15 * 1000, True, 1.7e12, "1796000000000", None):
        assert human_time(bad, NOW) is None, bad


def test_nesting_is_measured_without_recursion() -> None:
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    assert too_deep(deep) is True
    assert too_deep({"a": [{"b": [1, 2]}]}) is False
    assert too_deep([[[]]], limit=3) is False and too_deep([[[[]]]], limit=3) is True


def test_lone_surrogates_become_replacement_characters() -> None:
    text, repaired = utf8_text("emoji cut in half: \ud83d end")
    assert repaired and text == "emoji cut in half: \ufffd end" and text.encode("utf-8")
    same = "已经是 UTF-8"
    assert utf8_text(same) == (same, False)


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        (SessionRecord("", "claude-code", "/x.jsonl"), "SessionRecord whose id is not a string (skipped)"),
        (SessionRecord(7, "claude-code", "/x.jsonl"), "SessionRecord whose id is not a string (skipped)"),  # type: ignore[arg-type]
        (MessageRecord("m1", None, "user"), "MessageRecord whose session_id is not a string (skipped)"),  # type: ignore[arg-type]
        (MessageRecord("m1", "s1", ""), "MessageRecord whose role is not a string (skipped)"),
        (TextPart("u1", "m1", "s1", {"text": "x"}), "TextPart whose text is not a string (skipped)"),  # type: ignore[arg-type]
        (ToolPart("u1", "m1", "s1", "", None, "{}"), "ToolPart whose tool is not a string (skipped)"),
    ],
)
def test_a_record_without_its_identity_is_skipped_and_counted(record: Any, reason: str) -> None:
    checks = Checks()
    assert checks.record(record) is None
    assert dict(checks.take()) == {reason: 1}
    assert dict(checks.take()) == {}  # taken once


def test_an_empty_text_is_kept() -> None:
    part = TextPart("u1", "m1", "s1", "")
    assert Checks().record(part) is part


def test_wrong_optional_fields_and_impossible_times_are_dropped_and_the_record_kept() -> None:
    checks = Checks()
    rec = SessionRecord("s1", "claude-code", "/x.jsonl", cwd=["/a"], title="标题\ud800", started_at=10**18)  # type: ignore[arg-type]
    fixed = checks.record(rec)
    assert fixed is not None
    assert (fixed.cwd, fixed.title, fixed.started_at) == (None, "标题\ufffd", None)
    assert dict(checks.take()) == {
        "SessionRecord cwd of the wrong type (dropped)": 1,
        "text with a lone UTF-16 surrogate (repaired as U+FFFD)": 1,
        "time outside what a session can have (dropped)": 1,
    }


def test_a_good_record_is_returned_unchanged_and_counts_nothing() -> None:
    checks = Checks()
    tool = ToolPart(
        "u1", "m1", "s1", "Bash", "call-1", '{"command": "ls"}', output="a\nb", time=int(time.time() * 1000)
    )
    assert checks.record(tool) is tool
    assert not checks.take()


def test_the_store_keeps_what_it_can_and_counts_the_rest(store: HistoryStore) -> None:
    assert store.put_session(SessionRecord("s1", "claude-code", "/x.jsonl", cwd="/tmp/p", started_at=T))
    assert not store.put_session(SessionRecord("", "claude-code", "/x.jsonl"))
    assert store.put_message(MessageRecord("m1", "s1", "user", time=T), source="/x.jsonl")
    assert store.put_text(TextPart("u1", "m1", "s1", "半个表情 \udc00", time=-5))
    assert not store.put_text(TextPart("u2", "m1", "s1", None))  # type: ignore[arg-type]
    rows = store.conn.execute("SELECT uid, text, time FROM parts").fetchall()
    assert rows == [("u1", "半个表情 \ufffd", T)]  # a dropped time falls back to the message's
    skipped = store.checks.take()
    assert skipped["SessionRecord whose id is not a string (skipped)"] == 1
    assert skipped["TextPart whose text is not a string (skipped)"] == 1
    assert skipped["time outside what a session can have (dropped)"] == 1


def test_a_tool_result_for_an_unknown_call_is_not_stored(store: HistoryStore) -> None:
    store.put_session(SessionRecord("s1", "claude-code", "/x.jsonl"))
    store.put_message(MessageRecord("m1", "s1", "assistant"), source="/x.jsonl")
    store.put_tool(ToolPart("u1", "m1", "s1", "Bash", "c1", '{"command": "pnpm test"}', time=T))
    assert not store.finish_tool("s1", "c-unknown", ok=True, text="ok", end_time=T)
    assert store.finish_tool("s1", "c1", ok=False, text="boom \ud800", end_time=10**20)
    row = store.conn.execute("SELECT status, output, error, end_time FROM parts WHERE uid = 'u1'").fetchone()
    assert row == ("error", None, "boom \ufffd", None)
