"""Regression tests for the install faults of the trust-boundaries issue (fault 9, install part).

Each test's docstring reads "what the user saw -> what happens now".
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from mimomem.cli import main


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "shop"
    (path / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "mimomem"))
    monkeypatch.chdir(path)
    return path


def install(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(["install", "claude-code", *argv])
    return status, capsys.readouterr().err


def strict(text: str) -> Any:
    """``text`` parsed as standard JSON (no NaN / Infinity)."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_symlinked_settings_are_updated_at_their_target(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The symlink was replaced by a regular file (the dotfile never got the hooks) -> the target is updated."""
    dotfile = tmp_path / "dotfiles" / "claude-settings.json"
    dotfile.parent.mkdir()
    dotfile.write_text('{"model": "x"}\n', encoding="utf-8")
    link = repo / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfile)
    assert install(capsys, monkeypatch)[0] == 0
    assert link.is_symlink() and link.resolve() == dotfile.resolve()
    assert "SessionStart" in strict(dotfile.read_text(encoding="utf-8"))["hooks"]


def test_a_number_that_cannot_be_written_back_is_refused(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """1e400 came back as `Infinity` (invalid JSON) -> refused with one line, the file untouched."""
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"limit": 1e400}\n', encoding="utf-8")
    status, err = install(capsys, monkeypatch)
    assert status == 2 and "1e400" in err and "Traceback" not in err
    assert settings.read_text(encoding="utf-8") == '{"limit": 1e400}\n'
    assert list(settings.parent.iterdir()) == [settings]


def test_numbers_round_trip_as_valid_json(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Numbers that JSON can hold come back with the same value, as standard JSON."""
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"a": 0.1, "b": 123456789012345678901234567890, "c": -1.5E-7, "d": 1e308}', encoding="utf-8")
    assert install(capsys, monkeypatch)[0] == 0
    merged = strict(settings.read_text(encoding="utf-8"))
    assert (merged["a"], merged["b"], merged["c"], merged["d"]) == (0.1, 123456789012345678901234567890, -1.5e-7, 1e308)


def test_backups_are_numbered_and_never_overwritten(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second run overwrote the first backup (the original was lost) -> each run keeps its own backup."""
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = '{"model": "first"}\n'
    settings.write_text(original, encoding="utf-8")
    assert install(capsys, monkeypatch)[0] == 0
    edited = strict(settings.read_text(encoding="utf-8"))
    edited["model"] = "second"
    del edited["hooks"]  # the user took the hooks out by hand; installing again must write again
    settings.write_text(json.dumps(edited), encoding="utf-8")
    assert install(capsys, monkeypatch)[0] == 0
    backups = sorted(p for p in settings.parent.iterdir() if p != settings)
    contents = [p.read_text(encoding="utf-8") for p in backups]
    assert original in contents and json.dumps(edited) in contents


def test_a_mistyped_project_directory_is_not_created(
    tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--project /typo/dir` created the directories -> a clear error, nothing created."""
    typo = tmp_path / "typo" / "dir"
    status, err = install(capsys, monkeypatch, "--project", str(typo))
    assert status == 2 and "no such directory" in err
    assert not (tmp_path / "typo").exists()
