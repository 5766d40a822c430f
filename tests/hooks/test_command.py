"""``hooks.command``: a hook command that runs without PATH, checked before install writes it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mimomem.errors import HookCommandError
from mimomem.hooks import command


@pytest.mark.parametrize(
    ("line", "ours"),
    [
        ("mimomem hook claude-code", True),
        ("/home/me/.venv/bin/mimomem hook claude-code", True),
        ("'/path with space/python3' -P -m mimomem hook claude-code", True),
        ('MIMOMEM_CACHE_DIR="$X/cache" /v/bin/mimomem hook claude-code', True),
        ("mimomem hook other-harness", False),
        ("say mimomem hook claude-code", False),
        ("python -m mimomemx hook claude-code", False),
        ("'unclosed hook claude-code", False),
        (None, False),
    ],
)
def test_mimomem_hooks_are_recognised(line: object, ours: bool) -> None:
    assert command.is_mimomem_hook(line) is ours


def test_the_command_names_this_installation_by_absolute_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["pytest"])  # not run as the entry point: this interpreter, -m mimomem
    words = shlex.split(command.hook_command())
    assert os.path.isabs(words[0]) and words[-4:] == ["-m", "mimomem", "hook", "claude-code"]


def test_the_entry_point_that_runs_is_preferred(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    script = tmp_path / "my env" / "bin" / "mimomem"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    monkeypatch.chdir(script.parent)
    monkeypatch.setattr(sys, "argv", ["./mimomem"])
    assert shlex.split(command.hook_command()) == [str(script), "hook", "claude-code"]


def test_the_command_runs_with_a_minimal_path_and_touches_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "argv", ["pytest"])
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    command.check_runs(command.hook_command())
    assert sorted(os.listdir(tmp_path)) == []


def test_a_command_that_does_not_run_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HookCommandError, match="exited 127"):
        command.check_runs(f"{tmp_path}/nowhere/mimomem hook claude-code")


def test_the_project_is_the_git_top_level_of_a_subdirectory(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "scripts" / "deep").mkdir(parents=True)
    assert command.project_root(repo / "scripts" / "deep") == (repo.resolve(), True)
    outside = tmp_path / "loose"
    outside.mkdir()
    assert command.project_root(outside) == (outside, False)


def test_python_m_does_not_import_a_mimomem_in_the_cwd(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if sys.version_info < (3, 11):
        pytest.skip("-P needs Python 3.11")
    (tmp_path / "mimomem").mkdir()
    (tmp_path / "mimomem" / "__main__.py").write_text("raise SystemExit(9)\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["pytest"])
    words = command.launcher()
    done = subprocess.run([*words, "--version"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("mimomem ")
