"""The host's own memory through the real Claude Code (issue 34): a prompt served from a host memory file.

Claude Code's auto-memory folder of the sandbox project holds two facts (one English, one Chinese)
that no mimomem memory has, and a ``MEMORY.md`` index past the 200 lines Claude Code loads.  Through
the real CLI: the folder mimomem reads is the one the host's own system prompt names; each prompt
gets its fact injected with the file named and labelled as model-written; SessionStart names the
index entries past the cap; and the host folder is byte for byte as it was after the session.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from host_sandbox import pure_pass, sandbox

from mimomem.bench.host import Host, Script, StandIn, Turn
from mimomem.bench.host.session import run_session
from mimomem.tree.host_paths import claude_memory_dir

PORT = (
    "---\nname: staging-db-port\ndescription: the staging database listens on 6439\nmetadata:\n  type: project\n---\n\n"
    "The staging Postgres port is 6439; the default 5432 is only the local one.\n"
)
WINDOW = (
    "---\nname: deploy-window\ndescription: 生产部署窗口\nmetadata:\n  type: feedback\n---\n\n"
    "生产环境只在每周四晚上十点以后部署，其他时间需要值班经理批准。\n"
)


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_prompt_is_served_from_a_host_memory_file(tmp_path: Path, host: Host, model: StandIn) -> None:
    if pure_pass():
        pytest.skip("pure pass: the hook tests cover host memory with the pure twins")
    box = sandbox(tmp_path, host, "settings")
    folder = Path(claude_memory_dir(str(box.project), box.env()) or "")
    folder.mkdir(parents=True)
    (folder / "staging_port.md").write_text(PORT, encoding="utf-8")
    (folder / "deploy_window.md").write_text(WINDOW, encoding="utf-8")
    index = [f"- [Note {i}](note_{i}.md) — hook {i}" for i in range(1, 231)]
    (folder / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    before = snapshot(folder)

    turns = [Turn("Which port does the staging database listen on?"), Turn("生产什么时候可以部署？")]
    session = run_session(box, model, Script(turns))

    # the folder mimomem reads is the one the host itself tells its model about
    system = " ".join(str(r.body.get("system")) for r in session.main_requests)
    named = re.search(r"persistent file-based memory at `([^`]+)`", system)
    assert named is not None and named.group(1).rstrip("/") == str(folder)
    start = session.injected_text("SessionStart")
    assert "Claude Code memory past its index cap" in start and "Note 201 (note_201.md)" in start
    prompts = [p.text for p in session.injected("UserPromptSubmit")]
    english = next(t for t in prompts if "6439" in t)
    assert f"{folder / 'staging_port.md'}:8" in english
    assert "Claude Code memory (model-written, project): staging-db-port" in english
    chinese = next(t for t in prompts if "每周四晚上十点以后" in t)
    assert str(folder / "deploy_window.md") in chinese
    assert box.settle() == []
    assert snapshot(folder) == before  # the host's files, byte for byte, with their mtimes
