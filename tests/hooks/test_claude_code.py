"""A Claude Code session replayed from recorded hook payloads (tests/hooks/data/*.json)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mimomem.hooks import claude_code
from mimomem.hooks.entry import MAX_PAYLOAD_BYTES
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

DATA = Path(__file__).parent / "data"
SID = "4b1f7c2e-9a0d-4c3e-8f51-2d6a1b9e0c77"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with project memory in a private MIMOMEM_HOME."""
    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。\n\n"
        "## Discovered durable knowledge\n\n- 数据库端口是 5433（staging 和 prod 都一样）。\n",
        Writer("main", project_id=pid, worktree=repo),
    )
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text(
        (DATA / "transcript.jsonl").read_text(encoding="utf-8").replace("{cwd}", str(repo)), encoding="utf-8"
    )
    return repo


def payload(name: str, repo: Path) -> str:
    text = (DATA / name).read_text(encoding="utf-8")
    return text.replace("{cwd}", str(repo)).replace("{transcript}", str(repo.parent / "transcript.jsonl"))


_SAID: list[str] = [""]
"""What the last ``call`` printed on stderr: a hook fails open, so an empty stdout hides its reason there."""


def call(raw: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert claude_code.run(io.StringIO(raw), out, err) == 0
    _SAID[0] = err.getvalue()
    return out.getvalue(), err.getvalue()


def context_of(stdout: str, event: str) -> str:
    if not stdout:
        pytest.fail(f"the {event} hook printed nothing; its stderr said: {_SAID[0]!r}")
    data = json.loads(stdout)
    assert data["hookSpecificOutput"]["hookEventName"] == event
    return str(data["hookSpecificOutput"]["additionalContext"])


def test_session_start_injects_project_memory(project: Path) -> None:
    out, err = call(payload("session_start_startup.json", project))
    assert err == ""
    text = context_of(out, "SessionStart")
    assert "数据库端口是 5433" in text
    assert "# Memory system" in text
    assert "(none yet)" not in text


def test_chinese_prompt_brings_relevant_memory(project: Path) -> None:
    out, _ = call(payload("user_prompt_zh.json", project))
    assert "5433" in context_of(out, "UserPromptSubmit")


def test_unrelated_prompt_adds_nothing(project: Path) -> None:
    out, err = call(payload("user_prompt_unrelated.json", project))
    assert (out, err) == ("", "")


def test_pre_compact_digest_comes_back_after_compaction(project: Path) -> None:
    out, err = call(payload("pre_compact.json", project))
    assert (out, err) == ("", "")
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert "以后都用 pnpm" in notes
    assert "pnpm run deploy:staging" in notes
    assert "Missing script" in notes  # the error, then the fix
    assert "subagent prompt" not in notes
    text = context_of(call(payload("session_start_compact.json", project))[0], "SessionStart")
    assert "## Session notes" in text and "以后都用 pnpm" in text


def test_digest_is_incremental(project: Path) -> None:
    call(payload("pre_compact.json", project))
    call(payload("session_end.json", project))  # nothing new in the transcript since
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert notes.count("Transcript digest") == 1


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "{",
        "[1, 2]",
        '{"hook_event_name": "SessionStart"}',
        '{"hook_event_name": "SessionStart", "session_id": "../../etc", "cwd": "/"}',
        '{"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": "relative/dir", "prompt": "x"}',
        '{"hook_event_name": "PreCompact", "session_id": "s1", "cwd": "/", "transcript_path": "/nonexistent.jsonl"}',
        '{"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": "/", "prompt": 3}',
        "x" * (MAX_PAYLOAD_BYTES + 10),
    ],
)
def test_bad_input_fails_open(raw: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    out, err = call(raw)
    assert out == ""
    assert err.startswith("mimomem hook: ") and err.count("\n") == 1
    assert not (tmp_path / "home" / "data" / "memory" / "sessions").exists()


def test_symlinked_transcript_is_refused(project: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "transcript.jsonl")
    raw = payload("pre_compact.json", project).replace(str(tmp_path / "transcript.jsonl"), str(link))
    out, err = call(raw)
    assert out == "" and "cannot read the transcript" in err


def test_unknown_event_is_silent(project: Path) -> None:
    raw = json.dumps({"hook_event_name": "PostToolUse", "session_id": SID, "cwd": str(project)})
    assert call(raw) == ("", "")


def test_hook_command_end_to_end(project: Path) -> None:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "mimomem", "hook", "claude-code"],
        input=payload("session_start_startup.json", project),
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "5433" in context_of(proc.stdout, "SessionStart")


