"""``mimomem context / note / write``: gated writes and context from the shell."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from mimomem.cli import main
from mimomem.tree.memory_tree import MemoryTree


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "shop"
    (path / ".git").mkdir(parents=True)
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_SESSION", "s-1")
    monkeypatch.chdir(path)
    return path


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_note_appends_a_headed_entry(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, monkeypatch, "note", "数据库端口 5433")[0] == 0
    status, out, _ = run(capsys, monkeypatch, "note", "--json", stdin="second\n")
    assert status == 0 and json.loads(out)["turn"] == 2
    text = MemoryTree().notes("s-1").read_text(encoding="utf-8")
    assert "## [turn 1 · " in text and "数据库端口 5433" in text and "## [turn 2 · " in text


def test_note_without_a_session_says_how(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MIMOMEM_SESSION")
    status, _, err = run(capsys, monkeypatch, "note", "x")
    assert status == 2 and "--session" in err and err.count("\n") == 1


def test_write_goes_through_the_gate(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    status, out, _ = run(capsys, monkeypatch, "write", "project", stdin="# Project memory\n\n## Rules\n- 用 pnpm\n")
    assert status == 0 and out.strip().endswith("MEMORY.md")
    outside = tmp_path / "outside.md"
    status, _, err = run(capsys, monkeypatch, "write", str(outside), stdin="x\n")
    assert status == 2 and "Allowed:" in err and not outside.exists()
    status, _, err = run(capsys, monkeypatch, "write", "progress:T1", stdin="x\n")
    assert status == 2 and not err.startswith("Traceback")


def test_write_refuses_secrets_without_echoing_them(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "AKIA" + "QWERTYUIOPASDFGH"
    status, _, err = run(capsys, monkeypatch, "write", "notes", stdin=f"key {secret}\n")
    assert status == 2 and secret not in err


def test_context_json_counts_tokens_within_budget(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, monkeypatch, "write", "project", stdin="# Project memory\n\n## Rules\n- 部署前先跑测试\n" * 50)
    status, out, _ = run(capsys, monkeypatch, "context", "--json", "--budget", "600")
    data = json.loads(out)
    assert status == 0 and data["tokens"] <= 600
    assert {b["name"] for b in data["blocks"]} >= {"instructions"}


def test_context_uses_the_hooks_budgets_by_default(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`context --prompt` reported a budget of 4,000 tokens where the hook (and the docs) use 1,200 per prompt."""
    from mimomem.context.assemble import PROMPT_BUDGET, SESSION_BUDGET

    run(capsys, monkeypatch, "write", "project", stdin="# Project memory\n\n## Rules\n- 部署前先跑测试\n")
    _, _, err = run(capsys, monkeypatch, "context", "--prompt", "部署前要做什么")
    assert err.strip().endswith(f"of {PROMPT_BUDGET} estimated tokens]") and PROMPT_BUDGET == 1200
    _, _, err = run(capsys, monkeypatch, "context")
    assert err.strip().endswith(f"of {SESSION_BUDGET} estimated tokens]") and SESSION_BUDGET == 4000
    _, _, err = run(capsys, monkeypatch, "context", "--prompt", "部署", "--budget", "700")
    assert err.strip().endswith("of 700 estimated tokens]")
