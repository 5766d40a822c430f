"""Denser memory blocks for session start: the same facts in fewer tokens.

Session start is paid by every session, so what it shows of a memory file drops what the
reader does not need there - never a fact:

- a promoted line's session citations (``, s:4b1f7c2e``): the file itself keeps them, and
  the block says where to read them;
- the workflow prefix ``Ran in order, all succeeded:`` said once in the section heading;
- a session brief's line that repeats what project memory (shown above it) already says.
"""

from __future__ import annotations

import re

_CITES = re.compile(r" \(([a-z]+), (\d{4}-\d{2}-\d{2})(?:, s:[0-9a-f]{4,})+\)$", re.M)
_RAN = "Ran in order, all succeeded: "
_WORKFLOWS = re.compile(r"^(#+ Workflows)\s*$", re.M)
_BRIEF_LINE = re.compile(r"^- (?:Goal|Changed|Decided|Fixed|Open): (.+)$")
_BRIEF_HEAD = re.compile(r"^#+ \d{4}-\d{2}-\d{2} s:")


def compact_memory(text: str, path: str) -> str:
    """``text`` of a memory file with citations and repeated prefixes dropped (see the module docstring)."""
    out, cut = _CITES.subn(r" (\1, \2)", text)
    if _RAN in out:
        out = _WORKFLOWS.sub(r"\1 (each ran in order, all succeeded)", out).replace(_RAN, "")
    if cut:
        out = out.rstrip("\n") + f"\n_Sessions each line came from: {path}_\n"
    return out


def _key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def drop_repeats(briefs: str, shown: str) -> str:
    """``briefs`` without the brief lines whose words ``shown`` already holds, and sessions left empty.

    A brief line cut short (``…``) repeats ``shown`` when its kept part does.
    """
    seen = _key(shown)
    kept: list[str] = []
    dropped = 0
    for line in briefs.split("\n"):
        found = _BRIEF_LINE.match(line)
        key = _key(found.group(1).rstrip("…")) if found else ""
        if key and key in seen:
            dropped += 1
            continue
        kept.append(line)
    if not dropped:
        return briefs
    out: list[str] = []
    for n, line in enumerate(kept):  # a session heading with no lines left under it goes too
        nxt = next((x for x in kept[n + 1 :] if x.strip()), "")
        if _BRIEF_HEAD.match(line) and not _BRIEF_LINE.match(nxt):
            continue
        out.append(line)
    text = "\n".join(out)
    return text.rstrip("\n") + f"\n_{dropped} brief line(s) left out: already in project memory above._\n"
