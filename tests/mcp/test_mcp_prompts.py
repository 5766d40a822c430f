"""The ``checkpoint``, ``dream`` and ``distill`` prompts: only this project's evidence, only what changed, no secret."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'mimomem[mcp]'")

from inprocess_client import in_process, text

from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import checkpoint_template, progress_template
from mimomem.tree.where import locate

AWS_KEY = "AKIA" + "QWERTYUIOPASDFGH"


def prompt(project: Path, name: str, session: str = "s-1") -> str:
    async def body(client: Any) -> str:
        return text(await client.get_prompt(name))

    return in_process(project, body, session=session)


def note(project: Path, session: str, words: str) -> None:
    where = locate(project, session_id=session, tree=MemoryTree(), env={})
    where.tree.append_note(words, where.writer())


def test_dream_and_distill_see_this_projects_sessions_and_never_another_projects(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "billing"
    (other / ".git").mkdir(parents=True)
    note(repo, "s-old", "the user wants 部署 on Fridays only")
    note(other, "s-billing", "invoices are generated at midnight UTC")
    for name in ("dream", "distill"):
        shown = prompt(repo, name)
        assert "部署 on Fridays only" in shown and "Session s-old" in shown
        assert "invoices are generated" not in shown and "s-billing" not in shown
    assert "invoices are generated" in prompt(other, "dream", session="s-billing")


def test_the_checkpoint_prompt_shows_only_the_journals_changed_since_the_checkpoint(repo: Path) -> None:
    where = locate(repo, session_id="s-1", tree=MemoryTree(), env={})
    tree = where.tree
    for tid in ("T1", "T2"):
        body = progress_template(tid).replace("- (one-line summary of the task)", f"- task {tid} migrates the cache")
        tree.write(tree.progress("s-1", tid), body, where.writer(task_id=tid))
    checkpoint = tree.checkpoint("s-1")
    tree.write(checkpoint, checkpoint_template(), where.writer("checkpoint-writer"))
    stamp = os.stat(checkpoint).st_mtime_ns
    os.utime(tree.progress("s-1", "T1"), ns=(stamp - 10**9, stamp - 10**9))  # reconciled already
    os.utime(tree.progress("s-1", "T2"), ns=(stamp + 10**9, stamp + 10**9))  # written after the checkpoint
    shown = prompt(repo, "checkpoint")
    assert "### T2" in shown and "task T2 migrates the cache" in shown
    assert "### T1" not in shown and "task T1 migrates" not in shown
    assert "(none yet: this is the first)" in shown  # an untouched template is no checkpoint


def test_a_secret_in_a_hand_edited_notes_file_is_not_in_any_prompt(repo: Path) -> None:
    note(repo, "s-1", "deploy with the staging key")
    notes = MemoryTree().notes("s-1")
    notes.write_text(notes.read_text(encoding="utf-8") + f"\n- the key is {AWS_KEY}\n", encoding="utf-8")
    for name in ("checkpoint", "dream", "distill"):
        shown = prompt(repo, name)
        assert "deploy with the staging key" in shown and AWS_KEY not in shown, name


def test_a_huge_notes_inbox_is_cut_with_a_pointer_to_the_file(repo: Path) -> None:
    where = locate(repo, session_id="s-1", tree=MemoryTree(), env={})
    notes = where.tree.notes("s-1")
    note(repo, "s-1", "first note")
    entries = "".join(
        f"\n## [turn {i} · 2026-11-30T10:00Z]\n第{i}条笔记：部署脚本需要先跑数据库迁移。\n" for i in range(2, 3000)
    )
    notes.write_text(notes.read_text(encoding="utf-8") + entries, encoding="utf-8")
    shown = prompt(repo, "checkpoint")
    assert f"read {notes} for the rest]" in shown
    assert "first note" in shown and "第2999条" not in shown
