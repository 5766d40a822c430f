"""The rebuild context's cuts, as the agent sees them: shares, newest input first, files it will not read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mimomem.context import rebuild
from mimomem.context.rebuild import read_memory_file, rebuild_blocks, tasks_ledger
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate


def test_recent_input_is_newest_first_and_the_oldest_is_what_a_cut_drops(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    messages = [f"第{i}条要求：把部署脚本改成 pnpm，并且先跑测试 {'细节' * 40}" for i in range(60)]
    (block,) = [b for b in rebuild_blocks(where, 600, recent_user=messages) if b.name == "recent"]
    assert block.tokens <= 600 and block.truncated
    assert block.text.index("第59条") < block.text.index("第58条")
    assert "第0条" not in block.text
    assert "the conversation history" in block.text  # the cut says where the rest is
    (whole,) = rebuild_blocks(where, 100_000, recent_user=messages[:2])
    assert not whole.truncated and whole.text.index("第1条") < whole.text.index("第0条")


def test_a_block_that_gets_no_room_is_reported_as_cut_not_dropped(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    tree.write(tree.project_memory(where.project_id), "# Project memory\n\n## Rules\n- 用 pnpm\n", where.writer())
    blocks = rebuild_blocks(where, 3)
    assert [b.name for b in blocks] == ["project"]
    assert blocks[0].text == "" and blocks[0].truncated and blocks[0].full_tokens > 0
    assert blocks[0].source == str(tree.project_memory(where.project_id))


def test_memory_files_it_must_not_read_give_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "MEMORY.md"
    real.write_text("# Project memory\r\n\r\n- 端口 5433\r\n", encoding="utf-8")
    assert read_memory_file(real) == "# Project memory\n\n- 端口 5433\n"
    link = tmp_path / "link.md"
    link.symlink_to(real)
    fifo = tmp_path / "fifo.md"
    os.mkfifo(fifo)
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * 65)
    monkeypatch.setattr(rebuild, "MAX_FILE_BYTES", 64)
    assert [read_memory_file(p) for p in (link, fifo, big, tmp_path, tmp_path / "missing.md")] == [""] * 5


def test_tasks_ledger_shows_each_journal_status(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    for tid, outcome in [("T1", "success, merged"), ("T2", ""), ("T3", "Failed: flaky test")]:
        (tasks / tid).mkdir(parents=True)
        (tasks / tid / "progress.md").write_text(f"# T\n\n- Outcome (success/partial/failed): {outcome}\n", "utf-8")
    (tasks / "T4").mkdir()
    assert tasks_ledger(tasks).splitlines() == [
        "- T1 success (progress: tasks/T1/progress.md)",
        "- T2 in progress (progress: tasks/T2/progress.md)",
        "- T3 failed (progress: tasks/T3/progress.md)",
        "- T4 open (progress: tasks/T4/progress.md)",
    ]
    assert tasks_ledger(tmp_path / "none") == ""


def test_the_keys_index_lists_other_files_but_never_stands_alone(tree: MemoryTree, repo: Path) -> None:
    where = locate(repo, session_id="S1", tree=tree)
    tree.write(tree.project_dir(where.project_id) / "deploy.md", "# 部署\n- pnpm\n", where.writer())
    assert rebuild_blocks(where, 4_000) == []  # an index alone is not memory worth a block
    tree.write(tree.project_memory(where.project_id), "# Project memory\n\n## Rules\n- 用 pnpm\n", where.writer())
    keys = {b.name: b for b in rebuild_blocks(where, 4_000)}["keys"]
    assert f"projects/{where.project_id}/deploy.md" in keys.text
    assert "MEMORY.md" not in keys.text  # already pushed as its own block
