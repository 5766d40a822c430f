"""``mimomem install claude-code`` and ``mimomem uninstall claude-code``: parsers and commands.

The project's settings are found from any directory inside the repository (its git top level;
outside git, the working directory, said on stderr).  The hook command is checked to run, with
a minimal ``PATH``, before anything is written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mimomem.cli import checks

if TYPE_CHECKING:
    from mimomem.cli.parser import Subparsers


def add_parsers(sub: Subparsers) -> None:
    """``install`` and ``uninstall``, each with the ``claude-code`` harness."""
    q = _claude_code_parser(
        sub,
        "install",
        "set up an agent harness to use mimomem",
        help="merge mimomem's hooks into Claude Code's settings (numbered backups), or write a plugin",
        description="Adds this installation's `mimomem hook claude-code` (by absolute path: no PATH needed) for "
        "SessionStart, UserPromptSubmit, PreCompact and SessionEnd to .claude/settings.json at the top of the git "
        "repository around the working directory (default), of --project DIR, or ~/.claude/settings.json (--user), "
        "keeping everything already there. The command is run once first; nothing is written if it fails. "
        "--plugin DIR writes a Claude Code plugin (hooks and the MCP server) instead.",
    )
    q.add_argument("--plugin", metavar="DIR", help="write a Claude Code plugin directory (add it with /plugin)")
    q.add_argument("--print", action="store_true", help="print the hooks JSON instead of writing it")
    q.add_argument(
        "--mcp",
        action="store_true",
        help="print the `claude mcp add` line that runs this installation's MCP server by absolute path",
    )
    q.set_defaults(func=cmd_install_claude_code)
    q = _claude_code_parser(
        sub,
        "uninstall",
        "remove what install added to an agent harness",
        help="remove mimomem's hooks from Claude Code's settings",
        description="Removes the hooks install added from the same settings file. If nothing else changed since, "
        "the file is restored byte for byte (removed, if install created it); otherwise other edits are kept.",
    )
    q.set_defaults(func=cmd_uninstall_claude_code)


def _claude_code_parser(
    sub: Subparsers, command: str, summary: str, *, help: str, description: str
) -> argparse.ArgumentParser:
    """``mimomem COMMAND claude-code`` (the only harness so far) with the settings-scope options."""
    p = sub.add_parser(command, help=summary)
    harness = p.add_subparsers(dest=f"{command}_command", required=True, metavar="HARNESS", help="the agent harness:")
    q = harness.add_parser("claude-code", help=help, description=description)
    _scope_options(q)
    return q


def _scope_options(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--project", metavar="DIR", help="the project's settings, DIR/.claude (default: the git top level around .)"
    )
    where.add_argument("--user", action="store_true", help="the user's settings, for every project")


def settings_file(args: argparse.Namespace) -> Path:
    """The settings file ``args`` name (saying on stderr when the working directory is not in git)."""
    from mimomem.hooks.command import project_root
    from mimomem.hooks.install import settings_path

    if args.user:
        return settings_path("user")
    project = checks.existing_dir(args.project, "--project")
    if project is None:
        top, in_git = project_root(os.getcwd())
        if not in_git:
            print(f"not inside a git repository: using {top} as the project", file=sys.stderr)
        project = str(top)
    return settings_path("project", project)


def cmd_install_claude_code(args: argparse.Namespace) -> int:
    """Merge mimomem's hooks into Claude Code's settings, write a plugin, or print the hooks."""
    from mimomem.hooks.command import check_runs, hook_command
    from mimomem.hooks.install import hooks_config, install

    command = hook_command()
    if args.mcp:  # `claude mcp add mimomem -- mimomem mcp` fails silently when mimomem is not on PATH
        from mimomem.common.launcher import launcher, sh_join

        print(f"claude mcp add mimomem -- {sh_join(launcher())} mcp")
        return 0
    if args.print:
        print(json.dumps(hooks_config(command), indent=2))
        return 0
    if args.plugin:
        checks.not_a_file(args.plugin, "--plugin")
    path = None if args.plugin else settings_file(args)
    check_runs(command)
    if args.plugin:
        return _write_plugin(Path(os.path.expanduser(args.plugin)))
    assert path is not None
    change = install(path, command)
    if not change.events:
        print(f"{change.path} already runs this mimomem's hooks; nothing changed")
        return 0
    saved = f" (previous file saved as {change.backup.name})" if change.backup else ""
    print(f"added mimomem hooks for {', '.join(change.events)} to {change.path}{saved}")
    return 0


def _write_plugin(directory: Path) -> int:
    from mimomem.cli.mcp import sdk_available
    from mimomem.hooks.plugin import MARKETPLACE, NAME, write_plugin

    with_mcp = sdk_available()
    write_plugin(directory, with_mcp=with_mcp)
    if not with_mcp:
        print(
            "the MCP SDK is not installed: the plugin has hooks only (pip install 'mimomem[mcp]', then rerun)",
            file=sys.stderr,
        )
    where = os.path.abspath(directory)
    print(
        f"wrote the mimomem plugin to {where}; in Claude Code run:\n"
        f"  /plugin marketplace add {where}\n  /plugin install {NAME}@{MARKETPLACE}"
    )
    return 0


def cmd_uninstall_claude_code(args: argparse.Namespace) -> int:
    """Remove mimomem's hooks from Claude Code's settings."""
    from mimomem.hooks.install import uninstall

    path = settings_file(args)
    if not path.exists() and not path.is_symlink():
        print(f"{path} does not exist; nothing to remove")
        return 0
    change: Any = uninstall(path)
    if not change.events:
        print(f"{change.path} runs no mimomem hooks; nothing changed")
    elif change.restored:
        print(f"removed mimomem's hooks from {change.path}: it is as it was before install")
    else:
        print(
            f"removed mimomem's hooks from {change.path}, kept the other changes made since install"
            + (f" (previous file saved as {change.backup.name})" if change.backup else "")
        )
    return 0
