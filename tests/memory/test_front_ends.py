"""The CLI, the MCP server and the Claude Code hook over the memory floor: the same call gives the same result.

Search: ``mimomem search`` and the MCP ``memory_search`` tool return the floor's hits, in its order
(:func:`mimomem.memory.search.search`).  Note: ``mimomem note``, the MCP ``memory_note`` tool and
the hook's digest (PreCompact) each append one entry to the same inbox through
:func:`mimomem.memory.writes.note`, so the entries have one shape whoever wrote them.  Remember and
forget: ``mimomem remember`` / ``forget`` and the MCP ``memory_remember`` / ``memory_forget`` tools
call :func:`mimomem.memory.writes.remember` / ``forget`` and leave the same curated files; so do
``mimomem import`` and ``rules accept`` / ``reject`` with the floor's ``import_dir``, ``accept_rule``
and ``reject_rule``.  Type filters: ``--type``, the MCP ``type`` and ``Filters.type`` take one value
set and narrow alike.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from mimomem.cli import main
from mimomem.curated.store import CuratedMemory
from mimomem.hooks import claude_code
from mimomem.mcp import operations as ops
from mimomem.mcp.server import build_server
from mimomem.mcp.state import MemoryState, Options
from mimomem.memory import writes
from mimomem.memory.search import Filters, search
from mimomem.search.memory_index import MemoryIndex
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import parse_notes
from mimomem.tree.where import Where, locate
from mimomem.tree.writer import Writer

SID = "sess-front-1"
QUERY = "数据库端口"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "shop"
    (path / ".git").mkdir(parents=True)
    for name, value in (("MIMOMEM_HOME", "home"), ("HOME", "user"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(name, str(tmp_path / value))
    monkeypatch.setenv("MIMOMEM_SESSION", SID)
    monkeypatch.chdir(path)
    where = _where(path)
    tree = where.tree
    tree.write(
        tree.project_memory(where.project_id), "# Project memory\n\n## Rules\n- 数据库端口 5433\n", where.writer()
    )
    tree.append_note("数据库端口迁移到 5433 了", where.writer())
    CuratedMemory(project_root=path).remember("facts", "staging 的数据库端口是 6543", author="user")
    return path


def _where(repo: Path) -> Where:
    return locate(repo, session_id=SID, tree=MemoryTree())


def _cli(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> str:
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(stdin))
        assert main(list(argv)) == 0
    return capsys.readouterr().out


def _mcp(repo: Path, fn: object, *args: object) -> str:
    state = MemoryState(Options(project=str(repo), session=SID))
    try:
        return str(anyio.run(state.run, fn, *args))  # type: ignore[arg-type]
    finally:
        state.close()


def test_search_gives_the_floors_hits_from_the_cli_and_from_mcp(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    floor = [h.path for h in search(_where(repo), QUERY, limit=5)]
    assert len(floor) == 3 and len({p.rsplit("/", 1)[-1] for p in floor}) == 3  # tree file, notes, curated
    cli = [h["path"] for h in json.loads(_cli(capsys, "search", QUERY, "--limit", "5", "--json"))["hits"]]
    mcp = _mcp(repo, ops.search, QUERY, None, None, 5, False)
    shown = [line.strip() for line in mcp.splitlines() if line.startswith("   ") and line.strip() in floor]
    assert cli == floor and shown == floor


def test_a_filtered_search_is_the_same_everywhere(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    floor = [h.path for h in search(_where(repo), QUERY, Filters(type="notes"))]
    assert len(floor) == 1 and floor[0].endswith("notes.md")
    cli = [h["path"] for h in json.loads(_cli(capsys, "search", QUERY, "--type", "notes", "--json"))["hits"]]
    mcp = _mcp(repo, ops.search, QUERY, None, "notes", 10, False)
    assert cli == floor and floor[0] in mcp and mcp.startswith("1 match(es)")


CLAUDE_CODE_MEMORY = "---\nname: db\ntype: reference\n---\n数据库端口见 infra/db.md\n"


@pytest.mark.parametrize(
    ("type", "scope", "kept"),
    [("facts", None, "facts/"), ("notes", None, "notes.md"), ("reference", "claude-code", "db.md")],
    ids=["curated-category", "tree-type", "claude-code-type"],
)
def test_every_type_filter_value_gives_the_same_hits_from_the_cli_from_mcp_and_the_floor(
    repo: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, type: str, scope: str | None, kept: str
) -> None:
    """``--type``, the MCP ``type`` argument (through the tool's schema) and ``Filters.type`` take one value set:
    a curated category, a tree file's type and a Claude Code memory type narrow all three front ends alike."""
    cc = tmp_path / "user" / ".claude" / "projects" / "-shop" / "memory"
    cc.mkdir(parents=True)
    (cc / "db.md").write_text(CLAUDE_CODE_MEMORY, encoding="utf-8")
    where = _where(repo)
    with MemoryIndex(where.tree, claude_code=True) as index:
        floor = [h.path for h in search(where, QUERY, Filters(scope, type=type), index=index)]
    assert len(floor) == 1 and kept in floor[0]
    scoped = ("--scope", scope) if scope else ()
    cli = json.loads(_cli(capsys, "search", QUERY, "--type", type, *scoped, "--claude-code", "--json"))["hits"]
    args = {"query": QUERY, "type": type, **({"scope": scope} if scope else {})}
    failed, mcp = _mcp_tool(repo, "memory_search", args, claude_code=True)
    shown = [line.strip() for line in mcp.splitlines() if line.startswith("   /")]
    assert [h["path"] for h in cli] == floor and (failed, shown) == (False, floor)


def _mcp_tool(repo: Path, name: str, args: dict[str, Any], **options: Any) -> tuple[bool, str]:
    """(is_error, text) of one tool call through the SDK's in-memory client: schema validation included."""
    from mcp import Client

    server = build_server(Options(project=str(repo), session=SID, **options))

    async def call() -> tuple[bool, str]:
        async with Client(server) as client:
            result = await client.call_tool(name, args)
            return bool(result.is_error), "".join(getattr(block, "text", "") for block in result.content)

    try:
        return anyio.run(call)
    finally:
        server.state.close()


def test_a_note_is_one_entry_of_one_shape_from_every_front_end(
    repo: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    notes = _where(repo).tree.notes(SID)
    _cli(capsys, "note", "从命令行记下：端口 5433")
    _mcp(repo, ops.note, "从 MCP 记下：端口 5433")
    transcript = tmp_path / "t.jsonl"
    line = {
        "type": "user",
        "cwd": str(repo),
        "sessionId": SID,
        "message": {"role": "user", "content": "记下：端口改成 5433"},
        "uuid": "u1",
        "timestamp": "2026-11-30T09:00:00.000Z",
    }
    transcript.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    payload = {"hook_event_name": "PreCompact", "session_id": SID, "cwd": str(repo), "transcript_path": str(transcript)}
    assert claude_code.handle({**payload, "trigger": "manual"}, env=os.environ) == ""
    entries = parse_notes(notes.read_text(encoding="utf-8"))
    assert [e.turn for e in entries] == [1, 2, 3, 1]  # the hook numbers by the transcript's turns
    texts = [e.body for e in entries]
    assert "从命令行记下" in texts[1] and "从 MCP 记下" in texts[2] and "记下：端口改成 5433" in texts[3]


FIRST = ("decisions", "部署用 pnpm，不用 npm", "lockfile 是 pnpm-lock.yaml", "部署时")
SECOND = ("decisions", "部署改用 bun 了", "bun 装依赖更快")
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _files(repo: Path) -> dict[str, str]:
    """The curated store of ``repo`` as it is on disk (times masked: the three runs are seconds apart)."""
    root = repo / ".memory"
    return {str(p.relative_to(root)): STAMP.sub("<time>", p.read_text("utf-8")) for p in root.rglob("*") if p.is_file()}


def test_remember_and_forget_leave_the_same_files_from_the_cli_from_mcp_and_the_floor(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One call (a model's decision, then one superseding it, then the first forgotten) in three fresh
    projects: every front end writes through the floor's ``remember`` / ``forget`` and leaves the same files."""
    seen: list[tuple[str, str]] = []
    for name in ("remember", "forget"):
        real = getattr(writes, name)
        monkeypatch.setattr(writes, name, _spy(seen, name, real))
    cli, mcp, floor = (_project(tmp_path / name) for name in ("cli", "mcp", "floor"))
    category, summary, body, when = FIRST

    as_model = ("--author", "model", "--project", str(cli))  # the MCP server writes as a model
    first = _cli(capsys, "remember", category, summary, body, "--when", when, "--pinned", *as_model).split()[1]
    _cli(capsys, "remember", *SECOND, "--supersedes", first, *as_model)
    remembered = _files(cli)
    cli_forgot = _cli(capsys, "forget", first, "--project", str(cli)).splitlines()

    assert _mcp(mcp, ops.remember, category, summary, body, [when], True, None).split()[1] == first
    _mcp(mcp, ops.remember, *SECOND, [], False, first)
    assert _files(mcp) == remembered
    mcp_forgot = _mcp(mcp, ops.forget, first).splitlines()

    by = Writer(worktree=floor, author="model")
    assert writes.remember(by, category, summary, body, load_when=[when], pinned=True).id == first
    writes.remember(by, *SECOND, supersedes=first)
    assert _files(floor) == remembered
    gone = writes.forget(by, first)

    assert _files(cli) == _files(mcp) == _files(floor) and f"{first}.md" not in _files(floor)
    assert cli_forgot[0] == mcp_forgot[0] == f"forgot {gone.id} ({gone.scope})"
    assert len(gone.dangling) == 1 and all(gone.dangling[0] in lines[1] for lines in (cli_forgot, mcp_forgot))
    assert seen == [("remember", "model"), ("remember", "model"), ("forget", "model")] * 3


def test_rules_and_import_from_the_cli_leave_the_floors_files(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``mimomem import`` (as a model), ``rules accept`` and ``rules reject`` call the floor's ``import_dir``,
    ``accept_rule`` and ``reject_rule`` (the rules commands as the user) and leave the files the floor leaves."""
    seen: list[tuple[str, str]] = []
    for name in ("import_dir", "accept_rule", "reject_rule"):
        monkeypatch.setattr(writes, name, _spy(seen, name, getattr(writes, name)))
    notes = tmp_path / "notes" / "rules"
    notes.mkdir(parents=True)
    (notes / "deploy.md").write_text("# 部署前先跑 pnpm test\n", encoding="utf-8")
    (notes / "tag.md").write_text("# 发布前先打 tag\n", encoding="utf-8")
    cli, floor = _project(tmp_path / "cli"), _project(tmp_path / "floor")

    _cli(capsys, "import", str(notes.parent), "--author", "model", "--project", str(cli))
    first, second = sorted(m.id for m in CuratedMemory(project_root=cli).inspect().memories)
    _cli(capsys, "rules", "accept", first, "--project", str(cli))
    _cli(capsys, "rules", "reject", second, "--project", str(cli))

    model, user = Writer(worktree=floor, author="model"), Writer(worktree=floor, author="user")
    assert sorted(writes.import_dir(model, notes.parent).written) == [first, second]
    writes.accept_rule(user, first)
    writes.reject_rule(user, second)
    assert _files(cli) == _files(floor) and f"{second}.md" not in _files(floor)
    assert "kind: rule\n" in _files(floor)[f"{first}.md"]
    assert seen == [("import_dir", "model"), ("accept_rule", "user"), ("reject_rule", "user")] * 2


def _project(path: Path) -> Path:
    (path / ".git").mkdir(parents=True)
    return path


def _spy(seen: list[tuple[str, str]], name: str, real: Any) -> Any:
    def call(by: Writer, *args: Any, **kwargs: Any) -> Any:
        seen.append((name, by.author))
        return real(by, *args, **kwargs)

    return call
