"""A session's brief in the next session: what it was about and what is still open, never a question
or a request quoted as if it were knowledge."""

from __future__ import annotations

from pathlib import Path

import pytest
from trajectory_fixtures import Transcript, day

from mimomem.context.assemble import session_context
from mimomem.passes import promote_state
from mimomem.passes.promote import promote_pending, register
from mimomem.passes.session_brief import asks
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import Where, locate

SID_A = "aaaaaaaa-0000-4000-8000-00000000000a"
SID_B = "bbbbbbbb-0000-4000-8000-00000000000b"
SID_NEW = "cccccccc-0000-4000-8000-00000000000c"
FAR = 1e12


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    path = tmp_path / "shop"
    (path / ".git").mkdir(parents=True)
    return path


def _where(repo: Path, sid: str | None) -> Where:
    return locate(repo, session_id=sid, tree=MemoryTree(), env={})


def _promote(repo: Path, t: Transcript) -> None:
    path = t.write(repo.parent / "projects")
    where = _where(repo, t.sid)
    register(where, t.sid, str(path))
    promote_pending(where, deadline=FAR)


def _next_session(repo: Path) -> str:
    return session_context(_where(repo, SID_NEW)).text


QUESTION = "帮我看看 config/app.yaml 里 worker_count 现在是多少"
REQUEST = "Bump the timeout in client.py to 30s and rerun the tests."


def test_a_question_asked_in_one_session_is_not_quoted_in_the_next(repo: Path) -> None:
    """Issue 33: the held-out runs found the user's question in the next session's "Recent sessions"
    (its Goal or Open line), shown as if it were what the project knows."""
    _promote(
        repo,
        Transcript(SID_A, str(repo), day(27))
        .user(QUESTION)
        .tool("Read", {"file_path": f"{repo}/config/app.yaml"}, "     1\tworker_count: 8\n")
        .user("staging 的 Redis 端口是 6380。"),
    )
    _promote(repo, Transcript(SID_B, str(repo), day(28)).user("我想知道 CI 里 node 用的是 18 还是 20").user(REQUEST))
    where = _where(repo, SID_B)
    record = where.tree.project_topic(where.project_id, "sessions").read_text(encoding="utf-8")
    context = _next_session(repo)
    assert "6380" in context  # what the user stated still reaches the next session
    for asked in (QUESTION, REQUEST.rstrip("."), "node 用的是 18 还是 20", "rerun the tests"):
        assert asked not in record and asked not in context


def test_the_brief_says_what_a_session_changed_and_what_still_fails(repo: Path) -> None:
    _promote(
        repo,
        Transcript(SID_A, str(repo), day(27))
        .user("把 README 里的端口改成 8081")
        .edit(f"{repo}/README.md")
        .bash("make check", "E501 line too long", ok=False),
    )
    where = _where(repo, SID_A)
    briefs = where.tree.project_topic(where.project_id, "sessions").read_text(encoding="utf-8")
    assert "- Changed: README.md" in briefs
    assert "- Open: `make check` still failing" in briefs
    assert "8081" not in briefs  # the request itself is not quoted


def test_a_statement_the_session_opened_with_stays_its_goal(repo: Path) -> None:
    said = "接下来做导出功能，按钮放在表格右上角。你先看看现有的表格组件？"
    _promote(repo, Transcript(SID_A, str(repo), day(27)).user(said))
    where = _where(repo, SID_A)
    briefs = where.tree.project_topic(where.project_id, "sessions").read_text(encoding="utf-8")
    assert "- Goal: 接下来做导出功能，按钮放在表格右上角" in briefs
    assert "表格组件" not in briefs


def test_a_brief_an_older_version_wrote_is_shown_without_its_questions() -> None:
    """Markers written before this change hold the first and last typed turns verbatim."""
    brief = {"goal": ["帮我查一下 staging 的 Redis 端口现在是多少"], "open": ["TP-1121: feature flags."]}
    marker = promote_state.Marker("s1", "/t.jsonl", 10, "h", 1, brief)
    text = promote_state.render_briefs([marker])
    assert "Redis 端口" not in text and "TP-1121: feature flags" in text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("帮我看看 config/app.yaml 里 worker_count 现在是多少", True),
        ("is the cache TTL still 300 seconds or did someone change it", True),
        ("本番のDBホストって db-main-1 のままでしたっけ", True),
        ("Bump the timeout in client.py to 30s and rerun the tests.", True),
        ("The map tiles come from MapTiler; the style id is tidepool-ocean-v4.", False),
        ("`uv run ruff check .` still failing", False),
    ],
)
def test_asks_reads_the_sentence_type(line: str, expected: bool) -> None:
    assert asks(line) is expected
