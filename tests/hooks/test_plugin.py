"""``hooks.plugin``: the Claude Code plugin directory, and its hooks run as Claude Code runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mimomem.errors import SettingsFileError
from mimomem.hooks import plugin


@pytest.fixture
def written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(sys, "argv", ["pytest"])
    directory = tmp_path / "mimomem-plugin"
    plugin.write_plugin(directory, with_mcp=True)
    return directory


def test_the_plugin_has_a_manifest_a_marketplace_hooks_and_the_mcp_server(written: Path) -> None:
    manifest = json.loads((written / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    market = json.loads((written / ".claude-plugin" / "marketplace.json").read_text(encoding="utf-8"))
    hooks = json.loads((written / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    servers = json.loads((written / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert manifest["name"] == "mimomem" and market["plugins"] == [
        {"name": "mimomem", "source": "./", "description": plugin.DESCRIPTION}
    ]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"}
    assert all("${CLAUDE_PLUGIN_ROOT}/bin/mimomem" in g["hooks"][0]["command"] for gs in hooks.values() for g in gs)
    assert servers["mimomem"]["args"] == ["${CLAUDE_PLUGIN_ROOT}/bin/mimomem", "mcp"]


def test_the_plugin_hook_runs_from_a_copy_with_the_cache_in_plugin_data(written: Path, tmp_path: Path) -> None:
    """Claude Code runs the hook from its own copy of the plugin, with both variables set, PATH minimal."""
    copy = tmp_path / "claude" / "plugins" / "cache" / "mimomem"
    copy.parent.mkdir(parents=True)
    os.rename(written, copy)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    data = tmp_path / "claude" / "plugins" / "data" / "mimomem"
    command = json.loads((copy / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]["SessionStart"][0]
    env = {
        "PATH": os.defpath,
        "HOME": str(tmp_path / "home"),
        "MIMOMEM_HOME": str(tmp_path / "mm"),
        "CLAUDE_PLUGIN_ROOT": str(copy),
        "CLAUDE_PLUGIN_DATA": str(data),
    }
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(repo), "source": "startup"}
    done = subprocess.run(
        ["sh", "-c", command["hooks"][0]["command"]],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart" and out["additionalContext"]


def test_a_directory_holding_something_else_is_refused(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "main.py").write_text("", encoding="utf-8")
    with pytest.raises(SettingsFileError, match="not empty"):
        plugin.write_plugin(tmp_path / "project", with_mcp=False)
    with pytest.raises(SettingsFileError, match="does not exist"):
        plugin.write_plugin(tmp_path / "typo" / "plugin", with_mcp=False)


def test_rewriting_without_the_sdk_drops_the_server(written: Path) -> None:
    plugin.write_plugin(written, with_mcp=False)
    assert not (written / ".mcp.json").exists() and (written / "hooks" / "hooks.json").is_file()
