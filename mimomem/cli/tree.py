"""``mimomem paths``: where each layer of the memory tree lives for a project (and session, task)."""

from __future__ import annotations

import argparse
import json

from mimomem.cli import checks
from mimomem.common.cache import cache_root
from mimomem.common.journal import journal_choice
from mimomem.errors import UsageError
from mimomem.tree.memory_tree import MemoryTree


def cmd_paths(args: argparse.Namespace) -> int:
    """The project id, repository root, data directory and every layer file, as a table or JSON; then the
    hosts' own memory mimomem reads (Claude Code's folder and how full its ``MEMORY.md`` index is)."""
    if args.task and not args.session:
        raise UsageError("--task needs --session SID (a task journal lives in its session)")
    project = checks.existing_dir(args.project, "--project") or "."
    checks.not_a_file(args.root, "--root")
    tree = MemoryTree.from_mimocode(args.mimocode or None) if args.mimocode is not None else MemoryTree(args.root)
    ident = tree.project_id(project)
    layers = tree.layers(project_id=ident.id, session_id=args.session, task_id=args.task)
    info = {
        "project_id": ident.id,
        "repo_root": None if ident.root is None else str(ident.root),
        "git_dir": None if ident.git_dir is None else str(ident.git_dir),
        "data_dir": str(tree.data_dir),
        **{name: str(path) for name, path in layers.items()},
        "cache_dir": cache_root(),
        "journal": " - ".join(journal_choice()),
        **host_memory_paths(project),
    }
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        width = max(map(len, info))
        for name, value in info.items():
            print(f"{name:<{width}}  {value if value is not None else '-'}")
    return 0


def host_memory_paths(project: str) -> dict[str, str | None]:
    """Claude Code's auto-memory folder for ``project`` and the gauge of its index (lines and characters
    used of the 200 / 25,000 it loads), ``None`` when host memory is switched off."""
    import os

    from mimomem.context.host_memory import gauge, gauge_line
    from mimomem.tree.host_paths import claude_memory_dir, enabled_hosts

    if "claude-code" not in enabled_hosts(os.environ):
        return {"claude_code_memory": None, "claude_code_index": None}
    cwd = os.path.abspath(project)
    return {"claude_code_memory": claude_memory_dir(cwd, os.environ), "claude_code_index": gauge_line(gauge(cwd))}
