"""Where the hosts keep their memory (tree.host_paths): Claude Code's folder name as 2.1.337 makes it, the switch."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mimomem.tree import host_paths


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("/tmp/hm/proj", "-tmp-hm-proj"),  # observed: the real binary's folders for these two paths
        ("/tmp/hm/中文 dir", "-tmp-hm----dir"),
        ("/home/u/my_project.v2", "-home-u-my-project-v2"),
        ("/x/😀", "-x---"),  # an emoji is two UTF-16 units, so two dashes
    ],
)
def test_claude_project_key_replaces_every_other_unit_with_a_dash(path: str, key: str) -> None:
    assert host_paths.claude_project_key(path) == key


def test_a_long_path_keeps_200_characters_and_a_hash_of_the_whole() -> None:
    path = "/" + "a" * 300
    key = host_paths.claude_project_key(path)
    assert key.startswith("-" + "a" * 199 + "-")
    assert len(key) > 201
    # the hash is Java's String.hashCode over UTF-16 units, in base 36, without sign
    h = 0
    for ch in path:
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    h = h - (1 << 32) if h >= 1 << 31 else h
    n, digits = abs(h), ""
    while True:
        n, r = divmod(n, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + digits
        if not n:
            break
    assert key == "-" + "a" * 199 + "-" + digits
    assert host_paths.claude_project_key(path + "b") != key


def test_memory_folder_is_keyed_by_the_main_repository_even_from_a_worktree(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    subprocess.run([*git, "-C", str(repo), "worktree", "add", "-q", str(tmp_path / "wt")], check=True)
    env = {"HOME": str(tmp_path / "home")}
    expected = str(tmp_path / "home" / ".claude" / "projects" / host_paths.claude_project_key(str(repo)) / "memory")
    assert host_paths.claude_memory_dir(str(repo / "sub"), env) == expected
    assert host_paths.claude_memory_dir(str(tmp_path / "wt"), env) == expected
    outside = tmp_path / "plain"
    outside.mkdir()
    key = host_paths.claude_project_key(str(outside))
    assert host_paths.claude_memory_dir(str(outside), env).endswith(key + "/memory")  # type: ignore[union-attr]


def test_config_dir_settings_and_override_move_the_folder(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    env = {"HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    assert host_paths.claude_memory_dir(str(project), env).startswith(str(tmp_path / "cfg" / "projects"))  # type: ignore[union-attr]
    (project / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/notes/mem"}))
    assert host_paths.claude_memory_dir(str(project), env) == str(tmp_path / "notes" / "mem")
    override = {**env, "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": str(tmp_path / "o")}
    assert host_paths.claude_memory_dir(str(project), override) == str(tmp_path / "o")


@pytest.mark.parametrize(
    ("value", "hosts"),
    [
        ("0", ()),
        ("off", ()),
        ("false", ()),
        ("1", host_paths.HOSTS),
        ("claude-code,gemini", ("claude-code", "gemini")),
        ("codex", ("codex",)),
    ],
)
def test_the_variable_switches_hosts(value: str, hosts: tuple[str, ...], tmp_path: Path) -> None:
    assert host_paths.enabled_hosts({"HOME": str(tmp_path), host_paths.VARIABLE: value}) == hosts


def test_the_config_file_switches_hosts_and_the_variable_wins(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c")}
    assert host_paths.enabled_hosts(env) == host_paths.HOSTS  # default: all
    config = tmp_path / "c" / "mimomem" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"host_memory": False}))
    assert host_paths.enabled_hosts(env) == ()
    config.write_text(json.dumps({"host_memory": ["gemini"]}))
    assert host_paths.enabled_hosts(env) == ("gemini",)
    assert host_paths.enabled_hosts({**env, host_paths.VARIABLE: "1"}) == host_paths.HOSTS
    config.write_text("{not json")
    assert host_paths.enabled_hosts(env) == host_paths.HOSTS
    assert host_paths.sources(None, {**env, host_paths.VARIABLE: "off"}) == []
