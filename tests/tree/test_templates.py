from __future__ import annotations

import os
import threading
from datetime import datetime, timedelta, timezone

import pytest

from mimomem.errors import InvalidMemoryIdError
from mimomem.tree.templates import (
    CHECKPOINT_BUDGET,
    CHECKPOINT_SECTIONS,
    MEMORY_BUDGET,
    MEMORY_SECTIONS,
    checkpoint_template,
    memory_template,
    migrate_legacy_memory,
    missing_progress_sections,
    notes_entry,
    notes_template,
    parse_notes,
    progress_template,
    stamp_written_at,
    utc_stamp,
)


def _h2(text: str) -> list[str]:
    return [line[3:] for line in text.splitlines() if line.startswith("## ")]


def test_memory_template_has_four_sections_in_order_with_budgets():
    text = memory_template()
    assert text.startswith("# Project memory\n")
    assert _h2(text) == ["Project context", "Rules", "Architecture decisions", "Discovered durable knowledge"]
    assert [b for b, _ in MEMORY_SECTIONS.values()] == [1000, 2000, 3000, 4000]
    assert MEMORY_BUDGET == 10000
    assert "(budget: 4000 tokens)" in text and text.count("(none yet)") == 4


def test_checkpoint_template_has_eleven_numbered_sections():
    text = checkpoint_template()
    heads = _h2(text)
    assert len(heads) == 11
    assert [h.split()[0] for h in heads] == [f"§{i}" for i in range(1, 12)]
    assert heads[9] == "§10 Design decisions and discussion outcomes" and heads[10] == "§11 Open notes"
    assert CHECKPOINT_SECTIONS["§10 Design decisions and discussion outcomes"][0] == 3000
    assert CHECKPOINT_BUDGET == sum(b for b, _, _ in CHECKPOINT_SECTIONS.values()) == 15100
    assert "(none)" in text  # §3 and §8 placeholders


def test_notes_template_explains_entry_format_and_dedupe():
    text = notes_template()
    assert text.startswith("# Session notes")
    assert "## [turn N · YYYY-MM-DDTHH:MM:SSZ]" in text and "(see entry above)" in text


def test_notes_entry_format_and_roundtrip():
    when = datetime(2026, 3, 4, 5, 6, 7, tzinfo=timezone(timedelta(hours=8)))
    entry = notes_entry(12, "deploy uses port 5433\n", when=when)
    assert entry == "## [turn 12 · 2026-03-03T21:06:07Z]\n\ndeploy uses port 5433\n"
    text = notes_template() + "\n" + entry + "\n" + notes_entry(13, "第二条", when=when)
    parsed = parse_notes(text)
    assert [(e.turn, e.body) for e in parsed] == [(12, "deploy uses port 5433"), (13, "第二条")]


def test_parse_notes_accepts_minute_precision_and_ignores_lookalikes():
    text = "## [turn 1 · 2026-01-01T10:00Z]\na\n## [turn x · 2026]\nnot an entry\n"
    entries = parse_notes(text)
    assert len(entries) == 1 and entries[0].when == "2026-01-01T10:00Z"
    assert "not an entry" in entries[0].body


@pytest.mark.parametrize("turn", [-1, 1.5, True, "3"])
def test_notes_entry_rejects_bad_turn(turn):
    with pytest.raises(ValueError, match="turn"):
        notes_entry(turn, "x")


def test_utc_stamp_naive_is_utc():
    assert utc_stamp(datetime(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05Z"
    assert utc_stamp().endswith("Z")


def test_progress_template_passes_its_checker():
    text = progress_template("T3.1")
    assert "- task_id: T3.1" in text
    assert missing_progress_sections(text) == []


def test_progress_template_rejects_bad_task_id():
    with pytest.raises(InvalidMemoryIdError):
        progress_template("../x")


def test_checker_lists_missing_sections_in_order():
    text = (
        progress_template("T1")
        .replace("## §3 Files and code sections", "## Files")
        .replace("## §5 Outcome and discoveries", "")
    )
    assert missing_progress_sections(text) == ["## §3 Files and code sections", "## §5 Outcome and discoveries"]
    assert len(missing_progress_sections("")) == 5


def test_checker_ignores_headings_in_code_fences_and_accepts_suffix():
    fenced = "```\n## §1 Task identity\n```\n"
    assert "## §1 Task identity" in missing_progress_sections(fenced)
    assert "## §1 Task identity" not in missing_progress_sections("## §1 Task identity (T3)\n")
    assert "## §1 Task identity" in missing_progress_sections("## §1 Task identityX\n")


def test_stamp_written_at_replaces_and_is_idempotent():
    once = stamp_written_at("body\n", 1000)
    assert once == "---\nwritten-at: 1000\n---\nbody\n"
    assert stamp_written_at(once, 1000) == once
    assert stamp_written_at(once, 2000) == "---\nwritten-at: 2000\n---\nbody\n"


# --- legacy rename ---


def test_migrate_renames_legacy(tmp_path):
    (tmp_path / "memory.md").write_text("legacy")
    assert migrate_legacy_memory(tmp_path) is True
    assert os.listdir(tmp_path) == ["MEMORY.md"]
    assert (tmp_path / "MEMORY.md").read_text() == "legacy"
    assert migrate_legacy_memory(tmp_path) is False  # idempotent


def test_migrate_keeps_existing_upper_file(tmp_path):
    (tmp_path / "memory.md").write_text("old")
    (tmp_path / "MEMORY.md").write_text("new")
    assert migrate_legacy_memory(tmp_path) is False
    assert (tmp_path / "MEMORY.md").read_text() == "new"
    assert (tmp_path / "memory.md").read_text() == "old"


def test_migrate_noop_without_files_or_dir(tmp_path):
    assert migrate_legacy_memory(tmp_path) is False
    assert migrate_legacy_memory(tmp_path / "missing") is False


def test_concurrent_migrators_preserve_content(tmp_path):
    (tmp_path / "memory.md").write_text("content")
    results: list[bool] = []
    barrier = threading.Barrier(6)

    def run() -> None:
        barrier.wait()
        results.append(migrate_legacy_memory(tmp_path))

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) >= 1
    assert os.listdir(tmp_path) == ["MEMORY.md"]
    assert (tmp_path / "MEMORY.md").read_text() == "content"
