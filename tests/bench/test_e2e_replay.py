"""The host replay on two tiny sessions: event order, the growing transcript, and one whole run."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mimomem.bench.e2e.dataset import load_devset
from mimomem.bench.e2e.replay import Clock, HookRunner, Sandbox, replay_session, typed_prompt
from mimomem.bench.e2e.run import run_e2e

CWD = "/home/dev/tiny"


def _line(sid: str, n: int, kind: str, content: Any, **extra: Any) -> dict[str, Any]:
    line = {
        "parentUuid": None if n == 0 else f"{sid}-{n - 1}",
        "isSidechain": False,
        "userType": "external",
        "cwd": CWD,
        "sessionId": sid,
        "type": kind,
        "uuid": f"{sid}-{n}",
        "timestamp": f"2026-10-0{1 + n // 100}T10:{n % 60:02d}:00.000Z",
        "message": {"role": kind, "content": content},
    }
    line.update(extra)
    return line


def _session(sid: str, day: int) -> list[dict[str, Any]]:
    tool = {"type": "tool_use", "id": f"toolu_{sid}", "name": "Bash", "input": {"command": "make deploy"}}
    result = {"type": "tool_result", "tool_use_id": f"toolu_{sid}", "content": "permission denied", "is_error": True}
    lines = [
        _line(sid, 0, "user", f"Remember: the tiny service listens on port {7000 + day}."),
        _line(sid, 1, "assistant", [tool]),
        _line(sid, 2, "user", [result]),
        {"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}, "isSnapshotUpdate": False},
        _line(sid, 3, "system", None, subtype="compact_boundary"),
        _line(sid, 4, "user", "This session is being continued from a previous conversation.", isCompactSummary=True),
        _line(sid, 5, "user", "Thanks, that is all."),
    ]
    for line in lines:
        if "timestamp" in line:
            line["timestamp"] = line["timestamp"].replace("2026-10-01", f"2026-10-0{day}")
    return lines


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A dev set of two sessions of one project (the second never ends and is cut mid-line) and 2 questions."""
    root = tmp_path / "tiny-set"
    sessions = []
    for sid, day, ends in (("s-one", 1, True), ("s-two", 3, False)):
        path = root / "transcripts" / "tiny" / f"{sid}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = "".join(json.dumps(line) + "\n" for line in _session(sid, day))
        if not ends:
            data += '{"type": "user", "message": {"content": "half a li'
        path.write_text(data, encoding="utf-8")
        sessions.append(
            {
                "project": "tiny",
                "session_id": sid,
                "transcript": path.relative_to(root).as_posix(),
                "cwd": CWD,
                "start": f"2026-10-0{day}T10:00:00.000Z",
                "ends": ends,
                "end_reason": "prompt_input_exit" if ends else None,
            }
        )
    (root / "manifest.json").write_text(json.dumps({"sessions": sessions}), encoding="utf-8")
    questions = [
        {
            "id": "t1",
            "project": "tiny",
            "kind": "fact",
            "question": "Which port does it listen on?",
            "answers": ["7001"],
        },
        {
            "id": "t2",
            "project": "tiny",
            "kind": "distractor",
            "question": "What is the Redis TTL?",
            "absent": ["redis"],
        },
    ]
    (root / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    return root


class Spy(HookRunner):
    """Records each event with the number of complete lines the transcript had at that moment."""

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox)
        self.seen: list[tuple[str, int]] = []

    def call(self, payload: dict[str, Any], *, fresh_process: bool | None = None) -> Any:
        path = Path(payload["transcript_path"])
        lines = path.read_bytes().count(b"\n") if path.exists() else 0
        self.seen.append((str(payload.get("source") or payload["hook_event_name"]), lines))
        return super().call(payload, fresh_process=fresh_process)


def test_typed_prompts_are_only_what_the_user_typed() -> None:
    assert "hi" == typed_prompt({"type": "user", "message": {"content": "hi"}})
    assert "a\nb" == typed_prompt(
        {"type": "user", "message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}
    )
    assert typed_prompt({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "x"}]}}) is None
    assert typed_prompt({"type": "user", "isCompactSummary": True, "message": {"content": "summary"}}) is None
    assert typed_prompt({"type": "user", "isMeta": True, "message": {"content": "meta"}}) is None
    assert typed_prompt({"type": "user", "message": {"content": "<command-name>/clear</command-name>"}}) is None


