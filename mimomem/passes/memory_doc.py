"""A project ``MEMORY.md`` as sections of bullet items: read, add, replace, spill, measure.

The file is kept as the user (or an agent) wrote it: only the bullets a pass adds,
replaces or moves change; unknown sections, free text and their order are left alone.
An item is a top-level ``- `` / ``* `` bullet with its indented continuation lines.
Index lines (``- See memory-<topic>.md (N items) - …``) are never moved or counted as items.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mimomem.text._accel import tokenize_bigram
from mimomem.tree.templates import MEMORY_SECTIONS, PLACEHOLDER

MAX_LINES = 200
MAX_BYTES = 10 * 1024
"""Health caps of ``MEMORY.md``: it is loaded into every session, so it must stay small."""

PLACEHOLDERS = frozenset({PLACEHOLDER, "(none)"})
INDEX_LINE = re.compile(r"^- See (memory-[A-Za-z0-9_.-]+\.md) \((\d+) items?\)")
_PROVENANCE = re.compile(
    r"\s*\((?:\d{4}-\d{2}-\d{2}|unknown date)(?:, \[session [^\]]+\])+\)\s*$|\s*\[session [^\]]+\]\s*$"
    r"|\s*\((?:user|pasted|model|tool)[^(),]*, (?:\d{4}-\d{2}-\d{2}|unknown date)(?:, s:[^\s,()]+)+\)\s*$"
)
_LEADING_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}:\s*")
SIMILAR = 0.8
"""Bigram Jaccard similarity at which two items count as the same statement."""


@dataclass
class Section:
    """One ``## `` section: its heading text and the lines under it."""

    heading: str
    lines: list[str] = field(default_factory=list)

    def items(self) -> list[str]:
        """The bullet items (with continuation lines joined by newlines), index lines excluded."""
        return [item for item in bullet_items(self.lines) if not INDEX_LINE.match(item)]

    def index_lines(self) -> list[str]:
        """The ``- See memory-<topic>.md (N items)`` lines."""
        return [line for line in self.lines if INDEX_LINE.match(line)]


def bullet_items(lines: list[str]) -> list[str]:
    """Top-level ``- `` / ``* `` bullets of ``lines`` with their indented continuation lines."""
    out: list[str] = []
    open_item = False
    for line in lines:
        if line.startswith(("- ", "* ")):
            out.append(line)
            open_item = True
        elif open_item and line.startswith((" ", "\t")) and line.strip():
            out[-1] += "\n" + line
        else:
            open_item = False
    return out


