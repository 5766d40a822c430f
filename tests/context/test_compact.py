"""Session start's denser memory blocks: citations, the workflow prefix and repeated brief lines go, facts stay."""

from __future__ import annotations

from mimomem.context.compact import compact_memory, drop_repeats

MEMORY = (
    "## Discovered durable knowledge\n"
    "- staging 数据库端口是 5433 (user, 2026-10-06, s:0b5ab4f2)\n"
    "- Redis runs on 6380 (user, 2026-10-07, s:0b5ab4f2, s:13bc4d3c)\n"
    "## Workflows\n"
    "- Ran in order, all succeeded: `a` -> `b` (model, 2026-10-05, s:ab851561)\n"
)


def test_citations_and_the_workflow_prefix_are_said_once() -> None:
    out = compact_memory(MEMORY, "/m/MEMORY.md")
    assert "s:0b5ab4f2" not in out and "Ran in order" not in out
    assert "- staging 数据库端口是 5433 (user, 2026-10-06)\n" in out
    assert "- `a` -> `b` (model, 2026-10-05)\n" in out
    assert "## Workflows (each ran in order, all succeeded)" in out
    assert out.rstrip().endswith("/m/MEMORY.md_")  # where the citations are


def test_text_without_citations_is_unchanged() -> None:
    assert compact_memory("- a hand-written line\n", "/m") == "- a hand-written line\n"


def test_brief_lines_already_shown_go_and_say_so() -> None:
    briefs = (
        "## 2026-10-16 s:1522b1d1\n- Goal: staging 数据库端口是 5433\n\n"
        "## 2026-10-14 s:2abd0fb6\n- Goal: fix the CSV export\n- Fixed: Redis runs on 6…\n"
    )
    out = drop_repeats(briefs, MEMORY)
    assert "s:1522b1d1" not in out  # nothing left of that session
    assert "- Goal: fix the CSV export" in out and "Redis" not in out
    assert "2 brief line(s) left out: already in project memory above" in out
    assert drop_repeats("## 2026-10-14 s:2abd0fb6\n- Goal: new\n", MEMORY) == "## 2026-10-14 s:2abd0fb6\n- Goal: new\n"
