"""The memory instructions for the system prompt, and the per-turn recall reminder.

Follows MiMo-Code's ``buildMemoryInstructions`` and its recall reminder, with its gaps
closed: the absolute path of every layer is given for *this* project and session; when
memory writing is switched off the instructions say so and never ask the agent to write;
the reminder appears only when the session has memory (or tasks) and never when memory is
off; the commands named are mimomem's own (``search``, ``note``), spelled as the agent's shell can
run them: this installation by absolute path (:func:`mimomem.common.launcher.agent_command`; a
virtual environment's ``mimomem`` is not on the agent's ``PATH``), the session taken from the
host's environment (:data:`mimomem.tree.where.SESSION_VARIABLES`).

Both are mimomem's own wording around a few paths; the paths are redacted where they are put in
(:func:`_shown`), so context assembly need not scan the fixed wording for secrets (its words
"secrets", "tasks", "key" are needles of the scanner's rules, whose patterns would be compiled
for nothing in every session-start hook).
"""

from __future__ import annotations

import os

from mimomem.common.launcher import agent_command
from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.common.secrets import redact_secrets

if TYPE_CHECKING:
    from pathlib import Path

    from mimomem.tree.where import Where


def _shown(path: str | os.PathLike[str]) -> str:
    """A path as the model sees it: any likely secret in it (a session id, a data directory) redacted."""
    return redact_secrets(os.fspath(path))


def memory_instructions(where: Where) -> str:
    """The "Memory system" block: layers, paths, when to write what, how to recall - in few tokens.

    It is paid at every session start, so each path is given once (the session's files
    relative to its directory) and each rule in one line.  The text is
    :func:`render_instructions` of ``where``'s paths.
    """
    from mimomem.tree.layout import GLOBAL_ID

    tree = where.tree
    return render_instructions(
        str(tree.project_memory(where.project_id)),
        global_memory_shown(tree.global_memory()),
        None if where.session_id is None else str(tree.session_dir(where.session_id)),
        write_enabled=tree.write_enabled,
        global_project=where.project_id == GLOBAL_ID,
    )


def global_memory_shown(path: Path) -> str | None:
    """The global ``MEMORY.md`` for the instructions: its path when the file exists, else ``None``."""
    return str(path) if path.is_file() else None


def render_instructions(
    project_memory: str,
    global_memory: str | None,
    session_dir: str | None,
    *,
    write_enabled: bool,
    global_project: bool,
    command: str | None = None,
) -> str:
    """The instructions from plain strings: the project's and global ``MEMORY.md`` (``None``: the user
    has none, and no path the agent could not read is named), the session's
    directory (``None``: no session), whether memory writing is on, whether the project is the shared
    ``global`` one, the command that runs mimomem in the agent's shell (default: this installation's,
    :func:`~mimomem.common.launcher.agent_command`).  Imports nothing of the tree: the ``SessionStart``
    hook's served path renders a new session's instructions with it (:mod:`mimomem.hooks.entry_session`)."""
    run = _shown(agent_command() if command is None else command)
    lines = [
        "# Memory system",
        "Persistent Markdown memory, kept between sessions.",
        f"- Project memory: {_shown(project_memory)} (rules, decisions, durable facts)",
        f"- Global memory: {_shown(global_memory)} (the user's own, every project; read-only for you)"
        if global_memory is not None
        else "- Global memory: none yet (the user's own, for every project; read-only for you)",
    ]
    if session_dir is not None:
        lines.append(
            f"- This session: {_shown(session_dir)}/ - checkpoint.md "
            "(the checkpoint writer's only), notes.md (your scratchpad), "
            "tasks/<TID>/progress.md (one per subagent task)"
        )
    if not write_enabled:
        lines.append("Memory writing is OFF for this session: do not edit or create memory files; read, search them.")
    else:
        lines += _writing_rules(global_project, session_dir is not None, run)
    lines += _recall_rules(run)
    return "\n".join(lines) + "\n"


def _writing_rules(global_project: bool, in_session: bool, run: str) -> list[str]:
    lines = [
        "Write: a rule the user states -> `Rules` of project memory; a decision -> `Architecture decisions`; "
        "a durable fact needed before the next checkpoint -> `Discovered durable knowledge`; "
        "everything else waits for the checkpoint writer."
    ]
    if global_project:
        lines.append("(No git repository here: project memory is the shared `global` project.)")
    if in_session:
        lines.append(
            "Notes: append to notes.md one entry per item headed `## [turn N · YYYY-MM-DDTHH:MMZ]` (UTC), or run "
            f'`{run} note "TEXT"`; look for a near-duplicate first; no other ad-hoc memory files.'
        )
    lines.append("Never edit checkpoint.md. Never store secrets: write the variable name instead.")
    return lines


def _recall_rules(run: str) -> list[str]:
    return [
        "Recall: the memory blocks below are already in your context - do not read those files whole again. "
        f'For anything else run `{run} search "<1-3 distinctive words>"` (Chinese or English); a hit is '
        "authoritative, zero hits is not proof of absence: retry with other words. Entries are claims from "
        "when they were written: verify names before acting. Do not ask the user what memory may record."
    ]


def recall_reminder(where: Where) -> str:
    """The short per-turn reminder, or ``""`` when the session has no memory or memory is off.

    "Off" means writing is disabled: MiMo-Code kept reminding then, which nudged agents
    towards files they may not touch.
    """
    if where.session_id is None or not where.tree.write_enabled:
        return ""
    session_dir = where.tree.session_dir(where.session_id)
    if not _has_memory(session_dir):
        return ""
    return (
        "<system-reminder>\n"
        f"This session has memory at {_shown(session_dir)}/. Recall what is not in your context with\n"
        f'`{_shown(agent_command())} search "<keyword>"` or by reading the file. Do not ask the user about something\n'
        "memory may already record.\n"
        "</system-reminder>\n"
    )


def _has_memory(session_dir: Path) -> bool:
    """Whether the session's directory holds anything but the empty notes inbox ``SessionStart`` makes."""
    from mimomem.tree.templates import notes_template

    try:
        if any(p.name != "notes.md" for p in session_dir.iterdir()):
            return True
        notes = (session_dir / "notes.md").read_text(encoding="utf-8", errors="replace")
    except OSError:  # no directory, or no notes in it
        return False
    return notes.strip() not in ("", notes_template().strip())
