"""Context assembly: budgets hold, boilerplate is not injected, cuts are announced."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem.context.assemble import prompt_context, session_context
from mimomem.served.budgeted import read_budgeted, read_section_aware
from mimomem.served.estimate import estimate_tokens
from mimomem.served.instructions import memory_instructions, recall_reminder
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import notes_entry, notes_template
from mimomem.tree.where import Where, locate
from mimomem.tree.writer import Writer


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


def test_notes_only_session_is_not_empty(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    notes = tree.notes("S1")
    tree.write(notes, notes_template() + "\n" + notes_entry(3, "用户说：端口改成 6543"), where.writer())
    ctx = session_context(where, curated=False)
    assert "端口改成 6543" in ctx.text
    assert ctx.text.count("notes.md") >= 1
    assert "- sessions/S1/notes.md" not in ctx.text  # not listed again in the keys index


def test_empty_memory_gives_instructions_only(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    tree.ensure_templates(Writer(agent="main", session_id="S1", project_id=where.project_id, worktree=repo))
    ctx = session_context(where, curated=False)
    assert [b.name for b in ctx.blocks] == ["instructions"]


@pytest.mark.parametrize("budget", [300, 800, 2000, 6000])
def test_session_budget_holds_and_cuts_are_named(tree: MemoryTree, repo: Path, budget: int) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    big = "\n".join(f"- 决定{i}：所有服务统一使用 PostgreSQL 16，端口 5433，连接池 20。" for i in range(400))
    tree.write(
        tree.project_memory(where.project_id), f"# Project memory\n\n## Architecture decisions\n{big}\n", where.writer()
    )
    tree.write(
        tree.checkpoint("S1"),
        f"# Session checkpoint\n\n## §5 Current work\n{big}\n",
        Writer(agent="checkpoint-writer", session_id="S1", project_id=where.project_id),
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
    tree.write(tree.notes("S1"), notes_template(), where.writer())  # what SessionStart makes: no memory yet
    assert recall_reminder(where) == ""
    tree.append_note("the flaky test is test_sync", where.writer())
    assert str(tree.session_dir("S1")) in recall_reminder(where)


def test_prompt_context_is_empty_without_memory(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    assert prompt_context(where, "数据库端口").text == ""


def _project_memory(tree: MemoryTree, where: Where, body: str) -> None:
    tree.write(tree.project_memory(where.project_id), body, where.writer())


@pytest.mark.parametrize("char", ["端", "😀", "a"])
def test_the_budget_and_the_host_cap_hold_together(tree: MemoryTree, repo: Path, char: str) -> None:
    """Whatever the script, the injected text keeps both limits: tokens and UTF-16 units (an emoji is two)."""
    where = locate(repo, session_id="S1", tree=tree)
    lines = "\n".join(f"- 第{i}条 {char * 60}" for i in range(600))
    _project_memory(tree, where, f"# Project memory\n\n## Discovered durable knowledge\n{lines}\n")
    ctx = session_context(where, budget=50_000, curated=False, char_cap=9_000)
    assert ctx.tokens <= 50_000
    assert len(ctx.text.encode("utf-16-le")) // 2 <= 9_000
    assert "第0条" in ctx.text  # the start of the file is kept, the end cut


def test_a_block_left_out_is_named_with_where_to_read_it(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    big = "\n".join(f"- 决定{i}：所有服务统一使用 PostgreSQL 16，端口 5433。" for i in range(300))
    _project_memory(tree, where, f"# Project memory\n\n## Architecture decisions\n{big}\n")
    ctx = session_context(where, budget=400, curated=False)
    assert ctx.tokens <= 400
    named = str(tree.project_memory(where.project_id))
    assert named in ctx.text  # a cut or a left-out line says which file holds the rest


def test_a_secret_typed_by_hand_into_memory_never_reaches_the_model(tree: MemoryTree, repo: Path) -> None:
    """The gate refuses secrets, but a file edited in an editor bypasses it: the context still redacts."""
    where = locate(repo, session_id="S1", tree=tree)
    path = tree.project_memory(where.project_id)
    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Project memory\n\n## Discovered durable knowledge\n\n- CI token: {key}\n", encoding="utf-8")
    session = session_context(where, curated=False)
    assert "CI token" in session.text and key not in session.text
    assert "[redacted" in session.text
    prompt = prompt_context(where, "CI token")
    assert key not in prompt.text and key not in str(prompt.as_dict())


def test_a_relevant_prompt_gets_the_entry_then_the_recall_reminder(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    _project_memory(tree, where, "# Project memory\n\n## Discovered durable knowledge\n\n- 数据库端口是 5433。\n")
    tree.append_note("the flaky test is test_sync", where.writer())
    ctx = prompt_context(where, "数据库端口是多少")
    names = [b.name for b in ctx.blocks]
    assert names[-1] == "reminder" and "entries" in names
    assert ctx.text.index("5433") < ctx.text.index("<system-reminder>")
    off = locate(repo, session_id="S1", tree=MemoryTree(tree.root, write_enabled=False))
    assert "<system-reminder>" not in prompt_context(off, "数据库端口是多少").text


def test_the_json_form_adds_up_to_the_text(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    _project_memory(tree, where, "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。\n")
    data = session_context(where, curated=False).as_dict()
    assert data["text"].startswith(data["blocks"][0]["text"].rstrip("\n"))
    assert [b["name"] for b in data["blocks"]][:1] == ["instructions"]
    assert all(b["text"].rstrip("\n") in data["text"] for b in data["blocks"] if b["text"])
    assert data["tokens"] == estimate_tokens(data["text"]) <= data["budget"]


def test_an_empty_prompt_and_a_budget_of_nothing_inject_nothing(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    _project_memory(tree, where, "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。\n")
    assert prompt_context(where, "").text == ""
    tiny = prompt_context(where, "部署前先跑什么", budget=1)
    assert tiny.text == "" or tiny.tokens <= 1


def test_another_projects_memory_never_reaches_this_projects_prompts(
    tree: MemoryTree, repo: Path, tmp_path: Path
) -> None:
    other = tmp_path / "billing"
    (other / ".git").mkdir(parents=True)
    here, there = locate(repo, session_id="S1", tree=tree), locate(other, session_id="S2", tree=tree)
    _project_memory(tree, here, "# Project memory\n\n## Discovered durable knowledge\n\n- 数据库端口是 5433。\n")
    _project_memory(tree, there, "# Project memory\n\n## Discovered durable knowledge\n\n- 数据库端口是 6543。\n")
    tree.append_note("数据库端口临时改成 7000", there.writer())
    prompt = prompt_context(here, "数据库端口是多少").text
    session = session_context(here, curated=False).text
    assert "5433" in prompt and "5433" in session
    for text in (prompt, session):
        assert "6543" not in text and "7000" not in text
    assert "6543" in prompt_context(there, "数据库端口是多少").text


def test_an_edit_to_memory_is_what_the_next_prompt_sees(tree: MemoryTree, repo: Path) -> None:
    """The per-prompt cache of entries never serves a file as it was: the edit shows, the removed line goes."""
    where = locate(repo, session_id="S1", tree=tree)
    _project_memory(tree, where, "# Project memory\n\n## Discovered durable knowledge\n\n- 数据库端口是 5433。\n")
    assert "5433" in prompt_context(where, "数据库端口是多少").text
    _project_memory(tree, where, "# Project memory\n\n## Discovered durable knowledge\n\n- 数据库端口改成 16543 了。\n")
    text = prompt_context(where, "数据库端口是多少").text
    assert "16543" in text and "5433。" not in text
    tree.project_memory(where.project_id).unlink()
    assert "16543" not in prompt_context(where, "数据库端口是多少").text


def test_a_secret_in_a_session_id_or_data_path_never_reaches_the_model(tree: MemoryTree, repo: Path) -> None:
    """The instructions and reminder are not scanned whole (mimomem's own wording): their paths are, where put in."""
    key = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    where = locate(repo, session_id=key, tree=tree)
    notes = tree.session_dir(key) / "notes.md"  # the gate refuses such a path: an editor made it
    notes.parent.mkdir(parents=True)
    notes.write_text("## [turn 1 · 2026-12-06T03:00:00Z]\n\na note\n", encoding="utf-8")
    session = session_context(where, curated=False)
    assert key not in session.text and "[redacted" in session.text
    assert key not in memory_instructions(where) and key not in recall_reminder(where)
    assert "[redacted" in recall_reminder(where)
