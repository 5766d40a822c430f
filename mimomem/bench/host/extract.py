"""What a test reads from the model's requests: what mimomem injected, and what the tools returned.

The host puts hook context in a ``system``-role entry of ``messages`` that starts with
``SessionStart hook additional context: `` or ``UserPromptSubmit hook additional context: ``
(never in the top-level ``system`` field).  Each request carries the conversation so far, so
the same entry recurs; ``injected`` returns each entry once, in order of first appearance.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mimomem.bench.host.standin import Request

MARKERS = {
    "SessionStart": "SessionStart hook additional context: ",
    "UserPromptSubmit": "UserPromptSubmit hook additional context: ",
}
PERSISTED = "<persisted-output>"
"""What the host shows instead of hook output over its 10,000-character cap."""

_EXIT = re.compile(r"\AExit code (\d+)\n?")


@dataclass(frozen=True)
class Injection:
    """One piece of hook context the model received: the hook's event and its text (marker removed)."""

    event: str
    text: str


@dataclass(frozen=True)
class ToolResult:
    """A tool call the model made and what the host sent back (``exit_code`` for ``Bash``)."""

    name: str
    input: dict[str, Any]
    output: str
    is_error: bool

    @property
    def command(self) -> str:
        return str(self.input.get("command", ""))

    @property
    def exit_code(self) -> int:
        """The Bash exit code: the host's ``Exit code N`` line on a failure, else 0 (1 for an unnumbered error)."""
        match = _EXIT.match(self.output)
        if match:
            return int(match.group(1))
        return 1 if self.is_error else 0

    @property
    def printed(self) -> str:
        """The output without the host's ``Exit code N`` line."""
        return _EXIT.sub("", self.output, count=1)


def texts(content: Any) -> list[str]:
    """The text of a message's content (a string, or a list of blocks with ``text``)."""
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    out = []
    for block in content:
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            out.append(block["text"])
        elif isinstance(block, str):
            out.append(block)
    return out


def hook_contexts(hook_events: Iterable[dict[str, Any]]) -> list[str]:
    """The context each hook returned, from the host's ``hook_response`` events (``--include-hook-events``)."""
    out = []
    for event in hook_events:
        if event.get("subtype") != "hook_response":
            continue
        raw = str(event.get("stdout") or event.get("output") or "")
        try:
            value = json.loads(raw)
        except ValueError:
            value = None
        if isinstance(value, dict):
            specific = value.get("hookSpecificOutput")
            if isinstance(specific, dict) and isinstance(specific.get("additionalContext"), str):
                raw = specific["additionalContext"]
            else:
                continue
        if raw.strip():
            out.append(raw)
    return out


def injected_in(request: Request, known: Sequence[str] = ()) -> list[Injection]:
    """The hook context entries of one request, in order.

    The host joins consecutive system entries with a blank line, so where one hook's context
    ends is read from ``known`` (what the hooks returned, :func:`hook_contexts`) when one of
    them is there, else from the first of the host's own sections that follows.
    """
    found = []
    for message in request.messages:
        if not isinstance(message, dict) or message.get("role") != "system":
            continue
        for text in texts(message.get("content")):
            for event, start, end in _marked(text):
                found.append(Injection(event, _context_at(text[start:end], known)))
    return found


def _marked(text: str) -> list[tuple[str, int, int]]:
    """(event, start of its context, end of the segment) for each marker in ``text``."""
    spots = sorted(
        (m.start(), m.end(), e) for e, marker in MARKERS.items() for m in re.finditer(re.escape(marker), text)
    )
    out = []
    for i, (_, start, event) in enumerate(spots):
        end = spots[i + 1][0] if i + 1 < len(spots) else len(text)
        out.append((event, start, end))
    return out


def _context_at(segment: str, known: Sequence[str]) -> str:
    matches = [k for k in known if segment.startswith(k)]
    if matches:
        return max(matches, key=len)
    cut = HOST_SECTION.search(segment)
    return (segment[: cut.start()] if cut else segment).rstrip("\n") + "\n"


HOST_SECTION = re.compile(
    r"\n\n(?=# Environment\n|You are powered by |The following deferred tools |Available agent types |"
    r"The following skills |Today's date is |<system-reminder>)"
)
"""Sections the host puts after hook context in the same system entry (2.1.337)."""


def injected(requests: Iterable[Request], event: str | None = None, known: Sequence[str] = ()) -> list[Injection]:
    """Every hook context entry the model received across ``requests`` (each once), optionally of one event."""
    seen: set[Injection] = set()
    out = []
    for request in requests:
        for item in injected_in(request, known):
            if item not in seen and (event is None or item.event == event):
                seen.add(item)
                out.append(item)
    return out


def injected_text(requests: Iterable[Request], event: str | None = None, known: Sequence[str] = ()) -> str:
    """All of it as one string (what a hit/miss check searches)."""
    return "\n".join(i.text for i in injected(requests, event, known))


def tool_results(requests: Iterable[Request]) -> list[ToolResult]:
    """Each tool call of the model paired with the result the host sent back, in order, once each."""
    calls: dict[str, dict[str, Any]] = {}
    results: dict[str, tuple[str, bool]] = {}
    order: list[str] = []
    for request in requests:
        for message in request.messages:
            content = message.get("content") if isinstance(message, dict) else None
            if not isinstance(content, list):
                continue
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    if block["id"] not in calls:
                        order.append(block["id"])
                    calls[block["id"]] = block
                elif block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                    results[block["tool_use_id"]] = (
                        "\n".join(texts(block.get("content"))),
                        bool(block.get("is_error")),
                    )
    out = []
    for tool_id in order:
        if tool_id in results:
            call = calls[tool_id]
            output, is_error = results[tool_id]
            data = call.get("input") if isinstance(call.get("input"), dict) else {}
            out.append(ToolResult(str(call.get("name")), dict(data or {}), output, is_error))
    return out
