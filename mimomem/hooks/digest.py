"""A deterministic digest of a Claude Code transcript: what compaction must not throw away.

Reads the session's JSONL transcript from a byte offset (so each digest covers only what
is new) and extracts, without any model: the user's requests, statements of decision or
standing instruction (English and Chinese), the commands run, errors and the call that
fixed them, and the files touched.  Unknown line types and malformed lines are skipped
and counted, never fatal: the format drifts between Claude Code versions.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_READ_BYTES = 32 * 1024 * 1024
"""At most this much of a transcript is read per digest (the newest part wins)."""

_DECISION = re.compile(
    r"\b(always|never|from now on|don't ever|do not ever|remember (that|to)|we decided|let's use|"
    r"decision:|rule:)\b|记住|以后都|以后|总是|永远不要|不要再|决定|约定|规定",
    re.I,
)
_COMPACTION_PREFIX = "This session is being continued from a previous conversation"
_FILE_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")
_CLIP = 300


@dataclass
class Digest:
    """What a stretch of transcript contained, in order of first appearance."""

    requests: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    commands: Counter[str] = field(default_factory=Counter)
    errors: list[tuple[str, str, str | None]] = field(default_factory=list)
    files: Counter[str] = field(default_factory=Counter)
    skipped: int = 0
    end_offset: int = 0

    def empty(self) -> bool:
        """True when nothing worth keeping was found."""
        return not (self.requests or self.decisions or self.commands or self.errors or self.files)

    def render(self, *, trigger: str) -> str:
        """The digest as Markdown for the notes inbox (one entry body)."""
        out = [f"Transcript digest ({trigger}), written by mimomem without a model."]
        _section(out, "User requests", [f"> {_clip(r)}" for r in self.requests[-10:]])
        _section(out, "Decisions and standing instructions", [f"- {_clip(d)}" for d in self.decisions[-10:]])
        _section(
            out,
            "Commands run",
            [f"- `{_clip(c, 160)}`" + (f" (x{n})" if n > 1 else "") for c, n in self.commands.most_common(15)],
        )
        _section(out, "Errors and fixes", [_error_line(e) for e in self.errors[-8:]])
        _section(
            out, "Files touched", [f"- {p}" + (f" (x{n})" if n > 1 else "") for p, n in self.files.most_common(15)]
        )
        return "\n".join(out) + "\n"


def _section(out: list[str], title: str, lines: list[str]) -> None:
    if lines:
        out += ["", f"**{title}**", *lines]


def _error_line(error: tuple[str, str, str | None]) -> str:
    call, message, fix = error
    line = f"- `{_clip(call, 120)}` failed: {_clip(message, 160)}"
    return line + (f"; then `{_clip(fix, 120)}` worked" if fix else "")


def _clip(text: str, limit: int = _CLIP) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def read_transcript(path: str | os.PathLike[str], offset: int = 0) -> tuple[list[dict[str, Any]], int, int]:
    """JSON objects of the transcript from byte ``offset``: (lines, new offset, lines skipped).

    Refuses symlinks and non-regular files (``OSError``).  A partial last line (the
    transcript is being appended to) is left for the next read.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a regular file")
        if offset > st.st_size:  # the file was replaced or truncated: start again
            offset = 0
        offset = max(offset, st.st_size - MAX_READ_BYTES)
        os.lseek(fd, offset, os.SEEK_SET)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_READ_BYTES)
    finally:
        os.close(fd)
    end = data.rfind(b"\n") + 1
    lines: list[dict[str, Any]] = []
    skipped = 0
    for raw in data[:end].split(b"\n"):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError:
            skipped += 1
            continue
        if isinstance(obj, dict):
            lines.append(obj)
        else:
            skipped += 1
    return lines, offset + end, skipped


def digest_lines(lines: list[dict[str, Any]]) -> Digest:
    """Build a :class:`Digest` from parsed transcript lines (main thread only)."""
    digest = Digest()
    calls: dict[str, tuple[str, str]] = {}
    pending: list[tuple[str, str, str]] = []  # (tool, call text, error) waiting for a fix
    for line in lines:
        if line.get("isSidechain") or line.get("isMeta"):
            continue
        kind = line.get("type")
        message = line.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if kind == "user":
            _user_line(digest, content, calls, pending)
        elif kind == "assistant" and isinstance(content, list):
            _assistant_line(digest, content, calls)
        elif kind not in ("system", "summary", None):
            continue
    digest.errors += [(call, error, None) for _, call, error in pending]
    return digest


def _user_line(
    digest: Digest, content: Any, calls: dict[str, tuple[str, str]], pending: list[tuple[str, str, str]]
) -> None:
    if isinstance(content, str):
        _user_text(digest, content)
        return
    if not isinstance(content, list):
        digest.skipped += 1
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            _user_text(digest, block["text"])
        elif block.get("type") == "tool_result":
            _tool_result(digest, block, calls, pending)


def _user_text(digest: Digest, text: str) -> None:
    text = text.strip()
    if not text or text.startswith(_COMPACTION_PREFIX) or text.startswith("<"):
        return  # compaction summaries and command/system wrappers are not requests
    digest.requests.append(text)
    for sentence in re.split(r"(?<=[.!?。！？\n])\s*", text):
        if _DECISION.search(sentence) and sentence.strip():
            digest.decisions.append(sentence.strip())


def _assistant_line(digest: Digest, content: list[Any], calls: dict[str, tuple[str, str]]) -> None:
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_use":
            continue
        name = str(block.get("name") or "")
        raw = block.get("input")
        data: dict[str, Any] = raw if isinstance(raw, dict) else {}
        if name == "Bash" and isinstance(data.get("command"), str):
            call = data["command"].strip()
            digest.commands[call] += 1
        elif name in _FILE_TOOLS and isinstance(data.get("file_path"), str):
            call = f"{name} {data['file_path']}"
            digest.files[data["file_path"]] += 1
        else:
            call = name
        if isinstance(block.get("id"), str):
            calls[block["id"]] = (name, call)


def _tool_result(
    digest: Digest, block: dict[str, Any], calls: dict[str, tuple[str, str]], pending: list[tuple[str, str, str]]
) -> None:
    found = calls.get(str(block.get("tool_use_id")))
    if found is None:
        return
    tool, call = found
    if block.get("is_error"):
        pending.append((tool, call, _result_text(block.get("content"))))
        return
    for i, (ptool, pcall, perror) in enumerate(pending):
        if ptool == tool:  # the next success of the same tool is taken as the fix
            digest.errors.append((pcall, perror, call if call != pcall else "the same call, retried"))
            del pending[i]
            break


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content.strip().split("\n")[0]
    if isinstance(content, list):
        for part in content:
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str):
                return text.strip().split("\n")[0]
    return "(no message)"


def digest_transcript(path: str | os.PathLike[str], offset: int = 0) -> Digest:
    """Read ``path`` from ``offset`` and digest it; ``end_offset`` is where the next one starts."""
    lines, end, skipped = read_transcript(Path(path), offset)
    digest = digest_lines(lines)
    digest.skipped += skipped
    digest.end_offset = end
    return digest