@pytest.mark.parametrize(
    ("prompt", "relevant"),
    [
        ('"部署" OR NEAR(数据库 端口) AND title:*', True),
        ("数据库端口" * 20_000, True),
        ("\x00\ud800 端口 5433", True),
        (")))((( ^^^ -- ;", False),
    ],
)
def test_hostile_prompts_get_the_relevant_memory_or_nothing(project: Path, prompt: str, relevant: bool) -> None:
    """Query syntax, a 100,000-character prompt, NUL and a lone surrogate are text: the memory
    about the database port still reaches the model, within the host's output limit; a prompt
    with no word in common with any memory gets no output at all. (The hook's CPU cost is
    measured in benchmarks/bench_hook.py against ``python -c pass``, not timed here.)"""
    raw = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": SID, "cwd": str(project), "prompt": prompt})
    out, err = call(raw)
    assert err == ""
    if not relevant:
        assert out == ""
        return
    assert len(out.encode("utf-16-le")) // 2 <= 10_000
    text = context_of(out, "UserPromptSubmit").replace("<<", "").replace(">>", "")  # snippet highlights
    assert "数据库端口是 5433（staging 和 prod 都一样）" in text


# -- each event as Claude Code sends it: output shape, stderr, what is written --------------------


def event(name: str, project: Path, **fields: object) -> str:
    """A payload with the fields Claude Code sends with every event (session, transcript, cwd)."""
    base = {
        "session_id": SID,
        "transcript_path": str(project.parent / "transcript.jsonl"),
        "cwd": str(project),
        "hook_event_name": name,
    }
    return json.dumps({**base, **fields}, ensure_ascii=False)


