"""Bulk input: remember_many reports refusals and compiles once; import_dir reads notes safely."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.common.frontmatter import serialize

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def test_remember_many_reports_refusals_and_compiles_once(store: CuratedMemory) -> None:
    items = [
        {"category": "facts", "summary": f"bulk fact {i} about topic{i}", "body": f"detail {i}"} for i in range(50)
    ]
    items += [
        {"category": "facts", "summary": "bulk fact 3 about topic3", "body": "dup"},
        {"category": "nope", "summary": "bad category"},
        {"category": "facts", "summary": "has key", "body": "AKIA" + "Q7X2M9K4P1Z8R5T3"},
        {"category": "facts", "summary": "extra field", "colour": "red"},
        "not a mapping",  # type: ignore[list-item]
    ]
    result = store.remember_many(items, author="user")
    assert 50 == len(result.written)
    reasons = [r for _, r in result.refused]
    assert 5 == len(reasons)
    assert "near-duplicate" in reasons[0] and "unknown category" in reasons[1]
    assert "aws-access-key-id" in reasons[2] and "unknown fields" in reasons[3] and "not a mapping" in reasons[4]
    index = (store.roots["project"] / "facts" / "index.md").read_text()
    assert 50 == index.count("\n- [")
    assert store.inspect().ok


def test_import_dir(store: CuratedMemory, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "pitfalls").mkdir(parents=True)
    (notes / "misc").mkdir()
    (notes / "pitfalls" / "vite.md").write_text("# Vite caches deps\n\nDelete node_modules/.vite after upgrades.\n")
    (notes / "misc" / "with-meta.md").write_text(
        serialize(
            {"summary": "Meeting day is Tuesday", "category": "facts", "load_when": ["planning"]}, "Standup at 10."
        )
    )
    (notes / "misc" / "bad.md").write_bytes(b"\xff\xfe not utf8")
    (notes / "misc" / "link.md").symlink_to(notes / "pitfalls" / "vite.md")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret-plan.md").write_text("# Outside note\n\nnot part of the notes folder\n")
    (notes / "linked").symlink_to(elsewhere, target_is_directory=True)
    (notes / "misc" / "zz-dup.md").write_text("# Meeting day is Tuesday\n\nsame summary as with-meta.md\n")
    result = store.import_dir(notes)
    assert ["facts/meeting-day-is-tuesday", "pitfalls/vite-caches-deps"] == sorted(result.written)
    refused = dict(result.refused)
    assert {"misc/bad.md", "misc/link.md", "misc/zz-dup.md"} <= set(refused)  # labels are the note paths
    assert "near-duplicate of facts/meeting-day-is-tuesday" in refused["misc/zz-dup.md"]
    assert not any("outside" in i for i in result.written)
    vite = store.get("pitfalls/vite-caches-deps")
    assert "Delete node_modules/.vite after upgrades." == vite.body
    assert ("planning",) == store.get("facts/meeting-day-is-tuesday").load_when
