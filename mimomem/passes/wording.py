"""How promoted evidence is worded in memory: dated, sourced lines with absolute dates.

A promoted line is ``- <what> (<who>, <YYYY-MM-DD>, s:<id>)``: who said it (``user`` typed
it, ``model`` ran it, a ``tool`` answered it), when, and in which session (more ``s:<id>``
citations when several sessions said it), in few tokens.  Relative dates in what the user said ("from
today", "昨天决定") are rewritten as the absolute date they meant, counted from when it
was said, because a memory line is read weeks later.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

from mimomem.common.redaction import was_redacted
from mimomem.common.secrets import redact_secrets, scan_secrets
from mimomem.history.evidence_items import Provenance, short_id

MAX_CITES = 3
"""Sessions cited on one line at most (the first ones)."""

_EN_DAYS = {"today": 0, "yesterday": -1, "tomorrow": 1}
_ZH_DAYS = {"今天": 0, "今日": 0, "昨天": -1, "昨日": -1, "前天": -2, "明天": 1, "明日": 1, "后天": 2}
_RELATIVE = re.compile(
    r"\b(today|yesterday|tomorrow)\b|\b(\d{1,3}) days? ago\b"
    r"|(今天|今日|昨天|昨日|前天|明天|明日|后天)|(\d{1,3})\s*天前",
    re.I,
)


def absolute_dates(text: str, said_at: int | None) -> str:
    """``text`` with today / yesterday / N days ago / 昨天 / N天前 … replaced by ``YYYY-MM-DD``."""
    try:
        base = datetime.fromtimestamp(said_at / 1000, timezone.utc).date() if said_at is not None else None
    except (OverflowError, OSError, ValueError):  # a far-future time already in an old history.db
        base = None
    if base is None:
        return text

    def day(match: re.Match[str]) -> str:
        if match.group(1):
            offset = _EN_DAYS[match.group(1).lower()]
        elif match.group(2):
            offset = -int(match.group(2))
        elif match.group(3):
            offset = _ZH_DAYS[match.group(3)]
        else:
            offset = -int(match.group(4))
        return (base + timedelta(days=offset)).isoformat()

    return _RELATIVE.sub(day, text)


def cites(sessions: Sequence[str]) -> str:
    """``s:a, s:b`` for the first :data:`MAX_CITES` distinct sessions."""
    unique = list(dict.fromkeys(sessions))[:MAX_CITES]
    return ", ".join(f"s:{short_id(s)}" for s in unique)


def sourced(text: str, first: Provenance, sessions: Sequence[str] = (), *, kind: str = "user") -> str:
    """The memory bullet ``- <text> (<kind>, <day>, s:<session>…)``.

    ``kind`` is who said it (:data:`mimomem.history.provenance.SOURCE_KIND_OF`: ``user``, ``pasted``,
    ``model``, ``tool``), so the next reader - and the write gate - can judge the line.
    """
    return f"- {text} ({kind}, {first.day}, {cites([first.session_id, *sessions])})"


def quote(text: str, limit: int = 200) -> str:
    """``text`` on one line, cut at ``limit`` characters with ``…``."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def without_secrets(lines: list[str]) -> tuple[list[str], int]:
    """``lines`` with each likely secret redacted (a line still flagged after that is dropped); how many.

    The history holds what the user pasted, tokens included; the checkpoint must not stop
    because of one of them, and must not hold it."""
    out: list[str] = []
    count = 0
    for line in lines:
        if not scan_secrets(line):
            out.append(line)
            count += was_redacted(line)  # redacted where the history read it: it held one too
            continue
        count += 1
        clean = redact_secrets(line)
        if not scan_secrets(clean):
            out.append(clean)
    return out, count
