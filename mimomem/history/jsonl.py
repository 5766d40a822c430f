"""Reading an append-only JSONL file from a byte offset, defensively.

Transcripts are appended to while an agent runs and drift between versions, so: a last
line without its newline is left for the next read; a line that is not UTF-8, not JSON,
not an object, or longer than :data:`MAX_LINE` is skipped and counted, never fatal; a file
that shrank or whose first bytes changed is reported as replaced, so the caller starts it
again.  Symlinks and non-regular files are refused (``OSError``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from mimomem.common.nofollow import open_regular_nofollow

CHUNK = 4 * 1024 * 1024
MAX_LINE = 16 * 1024 * 1024
"""A line longer than this (bytes) is skipped: no transcript line is that long by design."""

HEAD_BYTES = 1024
"""How much of a file's start is hashed to notice that it was replaced."""


@dataclass
class JsonlRead:
    """What a read did: where it stopped, the file's size and head mark, what it skipped."""

    end: int = 0
    size: int = 0
    mtime_ns: int = 0
    head: str = ""
    replaced: bool = False
    skipped: Counter[str] = field(default_factory=Counter)


def head_mark(fd: int, length: int) -> str:
    """``<n>:<sha256 of the first n bytes>`` with ``n = min(length, HEAD_BYTES)``."""
    n = min(length, HEAD_BYTES)
    return f"{n}:{hashlib.sha256(os.pread(fd, n, 0)).hexdigest()[:32]}"


def read_jsonl(
    path: str | os.PathLike[str],
    on_object: Callable[[int, dict[str, Any]], None],
    *,
    offset: int = 0,
    head: str = "",
    on_replaced: Callable[[], None] | None = None,
) -> JsonlRead:
    """Call ``on_object(line_offset, obj)`` for each complete line of ``path`` from ``offset``.

    Streams: memory stays bounded by the longest line, whatever the file size.  ``head``
    is the mark saved by the previous read; when the file no longer starts the same way
    (or is shorter than ``offset``), ``on_replaced()`` is called and the file is read from
    byte 0 (``replaced=True`` in the result).
    """
    fd, st = open_regular_nofollow(path)
    try:
        result = JsonlRead(size=st.st_size, mtime_ns=st.st_mtime_ns)
        if offset > st.st_size or (head and offset and head_mark(fd, int(head.split(":", 1)[0])) != head):
            result.replaced, offset = True, 0
            if on_replaced is not None:
                on_replaced()
        result.end = offset
        for line_offset, raw in _lines(fd, offset, st.st_size, result):
            obj = _parse(raw, result.skipped)
            if obj is not None:
                on_object(line_offset, obj)
        result.head = head_mark(fd, result.end)
    finally:
        os.close(fd)
    return result


def _lines(fd: int, offset: int, size: int, result: JsonlRead) -> Iterator[tuple[int, bytes]]:
    """Complete lines from ``offset`` with their offsets; ``result.end`` follows the last newline."""
    pos, buffer, buffer_at, dropping = offset, b"", offset, False
    while pos < size:
        chunk = os.pread(fd, min(CHUNK, size - pos), pos)
        if not chunk:
            break
        pos += len(chunk)
        buffer += chunk
        start = 0
        while True:
            newline = buffer.find(b"\n", start)
            if newline < 0:
                break
            if dropping:
                dropping = False
            elif buffer[start:newline].strip():
                yield buffer_at + start, buffer[start:newline]
            start = newline + 1
            result.end = buffer_at + start
        buffer, buffer_at = buffer[start:], buffer_at + start
        if len(buffer) > MAX_LINE and not dropping:
            result.skipped["line too long"] += 1
            dropping = True
        if dropping:
            buffer_at += len(buffer)
            buffer = b""


def _parse(raw: bytes, skipped: Counter[str]) -> dict[str, Any] | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        skipped["line not UTF-8"] += 1
        return None
    try:
        obj = json.loads(text)
    except ValueError:
        skipped["line not JSON"] += 1
        return None
    except RecursionError:  # nested past the interpreter's limit
        skipped["line nested too deep"] += 1
        return None
    if not isinstance(obj, dict):
        skipped["line not a JSON object"] += 1
        return None
    return obj
