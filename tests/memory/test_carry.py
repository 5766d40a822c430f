"""What a session carries forward: the digest appended once per stretch of transcript, promotion registered."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from mimomem.errors import TranscriptReadError
from mimomem.memory.carry import append_digest, promote, run_background, unread_bytes
from mimomem.passes.promote_state import markers
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import parse_notes
from mimomem.tree.where import Where, locate


@pytest.fixture
def where(tmp_path: Path) -> Where:
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    return locate(repo, session_id="s-1", tree=MemoryTree(tmp_path / "memory"), env={})


def _say(path: Path, text: str) -> None:
    line = {"type": "user", "sessionId": "s-1", "message": {"role": "user", "content": text}, "uuid": text}
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")


def test_each_digest_covers_only_what_is_new(where: Where, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    _say(transcript, "以后都用 pnpm，不要再用 npm")
    assert append_digest(where, str(transcript), trigger="manual") is not None
    assert append_digest(where, str(transcript), trigger="manual") is None  # nothing new: no entry
    _say(transcript, "把端口改成 5433")
    append_digest(where, str(transcript), trigger="auto")
    entries = parse_notes(where.tree.notes("s-1").read_text(encoding="utf-8"))
    assert [e.turn for e in entries] == [1, 2]
    assert "pnpm" in entries[0].body and "5433" in entries[1].body and "pnpm" not in entries[1].body


def test_an_unreadable_transcript_is_a_transcript_error(where: Where, tmp_path: Path) -> None:
    with pytest.raises(TranscriptReadError, match="cannot read the transcript"):
        append_digest(where, str(tmp_path / "missing.jsonl"), trigger="manual")


def test_promotion_without_a_deadline_only_registers(where: Where, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    _say(transcript, "以后都用 pnpm")
    promote(where, str(transcript), deadline=None)
    assert [m.session_id for m in markers(where)] == ["s-1"]


def test_unread_bytes_is_the_larger_of_what_the_digest_and_the_promotion_have_not_read(
    where: Where, tmp_path: Path
) -> None:
    transcript = tmp_path / "t.jsonl"
    _say(transcript, "以后都用 pnpm")
    size = transcript.stat().st_size
    assert unread_bytes(where, str(transcript)) == size
    append_digest(where, str(transcript), trigger="manual")
    assert unread_bytes(where, str(transcript)) == size  # digested, not promoted yet
    promote(where, str(transcript), deadline=time.monotonic() + 60, only_this=True)
    assert unread_bytes(where, str(transcript)) == 0
    _say(transcript, "把端口改成 5433")
    assert unread_bytes(where, str(transcript)) == transcript.stat().st_size - size
    assert unread_bytes(where, str(tmp_path / "missing.jsonl")) == 0  # the digest itself says what is wrong


def test_the_background_process_digests_then_promotes_and_never_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    transcript = tmp_path / "t.jsonl"
    _say(transcript, "以后都用 pnpm，不要再用 npm")
    where = locate(repo, session_id="s-1", tree=MemoryTree(), env={})
    promote(where, str(transcript), deadline=None)  # registered, as every prompt does
    assert run_background(str(repo), "s-1", str(transcript), "exit") == 0
    assert run_background(str(repo), "s-1", str(transcript), "exit") == 0  # a second process: nothing new
    log = [line.split(" ", 1)[1] for line in capsys.readouterr().out.splitlines()]
    assert log == [
        "digest (exit) appended to the notes",
        "promoted 1 session(s), 1 item(s), 0 pending",
        "digest (exit) wrote no entry",
        "promoted 0 session(s), 0 item(s), 0 pending",
    ]
    assert [e.turn for e in parse_notes(where.tree.notes("s-1").read_text(encoding="utf-8"))] == [1]
    assert "pnpm" in where.tree.project_memory(where.project_id).read_text(encoding="utf-8")
    assert unread_bytes(where, str(transcript)) == 0
