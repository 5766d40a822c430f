"""Budgeted reads of memory files: keep what fits, and say what was left out.

MiMo-Code's ``readBudgeted`` / ``readBudgetedSectionAware`` with three gaps closed:
budgets are in estimated tokens that are honest for Chinese (``estimate_tokens``), the
warning about the cut counts against the budget (so a block never exceeds it), and
template boilerplate (italic instruction lines, ``(none yet)`` placeholders, sections with
nothing in them) is dropped before counting, so an untouched template is *empty*.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mimomem.common.light_typing import NamedTuple
from mimomem.served.estimate import estimate_tokens
from mimomem.tree.boilerplate import split_sections

_SPILLOVER = re.compile(r"^- See [^\s/]+\.md \([0-9]+")
"""Index line of a spilled-over topic file; kept whenever its section's heading is kept."""

_MIN_PARTIAL = 50
"""A section is cut to a prefix only when at least this many tokens remain for it."""


class Budgeted(NamedTuple):
    """What a budgeted read kept: the text, its estimated tokens, and what was left out."""

    text: str
    tokens: int
    total_tokens: int
    truncated: bool


def read_budgeted(text: str, budget: int, *, source: str) -> Budgeted:
    """Keep whole lines of ``text`` from the start while they fit in ``budget`` tokens.

    When something is cut, the last line says how much and where to read the rest
    (``source`` is the path or command shown to the reader).
    """
    total = estimate_tokens(text)
    if total <= budget:
        return Budgeted(text, total, total, False)
    note = _cut_note(budget, total, source)
    return _fitted(_leading_lines(text, budget - estimate_tokens(note)), note, budget, total)


def _leading_lines(text: str, room: int) -> str:
    """The whole leading lines of ``text`` whose summed estimates stay within ``room`` tokens."""
    lines: list[str] = []
    used = 0
    for line in text.split("\n"):
        cost = estimate_tokens(line + "\n")
        if used + cost > room:
            break
        lines.append(line)
        used += cost
    kept = "\n".join(lines).rstrip("\n")
    return kept + "\n" if kept else ""


def read_section_aware(text: str, budget: int, *, source: str) -> Budgeted:
    """Keep ``##`` sections whole while they fit; headings and spillover lines always stay.

    The first section that does not fit gets a prefix of whole lines if at least
    ``_MIN_PARTIAL`` tokens remain; later sections keep only their heading and spillover
    index lines.  If even that skeleton does not fit beside the note, the skeleton is cut so that
    the note still fits: a cut always says where the rest is, bare headings never stand alone.
    """
    total = estimate_tokens(text)
    if total <= budget:
        return Budgeted(text, total, total, False)
    note = _cut_note(budget, total, source)
    room = budget - estimate_tokens(note)
    head, sections = split_sections(text)
    skeleton = [_skeleton(heading, body) for heading, body in sections]
    fixed = estimate_tokens("\n".join(head)) + sum(estimate_tokens(s) for s in skeleton)
    if fixed >= room:
        return _fitted(_leading_lines("\n".join(_lines_of(head, skeleton)), room), note, budget, total)
    out = list(head)
    used = estimate_tokens("\n".join(head))
    cutting = False
    later = [sum(estimate_tokens(s) for s in skeleton[i + 1 :]) for i in range(len(skeleton))]
    for (heading, body), skel, reserved in zip(sections, skeleton, later, strict=True):
        whole = "\n".join([heading, *body])
        free = room - used - reserved
        if not cutting and estimate_tokens(whole) <= free:
            out.append(whole)
            used += estimate_tokens(whole)
            continue
        if not cutting and free - estimate_tokens(skel) >= _MIN_PARTIAL:
            part = _prefix(heading, body, free)
            out.append(part)
            used += estimate_tokens(part)
        else:
            out.append(skel)
            used += estimate_tokens(skel)
        cutting = True
    kept = "\n".join(out).rstrip("\n") + "\n"
    return _fitted(kept, note, budget, total)


def _fitted(kept: str, note: str, budget: int, total: int) -> Budgeted:
    """``kept + note``, dropping trailing lines of ``kept`` until the estimate fits ``budget``.

    Per-line estimates are summed while reading; the joined text is measured again here,
    so rounding can never push a block past its budget.
    """
    lines = kept.rstrip("\n").split("\n") if kept else []
    while True:
        text = ("\n".join(lines) + "\n" if lines else "") + note
        tokens = estimate_tokens(text)
        if tokens <= budget or not lines:
            if tokens > budget:  # not even the note fits: say nothing rather than overflow
                return Budgeted("", 0, total, True)
            return Budgeted(text, tokens, total, True)
        lines.pop()


def _cut_note(budget: int, total: int, source: str) -> str:
    return f"[truncated at ~{budget} tokens of ~{total}; read {source} for the rest]\n"


def _skeleton(heading: str, body: list[str]) -> str:
    return "\n".join([heading, *(ln for ln in body if _SPILLOVER.match(ln))])


def _lines_of(head: list[str], skeleton: list[str]) -> Iterator[str]:
    yield from head
    yield from skeleton


def _prefix(heading: str, body: list[str], budget: int) -> str:
    """The heading, spillover lines and as many leading body lines as fit in ``budget``."""
    keep = [heading]
    used = estimate_tokens(_skeleton(heading, body)) + estimate_tokens("[section cut]\n")
    for line in body:
        if _SPILLOVER.match(line):
            keep.append(line)
            continue
        cost = estimate_tokens(line + "\n")
        if used + cost > budget:
            keep.append("[section cut]")
            break
        keep.append(line)
        used += cost
    return "\n".join(keep)
