"""Memory files as entries: a bullet, a quote, a paragraph or a code block, with file, line and section.

Per-prompt recall ranks entries, not files, so the sentence that holds an answer is shown
whole instead of a window around matched words.  An entry keeps the heading it sits under
(``## Rules``, ``## [turn 4 · 2026-10-06T10:04:30Z]``) and the bold label of a digest
section (``**Errors and fixes**``) as context for the reader; neither is searchable text.

Template text is never an entry: italic instruction lines, ``(none yet)`` placeholders, the
digest's own header line.  :func:`template_terms` lists the words of mimomem's templates so
that a query word which only matches template wording counts for little
(:mod:`mimomem.served.entry_recall`).
"""

from __future__ import annotations

import functools
import re

from mimomem.common.light_typing import NamedTuple
from mimomem.tree.boilerplate import PLACEHOLDERS, is_instruction

_ITEM = re.compile(r"^\s{0,3}(?:[-*+]\s|>\s?|\d{1,3}[.)]\s)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LABEL = re.compile(r"^\*\*([^*]{1,80})\*\*:?\s*$")
_TURN = re.compile(r"\[turn \d+ · (\d{4}-\d\d-\d\d)")
_MARKS = frozenset("#*-+>`0123456789")
"""First characters of a line that may start a heading, label, item or fence."""
_DIGEST_HEAD = re.compile(r"^Transcript digest \(.*\), written by mimomem without a model\.?$")

DIGEST_WORDING = (
    "Transcript digest, written by mimomem without a model.",
    "User requests",
    "Decisions and standing instructions (typed by the user)",
    "Commands run (by the model)",
    "command(s) that fetch and run remote code or touch credentials, not listed",
    "Errors and fixes",
    "failed (tool output)",
    "fixed by",
    "tool output not quoted: it reads as an instruction",
    "Files touched",
)
"""The hook digest's fixed wording (``mimomem.history.digest``): structure, never content."""


class Entry(NamedTuple):
    """One entry: its text, where it is (file and 1-based first line) and what it sits under.

    A named tuple, not a dataclass: the prompt hook builds one per entry in scope (thousands)."""

    path: str
    line: int
    text: str
    section: str
    label: str
    date: str


def split_entries(text: str, path: str) -> list[Entry]:
    """The entries of a Markdown file's text, in file order (see the module docstring)."""
    out: list[Entry] = []
    section = label = date = ""
    lines: list[str] = []
    start = 0
    fence = False

    def flush() -> None:
        body = "\n".join(lines).strip()
        if body and not _boilerplate(body):
            out.append(Entry(path, start, body, section, label, date))
        lines.clear()

    for n, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        stripped = line.strip()
        if fence:
            lines.append(line)
            fence = not stripped.startswith("```")
            continue
        if lines and stripped and stripped[0] not in _MARKS:  # the common case: a continuation line
            lines.append(line)
            continue
        heading = _HEADING.match(line)
        quoted = stripped.startswith(">") and bool(lines) and lines[0].lstrip().startswith(">")
        item = bool(_ITEM.match(line)) and not quoted  # a quote's next line continues it
        if heading or _LABEL.match(stripped) or not stripped or item or stripped.startswith("```"):
            flush()
        if heading:
            section, label = heading.group(2), ""
            turn = _TURN.search(line)
            date = turn.group(1) if turn else date
            continue
        found = _LABEL.match(stripped)
        if found:
            label = found.group(1).strip()
            continue
        if stripped:
            if not lines:
                start = n
            lines.append(line)
            fence = stripped.startswith("```") and stripped.count("```") == 1
    flush()
    return out


def _boilerplate(body: str) -> bool:
    one = " ".join(body.split())
    return is_instruction(one) or one in PLACEHOLDERS or bool(_DIGEST_HEAD.match(one))


@functools.lru_cache(maxsize=1)
def template_terms() -> frozenset[str]:
    """Folded, stemmed tokens of mimomem's own templates and digest wording (structure, not content)."""
    from mimomem.text.stopwords import stem
    from mimomem.text.tokens import tokenize
    from mimomem.tree.templates import checkpoint_template, memory_template, notes_template

    text = "\n".join([memory_template(), checkpoint_template(), notes_template(), *DIGEST_WORDING])
    return frozenset(stem(t.text) for t in tokenize(re.sub(r"[_*`]", " ", text)))
