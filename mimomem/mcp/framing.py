"""Stdio framing in front of the MCP SDK: every request with an id gets an answer.

The SDK's stdio reader validates each line and silently drops one it cannot read, so a client
that sent it waits forever: a lone UTF-16 surrogate escape (``"\\ud800"``), arguments nested
10,000 deep, ``"params": 5``.  Here each line is checked first with the SDK's own validator;
what it accepts goes on to the SDK unchanged, and what it rejects is answered at once with a
JSON-RPC error (-32700 parse error, -32600 invalid request, -32602 invalid params) that
names the problem without echoing any value.  A line without a usable id (a notification, a
response, garbage) cannot be answered: it is logged on stderr and skipped.

Standard input is read from a private duplicate of file descriptor 0, and fd 0 is pointed at
the null device while serving, as the SDK's own transport does (handlers and children read
EOF, never the protocol).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from io import TextIOWrapper
from typing import IO, Any, NamedTuple

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

log = logging.getLogger("mimomem.mcp")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_ID_VALUE = re.compile(r'\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)(?=\s*[,}])')


class Verdict(NamedTuple):
    """What to do with one line: forward it to the SDK, or answer ``reply`` (None: cannot be answered)."""

    forward: bool
    reply: dict[str, Any] | None = None
    problem: str = ""


def classify(line: str) -> Verdict:
    """Forward what the SDK can read; an error reply (with the request's id) for what it would drop."""
    if not line.strip():
        return Verdict(False)
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return Verdict(True)
    except Exception:  # the SDK's reader fails exactly here; find out why, in our own words
        pass
    code, problem, obj = _problem(line)
    request_id = _request_id(obj, line)
    if request_id is None:
        return Verdict(False, None, problem)
    error = {"code": code, "message": problem}
    return Verdict(False, {"jsonrpc": "2.0", "id": request_id, "error": error}, problem)


def _problem(line: str) -> tuple[int, str, Any]:
    """The error code and message for a line the SDK rejected, and the parsed JSON (None if it is not)."""
    try:
        obj = json.loads(line)
    except RecursionError:
        return INVALID_REQUEST, "invalid request: JSON nested too deeply; send flat arguments", None
    except ValueError as exc:
        where = f" (column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        return PARSE_ERROR, f"parse error: the line is not valid JSON{where}", None
    if not isinstance(obj, dict):
        return INVALID_REQUEST, "invalid request: a JSON-RPC message is a JSON object", obj
    if _LONE_SURROGATE_ESCAPE.search(line) and _has_lone_surrogate(obj):
        return INVALID_PARAMS, "invalid params: a string holds a lone UTF-16 surrogate; send valid Unicode text", obj
    params = obj.get("params")
    if "params" in obj and not isinstance(params, (dict, list)):
        return INVALID_REQUEST, "invalid request: params must be an object", obj
    if obj.get("jsonrpc") != "2.0" or not isinstance(obj.get("method"), str):
        return INVALID_REQUEST, 'invalid request: it needs "jsonrpc": "2.0" and a string "method"', obj
    return INVALID_PARAMS, "invalid params: the request's fields do not have the types MCP defines", obj


def _has_lone_surrogate(obj: Any) -> bool:
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except (ValueError, RecursionError):
        return False
    return False


def _request_id(obj: Any, line: str) -> str | int | None:
    """The id to answer: a string or integer id of a request (never of a response or a notification)."""
    if isinstance(obj, dict):
        if "result" in obj or "error" in obj:
            return None  # a response: nothing waits for an answer to it
        found = obj.get("id")
    elif obj is None:
        found = _scan_id(line)  # too deep (or broken) for the parser: find the top-level "id" by hand
    else:
        return None
    if isinstance(found, bool) or not isinstance(found, (str, int)):
        return None
    return found


def _scan_id(line: str) -> Any:
    """The value of the top-level ``"id"`` key, found by scanning strings and brackets (no recursion)."""
    depth = 0
    for m in _TOKEN.finditer(line):
        token = m.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
        elif depth == 1 and token == '"id"':
            value = _ID_VALUE.match(line, m.end())
            if value is not None:
                with contextlib.suppress(ValueError):
                    return json.loads(value.group(1))
    return None


Send = Callable[[SessionMessage], Awaitable[None]]


class FramedLines:
    """The lines of ``source`` the SDK can read; the others answered through ``send`` (set once serving)."""

    def __init__(self, source: AsyncIterator[str]) -> None:
        self.source = source
        self.send: Send | None = None
        self.ready = anyio.Event()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self.source:
            verdict = classify(line)
            if verdict.forward:
                yield line
            elif verdict.reply is not None:
                await self.ready.wait()
                assert self.send is not None
                message = types.jsonrpc_message_adapter.validate_python(verdict.reply)
                await self.send(SessionMessage(message))
            elif verdict.problem:
                log.warning("skipped a message without a request id: %s", verdict.problem)


@contextlib.contextmanager
def _claimed_stdin() -> Iterator[IO[bytes]]:
    """The wire as a private duplicate of fd 0, with fd 0 on the null device while serving."""
    try:
        private = os.dup(0)
        null = os.open(os.devnull, os.O_RDONLY)
    except OSError:  # no real descriptor (embedded, tests): read the stream in place
        yield sys.stdin.buffer
        return
    os.dup2(null, 0)
    os.close(null)
    try:
        # closefd=False: a worker thread may still be blocked reading it after the server stops
        yield os.fdopen(private, "rb", closefd=False)
    finally:
        with contextlib.suppress(OSError):
            os.dup2(private, 0)


async def serve_framed(run: Callable[[Any, Any], Awaitable[None]]) -> None:
    """Serve ``run(read_stream, write_stream)`` over stdio, every line checked by :func:`classify` first."""
    with _claimed_stdin() as wire:
        text = anyio.wrap_file(TextIOWrapper(wire, encoding="utf-8", errors="replace"))
        lines = FramedLines(aiter(text))
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.send = write_stream.send
            lines.ready.set()
            await run(read_stream, write_stream)


__all__ = ["FramedLines", "Verdict", "classify", "serve_framed"]
