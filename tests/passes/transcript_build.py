"""A session's parts built turn by turn, for the promotion tests (user turns, the model's text, tool calls)."""

from __future__ import annotations

from typing import Any

from mimomem.history.episode import Episode
from mimomem.history.provenance import ASSISTANT, TOOL_CALL, TOOL_RESULT, TYPED
from mimomem.history.transcript import Part


class Build:
    """An :class:`Episode` of session ``sid``, one part a millisecond apart."""

    def __init__(self, sid: str) -> None:
        self.episode = Episode()
        self.sid = sid
        self.n = 0

    def _part(self, kind: str, text: str = "", **extra: Any) -> Build:
        self.n += 1
        self.episode.add(Part(kind, text, self.sid, 1_764_000_000_000 + self.n, f"u{self.n}", **extra))
        return self

    def user(self, text: str) -> Build:
        return self._part(TYPED, text)

    def say(self, text: str) -> Build:
        return self._part(ASSISTANT, text)

    def tool(self, name: str, data: dict[str, Any], result: str, *, ok: bool = True) -> Build:
        call = f"toolu_{self.n}"
        self._part(TOOL_CALL, tool=name, call_id=call, input=data)
        return self._part(TOOL_RESULT, result, call_id=call, is_error=not ok)

    def bash(self, command: str, out: str, *, ok: bool = True) -> Build:
        return self.tool("Bash", {"command": command}, out, ok=ok)

    def edit(self, path: str, old: str, new: str) -> Build:
        return self.tool("Edit", {"file_path": path, "old_string": old, "new_string": new}, "ok")

    def read(self, path: str, lines: list[str]) -> Build:
        numbered = "\n".join(f"{i:>6}\t{line}" for i, line in enumerate(lines, 1))
        return self.tool("Read", {"file_path": path}, numbered)
