"""Templates for the structured memory files, their section budgets, and the legacy rename.

- Project ``MEMORY.md``: four sections with token budgets (total 10,000).
- Session ``notes.md``: an inbox of entries headed ``## [turn N · YYYY-MM-DDTHH:MM:SSZ]``.
- Session ``checkpoint.md``: sections §1–§11 with token budgets.
- Task ``progress.md``: sections §1–§5, and a checker that lists the missing ones.

Section names and budgets follow MiMo-Code (``checkpoint-templates.ts``,
``subagent-progress-checker.ts``); the wording is ours.  MiMo's checkpoint section
budgets add up to 15,100 tokens while its whole-file budget says 11,000; here the file
budget is defined as the sum of the section budgets, so the two cannot disagree.
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple would turn every string
# annotation into a ForwardRef, whose compile() costs a hook process ~2 ms (the AST types' set-up).

import contextlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from datetime import datetime

from mimomem.tree.layout import check_task_id

PLACEHOLDER = "(none yet)"

MEMORY_SECTIONS: dict[str, tuple[int, str]] = {
    "Project context": (1000, "What this project is, its stack and layout, in a few lines."),
    "Rules": (2000, "Standing instructions from the user that apply to every session."),
    "Architecture decisions": (3000, "Decisions taken and why, newest last; mark superseded ones."),
    "Discovered durable knowledge": (4000, "Facts learned the hard way that will still be true next month."),
}
"""Project memory sections: name -> (token budget, instruction)."""

MEMORY_BUDGET = sum(budget for budget, _ in MEMORY_SECTIONS.values())

CHECKPOINT_SECTIONS: dict[str, tuple[int, str, str]] = {
    "§1 Active intent": (500, "The user's latest explicit request, quoted verbatim as a block quote.", PLACEHOLDER),
    "§2 Next concrete action": (1000, "The very next step, specific enough to start on immediately.", PLACEHOLDER),
    "§3 Directives (this session)": (
        800,
        "Instructions that hold for this session only; project-wide rules belong in MEMORY.md.",
        "(none)",
    ),
    "§4 Task tree": (
        1000,
        "Tasks and sub-tasks (indent two spaces per level); link each to tasks/<id>/progress.md.",
        PLACEHOLDER,
    ),
    "§5 Current work": (2000, "What is being done right now and how far it has got.", PLACEHOLDER),
    "§6 Files and code sections": (1500, "Files touched or read, with the parts that matter.", PLACEHOLDER),
    "§7 Discovered knowledge (cross-task)": (
        2000,
        "Findings useful beyond the current task; candidates for promotion to MEMORY.md.",
        PLACEHOLDER,
    ),
    "§8 Errors and fixes": (1500, "Errors met and how they were fixed, newest first.", "(none)"),
    "§9 Live resources": (1000, "Running servers, ports, branches, temp files and other live state.", PLACEHOLDER),
    "§10 Design decisions and discussion outcomes": (
        3000,
        "What was decided with the user, and the reasons.",
        PLACEHOLDER,
    ),
    "§11 Open notes": (800, "Anything that fits nowhere else.", PLACEHOLDER),
}
"""Checkpoint sections: header text (without ``## ``) -> (token budget, instruction, placeholder)."""

CHECKPOINT_BUDGET = sum(budget for budget, _, _ in CHECKPOINT_SECTIONS.values())

PROGRESS_SECTIONS: dict[str, str] = {
    "§1 Task identity": "- task_id: {tid}\n- (one-line summary of the task)",
    "§2 Subagent intent": "(one paragraph: what this subagent set out to do and why)",
    "§3 Files and code sections": "- path: what you did there",
    "§4 Verbatim commands": "```\n(commands run, copied exactly)\n```",
    "§5 Outcome and discoveries": "- Outcome (success/partial/failed): reason\n- (discoveries worth keeping)",
}
"""Task progress sections: header text (without ``## ``) -> body of the template."""


def memory_template() -> str:
    """The text of a new project ``MEMORY.md``."""
    out = ["# Project memory", "", "_Durable project knowledge; edit the content under each heading._", ""]
    for name, (budget, hint) in MEMORY_SECTIONS.items():
        out += [f"## {name}", f"_{hint} (budget: {budget} tokens)_", "", PLACEHOLDER, ""]
    return "\n".join(out)


def checkpoint_template() -> str:
    """The text of a new session ``checkpoint.md``."""
    out = [
        "# Session checkpoint",
        "",
        "_Written by the checkpoint writer; only the content under each heading changes._",
        "",
    ]
    for name, (budget, hint, placeholder) in CHECKPOINT_SECTIONS.items():
        out += [f"## {name}", f"_{hint} (budget: {budget} tokens)_", "", placeholder, ""]
    return "\n".join(out)


def notes_template() -> str:
    """The text of a new session ``notes.md`` inbox."""
    return (
        "# Session notes\n\n"
        "_Scratchpad of the main agent. Append entries headed `## [turn N · YYYY-MM-DDTHH:MM:SSZ]` "
        "(UTC); the checkpoint writer sorts them into the checkpoint and memory and then resets this "
        "file. Before appending, look for a near-duplicate entry and write `(see entry above)` instead "
        "of repeating it._\n"
    )


def progress_template(task_id: str) -> str:
    """The text of a new ``tasks/<TID>/progress.md`` for ``task_id``."""
    tid = check_task_id(task_id)
    out = [f"# Task {tid} progress", ""]
    for name, body in PROGRESS_SECTIONS.items():
        out += [f"## {name}", "", body.format(tid=tid), ""]
    return "\n".join(out)


# --- notes inbox entries ---

_ENTRY_RE = re.compile(
    r"^## \[turn (?P<turn>[0-9]+) · (?P<when>[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(?::[0-9]{2})?Z)\][ \t]*$",
    re.MULTILINE,
)


class NoteEntry(NamedTuple):
    """One entry of a notes inbox: its turn, UTC timestamp text and body."""

    turn: int
    when: str
    body: str


def utc_stamp(when: "datetime | None" = None) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ`` for ``when`` (default now); naive datetimes are taken as UTC."""
    from datetime import datetime, timezone  # writes only: a read never pays for it

    when = datetime.now(timezone.utc) if when is None else when
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def notes_entry(turn: int, text: str, *, when: "datetime | None" = None) -> str:
    """A notes inbox entry: ``## [turn N · <UTC timestamp>]``, a blank line, then ``text``."""
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise ValueError(f"turn must be a non-negative int, got {turn!r}")
    body = text.strip("\n")
    return f"## [turn {turn} · {utc_stamp(when)}]\n\n{body}\n"


def parse_notes(text: str) -> list[NoteEntry]:
    """The entries of a notes inbox, in file order (text before the first entry is ignored)."""
    matches = list(_ENTRY_RE.finditer(text))
    entries = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        entries.append(NoteEntry(int(m["turn"]), m["when"], text[m.end() : end].strip("\n")))
    return entries


# --- task progress checker ---


def missing_progress_sections(text: str) -> list[str]:
    """The ``## §N …`` progress headings absent from ``text``, in template order.

    A heading counts when a line outside fenced code blocks is exactly the heading
    (trailing text after a space is allowed, e.g. ``## §1 Task identity (T3)``).
    """
    found: set[str] = set()
    fence: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if fence is None and (stripped.startswith("```") or stripped.startswith("~~~")):
            fence = stripped[:3]
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        for name in PROGRESS_SECTIONS:
            heading = f"## {name}"
            if line.rstrip() == heading or line.startswith(heading + " "):
                found.add(name)
    return [f"## {name}" for name in PROGRESS_SECTIONS if name not in found]


def stamp_written_at(text: str, millis: int) -> str:
    """``text`` with a leading ``written-at: <millis>`` frontmatter, replacing an existing one.

    The checkpoint writer compares this stamp with its last reconcile mark to find
    changed task journals; stamping twice with the same value is a no-op.
    """
    body = text
    if text.startswith("---\n"):
        end = text.find("\n---\n", 3)
        if end != -1:
            body = text[end + len("\n---\n") :]
    return f"---\nwritten-at: {int(millis)}\n---\n{body}"


# --- legacy rename ---


def migrate_legacy_memory(project_dir: str | os.PathLike[str]) -> bool:
    """Rename a legacy ``memory.md`` in ``project_dir`` to ``MEMORY.md``; True if renamed.

    Idempotent and safe under races: nothing happens when ``MEMORY.md`` already exists
    (an exact-name check, so a case-insensitive filesystem is handled too); the new name
    is hard-linked first, so a ``MEMORY.md`` created meanwhile is never overwritten; and
    losing a race to another migrator (the source is gone) counts as done.
    """
    directory = Path(project_dir)
    try:
        names = set(os.listdir(directory))
    except FileNotFoundError:
        return False
    if "MEMORY.md" in names or "memory.md" not in names:
        return False
    old, new = directory / "memory.md", directory / "MEMORY.md"
    try:
        os.link(old, new)
    except FileNotFoundError:
        return False
    except FileExistsError:
        try:
            same = os.path.samefile(old, new)
        except FileNotFoundError:
            return False
        if not same:  # a real MEMORY.md appeared meanwhile: keep both, never overwrite
            return False
        try:  # case-insensitive filesystem: only the name's case changes (or a racing
            os.rename(old, new)  # migrator linked it: renaming a link onto itself is a no-op)
        except FileNotFoundError:
            return False
        return True
    except OSError:  # no hard links here: plain rename (could overwrite only in a tiny race)
        try:
            os.rename(old, new)
        except FileNotFoundError:
            return False
        return True
    with contextlib.suppress(FileNotFoundError):
        os.unlink(old)
    return True
