"""``checkpoint``: fill what a session checkpoint can state without a model, and check its shape.

The checkpoint writer normally is a model.  Without one, these sections can still be
filled from facts (each replaced only when there is something to put in it):

- §1 Active intent: the user's latest request in the session, quoted;
- §4 Task tree: the session's task journals (``tasks/<TID>/progress.md``), sub-tasks
  indented, each with its ``last-reconciled-written-at`` marker;
- §6 Files and code sections: files edited in the session, and those the journals name;
- §8 Errors and fixes: failed calls and what fixed them, newest first;
- §11 Open notes: the entries of the notes inbox (``notes.md`` itself is left alone).

Every other section keeps its content.  The result is validated: all eleven ``## §N``
headings present once and in order, each section within its token budget.  Written
through the gate as ``checkpoint-writer``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mimomem.errors import PassError
from mimomem.history.evidence import Evidence, Window
from mimomem.history.records import iso_time
from mimomem.passes.answer_check import checkpoint_answer_problems
from mimomem.passes.base import Change, PassContext, PassReport, apply_changes, read_text, save_undo
from mimomem.passes.memory_doc import MemoryDoc, Section
from mimomem.passes.wording import quote, without_secrets
from mimomem.served.estimate import estimate_tokens
from mimomem.tree.layout import TASK_ID_RE
from mimomem.tree.memory_tree import CHECKPOINT_WRITER
from mimomem.tree.templates import CHECKPOINT_BUDGET, CHECKPOINT_SECTIONS, checkpoint_template, parse_notes
from mimomem.tree.where import Where

HEADINGS = ("Filled", "Kept", "Validation")
INTENT, TASKS, FILES, ERRORS, NOTES = (
    "§1 Active intent",
    "§4 Task tree",
    "§6 Files and code sections",
    "§8 Errors and fixes",
    "§11 Open notes",
)
_WRITTEN_AT = re.compile(r"^written-at:\s*([0-9]+)\s*$", re.M)


@dataclass(frozen=True)
class Journal:
    """What the checkpoint needs from one ``tasks/<TID>/progress.md``."""

    task_id: str
    summary: str
    outcome: str
    files: tuple[str, ...]
    written_at: int | None


def read_journals(tasks_dir: Path) -> list[Journal]:
    """The session's task journals, in task-id order (``T2`` before ``T10``)."""
    out = []
    try:
        entries = [e for e in os.scandir(tasks_dir) if TASK_ID_RE.fullmatch(e.name) and e.is_dir()]
    except OSError:
        return []
    for entry in sorted(entries, key=lambda e: [int(x) for x in e.name[1:].split(".")]):
        text = read_text(Path(entry.path) / "progress.md")
        if text is not None:
            out.append(_journal(entry.name, text))
    return out


def _journal(task_id: str, text: str) -> Journal:
    doc = MemoryDoc.parse(text)
    written = _WRITTEN_AT.search(text[: text.find("\n---", 4) + 1]) if text.startswith("---\n") else None

    def bullets(prefix: str) -> list[str]:
        section = next((s for s in doc.sections if s.heading.startswith(prefix)), None)
        return [line[2:].strip() for line in (section.lines if section else []) if line.startswith("- ")]

    identity = [b for b in bullets("§1") if not b.startswith("task_id:") and not b.startswith("(")]
    outcome = next((b for b in bullets("§5") if b.startswith("Outcome") and "success/partial/failed" not in b), "")
    files = [b.split(":", 1)[0] for b in bullets("§3") if not b.startswith("path:")]
    return Journal(task_id, identity[0] if identity else "", outcome, tuple(files), written and int(written.group(1)))


# --- generated section bodies ---


def intent_body(ev: Evidence, session_id: str) -> list[str]:
    latest = ev.latest_request(session_id)
    if latest is None:
        return []
    text, prov = latest
    return [f"> {quote(text, 200)}", "", f"(latest user request, {iso_time(prov.time)})"]


def tasks_body(journals: list[Journal]) -> list[str]:
    out = []
    for j in journals:
        indent = "  " * j.task_id.count(".")
        outcome = f" [{j.outcome}]" if j.outcome else ""
        marker = f", last-reconciled-written-at: {j.written_at}" if j.written_at is not None else ""
        summary = f" — {quote(j.summary, 120)}" if j.summary else ""
        out.append(f"{indent}- {j.task_id}{summary}{outcome} (progress: tasks/{j.task_id}/progress.md{marker})")
    return out


def files_body(ev: Evidence, journals: list[Journal]) -> list[str]:
    out = [f"- {f.path} (edited {f.edits}x)" for f in ev.files_touched(limit=30)]
    seen = {line.split(" ", 2)[1] for line in out}
    for j in journals:
        out += [f"- {path} (task {j.task_id})" for path in j.files if path not in seen]
        seen.update(j.files)
    return out


def errors_body(ev: Evidence) -> list[str]:
    out = []
    for f in reversed(ev.failures()):
        fix = f"fix: {f.fix}" if f.fix else "not fixed yet"
        out.append(f'- `{quote(f.call, 120)}` failed: "{quote(f.error, 160)}"; {fix} ({iso_time(f.provenance.time)})')
    return out


def notes_body(notes_text: str | None) -> list[str]:
    entries = parse_notes(notes_text or "")
    return [f"- [turn {e.turn} · {e.when}] {quote(e.body, 300)}" for e in entries if e.body.strip()]


def fit(lines: list[str], budget: int) -> list[str]:
    """The leading ``lines`` whose text stays within ``budget`` tokens (whole lines only)."""
    kept: list[str] = []
    for line in lines:
        if estimate_tokens("\n".join([*kept, line])) > budget:
            break
        kept.append(line)
    return kept


