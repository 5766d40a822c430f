"""The ``checkpoint``, ``dream`` and ``distill`` prompts: instructions plus evidence gathered without a model.

The host agent's own model does the writing, through ``memory_write`` and ``memory_remember``;
the server only collects what the files hold (deterministically, each piece cut to a token
budget with a pointer to the rest) and says what to produce:

- ``checkpoint``: the session's notes inbox, the task journals changed since the last
  checkpoint, the current checkpoint and the template's sections with their budgets;
- ``dream`` and ``distill`` (minimal versions): the notes and checkpoints of this project's
  sessions and the ``MEMORY.md`` layers.  The history-backed versions, with evidence from the
  conversation history itself, are ``mimomem dream --emit-prompt`` and ``mimomem distill
  --emit-prompt`` (after ``mimomem history import``); these prompts need no imported history.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from mcp.server.mcpserver.prompts import Prompt

from mimomem.context.rebuild import notes_text, read_memory_file
from mimomem.mcp.state import MemoryState
from mimomem.served.budgeted import read_budgeted
from mimomem.tree.boilerplate import content_only
from mimomem.tree.templates import CHECKPOINT_BUDGET, CHECKPOINT_SECTIONS, MEMORY_SECTIONS, notes_template
from mimomem.tree.where import Where, session_projects

NOTES_TOKENS = 6000
"""Most tokens of a notes inbox shown in a prompt (the rest is named, with the file)."""

JOURNAL_TOKENS = 2000
"""Most tokens of one task journal shown in the checkpoint prompt."""

CHECKPOINT_TOKENS = 1500
"""Most tokens of one past session's checkpoint shown in the dream / distill prompts."""

SESSIONS = 8
"""How many of this project's sessions (newest checkpoint first) dream and distill look at."""

HISTORY_NOTE = (
    "This is the minimal version: the evidence is what the memory files hold (session notes, checkpoints, "
    "MEMORY.md), not the conversation history. Richer evidence from the history itself comes with the history "
    "store: `mimomem history import`, then `mimomem dream --emit-prompt` or `mimomem distill --emit-prompt` in a "
    "shell. Do not invent what the evidence below does not show."
)

DESCRIPTIONS = {
    "checkpoint": "Write this session's checkpoint from its notes, changed task journals and the current checkpoint.",
    "dream": "Minimal: consolidate this project's MEMORY.md from its sessions' checkpoints and notes.",
    "distill": "Minimal: turn durable lessons in this project's checkpoints and notes into curated memories.",
}


# -- evidence ----------------------------------------------------------------------------------
def _section(title: str, text: str, empty: str) -> str:
    return f"## {title}\n\n{text.strip() if text.strip() else empty}\n"


def _cut(text: str, tokens: int, source: Path) -> str:
    return read_budgeted(text, tokens, source=str(source)).text


