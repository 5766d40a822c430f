"""Context assembly: budgets hold, boilerplate is not injected, cuts are announced."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem.context.assemble import prompt_context, session_context
from mimomem.context.budgeted import content_only, read_budgeted, read_section_aware
from mimomem.context.estimate import estimate_tokens
from mimomem.context.instructions import memory_instructions, recall_reminder
from mimomem.context.rebuild import allocate
from mimomem.context.where import locate
from mimomem.tree.store import MemoryTree
from mimomem.tree.templates import checkpoint_template, memory_template, notes_entry, notes_template


def test_templates_are_empty() -> None:
    assert content_only(memory_template()) == ""
    assert content_only(checkpoint_template()) == ""
    assert content_only(notes_template()) == ""


def test_content_only_keeps_real_sections() -> None:
    text = memory_template().replace("## Rules\n_", "## Rules\n- 用 pnpm\n_", 1)
    kept = content_only(text)
    assert "## Rules" in kept and "- 用 pnpm" in kept
    assert "Project context" not in kept and "(none yet)" not in kept


def test_section_aware_keeps_headings_and_spillover_lines() -> None:
    body = "\n".join(f"- 第{i}条：部署脚本用 pnpm，端口 5433，记得先跑测试。" for i in range(200))
    text = f"# M\n\n## A\n{body}\n\n## B\n- See memory-deploy.md (12 items) - 部署\n{body}\n\n## C\nshort\n"
    cut = read_section_aware(text, 300, source="/x/MEMORY.md")
    assert cut.truncated and cut.tokens <= 300
    assert "## A" in cut.text and "## B" in cut.text and "## C" in cut.text
    assert "- See memory-deploy.md (12 items)" in cut.text
    assert "read /x/MEMORY.md for the rest" in cut.text


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=3000), budget=st.integers(min_value=0, max_value=800))
def test_budgeted_reads_never_exceed_the_budget(text: str, budget: int) -> None:
    for reader in (read_budgeted, read_section_aware):
        cut = reader(text, budget, source="f")
        assert cut.tokens <= max(budget, 0) or cut.text == ""
        assert estimate_tokens(cut.text) == cut.tokens


def test_allocate_gives_small_blocks_all_and_never_overspends() -> None:
    shares = allocate({"tasks": 10, "checkpoint": 5000, "notes": 5000, "keys": 40}, 2000)
    assert shares["tasks"] == 10 and shares["keys"] == 40
    assert sum(shares.values()) <= 2000
    assert shares["checkpoint"] > shares["notes"]  # MiMo's caps weigh the checkpoint higher


def test_notes_only_session_is_not_empty(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    notes = tree.notes("S1")
    tree.write(notes, notes_template() + "\n" + notes_entry(3, "用户说：端口改成 6543"), **where.who())
    ctx = session_context(where, curated=False)
    assert "端口改成 6543" in ctx.text
    assert ctx.text.count("notes.md") >= 1
    assert "- sessions/S1/notes.md" not in ctx.text  # not listed again in the keys index


def test_empty_memory_gives_instructions_only(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    tree.ensure_templates(agent="main", session_id="S1", project_id=where.project_id, worktree=repo)
    ctx = session_context(where, curated=False)
    assert [b.name for b in ctx.blocks] == ["instructions"]


@pytest.mark.parametrize("budget", [300, 800, 2000, 6000])
def test_session_budget_holds_and_cuts_are_named(tree: MemoryTree, repo: Path, budget: int) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    big = "\n".join(f"- 决定{i}：所有服务统一使用 PostgreSQL 16，端口 5433，连接池 20。" for i in range(400))
    tree.write(
        tree.project_memory(where.project_id), f"# Project memory\n\n## Architecture decisions\n{big}\n", **where.who()
    )
    tree.write(
        tree.checkpoint("S1"),
        f"# Session checkpoint\n\n## §5 Current work\n{big}\n",
        agent="checkpoint-writer",
        session_id="S1",
        project_id=where.project_id,
    )
    ctx = session_context(where, budget=budget, curated=False)
    assert ctx.tokens <= budget
    if budget >= 2000:
        assert "truncated at" in ctx.text or ctx.left_out
    data = ctx.as_dict()
    assert data["tokens"] <= budget and all(b["tokens"] >= 0 for b in data["blocks"])


def test_writing_off_never_asks_to_write(tree: MemoryTree, repo: Path) -> None:
    off = MemoryTree(tree.root, write_enabled=False)
    where = locate(repo, session_id="S1", tree=off)
    text = memory_instructions(where)
    assert "writing is OFF" in text
    assert "mimomem note" not in text and "When to write" not in text
    assert recall_reminder(where) == ""


def test_reminder_only_when_the_session_has_memory(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    assert recall_reminder(where) == ""
    tree.write(tree.notes("S1"), notes_template(), **where.who())
    assert str(tree.session_dir("S1")) in recall_reminder(where)


def test_prompt_context_is_empty_without_memory(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    assert prompt_context(where, "数据库端口").text == ""