# --- validation ---


def validate_checkpoint(text: str) -> list[str]:
    """Problems of a checkpoint: missing, repeated or misordered ``## §N`` headings, sections over budget."""
    doc = MemoryDoc.parse(text)
    names = [s.heading for s in doc.sections]
    problems = []
    positions = []
    for name in CHECKPOINT_SECTIONS:
        count = names.count(name)
        if count == 0:
            problems.append(f"missing heading: ## {name}")
        elif count > 1:
            problems.append(f"heading appears {count} times: ## {name}")
        else:
            positions.append(names.index(name))
    if positions != sorted(positions):
        problems.append("the §1-§11 headings are out of order")
    for section in doc.sections:
        spec = CHECKPOINT_SECTIONS.get(section.heading)
        used = estimate_tokens("\n".join(section.lines))
        if spec is not None and used > spec[0]:
            problems.append(f"{section.heading} is over its budget: ~{used} of {spec[0]} tokens")
    total = estimate_tokens(text)
    if total > CHECKPOINT_BUDGET:
        problems.append(f"the checkpoint is over its budget: ~{total} of {CHECKPOINT_BUDGET} tokens")
    return problems


# --- the pass ---


def _set_body(section: Section, body: list[str]) -> None:
    hint = [line for line in section.lines[:1] if line.startswith("_") and line.rstrip().endswith("_")]
    section.lines = [*hint, "", *body, ""]


def merge_checkpoint(live: str | None, generated: dict[str, list[str]]) -> tuple[str, list[str], list[str]]:
    """``live`` with the generated sections replaced and missing headings restored: (text, filled, kept)."""
    doc = MemoryDoc.parse(live if live is not None and live.strip() else checkpoint_template())
    template = MemoryDoc.parse(checkpoint_template())
    ordered: list[Section] = []
    for name in CHECKPOINT_SECTIONS:
        found = doc.find(name)
        ordered.append(found if found is not None else template.find(name) or Section(name))
    extra = [s for s in doc.sections if s.heading not in CHECKPOINT_SECTIONS]
    doc.sections = ordered + extra
    filled, kept = [], []
    for name in CHECKPOINT_SECTIONS:
        section = doc.find(name)
        body = fit(generated.get(name, []), CHECKPOINT_SECTIONS[name][0] - 40)
        if section is not None and body:
            _set_body(section, body)
            filled.append(f"{name} ({len(body)} lines)")
        else:
            kept.append(name)
    return doc.render(), filled, kept


def run_checkpoint(ctx: PassContext, *, dry_run: bool = False) -> PassReport:
    """Fill the deterministic sections of the session's checkpoint and validate it."""
    sid = ctx.where.session_id
    if sid is None:
        raise PassError("checkpoint needs a session: pass --session SID or set MIMOMEM_SESSION")
    tree = ctx.where.tree
    ev = Evidence.gather(ctx.store, Window(session_id=sid))
    journals = read_journals(tree.tasks_dir(sid))
    generated = {
        INTENT: intent_body(ev, sid),
        TASKS: tasks_body(journals),
        FILES: files_body(ev, journals),
        ERRORS: errors_body(ev),
        NOTES: notes_body(read_text(tree.notes(sid))),
    }
    redacted = 0
    for name, lines in generated.items():
        generated[name], count = without_secrets(lines)
        redacted += count
    path = tree.checkpoint(sid)
    live = read_text(path)
    text, filled, kept = merge_checkpoint(live, generated)
    report = PassReport("checkpoint", HEADINGS)
    for line in filled:
        report.add("Filled", line)
    for name in kept:
        report.add("Kept", name)
    if redacted:
        report.add("Filled", f"{redacted} line(s) from the history held a likely secret; the secret was redacted")
    problems = validate_checkpoint(text)
    for problem in problems:
        report.add("Validation", problem)
    if not problems:
        report.add("Validation", f"OK: all {len(CHECKPOINT_SECTIONS)} sections, ~{estimate_tokens(text)} tokens")
    if not ev.sessions():
        report.add("Kept", f"no history for session {sid}; run `mimomem history import` first")
    if text != live:
        report.changes.append(Change(path, live, text, _remerge(generated)))
    apply_changes(ctx, report, CHECKPOINT_WRITER, dry_run=dry_run)
    return report


def _remerge(generated: dict[str, list[str]]) -> Callable[[str | None], str]:
    def apply(live: str | None) -> str:
        return merge_checkpoint(live, generated)[0]

    return apply


def write_checkpoint(where: Where, session_id: str, text: str, *, delegated: bool) -> tuple[Path | None, Path | None]:
    """Replace ``session_id``'s checkpoint with ``text`` as the checkpoint writer, checked as a model's answer.

    The front ends' one way to write a whole checkpoint (MCP ``memory_checkpoint``, ``mimomem write
    checkpoint``): refused (``PassError``, nothing written) when ``text`` is no checkpoint or drops
    or empties a section that had content; a heading missing over an empty section comes back; the
    replaced text is kept as an undo copy.  Returns (the path written or None, the undo copy)."""
    tree = where.tree
    path = tree.checkpoint(session_id)
    saved: list[Path] = []

    def apply(live: str | None) -> str:
        problems = checkpoint_answer_problems(live, text)
        if problems:
            raise PassError(
                f"checkpoint refused, nothing was written: {'; '.join(problems)}. Send the whole checkpoint, "
                "every ## §N section that holds something included"
            )
        new = merge_checkpoint(text, {})[0]
        if live is not None and live != new:
            saved.append(save_undo(tree, path, live))
        return new

    written, changed = tree.update(path, apply, where.writer(CHECKPOINT_WRITER, delegated=delegated))
    return (written if changed else None), (saved[0] if saved else None)
