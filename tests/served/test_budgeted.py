"""Budgeted reads: what does not fit is never dropped silently, the cut always says where the rest is."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem.served.budgeted import read_budgeted, read_section_aware
from mimomem.served.estimate import estimate_tokens
from mimomem.tree.boilerplate import content_only

DECISIONS = "\n".join(f"- 决定{i}：所有服务统一使用 PostgreSQL 16，端口 5433，连接池 20。" for i in range(300))
MEMORY = f"# Project memory\n\n## Architecture decisions\n{DECISIONS}\n"


@pytest.mark.parametrize("reader", [read_budgeted, read_section_aware])
def test_every_cut_names_the_file_with_the_rest_at_every_budget(reader: object) -> None:
    """Even a budget too small for the headings and the note together keeps the note, never bare headings."""
    for budget in range(0, 120):
        cut = reader(MEMORY, budget, source="/m/MEMORY.md")  # type: ignore[operator]
        assert cut.truncated and cut.tokens <= budget and cut.total_tokens == estimate_tokens(MEMORY)
        assert cut.text == "" or "read /m/MEMORY.md for the rest]" in cut.text, (budget, cut.text)


@settings(max_examples=80, deadline=None)
@given(
    sections=st.lists(st.text(alphabet="端口部署 abc-\n", max_size=300), min_size=1, max_size=6),
    budget=st.integers(min_value=0, max_value=300),
)
def test_a_truncated_read_always_carries_its_note(sections: list[str], budget: int) -> None:
    text = "# T\n" + "".join(f"\n## S{i}\n{body}\n" for i, body in enumerate(sections))
    for reader in (read_budgeted, read_section_aware):
        cut = reader(text, budget, source="f.md")
        assert cut.tokens <= budget
        if cut.truncated and cut.text:
            assert "read f.md for the rest]" in cut.text
        if not cut.truncated:
            assert cut.text == text


def test_a_file_with_no_sections_is_cut_by_lines() -> None:
    text = "\n".join(f"line {i} 的内容" for i in range(5000)) + "\n"
    cut = read_section_aware(text, 200, source="x.md")
    assert cut.text.startswith("line 0 的内容\nline 1 的内容\n") and cut.tokens <= 200
    assert "read x.md for the rest]" in cut.text


def test_windows_line_endings_and_placeholders_leave_only_content() -> None:
    text = "# Project memory\r\n\r\n## Rules\r\n_Write rules here._\r\n(none yet)\r\n\r\n## Facts\r\n- 端口 5433\r\n"
    assert content_only(text) == "# Project memory\n\n## Facts\n- 端口 5433\n"
