"""What in a memory file is template boilerplate: instruction lines, placeholders, empty sections.

The templates (:mod:`mimomem.tree.templates`) write italic instruction lines and ``(none yet)``
placeholders; a file that holds only those is *empty*.  Context assembly drops them before
counting a budget, and search drops a file whose match lies only in them.
"""

from __future__ import annotations

PLACEHOLDERS = frozenset({"(none yet)", "(none)"})
"""Template placeholder lines: a section holding only these is empty."""


def is_instruction(line: str) -> bool:
    """True for a template's italic instruction line (``_..._``)."""
    s = line.strip()
    return len(s) > 2 and s.startswith("_") and s.endswith("_")


def content_only(text: str) -> str:
    """``text`` without template boilerplate; ``""`` when nothing real is left.

    Drops italic instruction lines and placeholder lines, then every ``##`` section with no
    body left.  The title (``# ...``) is kept only when some section survives.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    head, sections = split_sections(text)
    head_body = [ln for ln in head if not ln.startswith("# ") and not is_boilerplate(ln)]
    kept: list[str] = []
    for heading, body in sections:
        real = [ln for ln in body if not is_boilerplate(ln)]
        if any(ln.strip() for ln in real):
            kept += [heading, *trim_blank(real), ""]
    if not kept and not any(ln.strip() for ln in head_body):
        return ""
    title = [ln for ln in head if ln.startswith("# ")][:1]
    out = [*title, *trim_blank(head_body)]
    if out and kept:
        out.append("")
    return "\n".join(out + kept).strip() + "\n"


def is_boilerplate(line: str) -> bool:
    """True for a line a template wrote, not a person: an instruction or a placeholder."""
    return is_instruction(line) or line.strip() in PLACEHOLDERS


def trim_blank(lines: list[str]) -> list[str]:
    """``lines`` without the blank lines at either end."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def split_sections(text: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """Lines before the first ``## `` heading, then (heading, body lines) per section."""
    head: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        if line.startswith("## "):
            sections.append((line, []))
        elif sections:
            sections[-1][1].append(line)
        else:
            head.append(line)
    return head, sections
