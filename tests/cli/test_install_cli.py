"""``mimomem install / uninstall claude-code``: the repository's settings from anywhere inside it."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest

from mimomem.cli import main
from mimomem.hooks.command import is_mimomem_hook


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "shop"
    (path / ".git").mkdir(parents=True)
    (path / "scripts" / "deploy").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "mimomem"))
    monkeypatch.chdir(path)
    return path


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_install_from_a_subdirectory_writes_the_repository_settings(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo / "scripts" / "deploy")
    status, out, _ = run(capsys, monkeypatch, "install", "claude-code")
    assert status == 0 and str(repo.resolve() / ".claude" / "settings.json") in out
    assert not (repo / "scripts" / "deploy" / ".claude").exists()
    hooks = json.loads((repo / ".claude" / "settings.json").read_text(encoding="utf-8"))["hooks"]
    command = hooks["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert is_mimomem_hook(command) and Path(shlex.split(command)[0]).is_absolute()


def test_install_keeps_existing_settings_and_is_idempotent(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps({"model": "x", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}})
    )
    assert run(capsys, monkeypatch, "install", "claude-code")[0] == 0
    merged = json.loads(settings.read_text())
    assert merged["model"] == "x" and "Stop" in merged["hooks"]
    assert json.loads((repo / ".claude" / "settings.json.bak.1").read_text())["model"] == "x"
    status, out, _ = run(capsys, monkeypatch, "install", "claude-code")
    assert status == 0 and "nothing changed" in out and json.loads(settings.read_text()) == merged


def test_uninstall_restores_what_install_found(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{ "model" : "x" }\n')
    run(capsys, monkeypatch, "install", "claude-code")
    monkeypatch.chdir(repo / "scripts")
    status, out, _ = run(capsys, monkeypatch, "uninstall", "claude-code")
    assert status == 0 and "as it was before install" in out
    assert settings.read_bytes() == b'{ "model" : "x" }\n'
    status, out, _ = run(capsys, monkeypatch, "uninstall", "claude-code")
    assert status == 0 and "nothing changed" in out


def test_outside_git_the_working_directory_is_used_and_said(
    tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    monkeypatch.chdir(loose)
    status, _, err = run(capsys, monkeypatch, "install", "claude-code")
    assert status == 0 and "not inside a git repository" in err and (loose / ".claude" / "settings.json").is_file()


def test_install_refuses_broken_settings(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{not json")
    status, _, err = run(capsys, monkeypatch, "install", "claude-code")
    assert status == 2 and "not valid JSON" in err and settings.read_text() == "{not json"


def test_plugin_and_print_write_no_settings(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(capsys, monkeypatch, "install", "claude-code", "--plugin", str(tmp_path / "plugin"))
    assert status == 0 and "/plugin marketplace add" in out and "/plugin install mimomem@mimomem" in out
    assert (tmp_path / "plugin" / "hooks" / "hooks.json").is_file()
    status, out, _ = run(capsys, monkeypatch, "install", "claude-code", "--print")
    assert status == 0 and "SessionEnd" in json.loads(out)["hooks"]
    assert not (repo / ".claude").exists()


def test_the_mcp_line_runs_this_installation_off_path(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`claude mcp add mimomem -- mimomem mcp` fails silently when mimomem is not on PATH: --mcp prints
    the line with this installation's absolute path, which runs with a bare PATH."""
    import subprocess

    status, out, _ = run(capsys, monkeypatch, "install", "claude-code", "--mcp")
    words = shlex.split(out)
    assert status == 0 and words[:5] == ["claude", "mcp", "add", "mimomem", "--"] and words[-1] == "mcp"
    server = words[5:-1]
    assert server[0].startswith("/")
    done = subprocess.run([*server, "--version"], env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("mimomem ")
