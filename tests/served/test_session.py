"""The session answer's budget (a share per rebuild block, by its cap) and its outline of headings."""

from __future__ import annotations

import pytest

from mimomem.served.session import CAPS, allocate, fit_blocks, nest_headings


def test_big_blocks_share_the_budget_by_their_caps_and_small_ones_get_all_they_need() -> None:
    shares = allocate({"checkpoint": 100_000, "notes": 100_000, "tasks": 40}, 3_000)
    assert shares["tasks"] == 40
    assert sum(shares.values()) <= 3_000
    ratio = shares["checkpoint"] / shares["notes"]
    assert ratio == pytest.approx(CAPS["checkpoint"] / CAPS["notes"], rel=0.01)
    assert allocate({"project": 10}, 0) == {"project": 0}


def test_allocate_gives_small_blocks_all_and_never_overspends() -> None:
    shares = allocate({"tasks": 10, "checkpoint": 5000, "notes": 5000, "keys": 40}, 2000)
    assert shares["tasks"] == 10 and shares["keys"] == 40
    assert sum(shares.values()) <= 2000
    assert shares["checkpoint"] > shares["notes"]  # MiMo's caps weigh the checkpoint higher


def test_nested_headings_make_one_outline() -> None:
    text = "# Project memory\n\n## Rules\n- a\n### Detail\n#hashtag stays\n"
    assert nest_headings(text) == "### Rules\n- a\n#### Detail\n#hashtag stays\n"


def test_a_block_given_all_it_needs_is_shown_whole() -> None:
    """A small block's share is its size under its heading (counted joined); the heading and the text
    counted apart can be a token more, and the block was cut to its skeleton: the new session got the
    sessions' headings only ("[truncated at ~113 tokens of ~114 ...]")."""
    text = (
        "# Recent sessions\n\n_The last sessions of this project in brief, newest first (mimomem promote)._\n\n"
        "## 2026-11-27 s:aaaaaaaa\n- Goal: staging 的 Redis 端口是 6380\n"
    )
    (block,) = fit_blocks([("sessions", text, "/m/memory-sessions.md", True)], 4000)
    assert not block.truncated and "- Goal: staging 的 Redis 端口是 6380" in block.text


def test_a_budget_below_the_instructions_still_names_what_it_left_out() -> None:
    """Seen once in CI: with MIMOMEM_SESSION_BUDGET=200 and several memory blocks, the line naming each
    left-out block (its size and the command that reads it, some named twice) took the instructions'
    room, every block was dropped and the hook printed nothing. Now the line shrinks to the names."""
    from mimomem.served.estimate import estimate_tokens
    from mimomem.served.session import session_answer

    instructions = "# Memory system\n" + "".join(
        f"- step {i}: read /home/u/.mimomem/projects/p/MEMORY.md\n" for i in range(12)
    )
    big = "\n".join(f"- 决定{i}：所有服务统一使用 PostgreSQL 16，端口 5433，连接池 20。" for i in range(300))
    names = ["project", "sessions", "global", "notes", "keys", "checkpoint"]
    raw = [(name, f"## {name}\n{big}", f"mimomem show --layer {name} --project 7d2c0a9e-51f4", True) for name in names]
    assert estimate_tokens(instructions) > 200
    for budget in (200, 120, 60):
        ctx = session_answer(instructions, "- rule one\n- rule two", raw, budget=budget, char_cap=10_000)
        assert "Left out for the token budget" in ctx.text, budget
        assert ctx.tokens <= budget
        line = ctx.text[ctx.text.index("Left out for the token budget") :]
        assert all(line.count(name) == 1 for name in names), line
    assert session_answer(instructions, "", raw, budget=5, char_cap=None).text == ""  # not even the names fit
