"""Scoring what a fresh session received, after the host's own rule for long hook output.

Claude Code keeps one hook output inline only up to 10,000 characters (JavaScript string
length: UTF-16 code units); a longer one is saved to a file and the model sees a
2,000-character preview.  :func:`host_view` applies that rule, so a system that dumps
everything is scored on what the model would really see.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mimomem.bench.e2e.dataset import QUESTION_KINDS, Question, contains
from mimomem.served.hosts import CLAUDE_CODE, utf16_len

HOST_CAP = CLAUDE_CODE.output_chars
"""UTF-16 code units of one hook output Claude Code shows inline (10,000)."""

HOST_PREVIEW = 2_000
"""UTF-16 code units of the preview the model gets instead of an output over the cap."""


def utf16_prefix(text: str, units: int) -> str:
    """The longest prefix of ``text`` of at most ``units`` UTF-16 code units."""
    used = 0
    for i, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > units:
            return text[:i]
    return text


def over_cap(text: str) -> bool:
    """True when the host would not show ``text`` inline."""
    return utf16_len(text) > HOST_CAP


def host_view(text: str) -> str:
    """What the model sees of one hook output: all of it, or the 2,000-unit preview."""
    return utf16_prefix(text, HOST_PREVIEW) if over_cap(text) else text


def delivered(stdout: str) -> str:
    """The context text of a hook's stdout: ``additionalContext`` of its JSON, else the plain text."""
    text = stdout.strip()
    if not text:
        return ""
    try:
        data = json.loads(text)
    except ValueError:
        return stdout
    if isinstance(data, dict):
        inner = data.get("hookSpecificOutput")
        if isinstance(inner, dict) and isinstance(inner.get("additionalContext"), str):
            return str(inner["additionalContext"])
        return ""  # a bare JSON object without the documented field delivers nothing
    return stdout


@dataclass(frozen=True)
class Outcome:
    """One question under one system: what was received and how it scores."""

    question: Question
    session_start: str
    prompt: str
    tokens: int
    over_cap: int

    @property
    def received(self) -> str:
        """The host's view of both outputs, as the new session has them."""
        return host_view(self.session_start) + "\n" + host_view(self.prompt)

    @property
    def hit(self) -> bool:
        """All (``require: all``) or any of the answers are there; for a distractor: no prompt context."""
        q = self.question
        if q.kind == "distractor":
            return not self.prompt.strip()
        found = [contains(self.received, a) for a in q.answers]
        return all(found) if q.require == "all" else any(found)

    @property
    def stale_only(self) -> bool:
        """A superseded value is there and the current one is not."""
        return not self.hit and any(contains(self.received, s) for s in self.question.stale)

    @property
    def stale_seen(self) -> bool:
        """A superseded value is there at all (even beside the current one, or in a line stating the change)."""
        return any(contains(self.received, s) for s in self.question.stale)

    @property
    def stale_beside_new(self) -> bool:
        """The current value is there, and so is a superseded one in an entry or line that does not also
        hold the current value (the old value presented on its own, not as the change "5433 -> 6543")."""
        q = self.question
        if not q.stale or not self.hit:
            return False
        return any(
            any(contains(block, s) for s in q.stale) and not any(contains(block, a) for a in q.answers)
            for block in blocks(self.received)
        )


def blocks(text: str) -> list[str]:
    """``text`` as entries and lines: a line indented under the one before (an entry's rest) joins it."""
    out: list[str] = []
    for line in text.splitlines():
        if out and line.startswith("  ") and not line.lstrip().startswith("- "):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