def changed_journals(where: Where) -> list[Path]:
    """``tasks/<TID>/progress.md`` files modified after the checkpoint (all of them without one)."""
    assert where.session_id is not None
    tree = where.tree
    try:
        since = os.stat(tree.checkpoint(where.session_id)).st_mtime
    except OSError:
        since = float("-inf")
    tasks = tree.tasks_dir(where.session_id)
    try:
        journals = sorted(p / "progress.md" for p in tasks.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []
    out = []
    for path in journals:
        try:
            if os.stat(path).st_mtime > since:
                out.append(path)
        except OSError:
            continue
    return out


def sections_text() -> str:
    """The checkpoint template's headings with their budgets and what goes under each."""
    lines = [
        f"- `## {name}` (at most {budget} tokens): {hint}" for name, (budget, hint, _) in CHECKPOINT_SECTIONS.items()
    ]
    return "\n".join(lines)


def checkpoint_prompt(state: MemoryState, where: Where) -> str:
    """Instructions for writing the checkpoint, then the evidence (see the module docstring)."""
    assert where.session_id is not None
    tree, sid = where.tree, where.session_id
    checkpoint = read_memory_file(tree.checkpoint(sid))
    notes_path = tree.notes(sid)
    parts = [
        f"You are the checkpoint writer for session {sid} of project {where.project_name}. Write the session's "
        "complete new checkpoint and store it with one call: memory_checkpoint(text=...). It "
        "replaces the file, so carry over everything in the current checkpoint that still holds.",
        "Use exactly these headings, in this order, under a first line `# Session checkpoint`; keep each section "
        f"within its budget (total {CHECKPOINT_BUDGET} tokens); write `(none yet)` under a heading with nothing:\n\n"
        + sections_text(),
        "Rules: quote the user's latest request verbatim in §1. Sort every note below into its section; drop "
        "duplicates and anything no longer true. Summarise each changed task journal in §4/§5 and link it as "
        "tasks/<TID>/progress.md. Durable project knowledge (a rule the user stated, an architecture decision, a "
        "fact that will hold next month) also goes to project memory: read memory://project, then "
        'memory_write(target="project") keeping its headings. Never copy a secret: name the variable instead.',
        'When the checkpoint is written, reset the notes inbox to its header with memory_write(target="notes", '
        "text=<the header below>):\n\n```markdown\n" + notes_template() + "```",
        _section(f"Notes inbox ({notes_path})", _cut(notes_text(notes_path), NOTES_TOKENS, notes_path), "(no notes)"),
    ]
    journals = changed_journals(where)
    if journals:
        texts = [f"### {p.parent.name}\n\n{_cut(read_memory_file(p), JOURNAL_TOKENS, p).strip()}" for p in journals]
        parts.append(_section("Task journals changed since the checkpoint", "\n\n".join(texts), ""))
    else:
        parts.append(_section("Task journals changed since the checkpoint", "", "(none)"))
    current = checkpoint if content_only(checkpoint).strip() else ""
    parts.append(_section(f"Current checkpoint ({tree.checkpoint(sid)})", current, "(none yet: this is the first)"))
    return "\n\n".join(parts)


def _project_sessions(where: Where) -> list[str]:
    """This project's sessions, newest checkpoint first (the current one always included)."""
    tree = where.tree
    sids = {sid for sid, pid in session_projects(tree).items() if pid == where.project_id}
    if where.session_id is not None:
        sids.add(where.session_id)

    def newest(sid: str) -> float:
        try:
            return max(os.stat(p).st_mtime for p in (tree.checkpoint(sid), tree.notes(sid)) if p.exists())
        except (OSError, ValueError):
            return float("-inf")

    return sorted(sids, key=lambda sid: (-newest(sid), sid))[:SESSIONS]


def project_evidence(where: Where) -> str:
    """MEMORY.md (project and global), then each recent session's checkpoint and notes, each cut to a budget."""
    tree = where.tree
    parts = []
    for title, path in (
        ("Project memory", tree.project_memory(where.project_id)),
        ("Global memory", tree.global_memory()),
    ):
        parts.append(_section(f"{title} ({path})", content_only(read_memory_file(path)), "(empty)"))
    for sid in _project_sessions(where):
        checkpoint_path, notes_path = tree.checkpoint(sid), tree.notes(sid)
        checkpoint = content_only(read_memory_file(checkpoint_path))
        notes = notes_text(notes_path)
        if not checkpoint.strip() and not notes.strip():
            continue
        body = []
        if checkpoint.strip():
            body.append(f"### Checkpoint ({checkpoint_path})\n\n{_cut(checkpoint, CHECKPOINT_TOKENS, checkpoint_path)}")
        if notes.strip():
            body.append(f"### Notes ({notes_path})\n\n{_cut(notes, CHECKPOINT_TOKENS, notes_path)}")
        parts.append(_section(f"Session {sid}", "\n\n".join(body), ""))
    return "\n\n".join(parts)


def dream_prompt(state: MemoryState, where: Where) -> str:
    """Consolidate project MEMORY.md from the evidence (minimal version)."""
    headings = "\n".join(f"- `## {name}` (at most {budget} tokens)" for name, (budget, _) in MEMORY_SECTIONS.items())
    return "\n\n".join(
        [
            f"Dream (minimal version) for project {where.project_name}: consolidate its durable memory. Read the "
            'evidence below and rewrite project memory with memory_write(target="project", text=...): keep its '
            "headings and budgets, merge what the sessions learned that will still be true next month, remove "
            "duplicates and anything the evidence shows is obsolete, keep the user's rules verbatim. Leave global "
            "memory to the user. Never copy a secret.\n\n" + headings,
            HISTORY_NOTE,
            project_evidence(where),
        ]
    )


def distill_prompt(state: MemoryState, where: Where) -> str:
    """Turn durable lessons into curated memories (minimal version)."""
    return "\n\n".join(
        [
            f"Distill (minimal version) for project {where.project_name}: find the durable, reusable lessons in the "
            "evidence below (user preferences, decisions and their reasons, pitfalls, facts) and store each with "
            "memory_remember, one idea per memory with a self-contained one-line summary. Call memory_recall on "
            "the topic first: if a memory already says it, skip it, or pass supersedes to replace one that is "
            "outdated. Rules you store become proposals for the user to accept. Never store a secret.",
            HISTORY_NOTE,
            project_evidence(where),
        ]
    )


def _renderer(
    state: MemoryState, build: Callable[[MemoryState, Where], str], name: str
) -> Callable[[], Awaitable[str]]:
    async def render() -> str:
        return await state.run(build)

    render.__name__ = name
    return render


def build_prompts(state: MemoryState) -> list[Prompt]:
    """The three prompts, each rendered through ``state`` (one call at a time)."""
    builders = {"checkpoint": checkpoint_prompt, "dream": dream_prompt, "distill": distill_prompt}
    return [
        Prompt.from_function(_renderer(state, build, name), name=name, description=DESCRIPTIONS[name])
        for name, build in builders.items()
    ]
