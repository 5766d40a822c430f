"""Agent-facing commands: ``context``, ``note`` and ``write`` (``install`` is in ``cli.install``).

Each resolves the project from ``--project`` (default: the working directory) and the
session from ``--session``, else the environment (``MIMOMEM_SESSION``, else the host's id in the
agent's shell: :data:`mimomem.tree.where.SESSION_VARIABLES`), then calls the library; every write
goes through the tree's write gate and secret scanner, whose refusals become one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from mimomem.cli import checks
from mimomem.errors import UsageError
from mimomem.memory.targets import resolve_target
from mimomem.tree.agents import claim, delegated


def _where(args: argparse.Namespace, *, need_session: bool = False) -> Any:
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.where import locate

    project = checks.existing_dir(args.project, "--project") or "."
    checks.not_a_file(getattr(args, "root", None), "--root")
    where = locate(project, session_id=args.session, tree=MemoryTree(getattr(args, "root", None)))
    if need_session and where.session_id is None:
        from mimomem.tree.where import NO_SESSION

        raise UsageError(NO_SESSION)
    return where


def cmd_context(args: argparse.Namespace) -> int:
    """Print the context an agent would get now: at session start, or for ``--prompt``."""
    from mimomem.context.assemble import PROMPT_BUDGET, SESSION_BUDGET, prompt_context, session_context

    budget = args.budget if args.budget is not None else PROMPT_BUDGET if args.prompt is not None else SESSION_BUDGET
    if budget < 100:
        raise UsageError(f"--budget must be at least 100 tokens, got {budget}")
    where = _where(args)
    if args.prompt is not None:
        ctx = prompt_context(where, args.prompt, budget=budget)
    else:
        ctx = session_context(where, budget=budget)
    if args.json:
        print(json.dumps(ctx.as_dict(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(ctx.text)
        print(f"[{ctx.tokens} of {ctx.budget} estimated tokens]", file=sys.stderr)
    return 0


def _text_arg(value: str | None, what: str) -> str:
    """``value``, or stdin when it is ``-`` or missing; refuses empty text."""
    text = checks.utf8(checks.text_or_stdin(value if value is not None else "-", what), what)
    if not text.strip():
        raise UsageError(f"{what} is empty; pass the text as an argument or on stdin")
    return text


def cmd_note(args: argparse.Namespace) -> int:
    """Append one entry to the session's notes inbox (``## [turn N · UTC time]`` heading)."""
    from mimomem.memory.writes import note

    where = _where(args, need_session=True)
    text = _text_arg(args.text, "note text")
    noted = note(where, where.writer(_agent(args)), text, turn=args.turn)
    _report(args, {"path": str(noted.path), "turn": noted.turn, "session_id": where.session_id})
    return 0


def cmd_write(args: argparse.Namespace) -> int:
    """Replace (or ``--append`` to) TARGET with stdin, if the gate allows this agent to.

    A whole checkpoint is the checkpoint writer's checked write, as the MCP tool checks it."""
    from mimomem.memory.writes import write

    where = _where(args)
    by = where.writer(_agent(args), task_id=args.task, delegated=delegated(args.agent, "cli", os.environ))
    target = resolve_target(where, args.target)  # a bad target is refused before stdin is read
    written = write(where, by, target, _text_arg(None, "stdin"), append=args.append)
    if written.undo is not None and not args.json:
        print(f"the previous checkpoint is kept as {written.undo}", file=sys.stderr)
    info: dict[str, Any] = {"path": str(written.path), "appended": written.appended}
    if written.checkpoint:
        info["undo"] = None if written.undo is None else str(written.undo)
    _report(args, info)
    return 0


def _agent(args: argparse.Namespace) -> str:
    """``--agent``, as the CLI may claim it (``user`` only outside an agent's shell)."""
    return claim(args.agent, "cli", os.environ)


def _report(args: argparse.Namespace, info: dict[str, Any]) -> None:
    if args.json:
        print(json.dumps(info, ensure_ascii=False))
    else:
        print(info["path"])
