"""A deterministic digest of a Claude Code transcript: what compaction must not throw away.

Reads the session's JSONL transcript from a byte offset (so each digest covers only what
is new) and extracts, without any model: the user's requests, statements of decision or
standing instruction (English and Chinese), the commands run, errors and the call that
fixed them, and the files touched.  Unknown line types and malformed lines are skipped
and counted, never fatal: the format drifts between Claude Code versions.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mimomem.common.redaction import redaction_window
from mimomem.history.episode import Episode
from mimomem.history.jsonl import read_jsonl
from mimomem.history.provenance import TOOL_CALL, TYPED
from mimomem.history.signals import is_unsafe_command, statements_in
from mimomem.history.tool_text import quotable_error
from mimomem.history.transcript import message_of, parts

MAX_READ_BYTES = 32 * 1024 * 1024
"""At most this much of a transcript is read per digest (the newest part wins)."""

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
    fetched_run: set[str] = field(default_factory=set)
    """Commands that fetch a file another call runs, or run such a file (never listed)."""
    skipped: int = 0
    end_offset: int = 0

    def empty(self) -> bool:
        """True when nothing worth keeping was found."""
        return not (self.requests or self.decisions or self.commands or self.errors or self.files)

    def render(self, *, trigger: str) -> str:
        """The digest as Markdown for the notes inbox (one entry body)."""
        out = [f"Transcript digest ({trigger}), written by mimomem without a model."]
        _section(out, "User requests", [f"> {_clip(r)}" if _quotable(r) else _NOT_QUOTED for r in self.requests[-10:]])
        _section(
            out,
            "Decisions and standing instructions (typed by the user)",
            [f"- {_clip(d)}" if _quotable(d) else _NOT_QUOTED for d in self.decisions[-10:]],
        )
        safe = [
            (c, n) for c, n in self.commands.most_common() if not is_unsafe_command(c) and c not in self.fetched_run
        ]
        unsafe = len(self.commands) - len(safe)
        ran = [f"- `{_clip(c, 160)}`" + (f" (x{n})" if n > 1 else "") for c, n in safe[:15]]
        if unsafe:
            ran.append(f"- ({unsafe} command(s) that fetch and run remote code or touch credentials, not listed)")
        _section(out, "Commands run (by the model)", ran)
        _section(out, "Errors and fixes", [_error_line(e) for e in self.errors[-8:]])
        _section(
            out, "Files touched", [f"- {p}" + (f" (x{n})" if n > 1 else "") for p, n in self.files.most_common(15)]
        )
        return "\n".join(out) + "\n"


_NOT_QUOTED = "- (a typed text holding a command that runs fetched code: not quoted)"


def _quotable(text: str) -> bool:
    """False for typed text that holds a command running fetched code: the notes are quoted back to the
    model at every prompt, so such text is never kept there, however it is spelled (the shell parser)."""
    from mimomem.history.shell import text_runs_fetched_code

    return not text_runs_fetched_code(text)


def _section(out: list[str], title: str, lines: list[str]) -> None:
    if lines:
        out += ["", f"**{title}**", *lines]


def _error_line(error: tuple[str, str, str | None]) -> str:
    call, message, fix = error
    shown = quotable_error(message) or "(tool output not quoted)"
    line = f"- `{_clip(call, 120)}` failed (tool output): {_clip(shown, 160)}"
    return line + (f"; fixed by: {_clip(fix, 200)}" if fix else "")


def _clip(text: str, limit: int = _CLIP) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def read_lines(path: str | os.PathLike[str], offset: int = 0) -> tuple[list[tuple[int, dict[str, Any]]], int, int]:
    """(line offset, JSON object) of the transcript from byte ``offset``, the new offset, lines skipped.

    The shared streaming reader (:func:`mimomem.history.jsonl.read_jsonl`): symlinks and
    non-regular files are refused (``OSError``), a partial last line is left for the next
    read, a bad line (not UTF-8, not JSON, nested too deep, too long) is skipped and counted
    and the offset moves past it.  At most :data:`MAX_READ_BYTES` (the newest) are read.
    """
    try:
        size = os.stat(path, follow_symlinks=False).st_size
    except OSError:
        size = 0
    start = max(offset, size - MAX_READ_BYTES) if offset <= size else 0
    lines: list[tuple[int, dict[str, Any]]] = []
    result = read_jsonl(path, lambda at, obj: lines.append((at, obj)), offset=start)
    return lines, result.end, sum(result.skipped.values())


def digest_lines(lines: list[tuple[int, dict[str, Any]]] | list[dict[str, Any]], *, default_sid: str = "") -> Digest:
    """Build a :class:`Digest` from parsed transcript lines (main thread only).

    Each line is digested on its own: one that cannot be (a wrong type deep inside, say) is
    skipped and counted, and the rest go on.
    """
    digest = Digest()
    episode = Episode()
    skips: Counter[str] = Counter()
    with redaction_window():  # this read's texts only: a label another read ended on is not this one's
        for n, item in enumerate(lines):
            offset, obj = item if isinstance(item, tuple) else (n, item)
            try:
                _digest_line(digest, episode, obj, default_sid, offset, skips)
            except (TypeError, ValueError, AttributeError, RecursionError):
                digest.skipped += 1
    digest.skipped += sum(skips.values())
    digest.errors = [(f.call.summary, f.error, f.fix or None) for f in episode.finish() if not f.call.unsafe]
    digest.fetched_run = {c.command for c in episode.calls if c.runs_fetched and c.command is not None}
    return digest


def _digest_line(
    digest: Digest, episode: Episode, obj: dict[str, Any], sid: str, offset: int, skips: Counter[str]
) -> None:
    if obj.get("isSidechain") is True:
        return
    message = message_of(obj, default_sid=sid, offset=offset, skips=skips)
    if message is None:
        return
    for part in parts(message):
        before = len(episode.calls)
        episode.add(part)
        if part.kind == TYPED:
            digest.requests.append(part.text.strip())
            digest.decisions += [s.text for s in statements_in(part.text)]
        elif part.kind == TOOL_CALL and len(episode.calls) > before:  # not one of mimomem's own calls
            call = episode.calls[-1]
            if call.command is not None:
                digest.commands[call.command] += 1
            elif part.tool in _FILE_TOOLS:
                for path in call.files:
                    digest.files[path] += 1


def digest_transcript(path: str | os.PathLike[str], offset: int = 0) -> Digest:
    """Read ``path`` from ``offset`` and digest it; ``end_offset`` is where the next one starts."""
    lines, end, skipped = read_lines(Path(path), offset)
    digest = digest_lines(lines, default_sid=Path(path).stem)
    digest.skipped += skipped
    digest.end_offset = end
    return digest
