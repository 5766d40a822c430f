"""A model's answer never wipes what the user wrote: empty, shortened and heading-less answers are refused."""

from __future__ import annotations

import pytest

from mimomem.passes.answer_check import (
    checkpoint_answer_problems,
    content_lines,
    memory_answer_problems,
    refusal,
)
from mimomem.passes.memory_doc import MemoryDoc
from mimomem.tree.templates import checkpoint_template

LIVE = (
    "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。 (user, 2026-11-30, s:abc)\n- Never push to main.\n\n"
    "## Discovered durable knowledge\n\n- 数据库端口是 5433。\n- The cache lives in Redis.\n"
    "- Logs go to /var/log/app.\n"
)


@pytest.mark.parametrize("answer", ["", "   \n", "\n\n"])
def test_an_empty_answer_is_refused_even_over_an_empty_file(answer: str) -> None:
    assert memory_answer_problems(None, answer) == ["the answer is empty"]
    assert memory_answer_problems(LIVE, answer) == ["the answer is empty"]
    assert checkpoint_answer_problems(None, answer) == ["the answer is empty"]


def test_any_answer_may_fill_a_file_that_does_not_exist_yet() -> None:
    assert memory_answer_problems(None, "# Project memory\n\n## Rules\n\n- x\n") == []
    assert memory_answer_problems("  \n", "OK.") == []


def test_a_stray_ok_over_a_real_memory_is_refused_naming_what_would_go() -> None:
    problems = memory_answer_problems(LIVE, "OK.")
    assert "heading '## Rules' is gone" in problems
    assert "heading '## Discovered durable knowledge' is gone" in problems
    lost = problems[-1]
    assert lost.startswith("5 line(s) of the file are gone without being reported as deleted")
    assert "and 2 more" in lost  # three are shown, the rest counted


def test_bullets_provenance_case_and_punctuation_do_not_count_as_changes() -> None:
    answer = (
        "# Project memory\n\n## rules\n\n* 部署前先跑 `pnpm test`\n- never push to main\n\n"
        "## Discovered durable knowledge\n\n- 数据库端口是 5433\n- the cache lives in redis\n"
        "- Logs go to /var/log/app\n"
    )
    assert memory_answer_problems(LIVE, answer) == []


def test_a_line_the_report_names_is_a_deliberate_deletion() -> None:
    answer = LIVE.replace("- The cache lives in Redis.\n", "")
    assert len(memory_answer_problems(LIVE, answer)) == 1
    assert memory_answer_problems(LIVE, answer, "Deleted: The cache lives in Redis (moved to SQLite)") == []
    assert len(memory_answer_problems(LIVE, answer, "Deleted: something else")) == 1


def test_template_hints_placeholders_and_fences_are_not_content() -> None:
    lines = ["_Fill this in._", "(none yet)", "(none)", "```", "## Heading", "", "- real", "  continued"]
    assert content_lines(lines) == ["- real", "  continued"]


def test_a_checkpoint_answer_must_be_a_checkpoint() -> None:
    problems = checkpoint_answer_problems(None, "Here is the checkpoint you asked for.")
    assert problems == ["the answer holds none of the 11 '## §N' headings"]


def test_a_checkpoint_answer_may_not_drop_or_empty_a_section_with_content() -> None:
    doc = MemoryDoc.parse(checkpoint_template())
    section = doc.find("§2 Next concrete action")
    assert section is not None
    section.lines = ["", "- run the migration on staging", ""]
    live = doc.render()
    assert "run the migration" in live
    dropped = checkpoint_answer_problems(live, "# Session checkpoint\n\n## §1 Active intent\n\n> hi\n")
    assert "'## §2 Next concrete action' had content and the answer drops it" in dropped
    emptied = live.replace("- run the migration on staging", "(none yet)")
    assert checkpoint_answer_problems(live, emptied) == [
        "'## §2 Next concrete action' had content and the answer leaves it empty"
    ]
    assert checkpoint_answer_problems(live, live) == []


def test_an_empty_section_may_be_left_out_of_a_checkpoint_answer() -> None:
    answer = "# Session checkpoint\n\n## §1 Active intent\n\n> deploy the API\n"
    assert checkpoint_answer_problems(checkpoint_template(), answer) == []


def test_the_refusal_says_nothing_was_written_and_what_to_do() -> None:
    text = refusal("MEMORY.md", ["the answer is empty", "heading '## Rules' is gone"])
    assert text.startswith("the model's MEMORY.md was refused, nothing was written: the answer is empty; heading")
    assert "--no-model" in text and "Deleted" in text
