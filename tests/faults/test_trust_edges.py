"""Faults 9 (write targets) and 10 of the trust-boundaries issue: each test failed on the code before its fix.

Every refusal is one line on stderr and a non-zero exit, never a traceback, and writes nothing.
"""

from __future__ import annotations

import io
import sqlite3
import threading
from pathlib import Path

import anyio
import pytest

from mimomem.cli import main
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import parse_notes


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "repo"
    (path / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_SESSION", "s-1")
    monkeypatch.delenv("MIMOMEM_MODEL_URL", raising=False)
    monkeypatch.chdir(path)
    return path


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("# Memory\n\n- planted\n"))
    status = main(list(argv))
    _, err = capsys.readouterr()
    return status, err


def _one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("target", ["MEMORY.md", "notes.md", "Project", "memory://project", "./Memory.md", "GLOBAL"])
def test_fault_9_near_miss_write_targets_are_refused(
    target: str, repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mimomem write MEMORY.md`` exited 0 and created the file in the repository -> refused, valid targets listed."""
    before = sorted(p.name for p in repo.iterdir())
    status, err = _run(capsys, monkeypatch, "write", target)
    assert 0 != status and _one_line(err) and "project, global, checkpoint, notes, progress:TID" in err
    assert before == sorted(p.name for p in repo.iterdir())
    assert not (repo / "memory:").exists()


def test_fault_9_near_miss_is_refused_over_mcp_too(repo: Path) -> None:
    pytest.importorskip("mcp")
    from mimomem.mcp import operations
    from mimomem.mcp.state import MemoryState, Options

    state = MemoryState(Options(project=str(repo), session="s-1"))
    try:
        with pytest.raises(Exception, match="valid targets"):
            anyio.run(lambda: state.run(operations.write, "MEMORY.md", "x\n", False))
    finally:
        state.close()
    assert not (repo / "MEMORY.md").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["dream", "--days", "99999999999999"],
        ["distill", "--days", "99999999999999"],
        ["history", "evidence", "--days", "99999999999999"],
        ["dream", "--model", "http://[::1"],
        ["checkpoint", "--model", "http://[::1"],
    ],
)
def test_fault_10_huge_days_and_broken_urls_are_one_line(
    argv: list[str], repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """They ended in an OverflowError / ValueError traceback -> one line, exit 2."""
    status, err = _run(capsys, monkeypatch, *argv)
    assert 2 == status and _one_line(err), err


def test_fault_10_concurrent_notes_get_distinct_turns(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Concurrent ``mimomem note`` counted the turn before taking the lock -> numbered under the append's lock."""
    count = 16
    start = threading.Barrier(count)
    statuses: list[int] = []

    def note(i: int) -> None:
        start.wait()
        statuses.append(main(["note", f"note number {i}"]))

    threads = [threading.Thread(target=note, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    capsys.readouterr()
    assert [0] * count == statuses
    entries = parse_notes(MemoryTree().notes("s-1").read_text(encoding="utf-8"))
    assert list(range(1, count + 1)) == sorted(e.turn for e in entries)


def _foreign_sqlite(path: Path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ada')")
    conn.execute("PRAGMA user_version = 7")  # many programs version their own schema
    conn.commit()
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("command", [["history", "import", "--claude-code"], ["search", "x"]])
def test_fault_10_a_foreign_db_file_is_never_called_a_cache(
    command: list[str], repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--db some-user-file`` advised deleting the user's file as "only a cache" -> refused, file untouched."""
    text_file = tmp_path / "notes.txt"
    text_file.write_text("my own notes\n" * 20, encoding="utf-8")
    files = {text_file: text_file.read_bytes(), tmp_path / "app.sqlite": _foreign_sqlite(tmp_path / "app.sqlite")}
    for path, content in files.items():
        status, err = _run(capsys, monkeypatch, *command, "--db", str(path))
        assert 0 != status and _one_line(err), err
        assert "cache" not in err and "delete" not in err and "rm " not in err, err
        assert content == path.read_bytes()
        assert not path.with_name(path.name + "-wal").exists()


def test_fault_10_mcp_booleans_are_strict(repo: Path) -> None:
    """``"append": "yes"`` was taken as true -> a clear argument error naming ``append``."""
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from mimomem.mcp.server import build_server
    from mimomem.mcp.state import Options

    server = build_server(Options(project=str(repo), session="s-1"))
    try:
        for name, args in (
            ("memory_write", {"target": "notes", "text": "x", "append": "yes"}),
            ("memory_remember", {"category": "facts", "summary": "x", "pinned": "true"}),
            ("memory_search", {"query": "x", "all_projects": 1}),
        ):
            with pytest.raises(ToolError, match="valid boolean"):
                anyio.run(lambda n=name, a=args: server.call_tool(n, a))  # type: ignore[misc]
    finally:
        server.state.close()
    assert not MemoryTree().notes("s-1").exists()
