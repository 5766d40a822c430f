"""Checks of a model's answer before it replaces a memory file: the model proposes, these decide.

A model's answer is text from outside; an empty block or a stray ``OK.`` must not wipe what the
user wrote.  So, before anything is written:

- a new ``MEMORY.md`` keeps every ``## `` heading of the file it replaces and every line of it
  (compared by :func:`~mimomem.passes.memory_doc.item_key`: bullet, provenance, case and
  punctuation ignored), unless the model's report after the block names that line (its
  ``Deleted`` / ``Updated`` lines): an explicit deletion;
- a new checkpoint is a checkpoint (``## §N`` headings) and keeps content in every section that
  had some (a heading it leaves out is restored from the template only when that section was empty).

Template hints (``_..._``) and placeholders (``(none yet)``) are not content.  The problems are
returned as short phrases; the caller refuses the whole answer and leaves the file as it was.
"""

from __future__ import annotations

from mimomem.passes.memory_doc import PLACEHOLDERS, MemoryDoc, item_key
from mimomem.tree.templates import CHECKPOINT_SECTIONS

SHOWN = 3
"""Lost lines or headings named in a refusal (the rest are counted)."""


def content_lines(lines: list[str]) -> list[str]:
    """The lines that say something: not blank, not a heading, a template hint or a placeholder."""
    out = []
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#") or text in PLACEHOLDERS or text.startswith("```"):
            continue
        if len(text) > 1 and text.startswith("_") and text.endswith("_"):
            continue
        out.append(line)
    return out


def memory_answer_problems(live: str | None, new: str, report: str = "") -> list[str]:
    """Why ``new`` may not replace ``live`` (a project ``MEMORY.md``); ``[]`` when it may.

    ``report`` is the model's text after its block: a line it names there counts as deleted
    on purpose."""
    if not new.strip():
        return ["the answer is empty"]
    if live is None or not live.strip():
        return []
    old_doc, new_doc = MemoryDoc.parse(live), MemoryDoc.parse(new)
    have = {s.heading.casefold() for s in new_doc.sections}
    problems = [f"heading '## {s.heading}' is gone" for s in old_doc.sections if s.heading.casefold() not in have]
    kept = {item_key(line) for line in content_lines(new.splitlines())}
    told = "".join(ch for ch in report.casefold() if ch.isalnum())
    lost = []
    for line in content_lines(live.splitlines()):
        key = item_key(line)
        if key and key not in kept and key not in told:
            lost.append(line.strip())
    if lost:
        shown = "; ".join(repr(line[:80]) for line in lost[:SHOWN])
        more = f" and {len(lost) - SHOWN} more" if len(lost) > SHOWN else ""
        problems.append(f"{len(lost)} line(s) of the file are gone without being reported as deleted: {shown}{more}")
    return problems


def checkpoint_answer_problems(live: str | None, new: str) -> list[str]:
    """Why ``new`` may not replace the checkpoint ``live``; ``[]`` when it may.

    A heading missing from ``new`` is put back from the template by the caller only when its
    section held nothing: a section with content must be in the answer, with content."""
    if not new.strip():
        return ["the answer is empty"]
    new_doc = MemoryDoc.parse(new)
    if not any(new_doc.find(name) is not None for name in CHECKPOINT_SECTIONS):
        return [f"the answer holds none of the {len(CHECKPOINT_SECTIONS)} '## §N' headings"]
    problems = []
    for section in MemoryDoc.parse(live or "").sections:
        if section.heading not in CHECKPOINT_SECTIONS or not content_lines(section.lines):
            continue
        after = new_doc.find(section.heading)
        if after is None:
            problems.append(f"'## {section.heading}' had content and the answer drops it")
        elif not content_lines(after.lines):
            problems.append(f"'## {section.heading}' had content and the answer leaves it empty")
    return problems


def refusal(what: str, problems: list[str]) -> str:
    """The one-line refusal of a model's ``what``, naming its problems."""
    return (
        f"the model's {what} was refused, nothing was written: {'; '.join(problems)}. "
        "Rerun the pass (the model must return the whole file, and list what it deletes under Deleted), "
        "or use --no-model"
    )


__all__ = ["checkpoint_answer_problems", "content_lines", "memory_answer_problems", "refusal"]
