"""Each host's real limits, in one place: how much one hook output may hold, how long hooks may take.

Claude Code keeps one hook output (``additionalContext``, plain stdout) inline only up to
10,000 characters, counted as JavaScript string length (UTF-16 code units: an emoji or a
CJK extension-B character is two); a longer one is saved to a file and the model gets a
~2,000-character preview, with no warning.  All ``SessionEnd`` hooks together get 1.5 s.
mimomem aims below the cap (:attr:`HostLimits.safe_chars`), because one report says
``additionalContext`` is cut earlier, and detaches what cannot finish well inside the
time budget (:attr:`HostLimits.inline_seconds`).
"""

from __future__ import annotations

from mimomem.common.light_typing import NamedTuple


class HostLimits(NamedTuple):
    """One host's limits: output cap in UTF-16 units, the margin kept, and time budgets in seconds."""

    name: str
    output_chars: int
    safe_chars: int
    session_end_seconds: float
    inline_seconds: float
    """Work a hook does itself before it detaches the rest (well inside ``session_end_seconds``)."""


CLAUDE_CODE = HostLimits(
    "claude-code", output_chars=10_000, safe_chars=9_000, session_end_seconds=1.5, inline_seconds=0.6
)
"""Claude Code: 10,000 UTF-16 units per hook output (9,000 used), 1.5 s for all SessionEnd hooks."""

HOSTS = {CLAUDE_CODE.name: CLAUDE_CODE}


def utf16_len(text: str) -> int:
    """Length of ``text`` as JavaScript counts it (UTF-16 code units; a lone surrogate is one)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2  # one C pass, not a generator per character


def cut_utf16(text: str, limit: int) -> str:
    """The longest prefix of ``text`` (whole lines when possible) within ``limit`` UTF-16 units."""
    if utf16_len(text) <= limit:
        return text
    used, end = 0, 0
    for i, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > limit:
            break
        end = i + 1
    head = text[:end]
    line_end = head.rfind("\n")
    return head[: line_end + 1] if line_end > 0 else head
