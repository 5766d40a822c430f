"""Evidence queries: statements, repeated commands, failures and fixes, files, traces, with provenance."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from trajectory_fixtures import (
    DEPLOY_ERROR,
    SID_A,
    SID_B,
    SID_C,
    SID_D,
    Transcript,
    day,
    make_project,
    ms,
    write_claude_code,
    write_mimocode,
)

from mimomem.history.agent_db import import_agent_db
from mimomem.history.claude_code import import_claude_code
from mimomem.history.evidence import (
    Evidence,
    Window,
    failures_and_fixes,
    files_touched,
    repeated_commands,
    tool_trace,
    user_statements,
)
from mimomem.history.evidence_items import Provenance, promotable
from mimomem.history.history_store import HistoryStore
from mimomem.history.signals import command_family, files_of, is_trivial, normalize_command, statements_in


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def store(tmp_path: Path, project: Path) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "data" / "history.db") as opened:
        write_claude_code(tmp_path / "projects", str(project))
        import_claude_code(opened, tmp_path / "projects")
        import_agent_db(opened, write_mimocode(tmp_path / "mimocode.db", str(project)))
        yield opened


def test_statements_in_chinese_and_english_with_provenance(store: HistoryStore, project: Path) -> None:
    said = user_statements(store, Window(project=str(project)))
    assert [
        ("rule", "以后都用 pnpm", SID_A, "2026-11-28"),
        ("rule", "Always run ruff check before committing", SID_B, "2026-11-29"),
        ("decision", "We decided to use SQLite for the cache", SID_B, "2026-11-29"),
        ("rule", "记住：测试数据库端口是 5433", SID_C, "2026-11-30"),
        ("rule", "From now on, never push directly to main", SID_D, "2026-11-30"),
    ] == [(s.kind, s.text, s.provenance.session_id, s.provenance.day) for s in said]
    assert "2026-11-28, [session aaaaaaaa]" == said[0].provenance.render()
    assert all(promotable(s) for s in said)  # subagent and injected text never appear


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("以后都用 pnpm，不要再用 npm。", [("以后都用 pnpm，不要再用 npm", "rule")]),
        ("不要再手动改 lock 文件", [("不要再手动改 lock 文件", "rule")]),
        ("总是先跑测试再提交", [("总是先跑测试再提交", "rule")]),
        ("永远不要在 main 上直接 push！", [("永远不要在 main 上直接 push", "rule")]),
        ("我们决定用 SQLite 做缓存。", [("我们决定用 SQLite 做缓存", "decision")]),
        (
            "Never commit .env files. Let's use uv for installs.",
            [("Never commit .env files", "rule"), ("Let's use uv for installs", "decision")],
        ),
        ("Remember: the staging DB listens on 5433", [("Remember: the staging DB listens on 5433", "rule")]),
        ("Should we always run the slow tests?", []),
        ("以后都这样吗？", []),
        ("以后再说吧", []),
        ("we decided to keep it.", []),
        ("Please fix the login bug.", []),
    ],
)
def test_statement_detection(text: str, expected: list[tuple[str, str]]) -> None:
    assert expected == [(s.text, s.kind) for s in statements_in(text)]


def test_repeated_commands_are_normalised_and_counted(store: HistoryStore, project: Path) -> None:
    repeated = {r.command: r for r in repeated_commands(store, Window(project=str(project)))}
    assert {"pnpm test", "pnpm run deploy:staging", "ruff check ."} == set(repeated)
    test = repeated["pnpm test"]
    assert (4, 0, (SID_A, SID_B, SID_C, SID_D)) == (test.count, test.failures, test.sessions)
    assert ("pnpm test", "pnpm test 2>&1 | tail -5") == test.examples
    deploy = repeated["pnpm run deploy:staging"]
    assert (4, 2, (SID_A, SID_B)) == (deploy.count, deploy.failures, deploy.sessions)
    assert Provenance(SID_A, deploy.first.time) == deploy.first
    assert all(promotable(r) for r in repeated.values())


@pytest.mark.parametrize(
    ("command", "normalized", "family"),
    [
        ("cd /repo && pnpm   test 2>&1 | tail -20", "pnpm test", "pnpm test"),
        ('git commit -m "fix: a thing"', "git commit -m <message>", "git commit"),
        ("git show 3f2a9bc1d4", "git show <hash>", "git show"),
        ("pytest /tmp/pytest-of-me/t0 -q", "pytest <tmp> -q", "pytest"),
        ("FOO=1 sudo python -m pytest -x", "FOO=1 sudo python -m pytest -x", "python -m pytest"),
        ("docker logs 0b3c9e2f-1a2b-4c3d-8e9f-0a1b2c3d4e5f | head", "docker logs <id>", "docker logs"),
    ],
)
def test_command_normalisation(command: str, normalized: str, family: str) -> None:
    assert normalized == normalize_command(command)
    assert family == command_family(normalized)


def test_trivial_commands() -> None:
    assert is_trivial("ls -la") and is_trivial("git status") and is_trivial("cat x")
    assert not is_trivial("pnpm test") and not is_trivial("git push")


def test_failures_and_the_fix_that_followed(store: HistoryStore, project: Path) -> None:
    failures = failures_and_fixes(store, Window(project=str(project)))
    assert [
        ("pnpm run deploy:staging", DEPLOY_ERROR, "after editing package.json, the same call succeeded", SID_A),
        (
            f"cd {project} && pnpm run deploy:staging",
            DEPLOY_ERROR,
            "after editing package.json, the same call succeeded",
            SID_B,
        ),
        ("git push", "rejected", None, SID_D),
    ] == [(f.call, f.error, f.fix, f.provenance.session_id) for f in failures]
    assert ("package.json",) == failures[0].edits
    assert failures[0].fixed_at is not None and failures[0].fixed_at.time > failures[0].provenance.time  # type: ignore[operator]
    repeated = Evidence.gather(store, Window(project=str(project))).repeated_failures()
    assert [(2, (SID_A, SID_B))] == [(r.count, r.sessions) for r in repeated]


def test_files_touched_most(store: HistoryStore, project: Path) -> None:
    files = files_touched(store, Window(project=str(project)))
    assert [("package.json", 2), ("src/cache.py", 2), ("README.md", 1)] == [(f.path, f.edits) for f in files]
    assert (SID_B, SID_C) == files[1].sessions


def test_files_of_knows_each_harness() -> None:
    assert ["/a.py"] == files_of("Edit", {"file_path": "/a.py"})
    assert ["/b.py"] == files_of("write", {"filePath": "/b.py"})
    patch = "*** Begin Patch\n*** Update File: src/x.py\n@@\n*** Add File: src/y.py\n*** End Patch"
    assert ["src/x.py", "src/y.py"] == files_of("apply_patch", {"patchText": patch})
    assert [] == files_of("Read", {"file_path": "/a.py"})
    assert ["/a.py"] == files_of("Read", {"file_path": "/a.py"}, reads=True)


def test_tool_trace_of_one_session(store: HistoryStore) -> None:
    trace = tool_trace(store, SID_A)
    assert [
        ("Bash", "pnpm install", "completed", "Done in 2.1s"),
        ("Bash", "pnpm run deploy:staging", "error", DEPLOY_ERROR),
        ("Edit", "Edit package.json", "completed", "The file has been updated."),
        ("Bash", "pnpm run deploy:staging", "completed", "deployed to staging"),
        ("Bash", "pnpm test", "completed", "12 passed"),
    ] == [(s.tool, s.summary, s.status, s.result) for s in trace]
    times = [s.provenance.time or 0 for s in trace]
    assert times == sorted(times)


def test_windows_limit_by_time_and_session(store: HistoryStore, project: Path) -> None:
    late = Evidence.gather(store, Window(project=str(project), since=ms(day(30))))
    assert [SID_C, SID_D] == late.sessions()
    assert [] == Evidence.gather(store, Window(project="/elsewhere")).sessions()
    one = Evidence.gather(store, Window(session_id=SID_B))
    assert [SID_B] == one.sessions()
    latest = one.latest_request(SID_B)
    assert latest is not None and latest[0].startswith("Always run ruff")


def test_statements_said_again_count_once_with_every_session(tmp_path: Path, project: Path) -> None:
    with HistoryStore(tmp_path / "h.db") as store:
        for i, sid in enumerate(("11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa", "22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb")):
            Transcript(sid, str(project), day(20 + i)).user("以后都用 pnpm！").write(tmp_path / "p")
        import_claude_code(store, tmp_path / "p")
        said = user_statements(store)
    assert 1 == len(said)
    assert (2, ("11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa", "22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb")) == (
        said[0].count,
        said[0].sessions,
    )
