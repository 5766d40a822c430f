"""Claude Code transcripts -> the history store: incremental, read-only, and never stopped by bad lines."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from trajectory_fixtures import (
    DEPLOY_ERROR,
    SID_A,
    SID_B,
    SID_C,
    Transcript,
    day,
    make_project,
    session_a,
    write_claude_code,
)

from mimomem.history import jsonl
from mimomem.history.claude_code import import_claude_code, import_transcript, projects_dir
from mimomem.history.history_store import HistoryStore


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "data" / "history.db") as opened:
        yield opened


def _digest(paths: list[Path]) -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]


def test_three_sessions_are_imported_with_tool_results_paired(
    tmp_path: Path, project: Path, store: HistoryStore
) -> None:
    files = write_claude_code(tmp_path / "projects", str(project))
    before = _digest(files)
    report = import_claude_code(store, tmp_path / "projects")
    assert (3, 3, 16, 0) == (report.sources, report.sessions, report.results, report.pending_bytes)
    assert {} == dict(report.skipped)
    assert before == _digest(files)  # only read
    rows = store.conn.execute("SELECT id, origin, project, cwd FROM sessions ORDER BY started_at").fetchall()
    assert [(SID_A, "claude-code", str(project), str(project))] == rows[:1]
    assert [SID_A, SID_B, SID_C] == [r[0] for r in rows]
    status = store.conn.execute(
        "SELECT tool, status, error FROM parts WHERE session_id = ? AND kind = 'tool' ORDER BY time", (SID_A,)
    ).fetchall()
    assert ("Bash", "error", DEPLOY_ERROR) == status[1]
    assert all(s == "completed" for _, s, _ in status[2:])


def test_a_second_import_reads_only_what_was_appended(tmp_path: Path, project: Path, store: HistoryStore) -> None:
    path = session_a(str(project)).write(tmp_path / "projects")
    first = import_transcript(store, path)
    assert first.parts > 0
    again = import_transcript(store, path)
    assert (0, 0, 0) == (again.parts, again.messages, again.sessions)
    more = Transcript(SID_A, str(project), day(28, 12)).user("再跑一次测试。").bash("pnpm test", "12 passed")
    with path.open("a", encoding="utf-8") as handle:
        handle.write(more.text())
    after = import_transcript(store, path)
    assert (2, 1) == (after.parts, after.results)
    assert 0 == after.sessions  # the session was already known


def test_a_truncated_last_line_waits_for_the_next_import(tmp_path: Path, project: Path, store: HistoryStore) -> None:
    whole = Transcript("dddddddd-4444-4444-8444-444444444444", str(project), day(30)).user("first").user("second")
    text = whole.text()
    cut = text.index("second") + 3
    path = tmp_path / "projects" / "x" / "d.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(text[:cut], encoding="utf-8")
    report = import_transcript(store, path)
    assert 1 == report.parts
    assert len(text[:cut].encode()) - len(text.split("\n", 1)[0].encode()) - 1 == report.pending_bytes
    path.write_text(text, encoding="utf-8")
    report = import_transcript(store, path)
    assert (1, 0) == (report.parts, report.pending_bytes)
    texts = [r[0] for r in store.conn.execute("SELECT text FROM parts ORDER BY time")]
    assert ["first", "second"] == texts


def test_a_replaced_transcript_is_read_again_from_the_start(tmp_path: Path, project: Path, store: HistoryStore) -> None:
    path = session_a(str(project)).write(tmp_path / "projects")
    import_transcript(store, path)
    replacement = Transcript(SID_A, str(project), day(28)).user("完全不同的内容")
    path.write_text(replacement.text(), encoding="utf-8")
    report = import_transcript(store, path)
    assert any("replaced" in p for p in report.problems)
    texts = [r[0] for r in store.conn.execute("SELECT text FROM parts WHERE session_id = ?", (SID_A,))]
    assert ["完全不同的内容"] == texts


def test_bad_lines_are_skipped_and_counted(tmp_path: Path, project: Path, store: HistoryStore) -> None:
    good = Transcript("eeeeeeee-5555-4555-8555-555555555555", str(project), day(30)).user("好的行")
    line = dict(good.lines[0], uuid="later", message={"role": "user", "content": "still read"})
    newer = [
        {"type": "hologram", "payload": {"x": 1}},  # a line type from a newer version
        {"type": "user", "message": {"content": {"unexpected": "shape"}}},
        {"type": "assistant", "message": {"content": [{"type": "telepathy", "data": 1}]}},
        {"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "nope", "content": "x"}]}},
        ["not", "an", "object"],
    ]
    raw = good.text().encode() + b"\xff\xfe not utf-8 \xc3\x28\n" + b"{broken json\n"
    raw += b"".join(json.dumps(x).encode() + b"\n" for x in newer) + json.dumps(line).encode() + b"\n"
    path = tmp_path / "projects" / "x" / "e.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(raw)
    report = import_transcript(store, path)
    assert {
        "line not UTF-8": 1,
        "line not JSON": 1,
        "line not a JSON object": 1,
        "unknown line type 'hologram'": 1,
        "user line without message content": 1,
        "unknown content block 'telepathy'": 1,
        "tool result without its call": 1,
    } == dict(report.skipped)
    assert ["好的行", "still read"] == [r[0] for r in store.conn.execute("SELECT text FROM parts ORDER BY id")]


def test_huge_transcripts_stream_across_chunks_and_drop_overlong_lines(
    tmp_path: Path, project: Path, store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonl, "CHUNK", 512)
    monkeypatch.setattr(jsonl, "MAX_LINE", 2048)
    t = Transcript("ffffffff-6666-4666-8666-666666666666", str(project), day(30))
    for i in range(400):
        t.user(f"message {i} " + "词" * (i % 50))
    t.user("x" * 5000)  # one line longer than MAX_LINE
    t.user("after the long line")
    path = t.write(tmp_path / "projects")
    report = import_transcript(store, path)
    assert 401 == report.parts
    assert {"line too long": 1} == dict(report.skipped)
    assert 0 == report.pending_bytes


def test_sidechain_meta_and_injected_text_are_marked(tmp_path: Path, project: Path, store: HistoryStore) -> None:
    t = Transcript("abababab-7777-4777-8777-777777777777", str(project), day(30)).user("真正的请求")
    t.user("<command-name>/clear</command-name>").user("This session is being continued from a previous conversation")
    t.user("subagent prompt")
    t.lines[-1]["isSidechain"] = True
    t.user("meta text")
    t.lines[-1]["isMeta"] = True
    import_transcript(store, t.write(tmp_path / "projects"))
    rows = store.conn.execute(
        "SELECT p.text, p.synthetic, m.agent FROM parts p JOIN messages m ON m.id = p.message_id ORDER BY p.id"
    ).fetchall()
    assert [
        ("真正的请求", 0, "main"),
        ("<command-name>/clear</command-name>", 1, "main"),
        ("This session is being continued from a previous conversation", 1, "main"),
        ("subagent prompt", 0, "sidechain"),
        ("meta text", 1, "main"),
    ] == rows


def test_missing_folder_and_symlinks_are_reported_not_fatal(tmp_path: Path, project: Path, store: HistoryStore) -> None:
    report = import_claude_code(store, tmp_path / "nowhere")
    assert report.problems and "no Claude Code transcripts" in report.problems[0]
    real = session_a(str(project)).write(tmp_path / "elsewhere")
    (tmp_path / "projects" / "p").mkdir(parents=True)
    os.symlink(real, tmp_path / "projects" / "p" / "link.jsonl")
    assert 0 == import_claude_code(store, tmp_path / "projects").sources


def test_projects_dir_honours_claude_config_dir(tmp_path: Path) -> None:
    assert tmp_path / "cc" / "projects" == projects_dir({"CLAUDE_CONFIG_DIR": str(tmp_path / "cc")})
    assert tmp_path / ".claude" / "projects" == projects_dir({"HOME": str(tmp_path)})


def test_the_import_command_is_incremental_and_reports_what_it_skipped(
    tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mimomem history import --claude-code DIR --db FILE``: what a user runs, twice, with a line appended."""
    from mimomem.cli import main

    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "mm"))
    write_claude_code(tmp_path / "projects", str(project))
    db = str(tmp_path / "h.db")
    argv = ["history", "import", "--claude-code", str(tmp_path / "projects"), "--db", db]
    assert 0 == main(argv)
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("claude-code: 3 sources, 3 new sessions") and f"in {db}" in out
    path = session_a(str(project)).write(tmp_path / "projects")  # the same session, rewritten as it was
    with path.open("a", encoding="utf-8") as handle:
        handle.write("{broken\n" + Transcript(SID_A, str(project), day(28, 12)).user("再跑一次").text())
    assert 0 == main([*argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    report = data["sources"]["claude-code"]
    assert (report["sessions"], report["parts"], report["skipped"]) == (0, 1, {"line not JSON": 1})
    assert data["store"]["sessions"] == 3 and data["db"] == db


def test_the_import_command_says_when_there_is_nothing_to_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mimomem.cli import main

    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "mm"))
    status = main(["history", "import", "--claude-code", str(tmp_path / "none"), "--db", str(tmp_path / "h.db")])
    out, err = capsys.readouterr()
    assert status == 1
    assert err.startswith("mimomem history import: no Claude Code transcripts at ") and err.count("\n") == 1
    assert "claude-code: 0 sources" in out
