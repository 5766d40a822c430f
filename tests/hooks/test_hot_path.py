"""The per-prompt and SessionStart hooks as Claude Code runs them: a fresh process each time.

Two properties of the hot path that no output comparison shows: what a hook process loads
(nothing the path does not use: not the CLI's parser, not the history package, not YAML),
and that a read leaves every file alone (no state-file write per prompt, no reconcile when
nothing changed).  Timing is measured in ``benchmarks/bench_hook.py``, never here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

SID = "hot-path-session"
PROMPT = "部署前数据库端口要改成多少？"

PROBE = """
import io, json, sys, typing
forward_refs = []
_init = typing.ForwardRef.__init__
def _spy(self, arg, *args, **kwargs):
    forward_refs.append(arg)
    _init(self, arg, *args, **kwargs)
typing.ForwardRef.__init__ = _spy
from mimomem.hooks import claude_code
out = io.StringIO()
claude_code.run(sys.stdin, out, sys.stderr)
json.dump({"out": out.getvalue(), "modules": sorted(sys.modules), "forward_refs": forward_refs}, sys.__stdout__)
"""

NEVER_LOADED = (
    *("argparse", "mimomem.cli.parser", "mimomem.history", "mimomem.passes.promote", "mimomem.passes.dream"),
    *("dataclasses", "inspect", "hashlib", "_hashlib", "tempfile", "importlib.resources"),
)
"""Modules a context hook must not import: the CLI's parser, the history package, the promotion pass,
and the standard library it has no use for (``dataclasses`` brings ``inspect`` and ``ast``, ~10 ms;
``hashlib`` loads OpenSSL where ``_blake2`` serves; ``tempfile`` is for writes)."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with project memory, a session note and a transcript, in a private MIMOMEM_HOME."""
    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Discovered durable knowledge\n\n- 部署前数据库端口是 5433（staging 和 prod 相同）。\n",
        Writer("main", project_id=pid, worktree=repo),
    )
    (tmp_path / "transcript.jsonl").write_text("", encoding="utf-8")
    return repo


def hook(repo: Path, event: dict[str, object]) -> dict[str, object]:
    """Run one hook in a fresh interpreter; its output and the modules it had loaded."""
    payload = {"session_id": SID, "cwd": str(repo), "transcript_path": str(repo.parent / "transcript.jsonl"), **event}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], input=json.dumps(payload), capture_output=True, text=True, check=True
    )
    assert done.stderr == ""
    result: dict[str, object] = json.loads(done.stdout)
    return result


def snapshot(*tops: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``tops``: its bytes and mtime (a rewrite with the same bytes still shows)."""
    out: dict[str, tuple[bytes, int]] = {}
    for top in tops:
        for dirpath, _, names in os.walk(top):
            for name in names:
                path = Path(dirpath) / name
                out[str(path)] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


PROMPT_EVENT = {"hook_event_name": "UserPromptSubmit", "prompt": PROMPT}
START_EVENT = {"hook_event_name": "SessionStart", "source": "startup"}


@pytest.mark.parametrize("event", [PROMPT_EVENT, START_EVENT], ids=["UserPromptSubmit", "SessionStart"])
def test_a_context_hook_loads_only_what_it_uses(project: Path, event: dict[str, object]) -> None:
    result = hook(project, event)
    assert "5433" in str(result["out"])
    modules = result["modules"]
    assert isinstance(modules, list)
    loaded = [m for m in modules if any(m == n or m.startswith(n + ".") for n in NEVER_LOADED)]
    assert loaded == []
    if "mimomem._native" in modules:  # the native tokenizer's tables are prebuilt: no `regex` module
        assert "regex" not in modules
    # a typing.NamedTuple under `from __future__ import annotations` makes a ForwardRef per field, and
    # the first one's compile() sets up every AST type (~2 ms): the path's records evaluate annotations
    assert result["forward_refs"] == []


def test_the_hook_command_ends_with_its_output_whole(project: Path) -> None:
    """`python -m mimomem hook claude-code` skips the interpreter's teardown (os._exit): all output still arrives."""
    for event in (PROMPT_EVENT, START_EVENT):
        payload = {"session_id": SID, "cwd": str(project), "transcript_path": str(project.parent / "t.jsonl"), **event}
        done = subprocess.run(
            [sys.executable, "-m", "mimomem", "hook", "claude-code"],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0 and done.stderr == ""
        assert "5433" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_prompt_hook_writes_nothing(project: Path, tmp_path: Path) -> None:
    hook(project, PROMPT_EVENT)  # type: ignore[arg-type]  # the first call of a session may register it and build caches
    before = snapshot(tmp_path / "home", tmp_path / "cache", project)
    for _ in range(2):
        assert "5433" in str(hook(project, PROMPT_EVENT)["out"])  # type: ignore[arg-type]
    assert snapshot(tmp_path / "home", tmp_path / "cache", project) == before
