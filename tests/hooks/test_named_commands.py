"""Every command and path the hooks' injected text names works in the agent's shell exactly as written.

Claude Code's Bash runs the model's commands with its own ``PATH`` (mimomem's virtual environment
is not on it; a plugin's ``bin/`` is appended), with ``CLAUDE_CODE_SESSION_ID`` set to the session
the hooks see, and with ``CLAUDECODE=1``.  Here the same shell: ``sh -c`` with ``PATH=/usr/bin:/bin``
(plus the plugin's ``bin/`` for the plugin), for both install routes.  The real host runs the same
check in ``tests/host``.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from hook_calls import git_project

from mimomem.curated.store import CuratedMemory
from mimomem.hooks import claude_code
from mimomem.hooks.plugin import write_plugin
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

SID = "9532e95d-b6cc-4e25-ad80-776cafec2291"
PLACEHOLDERS = {
    "TEXT": "the flaky test is test_sync",
    "<1-3 distinctive words>": "port",
    "<keyword>": "staging",
    "QUERY": "staging",
}
_SPAN = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"(?<![\w.~>])(/[^\s`'\"()<>,;]+)")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = git_project(tmp_path, monkeypatch)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    text = "# Project memory\n\n## Discovered durable knowledge\n\n- the staging database port is 5433\n"
    tree.write(tree.project_memory(pid), text, Writer("main", project_id=pid, worktree=repo))
    store = CuratedMemory(project_root=repo)
    store.remember("decisions", "staging deploys go through the release branch", "never from main", author="user")
    return repo


def _shell_env(repo: Path, *, extra_path: str = "") -> dict[str, str]:
    """The agent's shell as Claude Code 2.1.337 sets it up (the parts mimomem can see)."""
    keep = ("HOME", "MIMOMEM_HOME", "MIMOMEM_CACHE_DIR", "XDG_CONFIG_HOME", "LANG")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    path = "/usr/bin:/bin" + (f":{extra_path}" if extra_path else "")
    return {**env, "PATH": path, "CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": SID}


def _event(repo: Path, event: str, **fields: str) -> dict[str, str]:
    return {"hook_event_name": event, "session_id": SID, "cwd": str(repo), **fields}


def _context(out: str) -> str:
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""


def _named_commands(text: str, runs: str) -> list[str]:
    """The commands in backticks that run mimomem (``runs``: how the text spells it), placeholders filled."""
    found = []
    for span in _SPAN.findall(text):
        if span.startswith(runs + " "):
            for placeholder, value in PLACEHOLDERS.items():
                span = span.replace(placeholder, value)
            found.append(span)
    return found


def _check_loop(repo: Path, hook: object, env: dict[str, str]) -> list[str]:
    """Start a session through ``hook``, run every command its text names in ``env``'s shell, then a
    prompt (whose reminder names the search command again) and its commands; the commands run."""
    from mimomem.common.launcher import agent_command

    start = _context(hook(_event(repo, "SessionStart", source="startup")))  # type: ignore[operator]
    runs = start.split(" note ", 1)[0].rsplit("`", 1)[-1]  # the command as the text spells it
    assert runs and runs != "mimomem", start
    notes = re.search(r"This session: (\S+)/ - ", start)
    assert notes is not None
    notes_path = Path(notes.group(1)) / "notes.md"
    assert notes_path.is_file()  # before the agent is told to append
    _paths_exist(start)
    appended = subprocess.run(
        ["sh", "-c", f"printf '\\n## [turn 1 · 2026-12-07T10:00Z]\\nby hand\\n' >> {notes_path}"], env=env
    )
    assert appended.returncode == 0
    ran = []
    for command in _named_commands(start, runs):
        done = subprocess.run(["sh", "-c", command], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (command, done.stderr)
        ran.append(command)
    assert MemoryTree().notes(SID).read_text(encoding="utf-8").count("\n## [turn") == 2  # by hand, then `note`
    prompt = _context(hook(_event(repo, "UserPromptSubmit", prompt="what is the staging database port?")))  # type: ignore[operator]
    assert "5433" in prompt and "<system-reminder>" in prompt
    for command in _named_commands(prompt, runs):
        done = subprocess.run(["sh", "-c", command], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "5433" in done.stdout, (command, done.stderr)
        ran.append(command)
    assert {c.split(runs + " ", 1)[1].split()[0] for c in ran} == {"note", "search", "recall"}
    assert agent_command() in runs or runs.startswith("sh ") or "/bin/mimomem" in runs
    return ran


def test_the_settings_hooks_commands_run_in_the_agents_shell(repo: Path) -> None:
    def hook(event: dict[str, str]) -> str:
        out = io.StringIO()
        claude_code.run(io.StringIO(json.dumps(event)), out, io.StringIO())
        return out.getvalue()

    ran = _check_loop(repo, hook, _shell_env(repo))
    assert len(ran) == 4


def test_the_plugins_commands_run_in_the_agents_shell(repo: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    write_plugin(plugin, with_mcp=False)
    data = tmp_path / "plugin-data"
    hook_env = {
        **os.environ,
        "PATH": "/usr/bin:/bin",
        "CLAUDE_PLUGIN_ROOT": str(plugin),
        "CLAUDE_PLUGIN_DATA": str(data),
    }
    command = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]["SessionStart"][0]["hooks"][0]

    def hook(event: dict[str, str]) -> str:
        run = command["command"].replace("${CLAUDE_PLUGIN_ROOT}", str(plugin))
        done = subprocess.run(["sh", "-c", run], input=json.dumps(event), env=hook_env, capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr.strip(), done.stderr
        return done.stdout

    ran = _check_loop(repo, hook, _shell_env(repo, extra_path=str(plugin / "bin")))
    assert all(c.startswith(str(plugin / "bin" / "mimomem")) for c in ran)  # the plugin's runner, as its hooks


def test_a_command_without_a_usable_session_says_how(repo: Path) -> None:
    from mimomem.common.launcher import agent_command

    env = {**_shell_env(repo), "CLAUDE_CODE_SESSION_ID": "../escape"}
    done = subprocess.run(
        ["sh", "-c", f"{agent_command()} note hello"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2 and "CLAUDE_CODE_SESSION_ID='../escape' is not a usable session id" in done.stderr
    env.pop("CLAUDE_CODE_SESSION_ID")
    done = subprocess.run(
        ["sh", "-c", f"{agent_command()} note hello"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2 and "CLAUDE_CODE_SESSION_ID" in done.stderr and "--session" in done.stderr


def _paths_exist(text: str) -> None:
    """Every absolute path ``text`` names outside a command is there to read (or list)."""
    paths = [p.rstrip(".:_/") for p in _PATH.findall(_SPAN.sub(" ", text))]
    assert paths and all(Path(p).exists() for p in paths), [p for p in paths if not Path(p).exists()]


def test_a_new_projects_first_start_names_only_paths_that_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No project memory yet (made from the template), no global memory (named as none, not by a path)."""
    repo = git_project(tmp_path, monkeypatch)
    out = io.StringIO()
    claude_code.run(io.StringIO(json.dumps(_event(repo, "SessionStart", source="startup"))), out, io.StringIO())
    start = _context(out.getvalue())
    assert "Global memory: none yet" in start
    _paths_exist(start)