def call_all(raw: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """``call`` with what went to the real stderr too (promotion and digest warnings print there)."""
    out, err = call(raw)
    return out, err + capsys.readouterr().err


def hand_edit(project: Path, text: str) -> None:
    """Write the project's MEMORY.md as a user's editor would: whole, past the tree's size caps."""
    tree = MemoryTree()
    tree.project_memory(tree.project_id(project).id).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("source", ["startup", "resume", "clear", "compact"])
def test_session_start_output_is_exactly_the_documented_shape(
    project: Path, source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = call_all(event("SessionStart", project, source=source), capsys)
    assert err == ""
    assert out.endswith("\n") and out.count("\n") == 1  # one JSON object on one line
    data = json.loads(out)
    assert list(data) == ["hookSpecificOutput"]
    assert list(data["hookSpecificOutput"]) == ["hookEventName", "additionalContext"]
    assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "数据库端口是 5433" in data["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("source", ["resume", "compact"])
def test_resumed_session_gets_the_users_latest_requests_back(project: Path, source: str) -> None:
    text = context_of(call(event("SessionStart", project, source=source))[0], "SessionStart")
    assert "## Recent user input (verbatim)" in text
    assert "> 把部署脚本改成用 pnpm。以后都用 pnpm，不要再用 npm。" in text


def test_a_fresh_session_gets_no_recent_input(project: Path) -> None:
    text = context_of(call(event("SessionStart", project, source="startup"))[0], "SessionStart")
    assert "Recent user input" not in text


def test_resume_with_a_missing_transcript_still_injects_memory(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = event("SessionStart", project, source="resume", transcript_path=str(project.parent / "gone.jsonl"))
    out, err = call_all(raw, capsys)
    assert "数据库端口是 5433" in context_of(out, "SessionStart")
    assert "Recent user input" not in context_of(out, "SessionStart")
    assert err.count("\n") <= 1  # at most the one line saying promotion was skipped


def test_the_session_budget_variable_bounds_the_context(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = "\n".join(f"- 决定{i}：所有服务统一使用 PostgreSQL 16，端口 5433，连接池 20。" for i in range(300))
    hand_edit(project, f"# Project memory\n\n## Architecture decisions\n{lines}\n")
    start = event("SessionStart", project, source="startup", transcript_path="")  # nothing to promote
    whole = context_of(call(start)[0], "SessionStart")
    monkeypatch.setenv("MIMOMEM_SESSION_BUDGET", "600")
    small = context_of(call(start)[0], "SessionStart")
    assert len(small) < len(whole) // 2
    assert "truncated at" in small or "Left out for the token budget" in small
    monkeypatch.setenv("MIMOMEM_SESSION_BUDGET", "200")  # less than the instructions: memory named as left out
    assert "Left out for the token budget" in context_of(call(start)[0], "SessionStart")
    monkeypatch.setenv("MIMOMEM_SESSION_BUDGET", "lots")  # junk: the default budget, not a crash
    assert context_of(call(start)[0], "SessionStart") == whole


def test_a_huge_memory_stays_under_the_hosts_10000_unit_cap(project: Path) -> None:
    """Emoji are two UTF-16 units each: the cap is counted the way Claude Code counts it."""
    lines = "\n".join(f"- 部署脚本 deploy-{i}.sh 的说明 " + "😀" * 80 for i in range(400))
    hand_edit(project, f"# Project memory\n\n## Discovered durable knowledge\n{lines}\n")
    start = event("SessionStart", project, source="startup", transcript_path="")  # no promotion: the file stays
    for raw in (start, event("UserPromptSubmit", project, prompt="部署脚本的说明", transcript_path="")):
        text = context_of(call(raw)[0], json.loads(raw)["hook_event_name"])
        assert 0 < len(text.encode("utf-16-le")) // 2 <= 10_000


@pytest.mark.parametrize("name", ["Stop", "SubagentStop", "Notification", "PreToolUse"])
def test_events_mimomem_does_not_handle_print_and_write_nothing(
    project: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert call_all(event(name, project, stop_hook_active=False), capsys) == ("", "")
    assert not MemoryTree().notes(SID).exists()
    assert not (MemoryTree().data_dir / "state" / "claude-code").exists()


def test_session_end_digests_only_what_is_new_since_the_last_digest(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert call_all(event("PreCompact", project, trigger="auto", custom_instructions=""), capsys) == ("", "")
    transcript = project.parent / "transcript.jsonl"
    line = {
        "type": "user",
        "sessionId": SID,
        "cwd": str(project),
        "uuid": "u-late",
        "timestamp": "2026-11-30T10:00:00.000Z",
        "message": {"role": "user", "content": "最后把 README 里的端口也改成 5433。"},
    }
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    assert call_all(event("SessionEnd", project, reason="exit"), capsys) == ("", "")
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert notes.count("Transcript digest") == 2
    first, second = notes.split("Transcript digest (exit)")
    assert "Transcript digest (auto)" in first
    assert "README 里的端口也改成 5433" in second and "以后都用 pnpm" not in second


def test_a_corrupt_digest_state_starts_over_instead_of_failing(project: Path) -> None:
    state = MemoryTree().data_dir / "state" / "claude-code" / f"{SID}.json"
    state.parent.mkdir(parents=True)
    state.write_text('{"offset": "many", "turns": -3}', encoding="utf-8")
    assert call(event("PreCompact", project, trigger="manual")) == ("", "")
    assert "以后都用 pnpm" in MemoryTree().notes(SID).read_text(encoding="utf-8")
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert saved["offset"] == (project.parent / "transcript.jsonl").stat().st_size and saved["turns"] >= 1


def test_a_secret_in_the_transcript_is_redacted_in_the_digest(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "AKIA" + "QWERTYUIOPASDFGH"
    line = {
        "type": "user",
        "sessionId": SID,
        "cwd": str(project),
        "uuid": "u-secret",
        "timestamp": "2026-11-30T10:00:00.000Z",
        "message": {"role": "user", "content": f"用这个 key 部署：{key}，以后都用它。"},
    }
    with (project.parent / "transcript.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    call_all(event("PreCompact", project, trigger="auto"), capsys)
    notes = MemoryTree().notes(SID).read_text(encoding="utf-8")
    assert key not in notes
    assert "以后都用 pnpm" in notes  # the rest of the digest is kept


@pytest.mark.parametrize(
    "fields",
    [
        {"session_id": 7},
        {"session_id": ""},
        {"session_id": "../../../etc"},
        {"session_id": "a/b"},
        {"cwd": None},
        {"cwd": "/definitely/not/here"},
        {"prompt": ["a", "list"]},
        {"prompt": None},
    ],
    ids=lambda f: repr(f)[:40],
)
def test_hostile_fields_fail_open_with_one_stderr_line_and_no_write(
    project: Path, fields: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = call_all(event("UserPromptSubmit", project, **{"prompt": "端口", **fields}), capsys)
    assert out == ""
    assert err.startswith("mimomem hook: ") and err.count("\n") == 1
    assert not (MemoryTree().root / "sessions").exists()


def test_a_cwd_that_is_a_file_is_refused(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = event("SessionStart", project, source="startup", cwd=str(project.parent / "transcript.jsonl"))
    out, err = call_all(raw, capsys)
    assert out == "" and "is not an existing absolute directory" in err


def test_deeply_nested_json_fails_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    out, err = call('{"hook_event_name": "SessionStart", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert out == "" and err.startswith("mimomem hook: ") and err.count("\n") == 1


def test_pre_compact_without_a_transcript_says_so(project: Path) -> None:
    raw = json.dumps({"hook_event_name": "PreCompact", "session_id": SID, "cwd": str(project), "trigger": "auto"})
    out, err = call(raw)
    assert out == "" and "no 'transcript_path'" in err


def test_the_budget_comes_from_the_environment_the_hook_is_given(project: Path) -> None:
    """``run(..., env=...)``: the environment handed to the hook decides, not the calling process's."""
    hand_edit(
        project,
        "# Project memory\n\n## Architecture decisions\n" + "\n".join(f"- 决定{i}：端口 5433。" for i in range(400)),
    )
    start = event("SessionStart", project, source="startup", transcript_path="")
    out, err = io.StringIO(), io.StringIO()
    claude_code.run(io.StringIO(start), out, err, env={**os.environ, "MIMOMEM_SESSION_BUDGET": "600"})
    small = context_of(out.getvalue(), "SessionStart")
    whole = context_of(call(start)[0], "SessionStart")
    assert err.getvalue() == "" and len(small) < len(whole) // 2


def _shell(project: Path, name: str, redirect: str) -> subprocess.CompletedProcess[str]:
    """The hook as Claude Code runs it (``sh -c``), its payload on stdin, with ``redirect`` in the command."""
    command = f"{sys.executable} -m mimomem hook claude-code {redirect}"
    return subprocess.run(["sh", "-c", command], input=payload(name, project), capture_output=True, text=True)


@pytest.mark.parametrize("redirect", ["2>&-", ">&-", "| true", ">&- 2>&-"])
def test_closed_or_broken_streams_never_fail_the_hook(project: Path, redirect: str) -> None:
    """A host that closed stdout or stderr, or stopped reading: exit 0, no traceback, no error line on stdout."""
    for name in ("session_start_startup.json", "user_prompt_zh.json"):
        done = _shell(project, name, redirect + "; echo exit=$?" if "|" not in redirect else redirect)
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
        if "|" not in redirect:
            assert done.stdout.rstrip().endswith("exit=0")
        if redirect == "2>&-":  # stdout still whole JSON
            assert "5433" in context_of(
                done.stdout.rsplit("exit=", 1)[0], json.loads(payload(name, project))["hook_event_name"]
            )
    bad = subprocess.run(
        ["sh", "-c", f"{sys.executable} -m mimomem hook claude-code 2>&-; echo exit=$?"],
        input="{not json",
        capture_output=True,
        text=True,
    )
    assert bad.stdout == "exit=0\n"  # the error line goes nowhere rather than into the model's context


def test_a_broken_pipe_exits_zero(project: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m mimomem hook claude-code | true; echo status=${{PIPESTATUS[0]}}"],
        input=payload("session_start_startup.json", project),
        capture_output=True,
        text=True,
    )
    assert done.stdout == "status=0\n" and "Traceback" not in done.stderr


def test_the_payload_cap_counts_bytes() -> None:
    """8 MiB of UTF-8 is the cap, however few characters it is (a Chinese character is three bytes)."""
    raw = '{"prompt": "' + "部" * (MAX_PAYLOAD_BYTES // 3 + 10) + '"}'
    assert len(raw) < MAX_PAYLOAD_BYTES < len(raw.encode("utf-8"))
    stdin = io.TextIOWrapper(io.BytesIO(raw.encode("utf-8")), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert claude_code.run(stdin, out, err) == 0
    assert out.getvalue() == "" and "larger than" in err.getvalue()