def test_replay_calls_each_hook_where_the_host_does(tiny: Path, tmp_path: Path) -> None:
    devset = load_devset(tiny)
    sandbox = Sandbox(tmp_path / "box")
    spy = Spy(sandbox)
    before = dict(os.environ)
    for spec in devset.sessions:
        replay_session(spec, sandbox, spy, Clock())
    assert before == dict(os.environ)  # the sandbox environment never leaks
    first = [
        ("startup", 0),
        ("UserPromptSubmit", 0),  # before the prompt's own line is written
        ("PreCompact", 4),  # before the compact_boundary line
        ("compact", 6),  # after the compaction summary
        ("UserPromptSubmit", 6),
        ("SessionEnd", 7),
    ]
    assert first + first[:-1] == spy.seen  # the second session never ends
    grown = sandbox.transcript_path("tiny", "s-two").read_bytes()
    assert grown.endswith(b'"half a li')  # the truncated last line is written as it is
    assert str(sandbox.project_dir("tiny")).encode() in grown and CWD.encode() not in grown
    assert all(not c.stderr for c in spy.log), [c.stderr for c in spy.log]
    notes = list((sandbox.data / "data" / "memory" / "sessions" / "s-one").glob("notes.md"))
    assert notes and "7001" in notes[0].read_text(encoding="utf-8")  # SessionEnd's digest reached the tree


def test_whole_run_on_the_tiny_set(tiny: Path, tmp_path: Path) -> None:
    result = run_e2e(tiny, systems=("mimomem", "none", "every-note"), workdir=tmp_path, checks=1)
    assert {"mimomem", "none", "every-note"} == set(result["systems"])
    none = result["systems"]["none"]["all"]
    assert (0, 1) == (none["hits"], none["answerable"]) and 0 == none["distractors_with_context"]
    assert 1 == result["systems"]["every-note"]["all"]["hits"]  # s-one's digest holds the port
    run = result["runs"]["mimomem"]
    assert 1 == run["subprocess_checks"] and [] == run["subprocess_mismatches"]
    assert {"id", "kind", "split", "question", "mimomem"} <= set(result["questions"][0])
    assert result["identity"]["commit"]
    assert not list(tmp_path.glob("mimomem-e2e-*"))  # the sandbox is removed afterwards


def test_cli_bench_e2e_prints_the_result(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mimomem.cli import main

    assert 0 == main(["bench", "--e2e", str(tiny), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert {"mimomem", "mimomem+passes", "none", "mimo-style", "every-note"} == set(result["systems"])
    assert 2 == result["devset"]["questions"]


def test_a_pass_started_by_the_replay_writes_nothing_to_the_callers_stdout(capfd: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys

    from mimomem.bench.e2e.replay import silenced_fds

    with silenced_fds():  # what the replay wraps around a scheduled pass's own processes
        subprocess.run([sys.executable, "-c", "import sys; print('# mimomem dream'); print('x', file=sys.stderr)"])
    print("after")
    out, err = capfd.readouterr()
    assert ("after\n", "") == (out, err)  # `bench --e2e --json > file` stays one JSON document


def test_a_promotion_handed_to_the_background_runs_to_its_end_in_the_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load the inline SessionEnd misses its deadline and detaches the promotion; in the replay it
    runs in-process before the hook returns (no process outlives the sandbox, the next session sees it)."""
    from mimomem.bench.e2e.replay import scheduled_passes
    from mimomem.common import detach as detach_module
    from mimomem.passes import promote as promotion

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError("the replay started a background process")

    done: list[object] = []

    def promote_all(where: object) -> int:
        done.append(where)
        print("a log line")
        return 0

    monkeypatch.setattr(detach_module, "spawn_detached", no_process)
    monkeypatch.setattr(promotion, "promote_all", promote_all)
    with scheduled_passes(Clock(), dict(os.environ)):
        promotion.detach("where")  # type: ignore[arg-type]
    assert done == ["where"]
    assert promotion.detach.__module__ == "mimomem.passes.promote"  # put back after the block


def test_the_pass_window_ends_at_the_replay_clock() -> None:
    from mimomem.bench.e2e.replay import window_days

    day = 86400.0
    now = 1_800_000_000.0
    assert 8 == window_days(now, now=now)  # the default 7 days, plus the part-day rounding
    assert 7 + 57 + 1 == window_days(now - 57 * day - 3600, now=now)  # transcripts dated 57 days ago
    assert window_days(now + day, now=now) == 8  # a clock ahead of today widens nothing
