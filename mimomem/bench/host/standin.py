"""A loopback stand-in for the Anthropic Messages API: the model's side of a real Claude Code session.

``StandIn`` serves ``http://127.0.0.1:PORT`` from a thread (standard library only).  It records
every request (path, headers of interest, parsed JSON body) and answers:

- ``POST /v1/messages`` carrying ``tools`` (the main loop): the next step of the ``Script`` — the
  first request of a typed turn starts that turn, each request that carries the ``tool_result``s
  of the step before takes the next step, and after the last step the turn's final text ends it;
- ``POST /v1/messages`` without tools (titles, summaries, the host's side requests): a short text;
- ``POST /v1/messages/count_tokens``: a rough count;
- anything else: recorded in ``unknown`` and answered 404, so a new call of a new host version
  shows up in the record rather than hanging the session.

Answers are streamed as server-sent events when the request asks (``"stream": true``, what the
host does) and as one JSON message otherwise.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from mimomem.bench.host.script import Script, Step

SIDE_TEXT = "Session notes"
"""What a side request (a title, a summary) gets back."""

MODEL = "claude-stand-in"


@dataclass
class Request:
    """One request the host sent: its path, its JSON body (``{}`` when none or not JSON), and when."""

    path: str
    body: dict[str, Any]
    method: str = "POST"

    @property
    def main_loop(self) -> bool:
        """A main-loop model request (it offers tools); side requests (titles, summaries) offer none."""
        on_path = self.path.startswith("/v1/messages") and "count_tokens" not in self.path
        return on_path and bool(self.body.get("tools")) and not compaction(self)

    @property
    def messages(self) -> list[dict[str, Any]]:
        value = self.body.get("messages")
        return value if isinstance(value, list) else []


@dataclass
class _Cursor:
    turn: int = -1
    step: int = 0
    steps: tuple[Step, ...] = ()
    counter: int = 0


class StandIn:
    """The stand-in server; use as a context manager (``with StandIn(script) as model: model.url``)."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script([])
        self.requests: list[Request] = []
        self.unknown: list[str] = []
        self._lock = threading.Lock()
        self._cursor = _Cursor()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> StandIn:
        self._server = _Server(self)
        self._thread = threading.Thread(target=self._server.serve_forever, name="mimomem-standin", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> StandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the stand-in is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def set_script(self, script: Script) -> None:
        """Answer the next session from ``script`` (its turns from the first)."""
        with self._lock:
            self.script = script
            self._cursor = _Cursor()

    # -- answers -----------------------------------------------------------------------------
    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def answer(self, request: Request) -> dict[str, Any]:
        """The assistant message for a ``/v1/messages`` request."""
        if compaction(request):
            return _message([{"type": "text", "text": self.script.compact_summary or SIDE_TEXT}], "end_turn")
        if not request.main_loop:
            return _message([{"type": "text", "text": SIDE_TEXT}], "end_turn")
        with self._lock:
            return self._next_main(request)

    def _next_main(self, request: Request) -> dict[str, Any]:
        cursor = self._cursor
        turn_index = typed_turn(request.messages, [t.prompt for t in self.script.turns], cursor.turn)
        turn = self.script.turn(turn_index)
        if turn is None:
            return _message([{"type": "text", "text": "(the script has no more turns)"}], "end_turn")
        if turn_index != cursor.turn:
            cursor.turn = turn_index  # the next typed prompt arrived: its turn starts
            cursor.step = 0
            cursor.steps = tuple(turn.react(request.body)) if turn.react else turn.steps
        if cursor.step < len(cursor.steps):
            step = cursor.steps[cursor.step]
            cursor.step += 1
            if step.before is not None:
                step.before()
            blocks = self._blocks(step)
            stop = "tool_use" if step.tools else "end_turn"
            return _message(blocks, stop)
        cursor.step += 1
        return _message([{"type": "text", "text": turn.final}], "end_turn")

    def _blocks(self, step: Step) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        if step.text:
            blocks.append({"type": "text", "text": step.text})
        for tool in step.tools:
            self._cursor.counter += 1
            tool_id = f"toolu_standin_{self._cursor.counter:04d}"
            blocks.append({"type": "tool_use", "id": tool_id, "name": tool.name, "input": dict(tool.input)})
        return blocks


COMPACTION = "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."
"""How the host's compaction request (``/compact``, or an automatic one) opens its last user message (2.1.337)."""


def compaction(request: Request) -> bool:
    """True for the host's request to summarize the conversation (it carries tools, but wants text only)."""
    last = request.messages[-1] if request.messages else None
    return (
        isinstance(last, dict)
        and last.get("role") == "user"
        and any(t.startswith(COMPACTION) for t in _texts(last.get("content")))
    )


def typed_turn(messages: list[dict[str, Any]], prompts: list[str], current: int = -1) -> int:
    """The turn the conversation is in: ``current``, or a later one whose prompt the messages now hold.

    Read from the prompts present, not from the messages' shape: the host may merge a typed prompt
    into the user message that carries the previous turn's tool results (adding a newline to it),
    and after a compaction the earlier prompts are gone.  A slash command (``/compact``) never
    reaches the model: the turn after it starts when its prompt is found.
    """
    typed = [t.strip() for m in messages if m.get("role") == "user" for t in _texts(m.get("content"))]
    while True:
        j = current + 1
        while j < len(prompts) and prompts[j].startswith("/"):
            j += 1
        if j >= len(prompts):
            return current
        wanted = prompts[j].strip()
        if typed.count(wanted) <= sum(p.strip() == wanted for p in prompts[:j]):
            return current
        current = j


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [str(b.get("text")) for b in content if isinstance(b, dict) and b.get("type") == "text"]


def _message(content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    return {
        "id": "msg_standin",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def sse_events(message: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``message`` as the Messages API's stream: (event name, data) pairs."""
    start = dict(message, content=[], stop_reason=None)
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            yield "content_block_start", _block_start(index, {"type": "text", "text": ""})
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            yield "content_block_start", _block_start(index, dict(block, input={}))
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 10},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, standin: StandIn) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.standin = standin


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    @property
    def _standin(self) -> StandIn:
        return self.server.standin

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: the record is the log

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            value = json.loads(raw or b"{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def _send_json(self, status: int, value: dict[str, Any]) -> None:
        data = json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        request = Request(path, self._body())
        self._standin.record(request)
        if path == "/v1/messages/count_tokens":
            size = len(json.dumps(request.body))
            self._send_json(200, {"input_tokens": max(1, size // 4)})
        elif path == "/v1/messages":
            self._messages(request)
        else:
            self._unknown(request)

    def do_GET(self) -> None:
        self._unknown(Request(self.path.split("?", 1)[0], {}, method="GET"))

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _unknown(self, request: Request) -> None:
        self._standin.record(request)
        with self._standin._lock:
            self._standin.unknown.append(f"{request.method} {request.path}")
        self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "stand-in"}})

    def _messages(self, request: Request) -> None:
        message = self._standin.answer(request)
        if not request.body.get("stream"):
            self._send_json(200, message)
            return
        chunks = [f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in sse_events(message)]
        data = "".join(chunks).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
