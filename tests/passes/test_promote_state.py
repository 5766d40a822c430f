"""Bounded state: the files of promoted sessions beyond the newest few are removed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from mimomem.common import detach
from mimomem.hooks import claude_code
from mimomem.passes import promote, promote_state


def session(repo: Path, transcripts: Path, n: int) -> None:
    sid = f"00000000-0000-0000-0000-{n:012d}"
    path = transcripts / f"{sid}.jsonl"
    text = f"以后提交前都先跑 make lint-{n}。"
    message = {"type": "user", "sessionId": sid, "cwd": str(repo), "uuid": f"u{n}", "timestamp": "2026-11-30T09:00:00Z"}
    path.write_text(json.dumps({**message, "message": {"role": "user", "content": text}}) + "\n", encoding="utf-8")
    for event in ({"hook_event_name": "SessionStart", "source": "startup"}, {"hook_event_name": "SessionEnd"}):
        raw = json.dumps({"session_id": sid, "transcript_path": str(path), "cwd": str(repo), **event})
        claude_code.run(io.StringIO(raw), io.StringIO(), io.StringIO())


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "shop-api"
    (path / ".git").mkdir(parents=True)
    (tmp_path / "transcripts").mkdir()
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    spawned: list[list[str]] = []
    monkeypatch.setattr(detach, "spawn_detached", lambda argv, log: spawned.append(argv))
    monkeypatch.setattr(promote, "detach", lambda where: promote.promote_pending(where, deadline=float("inf")))
    return path


def state_files(tmp_path: Path) -> list[str]:
    state = tmp_path / "home" / "data" / "state"
    return sorted(str(p.relative_to(state)) for p in state.rglob("*") if p.is_file() and "generation" not in p.name)


def test_state_stays_bounded_over_many_sessions(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: four files per session forever (marker, digest state, lock, registration)."""
    monkeypatch.setattr(promote_state, "KEPT_SESSIONS", 3)
    counts = []
    for n in range(1, 13):
        session(repo, tmp_path / "transcripts", n)
        counts.append(len([f for f in state_files(tmp_path) if not f.endswith(".log")]))
    assert counts[-1] == counts[-4] <= 4 * (3 + 2) + 1  # flat: a few sessions' files, the project's own
    assert "make lint-1" in next((tmp_path / "home").rglob("MEMORY.md")).read_text(encoding="utf-8")


def test_a_retired_session_that_resumes_is_promoted_again_without_duplicates(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(promote_state, "KEPT_SESSIONS", 1)
    for n in (1, 2, 3):
        session(repo, tmp_path / "transcripts", n)
    assert not any("000000000001" in f for f in state_files(tmp_path) if f.startswith("promote/"))
    session(repo, tmp_path / "transcripts", 1)  # resumed
    memory = next((tmp_path / "home").rglob("MEMORY.md")).read_text(encoding="utf-8")
    assert memory.count("make lint-1。") <= 1 and memory.count("make lint-1") == 1


def test_a_marker_file_never_holds_a_secret_of_its_brief() -> None:
    """The promotion state is a write path like any other: the attack's d09 found a brief's goal in
    state/promote/<pid>/<sid>.json holding the SK its notes had redacted; a brief read from a file an
    older scanner wrote is redacted again when the marker is next written."""
    goal = "阿里云 OSS 的 AK 是 LTAI5tQ8vZr2Wm4Kp7Nx9Ys3，SK 是 hT6qP2mV9xL4wR8nZ3kB7yC1fJ5sD0g，上传脚本里要用。"
    open_line = "deploy with password: Zt5nW8qLr2Vx then restart"
    marker = promote_state.Marker("s1", "/t.jsonl", 10, "h", 1, {"goal": [goal], "open": [open_line]})
    text = marker.as_json()
    for value in ("LTAI5tQ8vZr2Wm4Kp7Nx9Ys3", "hT6qP2mV9xL4wR8nZ3kB7yC1fJ5sD0g", "Zt5nW8qLr2Vx"):
        assert value not in text
    assert "上传脚本里要用" in json.loads(text)["brief"]["goal"][0]
    assert marker.brief["goal"] == [goal]  # the marker itself is not changed, only what is written
    sessions = promote_state.render_briefs([marker])  # memory-sessions.md, made from the markers in memory
    assert "上传脚本里要用" in sessions
    assert not any(
        v in sessions for v in ("LTAI5tQ8vZr2Wm4Kp7Nx9Ys3", "hT6qP2mV9xL4wR8nZ3kB7yC1fJ5sD0g", "Zt5nW8qLr2Vx")
    )
