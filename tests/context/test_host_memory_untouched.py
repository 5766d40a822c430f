"""mimomem never writes, moves or deletes a host's memory files, nor promotes them (issue 34, point 4).

A whole session cycle through the hook (start, prompts served and not, PreCompact, SessionEnd with
its digest and promotion, a next session) plus the commands that read host memory (``search``,
``paths``) leaves every file of the host folders as it was, byte for byte, with its mtime and
mode, and adds nothing there; and what only the host remembers never lands in mimomem's memory.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hooks"))
from hook_calls import git_project, hook_reading_memory

from mimomem.cli import main
from mimomem.tree import host_paths
from mimomem.tree.memory_tree import MemoryTree

DATA = Path(__file__).resolve().parents[1] / "hooks" / "data"
FACT = (
    "---\nname: staging-db-port\ndescription: the staging database listens on 6439\nmetadata:\n  type: project\n---\n\n"
    "The staging Postgres port is 6439.\n"
)


def snapshot(*folders: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file below ``folders``: its bytes, mtime (ns) and mode; directories by mtime and mode."""
    out: dict[str, tuple[bytes, int, int]] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            st = path.lstat()
            data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
            out[str(path)] = (data, st.st_mtime_ns, st.st_mode)
        st = folder.lstat()
        out[str(folder)] = (b"", st.st_mtime_ns, st.st_mode)
    return out


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = git_project(tmp_path, monkeypatch)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv("MIMOMEM_HOST_MEMORY")
    for name in host_paths.ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    return repo


def test_a_whole_session_cycle_leaves_host_memory_byte_for_byte(repo: Path, tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    folder = Path(host_paths.claude_memory_dir(str(repo), os.environ) or "")
    (folder / "team").mkdir(parents=True)
    (folder / "staging_port.md").write_text(FACT, encoding="utf-8")
    (folder / "team" / "shared.md").write_text("---\nname: x\n---\n部署前先跑 smoke 测试。\n", encoding="utf-8")
    (folder / "broken.md").write_text("---\nname: [oops\n", encoding="utf-8")
    lines = [f"- [Fact {i}](fact_{i}.md) — hook {i}" for i in range(1, 231)]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (home / ".codex" / "memories").mkdir(parents=True)
    (home / ".codex" / "memories" / "MEMORY.md").write_text("- billing retries webhooks 7 times\n", encoding="utf-8")
    (home / ".gemini").mkdir()
    (home / ".gemini" / "GEMINI.md").write_text("## Gemini Added Memories\n- invoice queue is q9\n", encoding="utf-8")
    for old in [folder, *folder.rglob("*"), home / ".codex", home / ".gemini"]:
        os.utime(old, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))  # an old, exact mtime
    before = snapshot(home / ".claude", home / ".codex", home / ".gemini")

    transcript = tmp_path / "session.jsonl"
    transcript.write_text((DATA / "transcript.jsonl").read_text(encoding="utf-8").replace("{cwd}", str(repo)))
    base = {"session_id": "cycle-1", "cwd": str(repo), "transcript_path": str(transcript)}

    def hook(event: str, **more: str) -> str:
        return hook_reading_memory(json.dumps({"hook_event_name": event, **base, **more}).encode())

    assert "index cap" in hook("SessionStart", source="startup")
    assert "6439" in hook("UserPromptSubmit", prompt="Which port does the staging database listen on?")
    assert "6439" in hook("UserPromptSubmit", prompt="staging database port again?")
    hook("PreCompact", trigger="auto")
    hook("SessionStart", source="compact")
    hook("SessionEnd", reason="other")
    base["session_id"] = "cycle-2"
    hook("SessionStart", source="startup")
    assert main(["search", "staging database port", "--project", str(repo)]) == 0
    assert main(["paths", "--project", str(repo)]) == 0

    assert snapshot(home / ".claude", home / ".codex", home / ".gemini") == before
    tree = MemoryTree()
    memory = tree.project_memory(tree.project_id(repo).id)
    assert memory.exists()  # the session was promoted ...
    assert "6439" not in memory.read_text(encoding="utf-8")  # ... and nothing of the host's memory with it
    assert "6439" not in "".join(p.read_text(encoding="utf-8") for p in tree.root.rglob("*.md"))
