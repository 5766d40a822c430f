"""What the stand-in model says: a script of typed turns, each a list of steps and a final text.

A ``Turn`` is what the user types (``prompt``) and what the model does about it: each ``Step``
is one model response (text and/or tool calls that the host really executes), and ``final`` is
the text that ends the turn.  ``bash``, ``read``, ``edit`` and ``write`` build the tool calls
with the input Claude Code's own tools take.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """One ``tool_use`` block: the tool's name as the host lists it, and its input."""

    name: str
    input: Mapping[str, Any]


@dataclass(frozen=True)
class Step:
    """One model response inside a turn: text, tool calls, or both.

    ``before`` runs on the stand-in's side just before the response is sent (a scenario sets up
    what the tool will find: a file's content, what a stubbed command prints).
    """

    text: str = ""
    tools: tuple[ToolCall, ...] = ()
    before: Callable[[], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Turn:
    """A typed prompt and the model's steps about it, then its closing text.

    ``react``, when given, makes the steps from the turn's first request (what the model was
    sent: the injected context, say) instead of ``steps``.
    """

    prompt: str
    steps: tuple[Step, ...] = ()
    final: str = "Done."
    react: Callable[[Mapping[str, Any]], Sequence[Step]] | None = None
    queued: tuple[str, ...] = ()
    """Typed while the turn runs (a second after the prompt): the host queues it and the running turn
    takes it in (a ``queued_command`` attachment in the transcript).  The turn must last that long."""


@dataclass
class Script:
    """The turns of one session, in order; ``compact_summary`` answers the host's compaction request."""

    turns: Sequence[Turn] = field(default_factory=list)
    compact_summary: str = ""

    def turn(self, index: int) -> Turn | None:
        return self.turns[index] if 0 <= index < len(self.turns) else None


def bash(command: str, description: str = "Run a command", timeout_ms: int | None = None) -> ToolCall:
    """A ``Bash`` call (run in the project directory by the host)."""
    data: dict[str, Any] = {"command": command, "description": description}
    if timeout_ms is not None:
        data["timeout"] = timeout_ms
    return ToolCall("Bash", data)


def read(path: str) -> ToolCall:
    """A ``Read`` call (the host wants an absolute path)."""
    return ToolCall("Read", {"file_path": path})


def edit(path: str, old: str, new: str) -> ToolCall:
    """An ``Edit`` call (the host refuses it unless the file was read in the session first)."""
    return ToolCall("Edit", {"file_path": path, "old_string": old, "new_string": new})


def write(path: str, content: str) -> ToolCall:
    """A ``Write`` call."""
    return ToolCall("Write", {"file_path": path, "content": content})


def step(*tools: ToolCall, text: str = "") -> Step:
    """A step that says ``text`` and makes ``tools`` calls."""
    return Step(text=text, tools=tuple(tools))


def say(*prompts: str) -> Script:
    """A script of plain typed turns, each answered with a short text and no tool call."""
    return Script([Turn(p) for p in prompts])
