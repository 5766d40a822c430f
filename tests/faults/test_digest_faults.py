"""Issue 19, fault 5 (the digest part): one bad transcript line must not wedge every later digest.

A likely secret, a lone UTF-16 surrogate (a cut emoji) or JSON nested past the recursion
limit made the digest fail, and because the read offset never advanced, every later digest
of the session failed too.  Now the line is redacted, repaired or skipped (counted), the
offset moves past it and later lines are digested.  Each case fails on the old code.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from mimomem.hooks import claude_code
from mimomem.tree.memory_tree import MemoryTree

SID = "5e55f00d-0000-4000-8000-000000000005"
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def _user(text: str, n: int) -> str:
    line = {"type": "user", "sessionId": SID, "uuid": f"u{n}", "timestamp": f"2026-11-30T09:0{n}:00Z"}
    line["message"] = {"role": "user", "content": text}  # type: ignore[assignment]
    return json.dumps(line, ensure_ascii=False) + "\n"


BAD_LINES = {
    "secret": _user(f"use the token {SECRET} for the registry", 1),
    "surrogate": _user("cut emoji X here", 1).replace("X", "\\ud83d"),
    "deep": '{"type": "user", "message": {"content": ' + "[" * 200_000 + "]" * 200_000 + "}}\n",
}


def _hook(event: str, repo: Path, transcript: Path) -> str:
    payload = {
        "hook_event_name": event,
        "session_id": SID,
        "cwd": str(repo),
        "transcript_path": str(transcript),
        "trigger": "auto",
    }
    err = io.StringIO()
    assert claude_code.run(io.StringIO(json.dumps(payload)), io.StringIO(), err) == 0
    return err.getvalue()


@pytest.mark.parametrize("bad", sorted(BAD_LINES))
def test_a_bad_line_is_skipped_and_later_digests_go_on(
    bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(_user("first request: add the invoice export", 0) + BAD_LINES[bad], encoding="utf-8")
    _hook("PreCompact", repo, transcript)
    with transcript.open("a", encoding="utf-8") as out:
        out.write(_user("以后都用 pnpm，不要再用 npm。", 2))
    err = _hook("SessionEnd", repo, transcript)
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert "以后都用 pnpm" in notes, err  # the later digest was written
    assert "invoice export" in notes
    assert SECRET not in notes
    state = json.loads((MemoryTree().data_dir / "state" / "claude-code" / f"{SID}.json").read_text(encoding="utf-8"))
    assert state["offset"] == transcript.stat().st_size
    if bad == "deep":
        assert state["skipped"] >= 1
