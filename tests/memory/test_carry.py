"""What a session carries forward: the digest appended once per stretch of transcript, promotion registered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mimomem.errors import TranscriptReadError
from mimomem.memory.carry import append_digest, promote
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
