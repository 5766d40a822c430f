"""What a hook serves from a saved plan is what the library reads from the files, over a grid.

The served room (``mimomem/served/``) answers a prompt or a new session from a plan file: mapped,
its bulky parts views of the mapping, the entry index and the cross-language lookup rebuilt from
spans.  The library (``prompt_context``, ``session_context``) builds the same plan from the files
in memory and answers it.  Every cell of memory states x prompts (Chinese, English, mixed, stop
words only, an identifier) and memory states x new sessions must give the same hook output.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hooks"))
from hook_calls import git_project, hook_reading_memory, hook_served

from mimomem.context.assemble import prompt_context, session_context
from mimomem.curated.store import CuratedMemory
from mimomem.hooks import entry, entry_session
from mimomem.served.fitting import PROMPT_BUDGET
from mimomem.served.hosts import CLAUDE_CODE
from mimomem.tree import host_paths
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate
from mimomem.tree.writer import Writer

SID = "grid-session"
EARLIER = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
NEW_SESSIONS = ("9b2d7c1a-5e4f-4a3b-8c6d-0e1f2a3b4c5d", "s")

PROMPTS = {
    "cjk": "部署前数据库端口要改成多少？",
    "english": "Which port does the staging database listen on, and who approves a deploy?",
    "mixed": "staging 数据库端口是多少？pnpm build 失败了",
    "stop words only": "what is it? is it that one? 是的",
    "identifier": "BIL-517 的 status 是什么",
}

MEMORY = (
    "# Project memory\n\n## Rules\n\n- 部署前先跑 pnpm 构建，构建用 node 20。\n"
    "- Never push to main; open a pull request.\n\n"
    "## Discovered durable knowledge\n\n- 部署前数据库端口是 5433（staging 和 prod 相同）。\n"
    "- The staging database listens on 5433; deploys are approved by the on-call manager.\n"
    "- BIL-517: the invoice numbering bug, fixed by a sequence per tenant.\n"
)


def _write_memory(repo: Path, text: str = MEMORY) -> None:
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(tree.project_memory(pid), text, Writer("main", project_id=pid, worktree=repo))


def _nothing(repo: Path) -> None:
    """A project nothing was remembered for yet."""


def _project_memory(repo: Path) -> None:
    _write_memory(repo)
    tree = MemoryTree()
    topic = tree.project_dir(tree.project_id(repo).id) / "memory-deploy.md"
    topic.write_text("# Deploy\n\n- 生产环境只在每周四晚上部署。\n- Deploys to prod wait for the Thursday window.\n")


def _curated_notes_global(repo: Path) -> None:
    _write_memory(repo)
    store = CuratedMemory(project_root=repo)
    store.remember("decisions", "pnpm 构建用 node 20", "构建前先 pnpm install", author="user", load_when=["pnpm 构建"])
    store.remember("facts", "staging database port 5433", "same port on prod", author="user")
    tree = MemoryTree()
    notes = tree.session_dir(EARLIER) / "notes.md"
    notes.parent.mkdir(parents=True, exist_ok=True)
    notes.write_text(
        "# Session notes\n\n## [turn 1 · 2026-11-02T10:00Z]\n- pnpm build 失败：node 18 太旧，换成 node 20 就好了。\n"
        "\n## [turn 2 · 2026-11-02T10:20Z]\n- The staging DB port moved to 5433 last week.\n",
        encoding="utf-8",
    )
    (tree.root / "global").mkdir(parents=True, exist_ok=True)
    (tree.root / "global" / "MEMORY.md").write_text("# Global\n\n## Rules\n\n- 回答用中文。\n", encoding="utf-8")


def _superseded(repo: Path) -> None:
    _curated_notes_global(repo)
    tree = MemoryTree()
    history = tree.project_dir(tree.project_id(repo).id) / "memory-history.md"
    history.write_text(
        "# Memory history\n\n- The staging database listens on 5433. - superseded 2026-11-20 by: "
        "The staging database listens on 6543 now.\n",
        encoding="utf-8",
    )


def _many_entries(repo: Path) -> None:
    """Enough entries that a common word's postings are a bitmap and a rare one's an array."""
    _write_memory(repo)
    tree = MemoryTree()
    for n in range(12):
        notes = tree.session_dir(f"old-{n}") / "notes.md"
        notes.parent.mkdir(parents=True, exist_ok=True)
        turns = "".join(
            f"\n## [turn {t} · 2026-10-{1 + n:02d}T{t:02d}:00Z]\n- deploy {n}.{t}: 部署第{t}步，port {5000 + t}。\n"
            for t in range(25)
        )
        notes.write_text("# Session notes\n" + turns, encoding="utf-8")
    for n in range(12):  # the sessions belong to this project
        hook_reading_memory(_start(repo, f"old-{n}", source="resume"))


def _host_memory(repo: Path) -> None:
    _write_memory(repo)
    folder = Path(host_paths.claude_memory_dir(str(repo), os.environ) or "")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "MEMORY.md").write_text("- [staging-db-port](staging_db_port.md) - the staging database port\n")
    (folder / "staging_db_port.md").write_text(
        "---\nname: staging-db-port\ndescription: the staging database listens on 6439\nmetadata:\n"
        "  type: project\n---\n\nThe staging Postgres port is 6439; approvals come from the release manager.\n",
        encoding="utf-8",
    )


STATES: dict[str, Callable[[Path], None]] = {
    "nothing": _nothing,
    "project memory": _project_memory,
    "curated, notes, global": _curated_notes_global,
    "a value superseded": _superseded,
    "many entries": _many_entries,
    "a host's memory": _host_memory,
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = git_project(tmp_path, monkeypatch)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("MIMOMEM_SESSION_BUDGET", str(entry_session.BUDGET_DEFAULT))
    monkeypatch.delenv("MIMOMEM_HOST_MEMORY", raising=False)
    for name in host_paths.ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "t.jsonl").write_text("", encoding="utf-8")
    return repo


def _prompt(repo: Path, text: str) -> bytes:
    event = {"hook_event_name": "UserPromptSubmit", "prompt": text, "session_id": SID, "cwd": str(repo)}
    return json.dumps(event | {"transcript_path": str(repo.parent / "t.jsonl")}, ensure_ascii=False).encode()


def _start(repo: Path, sid: str, *, source: str = "startup") -> bytes:
    event = {"hook_event_name": "SessionStart", "source": source, "session_id": sid, "cwd": str(repo)}
    return json.dumps(event | {"transcript_path": str(repo.parent / f"{sid}.jsonl")}).encode("utf-8")


@pytest.mark.parametrize("state", list(STATES), ids=list(STATES))
def test_a_served_prompt_is_the_librarys_answer(repo: Path, state: str) -> None:
    STATES[state](repo)
    where = locate(repo, session_id=SID, tree=MemoryTree())
    slow = {}
    for name, text in PROMPTS.items():  # from the files: no plan saved yet
        cut = text[: entry.PROMPT_CHARS]
        context = prompt_context(where, cut, budget=PROMPT_BUDGET, char_cap=CLAUDE_CODE.safe_chars)
        slow[name] = entry.hook_output("UserPromptSubmit", context.text)
    assert hook_served(_prompt(repo, PROMPTS["cjk"])) is None  # no plan yet
    hook_reading_memory(_prompt(repo, PROMPTS["cjk"]))  # the hook builds and saves the plan
    served = {name: hook_served(_prompt(repo, text)) for name, text in PROMPTS.items()}
    assert served == slow
    assert slow["stop words only"] == ""  # nothing to look for
    if state != "nothing":
        assert "5433" in slow["cjk"] and "5433" in slow["english"] and "5433" in slow["mixed"]
        assert "BIL-517" in slow["identifier"]
    if state == "a value superseded":
        assert "superseded 2026-11-20 by: The staging database listens on 6543" in slow["english"]
    if state == "a host's memory":
        assert "6439" in slow["english"]


@pytest.mark.parametrize("state", list(STATES), ids=list(STATES))
def test_a_served_new_session_is_the_librarys_session_context(repo: Path, state: str) -> None:
    STATES[state](repo)
    for first in ("first", "second"):  # the hook promotes what earlier sessions left, and saves the project's plan
        hook_reading_memory(_start(repo, first))
    for sid in NEW_SESSIONS:
        served = hook_served(_start(repo, sid))  # first: locating a session registers it, and it is then not new
        where = locate(repo, session_id=sid, tree=MemoryTree())
        expected = session_context(where, budget=entry_session.BUDGET_DEFAULT, char_cap=CLAUDE_CODE.safe_chars)
        assert served == entry.hook_output("SessionStart", expected.text)
        if state != "nothing":
            assert "5433" in served
