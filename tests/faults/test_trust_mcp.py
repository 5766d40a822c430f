"""Fault 8 of the trust-boundaries issue: the MCP server answers every request that has an id.

The SDK's stdio reader dropped a line it could not validate (a lone surrogate escape in a tool
argument, arguments nested 10,000 deep, ``"params": 5``) and its client waited forever.  Driven
over raw stdio in a subprocess, every read under a timeout, so a hang fails the test.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

pytest.importorskip("mcp")

from mimomem.mcp.framing import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, classify

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}


def _call(request_id: int, arguments_json: str) -> str:
    head = f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", '
    return head + '"params": {"name": "memory_note", "arguments": ' + arguments_json + "}}"


BAD_LINES = {
    1: _call(1, '{"text": "\\ud800"}'),
    2: _call(2, '{"text": ' + "[" * 10_000 + "]" * 10_000 + "}"),
    3: '{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": 5}',
    4: '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "memory_note", "argu',
    5: '{"jsonrpc": "2.0", "id": 5, "method": 7}',
}


class Server:
    """``python -m mimomem mcp`` with raw pipes; replies read by a thread into a queue."""

    def __init__(self, tmp_path: Path) -> None:
        repo = tmp_path / "repo"
        (repo / ".git").mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MIMOMEM_"))}
        env.update(MIMOMEM_HOME=str(tmp_path / "home"), HOME=str(tmp_path), PYTHONPATH=str(ROOT))
        if os.environ.get("MIMOMEM_PURE"):
            env["MIMOMEM_PURE"] = os.environ["MIMOMEM_PURE"]
        self.errlog = (tmp_path / "stderr.txt").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mimomem", "mcp", "--session", "s-1"],
            cwd=repo,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errlog,
        )
        self.replies: queue.Queue[dict[str, Any]] = queue.Queue()
        assert self.proc.stdout is not None
        self.reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self.reader.start()

    def _read(self, stdout: IO[bytes]) -> None:
        for line in stdout:
            self.replies.put(json.loads(line))

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def reply(self) -> dict[str, Any]:
        try:
            return self.replies.get(timeout=WAIT)
        except queue.Empty:
            pytest.fail(f"no reply within {WAIT} s: the server dropped a request")

    def close(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.reader.join(timeout=WAIT)
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self.errlog.close()


@pytest.fixture
def server(tmp_path: Path) -> Any:
    served = Server(tmp_path)
    yield served
    if not served.errlog.closed:
        served.close()


def test_fault_8_every_request_with_an_id_gets_an_answer(server: Server, tmp_path: Path) -> None:
    server.send(json.dumps(INIT))
    assert 0 == server.reply()["id"]
    server.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    for request_id, line in BAD_LINES.items():
        server.send(line)
        reply = server.reply()
        assert request_id == reply["id"] and "error" in reply, reply
        assert reply["error"]["code"] in (PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS)
    server.send(_call(9, '{"text": "still serving"}'))  # and the server is still up
    reply = server.reply()
    assert 9 == reply["id"] and "noted as turn" in reply["result"]["content"][0]["text"]
    server.close()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text(encoding="utf-8", errors="replace")


@pytest.mark.parametrize(
    ("request_id", "code"), [(1, INVALID_PARAMS), (2, INVALID_REQUEST), (3, INVALID_REQUEST), (4, PARSE_ERROR)]
)
def test_fault_8_each_kind_of_bad_line_has_its_code(request_id: int, code: int) -> None:
    verdict = classify(BAD_LINES[request_id])
    assert not verdict.forward and verdict.reply is not None
    assert {"jsonrpc": "2.0", "id": request_id} == {k: verdict.reply[k] for k in ("jsonrpc", "id")}
    assert code == verdict.reply["error"]["code"]
    assert "\\ud800" not in verdict.reply["error"]["message"]  # no value is echoed


def test_fault_8_what_cannot_be_answered_is_skipped_and_good_lines_pass() -> None:
    assert classify(json.dumps(INIT)).forward
    assert classify('{"jsonrpc": "2.0", "method": "notifications/x", "params": 5}').reply is None  # no id
    assert classify('{"jsonrpc": "2.0", "id": 1, "result": 5}').reply is None  # a response
    assert classify("[1, 2]").reply is None and classify("").reply is None
    assert classify('{"id": true, "method": "x", "params": 1}').reply is None  # not an id
