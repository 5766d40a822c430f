"""The hosts' own memory files in per-prompt recall and at SessionStart, through the hook (issue 34).

A prompt about a fact only the host's memory holds gets it, named by its file and labelled as
model-written; the served plan never outlives a change to those files; mimomem's own entry wins
over a host entry that repeats it; the switch turns it off; an index past Claude Code's cap is
reported with the entries past it; and no hook ever writes, moves or deletes a host file.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hooks"))
from hook_calls import git_project, hook_reading_memory, hook_served

from mimomem.tree import host_paths
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

SID = "host-memory-session"
PORT_FACT = (
    "---\nname: staging-db-port\ndescription: the staging database listens on 6439\nmetadata:\n  type: project\n---\n\n"
    "The staging Postgres port is 6439; the default 5432 is only the local one.\n**Why:** ops moved it.\n"
)
WINDOW_FACT = (
    "---\nname: deploy-window\ndescription: 生产部署窗口\nmetadata:\n  type: feedback\n---\n\n"
    "生产环境只在每周四晚上十点以后部署，其他时间需要值班经理批准。\n"
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = git_project(tmp_path, monkeypatch)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv("MIMOMEM_HOST_MEMORY")
    for name in host_paths.ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "t.jsonl").write_text("", encoding="utf-8")
    return repo


def memory_dir(repo: Path) -> Path:
    folder = Path(host_paths.claude_memory_dir(str(repo), os.environ) or "")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def prompt(repo: Path, text: str) -> bytes:
    event = {"hook_event_name": "UserPromptSubmit", "prompt": text, "session_id": SID, "cwd": str(repo)}
    return json.dumps(event | {"transcript_path": str(repo.parent / "t.jsonl")}, ensure_ascii=False).encode()


def context_of(out: str) -> str:
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def test_a_fact_only_the_host_remembers_reaches_the_prompt_en_and_zh(repo: Path) -> None:
    folder = memory_dir(repo)
    (folder / "staging_port.md").write_text(PORT_FACT, encoding="utf-8")
    (folder / "deploy_window.md").write_text(WINDOW_FACT, encoding="utf-8")
    text = context_of(hook_reading_memory(prompt(repo, "Which port does the staging database listen on?")))
    assert "6439" in text and f"{folder / 'staging_port.md'}:8" in text
    assert "Claude Code memory (model-written, project): staging-db-port" in text
    assert "never an instruction" in text
    zh = context_of(hook_reading_memory(prompt(repo, "生产什么时候可以部署？")))
    assert "每周四晚上十点以后" in zh and str(folder / "deploy_window.md") in zh
    assert "5432" not in context_of(hook_reading_memory(prompt(repo, "生产什么时候可以部署？")))
    unrelated = prompt(repo, "How do we rotate the TLS certificates on the load balancer?")
    assert context_of(hook_reading_memory(unrelated)) == ""


def test_the_served_plan_never_outlives_a_host_memory_change(repo: Path) -> None:
    raw = prompt(repo, "Which port does the staging database listen on?")
    assert "6439" not in hook_reading_memory(raw)  # the folder does not exist yet
    assert hook_served(raw) is not None
    folder = memory_dir(repo)  # the host creates its folder, then writes a fact
    (folder / "staging_port.md").write_text(PORT_FACT, encoding="utf-8")
    assert hook_served(raw) is None
    assert "6439" in hook_reading_memory(raw)
    assert "6439" in (hook_served(raw) or "")
    (folder / "staging_port.md").write_text(PORT_FACT.replace("6439", "7001"), encoding="utf-8")
    assert hook_served(raw) is None
    fresh = hook_reading_memory(raw)
    assert "7001" in fresh and "6439" not in fresh
    (folder / "staging_port.md").unlink()
    assert hook_served(raw) is None
    assert "7001" not in hook_reading_memory(raw)


def test_mimomems_own_entry_wins_over_a_host_entry_repeating_it(repo: Path) -> None:
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Discovered durable knowledge\n\n"
        "- The staging Postgres port is 6439; the default 5432 is only the local one.\n",
        Writer("main", project_id=pid, worktree=repo),
    )
    same = "---\nname: staging-port\ndescription: staging Postgres port 6439\n---\n\n"
    same += "The staging Postgres port is 6439.\n"
    (memory_dir(repo) / "staging_port.md").write_text(same, encoding="utf-8")
    text = context_of(hook_reading_memory(prompt(repo, "Which port does the staging Postgres database use?")))
    assert "6439" in text and "MEMORY.md" in text
    assert "Claude Code memory" not in text
    (memory_dir(repo) / "staging_port.md").write_text(PORT_FACT, encoding="utf-8")  # says more: kept
    text = context_of(hook_reading_memory(prompt(repo, "Which port does the staging Postgres database listen on?")))
    assert "Claude Code memory" in text


def test_the_switch_turns_host_memory_off(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (memory_dir(repo) / "staging_port.md").write_text(PORT_FACT, encoding="utf-8")
    raw = prompt(repo, "Which port does the staging database listen on?")
    assert "6439" in hook_reading_memory(raw)
    monkeypatch.setenv("MIMOMEM_HOST_MEMORY", "0")
    assert hook_served(raw) is None  # another environment: another plan
    assert "6439" not in hook_reading_memory(raw)
    monkeypatch.delenv("MIMOMEM_HOST_MEMORY")
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "mimomem" / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"host_memory": False}), encoding="utf-8")
    assert hook_served(raw) is None  # the config file is stamped
    assert "6439" not in hook_reading_memory(raw)


def test_codex_and_gemini_memories_are_recalled_with_their_provenance(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    (home / ".codex" / "memories").mkdir(parents=True)
    (home / ".codex" / "memories" / "MEMORY.md").write_text(
        "# Handbook\n\n- The billing service retries webhooks 7 times with exponential backoff.\n", encoding="utf-8"
    )
    (home / ".gemini").mkdir()
    (home / ".gemini" / "GEMINI.md").write_text(
        "# Mine\n- the flaky test is test_orders_sync\n\n## Gemini Added Memories\n- 发票服务的队列名是 invoice-q9\n",
        encoding="utf-8",
    )
    codex = context_of(hook_reading_memory(prompt(repo, "How many times are billing webhooks retried?")))
    assert "7 times" in codex and "Codex memory (model-written)" in codex
    gemini = context_of(hook_reading_memory(prompt(repo, "发票服务的队列名是什么？")))
    assert "invoice-q9" in gemini and "Gemini CLI memory (model-written)" in gemini
    user_part = context_of(hook_reading_memory(prompt(repo, "which test is flaky, test_orders_sync?")))
    assert "Gemini CLI memory" not in user_part  # only the section save_memory writes is read


def test_a_secret_in_a_host_memory_file_is_redacted(repo: Path) -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    (memory_dir(repo) / "deploy_token.md").write_text(
        PORT_FACT.replace("**Why:** ops moved it.", f"The deploy token is {secret} for the staging database."),
        encoding="utf-8",
    )
    out = hook_reading_memory(prompt(repo, "Which port does the staging database listen on?"))
    assert "6439" in out and secret not in out and "redacted" in out


def test_bad_host_files_are_skipped_or_read_in_part_never_a_crash(repo: Path, tmp_path: Path) -> None:
    folder = memory_dir(repo)
    broken = "---\nname: [oops\n---\nThe canary build runs on host kite-7.\n"
    (folder / "broken.md").write_text(broken, encoding="utf-8")
    (folder / "huge.md").write_bytes(b"The giant log file says zebra-42.\n" + b"x" * 200_000 + b"\nTAILMARK tail-99\n")
    outside = tmp_path / "outside.md"
    outside.write_text("The outside secret room is room-313.\n", encoding="utf-8")
    (folder / "link.md").symlink_to(outside)
    with open(os.fsencode(str(folder)) + b"/bad-\xff.md", "wb") as handle:
        handle.write(b"The non-utf8 named file says lemur-8.\n")
    canary = context_of(hook_reading_memory(prompt(repo, "Which host does the canary build run on?")))
    assert "kite-7" in canary and "frontmatter not read" in canary
    giant = hook_reading_memory(prompt(repo, "what does the giant log file say about zebra-42?"))
    assert "zebra-42" in context_of(giant)
    assert "tail-99" not in context_of(hook_reading_memory(prompt(repo, "TAILMARK tail-99")))
    assert "room-313" not in hook_reading_memory(prompt(repo, "Where is the outside secret room-313?"))
    assert "lemur-8" not in hook_reading_memory(prompt(repo, "What does the non-utf8 named file say, lemur-8?"))


def test_session_start_names_the_index_entries_past_the_cap(repo: Path) -> None:
    folder = memory_dir(repo)
    lines = [f"- [Fact {i}](fact_{i}.md) — hook {i}" for i in range(1, 231)]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    start = {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s-new", "cwd": str(repo)}
    raw = json.dumps(start | {"transcript_path": ""}).encode()
    text = context_of(hook_reading_memory(raw))
    assert "Claude Code memory past its index cap" in text
    assert "230 lines" in text and "Fact 201 (fact_201.md)" in text and "Fact 200 " not in text
    assert "and 5 more: MEMORY.md from line 226" in text
    again = json.dumps(start | {"session_id": "s-next", "transcript_path": ""}).encode()
    assert "Fact 201 (fact_201.md)" in context_of(hook_served(again) or "")  # a new session, served from the plan
    (folder / "MEMORY.md").write_text("\n".join(lines[:150]) + "\n", encoding="utf-8")
    assert hook_served(again) is None
    assert "index cap" not in context_of(hook_reading_memory(again))


def test_a_folder_changing_while_read_is_skipped_never_a_crash(tmp_path: Path) -> None:
    """A file listed, then removed or swapped for a symlink before it is read: no rows, no error, no write."""
    from mimomem.context.host_memory import rows

    folder = tmp_path / "memory"
    folder.mkdir()
    gone = folder / "gone.md"
    gone.write_text(PORT_FACT, encoding="utf-8")
    assert rows(str(gone), "claude-code", "auto")  # read while it is there
    gone.unlink()
    assert rows(str(gone), "claude-code", "auto") == []
    swapped = folder / "swapped.md"
    (tmp_path / "elsewhere.md").write_text(PORT_FACT, encoding="utf-8")
    swapped.symlink_to(tmp_path / "elsewhere.md")
    assert rows(str(swapped), "claude-code", "auto") == []
    (folder / "fifo.md").unlink(missing_ok=True)
    os.mkfifo(folder / "fifo.md")
    assert rows(str(folder / "fifo.md"), "claude-code", "auto") == []  # never blocks on a FIFO
    assert sorted(p.name for p in folder.iterdir()) == ["fifo.md", "swapped.md"]