@dataclass
class MemoryDoc:
    """A parsed ``MEMORY.md``: the lines before the first section, then the sections in order."""

    preamble: list[str]
    sections: list[Section]

    @classmethod
    def parse(cls, text: str) -> MemoryDoc:
        """Split ``text`` on ``## `` headings outside fenced code."""
        preamble: list[str] = []
        sections: list[Section] = []
        fence = False
        for line in text.splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
            if not fence and line.startswith("## "):
                sections.append(Section(line[3:].strip()))
            elif sections:
                sections[-1].lines.append(line)
            else:
                preamble.append(line)
        return cls(preamble, sections)

    def render(self) -> str:
        """The document as text, ending in one newline."""
        out = list(self.preamble)
        for section in self.sections:
            out.append(f"## {section.heading}")
            out += section.lines
        return "\n".join(out).rstrip("\n") + "\n"

    def find(self, heading: str) -> Section | None:
        """The section named ``heading`` (case-insensitive), if present."""
        for section in self.sections:
            if section.heading.casefold() == heading.casefold():
                return section
        return None

    def ensure(self, heading: str) -> Section:
        """The section ``heading``, created (with its template hint) at its template position if missing."""
        found = self.find(heading)
        if found is not None:
            return found
        hint = MEMORY_SECTIONS.get(heading)
        lines = ([f"_{hint[1]} (budget: {hint[0]} tokens)_"] if hint else []) + ["", PLACEHOLDER, ""]
        section = Section(heading, lines)
        order = list(MEMORY_SECTIONS)
        if heading in order:
            later = {h.casefold() for h in order[order.index(heading) + 1 :]}
            for i, existing in enumerate(self.sections):
                if existing.heading.casefold() in later:
                    self.sections.insert(i, section)
                    return section
        if self.sections and self.sections[-1].lines and self.sections[-1].lines[-1].strip():
            self.sections[-1].lines.append("")
        self.sections.append(section)
        return section

    def add(self, heading: str, item: str) -> None:
        """Append the bullet ``item`` to section ``heading`` (its placeholder goes)."""
        section = self.ensure(heading)
        lines = [line for line in section.lines if line.strip() not in PLACEHOLDERS]
        end = len(lines)
        while end > 0 and not lines[end - 1].strip():
            end -= 1
        head = lines[:end]
        if head and not head[-1].startswith(("- ", "* ", " ", "\t")):
            head.append("")
        section.lines = [*head, *item.split("\n"), ""]

    def replace(self, heading: str, old: str, new: str) -> bool:
        """Replace the item ``old`` (exact text) of section ``heading`` by ``new``; False if absent."""
        section = self.find(heading)
        if section is None:
            return False
        old_lines = old.split("\n")
        for i in range(len(section.lines)):
            if section.lines[i : i + len(old_lines)] == old_lines:
                section.lines[i : i + len(old_lines)] = new.split("\n")
                return True
        return False

    def remove(self, heading: str, items: list[str]) -> None:
        """Remove the given items (exact text) from section ``heading``."""
        for item in items:
            self.replace(heading, item, "\x00")
        section = self.find(heading)
        if section is not None:
            section.lines = [line for line in section.lines if line != "\x00"]

    def all_items(self) -> list[tuple[str, str]]:
        """``(section heading, item)`` for every item of every section."""
        return [(s.heading, item) for s in self.sections for item in s.items()]


# --- keys, similarity, health ---


def item_text(item: str) -> str:
    """An item without its bullet, provenance suffix and leading date: what it says."""
    text = " ".join(item.split())
    text = re.sub(r"^[-*]\s+", "", text)
    text = _LEADING_DATE.sub("", text)
    previous = None
    while previous != text:
        previous, text = text, _PROVENANCE.sub("", text)
    return text.strip()


def item_key(item: str) -> str:
    """``item_text`` folded: case, whitespace and punctuation ignored."""
    return "".join(ch for ch in item_text(item).casefold() if ch.isalnum())


def similarity(a: str, b: str) -> float:
    """Jaccard similarity of the bigram tokens of two items' texts."""
    ta = {t.text for t in tokenize_bigram(item_text(a))}
    tb = {t.text for t in tokenize_bigram(item_text(b))}
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


def duplicate_of(candidate: str, existing: list[str]) -> str | None:
    """The existing item that says the same as ``candidate`` (same key, or similar enough)."""
    key = item_key(candidate)
    for item in existing:
        if item_key(item) == key:
            return item
    for item in existing:
        if similarity(candidate, item) >= SIMILAR:
            return item
    return None


@dataclass(frozen=True)
class Health:
    """Size of a ``MEMORY.md`` against its caps."""

    lines: int
    bytes: int

    @property
    def ok(self) -> bool:
        """Within both caps."""
        return self.lines <= MAX_LINES and self.bytes <= MAX_BYTES

    def render(self) -> str:
        """``57/200 lines, 3.1/10 KB``."""
        return f"{self.lines}/{MAX_LINES} lines, {self.bytes / 1024:.1f}/{MAX_BYTES // 1024} KB"


def health(text: str) -> Health:
    """Lines and UTF-8 bytes of ``text``."""
    return Health(len(text.splitlines()), len(text.encode("utf-8")))


def topic_of(heading: str) -> str:
    """The spill-over topic name of a section: ``Architecture decisions`` -> ``architecture-decisions``."""
    slug = re.sub(r"[^a-z0-9]+", "-", heading.casefold()).strip("-")
    return slug[:60] or "section"
