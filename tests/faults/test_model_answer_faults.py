"""Trust-boundary fault 4: a model answer replaced MEMORY.md / checkpoint.md unchecked.

An empty fenced block or just ``OK.`` erased the user's lines and a filled checkpoint section
(exit 0, no backup), and the endpoint timeout was per socket read, so a server trickling a
byte now and then kept a pass alive indefinitely.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from mimomem.errors import ModelEndpointError, PassError
from mimomem.history.history_store import HistoryStore
from mimomem.passes.base import PassContext
from mimomem.passes.llm import OpenAICompatible, run_with_model
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import checkpoint_template
from mimomem.tree.where import locate

ROOT = Path(__file__).resolve().parents[2]
SID = "s-model"
MEMORY = """# Project memory

## Rules

- 以后都用 pnpm, never npm
- Run ruff check before committing

## Discovered durable knowledge

- staging Postgres listens on 5433
"""


class Scripted:
    """A chat model that answers ``text``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def complete(self, system: str, prompt: str) -> str:
        return self.text


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[PassContext]:
    project = tmp_path / "repo"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    tree = MemoryTree(tmp_path / "data" / "memory")
    where = locate(project, session_id=SID, tree=tree, env={})
    memory = tree.project_memory(where.project_id)
    memory.parent.mkdir(parents=True, exist_ok=True)
    memory.write_text(MEMORY, encoding="utf-8")
    with HistoryStore(tmp_path / "data" / "history.db") as store:
        yield PassContext.open(where, store, now=1_780_000_000_000)


def _undo_dir(ctx: PassContext) -> Path:
    return ctx.where.tree.data_dir / "undo"


@pytest.mark.parametrize(
    "answer",
    [
        "```markdown\n```\n",
        "```markdown\nOK.\n```\n",
        "```markdown\n# Project memory\n\n## Rules\n\n- 以后都用 pnpm, never npm\n```\nDone.\n",
    ],
    ids=["empty block", "OK.", "lines dropped silently"],
)
def test_a_model_answer_that_loses_the_users_lines_is_refused(ctx: PassContext, answer: str) -> None:
    memory = ctx.where.tree.project_memory(ctx.where.project_id)
    with pytest.raises(PassError, match=r"refused, nothing was written"):
        run_with_model("dream", ctx, "http://unused", model=Scripted(answer))
    assert memory.read_text(encoding="utf-8") == MEMORY


def test_an_empty_checkpoint_answer_keeps_the_filled_checkpoint(ctx: PassContext) -> None:
    path = ctx.where.tree.checkpoint(SID)
    filled = checkpoint_template().replace("(none yet)", "- run the users-table migration next", 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(filled, encoding="utf-8")
    for answer in ("```markdown\n```\n", "```markdown\nOK.\n```\n", f"```markdown\n{checkpoint_template()}```\n"):
        with pytest.raises(PassError, match="refused"):
            run_with_model("checkpoint", ctx, "http://unused", model=Scripted(answer))
        assert path.read_text(encoding="utf-8") == filled


def test_an_explicit_deletion_is_written_and_every_rewrite_keeps_a_numbered_undo_copy(ctx: PassContext) -> None:
    memory = ctx.where.tree.project_memory(ctx.where.project_id)
    kept = MEMORY.replace("- Run ruff check before committing\n", "")
    answer = f"```markdown\n{kept}```\n\nDeleted:\n- Run ruff check before committing (the user dropped ruff)\n"
    report = run_with_model("dream", ctx, "http://unused", model=Scripted(answer))
    assert memory.read_text(encoding="utf-8") == kept
    first = _undo_dir(ctx) / "projects" / ctx.where.project_id / "MEMORY.md.1"
    assert first.read_text(encoding="utf-8") == MEMORY
    assert any(str(first) in line for line in report.undo) and str(first) in report.render()
    again = kept.replace("5433\n", "5433\n- prod listens on 5432\n")
    run_with_model("dream", ctx, "http://unused", model=Scripted(f"```markdown\n{again}```\n"))
    second = first.with_name("MEMORY.md.2")
    assert second.read_text(encoding="utf-8") == kept and first.read_text(encoding="utf-8") == MEMORY
    assert oct(second.stat().st_mode & 0o777) == "0o600"


class Trickle:
    """An HTTP server that sends its headers, then one byte of the body every ``every`` seconds."""

    def __init__(self, every: float, total: float) -> None:
        stop = self.stop = threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                body = json.dumps({"choices": [{"message": {"content": "```markdown\nx\n```"}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body) + 10_000))
                self.end_headers()
                ends = time.monotonic() + total
                for byte in body:
                    if stop.is_set() or time.monotonic() > ends:
                        return
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    stop.wait(every)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_trickling_server_is_cut_at_the_deadline() -> None:
    server = Trickle(every=0.5, total=30.0)
    try:
        started = time.monotonic()
        with pytest.raises(ModelEndpointError, match=r"within 1 s \(the deadline\)"):
            OpenAICompatible(server.url, timeout=1.0).complete("system", "prompt")
        assert time.monotonic() - started < 10.0  # the old per-read timeout let it run the full 30 s
    finally:
        server.close()


def test_the_cli_refuses_an_empty_answer_with_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    class Empty(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            body = json.dumps({"choices": [{"message": {"content": "```markdown\nOK.\n```"}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Empty)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    project = tmp_path / "repo"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MIMOMEM_"))}
    env |= {"MIMOMEM_HOME": str(tmp_path / "home"), "HOME": str(tmp_path / "user")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    tree = MemoryTree(tmp_path / "home" / "data" / "memory")  # where MIMOMEM_HOME keeps it
    memory = tree.project_memory(locate(project, tree=tree, env={}).project_id)
    memory.parent.mkdir(parents=True, exist_ok=True)
    memory.write_text(MEMORY, encoding="utf-8")
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
        run = subprocess.run(
            [sys.executable, "-m", "mimomem", "dream", "--model", url, "--project", str(project)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert run.returncode != 0 and "refused, nothing was written" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert memory.read_text(encoding="utf-8") == MEMORY