@dataclass
class Summary:
    """Aggregates of one system over a set of questions."""

    answerable: int = 0
    hits: int = 0
    per_kind: dict[str, tuple[int, int]] = field(default_factory=dict)
    distractors: int = 0
    distractors_with_context: int = 0
    stale_only: int = 0
    stale_beside_new: int = 0
    stale_seen: int = 0
    median_tokens: float = 0.0
    p95_tokens: float = 0.0
    over_cap: int = 0

    @property
    def hit_rate(self) -> float:
        """Share of answerable (non-distractor) questions whose answer was received."""
        return self.hits / self.answerable if self.answerable else 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "answerable": self.answerable,
            "hits": self.hits,
            "hit_rate": round(self.hit_rate, 4),
            "per_kind": {k: {"hits": h, "total": t} for k, (h, t) in self.per_kind.items()},
            "distractors": self.distractors,
            "distractors_with_context": self.distractors_with_context,
            "stale_only": self.stale_only,
            "stale_beside_new": self.stale_beside_new,
            "stale_seen": self.stale_seen,
            "median_tokens": self.median_tokens,
            "p95_tokens": self.p95_tokens,
            "over_cap": self.over_cap,
        }


def summarize(outcomes: Sequence[Outcome], *, extra_over_cap: int = 0) -> Summary:
    """Hit rate overall and per kind, distractors with context, stale-only, token percentiles."""
    s = Summary(over_cap=extra_over_cap + sum(o.over_cap for o in outcomes))
    for kind in QUESTION_KINDS:
        mine = [o for o in outcomes if o.question.kind == kind]
        if mine:
            s.per_kind[kind] = (sum(o.hit for o in mine), len(mine))
    answerable = [o for o in outcomes if o.question.kind != "distractor"]
    s.answerable = len(answerable)
    s.hits = sum(o.hit for o in answerable)
    distractors = [o for o in outcomes if o.question.kind == "distractor"]
    s.distractors = len(distractors)
    s.distractors_with_context = sum(not o.hit for o in distractors)
    s.stale_only = sum(o.stale_only for o in outcomes)
    s.stale_beside_new = sum(o.stale_beside_new for o in outcomes)
    s.stale_seen = sum(o.stale_seen for o in outcomes)
    tokens = [o.tokens for o in outcomes]
    s.median_tokens = float(statistics.median(tokens)) if tokens else 0.0
    s.p95_tokens = percentile(tokens, 95)
    return s


def percentile(values: Iterable[int], pct: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(1, -(-len(ordered) * pct // 100))
    return float(ordered[int(rank) - 1])


def count_tokens(text: str) -> int:
    """cl100k_base tokens of ``text`` (tiktoken with its offline vocabulary)."""
    from mimomem.served.estimate import estimate_tokens

    return estimate_tokens(text, exact=True) if text else 0


def extra_splits(outcomes: Sequence[Outcome]) -> dict[str, dict[str, Any]]:
    """Per split of the prompts asked apart (:data:`~mimomem.bench.e2e.dataset.EXTRA_FILES`): distractors
    asked and those that got prompt context; related questions, those answered, those that got prompt context."""
    out: dict[str, dict[str, Any]] = {}
    for o in outcomes:
        cell = out.setdefault(o.question.split, {"asked": 0, "with_context": 0, "ids_with_context": []})
        cell.update({k: cell.get(k, 0) for k in ("related", "related_hit", "related_prompt")})
        if o.question.kind == "distractor":
            cell["asked"] += 1
            if not o.hit:
                cell["with_context"] += 1
                cell["ids_with_context"].append(o.question.id)
        else:
            cell["related"] += 1
            cell["related_hit"] += int(o.hit)
            cell["related_prompt"] += int(bool(o.prompt.strip()))
    return out


def extra_lines(info: dict[str, Any], where: str = "") -> list[str]:
    """One line per split asked apart: its distractors with context, its related questions answered."""
    splits = info.get("extra_splits") or {"new-distractors": info.get("new_distractors") or {}}
    out = []
    for split, cell in splits.items():
        if not cell.get("asked"):
            continue
        line = f"split {split}{where}: distractors with context {cell['with_context']}/{cell['asked']}"
        line += f" ({', '.join(cell['ids_with_context'])})" if cell["ids_with_context"] else ""
        if cell.get("related"):
            line += (
                f"; related questions answered {cell['related_hit']}/{cell['related']},"
                f" with prompt context {cell['related_prompt']}/{cell['related']}"
            )
        out.append(line)
    return out
