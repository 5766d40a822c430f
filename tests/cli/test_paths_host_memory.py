"""``mimomem paths`` shows Claude Code's memory folder for the project and how full its index is."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mimomem.cli import main
from mimomem.tree import host_paths


def test_paths_gauges_the_host_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "app"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("MIMOMEM_HOST_MEMORY")
    for name in host_paths.ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    folder = Path(host_paths.claude_memory_dir(str(repo), os.environ) or "")
    assert main(["paths", "--project", str(repo), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["claude_code_memory"] == str(folder) and info["claude_code_index"] == "no MEMORY.md index"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("".join(f"- [F{i}](f{i}.md) — h\n" for i in range(1, 251)), encoding="utf-8")
    assert main(["paths", "--project", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "claude_code_index" in out and "250/200 lines" in out and "50 lines past the cap" in out
    assert "/25,000 characters" in out
    monkeypatch.setenv("MIMOMEM_HOST_MEMORY", "0")
    assert main(["paths", "--project", str(repo), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["claude_code_memory"] is None
