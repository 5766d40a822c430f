"""The one file distill may write outside its sandbox: ``<worktree>/.claude/skills/<name>/SKILL.md``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mimomem.errors import OutsideAllowedAreaError, WriteDeniedError, WritingDisabledError
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer


@pytest.fixture
def worktree(tmp_path: Path) -> Path:
    wt = tmp_path / "wt"
    (wt / ".git").mkdir(parents=True)
    return wt


def test_distill_may_create_a_skill_file(tmp_path: Path, worktree: Path) -> None:
    tree = MemoryTree(tmp_path / "memory")
    target = worktree / ".claude" / "skills" / "pnpm-deploy" / "SKILL.md"
    assert target == tree.check_write(target, Writer(agent="distill", worktree=worktree))
    tree.write(target, "---\nname: pnpm-deploy\n---\n", Writer(agent="distill", worktree=worktree))
    assert target.read_text(encoding="utf-8").startswith("---")


@pytest.mark.parametrize(
    "relative",
    [
        ".claude/skills/pnpm-deploy/other.md",
        ".claude/skills/Bad_Name/SKILL.md",
        ".claude/skills/x/sub/SKILL.md",
        ".claude/settings.json",
        ".claude/skills/SKILL.md",
        ".Claude/skills/x/SKILL.md",
        "src/SKILL.md",
    ],
)
def test_nothing_else_of_the_worktree(tmp_path: Path, worktree: Path, relative: str) -> None:
    tree = MemoryTree(tmp_path / "memory")
    with pytest.raises(WriteDeniedError) as caught:
        tree.check_write(worktree / relative, Writer(agent="distill", worktree=worktree))
    assert ".claude/skills/<name>/SKILL.md" in str(caught.value)


def test_only_distill_and_only_while_writing_is_enabled(tmp_path: Path, worktree: Path) -> None:
    target = worktree / ".claude" / "skills" / "x" / "SKILL.md"
    with pytest.raises(OutsideAllowedAreaError):
        MemoryTree(tmp_path / "memory").check_write(target, Writer(agent="dream", worktree=worktree))
    with pytest.raises(OutsideAllowedAreaError):
        MemoryTree(tmp_path / "memory").check_write(target, Writer(agent="checkpoint-writer", worktree=worktree))
    with pytest.raises(WritingDisabledError):
        MemoryTree(tmp_path / "memory", write_enabled=False).check_write(
            target, Writer(agent="distill", worktree=worktree)
        )


def test_a_skills_folder_that_links_elsewhere_is_refused(tmp_path: Path, worktree: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (worktree / ".claude").mkdir()
    os.symlink(outside, worktree / ".claude" / "skills")
    with pytest.raises(OutsideAllowedAreaError):
        MemoryTree(tmp_path / "memory").check_write(
            worktree / ".claude" / "skills" / "x" / "SKILL.md", Writer(agent="distill", worktree=worktree)
        )
