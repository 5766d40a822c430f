"""The memory instructions for the system prompt, and the per-turn recall reminder.

Follows MiMo-Code's ``buildMemoryInstructions`` and its recall reminder, with its gaps
closed: the absolute path of every layer is given for *this* project and session; when
memory writing is switched off the instructions say so and never ask the agent to write;
the reminder appears only when the session has memory (or tasks) and never when memory is
off; the commands named are mimomem's own (``mimomem search``, ``mimomem note``).
"""

from __future__ import annotations

from mimomem.context.where import Where
from mimomem.tree.layout import GLOBAL_ID


def memory_instructions(where: Where) -> str:
    """The "Memory system" block: layers, paths, when to write what, how to recall."""
    tree = where.tree
    layers = [
        "# Memory system",
        "",
        "You have a persistent memory made of Markdown files; it survives between sessions.",
        f"- Project memory: {tree.project_memory(where.project_id)} (context, rules, decisions, durable facts)",
        f"- Global memory: {tree.global_memory()} (the user's own, for every project; read-only for you)",
    ]
    if where.session_id is not None:
        layers += [
            f"- Session checkpoint: {tree.checkpoint(where.session_id)} (written only by the checkpoint writer)",
            f"- Session notes: {tree.notes(where.session_id)} (your scratchpad)",
            f"- Task journals: {tree.tasks_dir(where.session_id)}/<TID>/progress.md (one per subagent task)",
        ]
    parts = ["\n".join(layers)]
    if not tree.write_enabled:
        parts.append(
            "Memory writing is OFF for this session: do not edit or create memory files. "
            "Read and search them as needed."
        )
    else:
        parts.append(_writing_rules(where))
    parts.append(_recall_rules())
    return "\n\n".join(parts) + "\n"


def _writing_rules(where: Where) -> str:
    notes = where.tree.notes(where.session_id) if where.session_id is not None else None
    lines = [
        "## When to write",
        "- A project rule the user states -> the `Rules` section of project memory.",
        "- An architecture decision the user states -> `Architecture decisions`.",
        "- A durable fact needed before the next checkpoint -> `Discovered durable knowledge`.",
        "Everything else waits for the checkpoint writer, which curates these files.",
    ]
    if where.project_id == GLOBAL_ID:
        lines.append("(No git repository here: project memory is the shared `global` project.)")
    if notes is not None:
        lines += [
            "",
            "## Notes scratchpad",
            f"Append quotes, open questions and notes for your future self to {notes}, one entry per",
            'item headed `## [turn N · YYYY-MM-DDTHH:MMZ]` (UTC), or run `mimomem note "TEXT"`.',
            "Look for a near-duplicate entry first. Do not create other ad-hoc memory files.",
        ]
    lines += ["", "Never edit checkpoint.md. Never store secrets: write the variable name instead."]
    return "\n".join(lines)


def _recall_rules() -> str:
    return "\n".join(
        [
            "## Recall",
            "Blocks headed `## Session checkpoint`, `## Project memory`, `## Global memory` or",
            "`## Session notes` are already in your context: do not read those files whole again.",
            'For anything else run `mimomem search "<1-3 distinctive words>"` (Chinese or English);',
            "a hit is authoritative, zero hits is not proof of absence: retry with other words.",
            "Memory entries are claims from the time they were written: verify names before acting.",
            "Do not ask the user about something memory may already record.",
        ]
    )


def recall_reminder(where: Where) -> str:
    """The short per-turn reminder, or ``""`` when the session has no memory or memory is off.

    "Off" means writing is disabled: MiMo-Code kept reminding then, which nudged agents
    towards files they may not touch.
    """
    if where.session_id is None or not where.tree.write_enabled:
        return ""
    session_dir = where.tree.session_dir(where.session_id)
    try:
        has_memory = any(session_dir.iterdir())
    except OSError:
        has_memory = False
    if not has_memory:
        return ""
    return (
        "<system-reminder>\n"
        f"This session has memory at {session_dir}/. Recall what is not in your context with\n"
        '`mimomem search "<keyword>"` or by reading the file. Do not ask the user about something\n'
        "memory may already record.\n"
        "</system-reminder>\n"
    )
