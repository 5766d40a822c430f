"""--emit-prompt: one text with the pass's instructions and the gathered evidence, in a fixed shape."""

from __future__ import annotations

import re

import pytest
from conftest import World
from trajectory_fixtures import SID_B

from mimomem.errors import PassError
from mimomem.passes.dream import run_dream
from mimomem.passes.prompts import checkpoint_prompt, distill_prompt, dream_prompt

SHAPE = ["# Task", "# Rules", "# Evidence", "# Write back", "# Report"]


def _headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^# [A-Z]", line)]


def test_dream_prompt_shape_and_evidence(world: World) -> None:
    text = dream_prompt(world.context())
    assert text.startswith('<mimomem-pass name="dream" project="shop-api" window="all history" sessions="4">\n')
    assert text.endswith("</mimomem-pass>\n")
    heads = _headings(text)
    assert SHAPE[:3] == heads[:3] and SHAPE[3:] == heads[-2:] and heads[3].startswith("# Current file: ")
    assert "- rule: 以后都用 pnpm (2026-11-28, [session aaaaaaaa])" in text
    assert "- decision: We decided to use SQLite for the cache (2026-11-29, [session bbbbbbbb])" in text
    assert "`pnpm run deploy:staging` failed 2 times" in text
    assert "- `pnpm test`: 4 runs in 4 sessions, 0 failed" in text
    assert "- package.json: 2 edits in 2 sessions" in text
    assert "(the file does not exist yet)" in text
    assert "mimomem write project --agent dream < MEMORY.md" in text


def test_dream_prompt_holds_the_current_memory_fenced(world: World) -> None:
    run_dream(world.context())
    text = dream_prompt(world.context(days=1))
    assert 'window="last 1 day" sessions="2"' in text
    assert "```markdown\n# Project memory\n" in text
    assert "- 以后都用 pnpm (user, 2026-11-28, s:aaaaaaaa)" in text  # from the file, outside the window


def test_distill_prompt_lists_candidates(world: World) -> None:
    text = distill_prompt(world.context())
    assert text.startswith('<mimomem-pass name="distill"')
    assert "- ruff-pnpm-test: `ruff check .` → `pnpm test` (2 sessions)" in text
    assert "mimomem write .claude/skills/<name>/SKILL.md --agent distill < SKILL.md" in text
    assert "# Current file" not in text


def test_checkpoint_prompt_needs_a_session(world: World) -> None:
    with pytest.raises(PassError):
        checkpoint_prompt(world.context())
    text = checkpoint_prompt(world.context(SID_B))
    assert text.startswith('<mimomem-pass name="checkpoint"') and 'sessions="1"' in text
    assert "## Failures in this session (newest first)" in text
    assert "mimomem write checkpoint --agent checkpoint-writer < checkpoint.md" in text
