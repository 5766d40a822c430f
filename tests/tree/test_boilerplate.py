"""Template boilerplate: an untouched template is empty, a filled section is kept."""

from __future__ import annotations

from mimomem.tree.boilerplate import content_only
from mimomem.tree.templates import checkpoint_template, memory_template, notes_template


def test_templates_are_empty() -> None:
    assert content_only(memory_template()) == ""
    assert content_only(checkpoint_template()) == ""
    assert content_only(notes_template()) == ""


def test_content_only_keeps_real_sections() -> None:
    text = memory_template().replace("## Rules\n_", "## Rules\n- 用 pnpm\n_", 1)
    kept = content_only(text)
    assert "## Rules" in kept and "- 用 pnpm" in kept
    assert "Project context" not in kept and "(none yet)" not in kept
