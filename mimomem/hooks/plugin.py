"""``mimomem install claude-code --plugin DIR``: a Claude Code plugin (and a one-plugin marketplace).

Claude Code installs hooks and MCP servers together as a plugin.  ``DIR`` gets:

- ``.claude-plugin/plugin.json`` (the plugin) and ``.claude-plugin/marketplace.json`` (a
  marketplace listing it, so ``/plugin marketplace add DIR`` then ``/plugin install
  mimomem@mimomem`` add it);
- ``bin/mimomem``: a ``sh`` script that runs this installation by absolute path, with
  ``MIMOMEM_CACHE_DIR`` in ``${CLAUDE_PLUGIN_DATA}`` (a data directory that survives updates), and
  itself as ``MIMOMEM_LAUNCHER``: the command the injected instructions tell the agent to run
  (:func:`mimomem.common.launcher.agent_command`), so the agent's commands share the hooks' caches;
- ``hooks/hooks.json``: the four hook events, each running ``bin/mimomem hook claude-code``
  through ``${CLAUDE_PLUGIN_ROOT}`` (where Claude Code keeps its copy of the plugin);
- ``.mcp.json``: the ``mimomem mcp`` server (only when the MCP SDK is installed).

Memory itself stays where the command line finds it (``MIMOMEM_HOME``), shared with the CLI.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import mimomem
from mimomem.common.launcher import LAUNCHER_VARIABLE, launcher
from mimomem.errors import SettingsFileError

NAME = "mimomem"
MARKETPLACE = "mimomem"
RUNNER = "bin/mimomem"
ROOT_VAR = "${CLAUDE_PLUGIN_ROOT}"
FILES = (".claude-plugin/plugin.json", ".claude-plugin/marketplace.json", RUNNER, "hooks/hooks.json", ".mcp.json")
DESCRIPTION = "Layered Markdown memory for coding agents: context at session start and per prompt, notes kept"


def runner_script(words: list[str]) -> str:
    """``bin/mimomem``: runs ``words`` (this installation) with the caches in the plugin's data directory."""
    return (
        "#!/bin/sh\n"
        "# Written by `mimomem install claude-code --plugin`: runs that installation of mimomem.\n"
        'if [ -n "${CLAUDE_PLUGIN_DATA:-}" ] && [ -z "${MIMOMEM_CACHE_DIR:-}" ]; then\n'
        '  MIMOMEM_CACHE_DIR="$CLAUDE_PLUGIN_DATA/cache"\n'
        "  export MIMOMEM_CACHE_DIR\n"
        "fi\n"
        f'case "$0" in /*) {LAUNCHER_VARIABLE}="$0"; export {LAUNCHER_VARIABLE} ;; esac\n'
        f'exec {shlex.join(words)} "$@"\n'
    )


def plugin_files(*, with_mcp: bool) -> dict[str, str]:
    """Each file of the plugin directory (relative path -> text)."""
    from mimomem.hooks.install import EVENTS, TIMEOUT_SECONDS

    run = f'sh "{ROOT_VAR}/{RUNNER}"'
    hook = {"type": "command", "command": f"{run} hook claude-code", "timeout": TIMEOUT_SECONDS}
    files = {
        ".claude-plugin/plugin.json": {"name": NAME, "version": mimomem.__version__, "description": DESCRIPTION},
        ".claude-plugin/marketplace.json": {
            "name": MARKETPLACE,
            "owner": {"name": "mimomem"},
            "plugins": [{"name": NAME, "source": "./", "description": DESCRIPTION}],
        },
        "hooks/hooks.json": {"hooks": {event: [{"matcher": "", "hooks": [dict(hook)]}] for event in EVENTS}},
    }
    if with_mcp:
        files[".mcp.json"] = {"mcpServers": {NAME: {"command": "sh", "args": [f"{ROOT_VAR}/{RUNNER}", "mcp"]}}}
    text = {path: json.dumps(value, indent=2) + "\n" for path, value in files.items()}
    text[RUNNER] = runner_script(launcher())
    return text


def write_plugin(directory: Path, *, with_mcp: bool) -> list[Path]:
    """Write the plugin into ``directory`` (new, empty, or a plugin written before); the files written."""
    from mimomem.common.files import atomic_write

    _check_directory(directory)
    written = []
    for rel, text in plugin_files(with_mcp=with_mcp).items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text, private=False)  # a plugin the host reads: its usual mode
        if rel == RUNNER:
            os.chmod(path, 0o755)
        written.append(path)
    stale = directory / ".mcp.json"
    if not with_mcp and stale.is_file():
        stale.unlink()  # an earlier plugin's server, which this installation cannot run
    return written


def _check_directory(directory: Path) -> None:
    if directory.exists() and not directory.is_dir():
        raise SettingsFileError(f"{directory} is not a directory; pick a new one for the plugin")
    if not directory.exists():
        if not directory.parent.is_dir():
            raise SettingsFileError(f"{directory.parent} does not exist; check the path, then retry")
        return
    if any(directory.iterdir()) and not _is_our_plugin(directory):
        raise SettingsFileError(f"{directory} is not empty and not a mimomem plugin; pick a new directory")


def _is_our_plugin(directory: Path) -> bool:
    try:
        manifest = json.loads((directory / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("name") == NAME
