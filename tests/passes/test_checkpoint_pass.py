"""checkpoint --no-model: the factual sections filled from history, notes and task journals; template checked."""

from __future__ import annotations

import pytest
from conftest import World
from trajectory_fixtures import DEPLOY_ERROR, SID_B

from mimomem.errors import NotInWriterAllowlistError, PassError
from mimomem.passes.checkpoint import merge_checkpoint, run_checkpoint, validate_checkpoint, write_checkpoint
from mimomem.passes.memory_doc import MemoryDoc
from mimomem.tree.templates import CHECKPOINT_SECTIONS, checkpoint_template, notes_entry, progress_template
from mimomem.tree.writer import Writer


def _body(text: str, heading: str) -> list[str]:
    section = MemoryDoc.parse(text).find(heading)
    assert section is not None
    return [line for line in section.lines[1:] if line.strip()]


def _prepare(world: World) -> None:
    ctx = world.context(SID_B)
    tree, who = world.tree, ctx.where.writer("main")
    tree.create(tree.notes(SID_B), "# Session notes\n", who)
    tree.append(tree.notes(SID_B), "\n" + notes_entry(3, "The cache key includes the tenant id."), who)
    for tid, summary in (("T1", "Move the cache to SQLite"), ("T1.1", "Write the migration")):
        text = "---\nwritten-at: 1796040000000\n---\n" + progress_template(tid).replace(
            "- (one-line summary of the task)", f"- {summary}"
        ).replace("- path: what you did there", "- src/cache.py: new SQLite backend")
        tree.write(tree.progress(SID_B, tid), text, ctx.where.writer("main", task_id=tid))


def test_checkpoint_fills_the_factual_sections(world: World) -> None:
    _prepare(world)
    report = run_checkpoint(world.context(SID_B))
    path = world.tree.checkpoint(SID_B)
    assert [str(path)] == report.written
    text = path.read_text(encoding="utf-8")
    assert [
        "> Always run ruff check before committing. We decided to use SQLite for the cache.",
        "(latest user request, 2026-11-29T09:00:10Z)",
    ] == _body(text, "§1 Active intent")
    assert [
        "- T1 — Move the cache to SQLite (progress: tasks/T1/progress.md, last-reconciled-written-at: 1796040000000)",
        "  - T1.1 — Write the migration (progress: tasks/T1.1/progress.md, last-reconciled-written-at: 1796040000000)",
    ] == _body(text, "§4 Task tree")
    assert ["- package.json (edited 1x)", "- src/cache.py (edited 1x)"] == _body(text, "§6 Files and code sections")
    errors = _body(text, "§8 Errors and fixes")
    assert 1 == len(errors) and DEPLOY_ERROR in errors[0] and "fix: after editing package.json" in errors[0]
    notes = _body(text, "§11 Open notes")
    assert 1 == len(notes) and notes[0].startswith("- [turn 3 · ")
    assert notes[0].endswith("] The cache key includes the tenant id.")
    assert ["(none yet)"] == _body(text, "§2 Next concrete action")  # kept
    assert [] == validate_checkpoint(text)
    assert report.sections["Validation"][0].startswith("OK: all 11 sections")
    assert world.tree.notes(SID_B).read_text(encoding="utf-8").count("tenant id") == 1  # the inbox is left alone


def test_sections_written_by_a_model_are_kept(world: World) -> None:
    ctx = world.context(SID_B)
    path = world.tree.checkpoint(SID_B)
    start = checkpoint_template().replace("## §5 Current work\n", "## §5 Current work\n\nMigrating the cache.\n", 1)
    start = start.replace("## §10 Design decisions", "## Extra\n\nkept too\n\n## §10 Design decisions")
    world.tree.write(path, start, ctx.where.writer("checkpoint-writer"))
    run_checkpoint(ctx)
    text = path.read_text(encoding="utf-8")
    assert "Migrating the cache." in text and "kept too" in text


def test_missing_headings_are_restored_and_reported_by_the_validator(world: World) -> None:
    broken = checkpoint_template().replace("## §7 Discovered knowledge (cross-task)\n", "")
    problems = validate_checkpoint(broken)
    assert ["missing heading: ## §7 Discovered knowledge (cross-task)"] == problems
    text, _, _ = merge_checkpoint(broken, {})
    assert [] == validate_checkpoint(text)
    doc = MemoryDoc.parse(checkpoint_template())
    doc.sections[1], doc.sections[2] = doc.sections[2], doc.sections[1]
    assert ["the §1-§11 headings are out of order"] == validate_checkpoint(doc.render())
    assert [] == validate_checkpoint(merge_checkpoint(doc.render(), {})[0])
    big = checkpoint_template().replace("## §1 Active intent\n", "## §1 Active intent\n" + "很长的引用" * 800 + "\n")
    assert any(p.startswith("§1 Active intent is over its budget") for p in validate_checkpoint(big))
    assert 11 == len(CHECKPOINT_SECTIONS)


def test_generated_sections_stay_within_budget(world: World) -> None:
    lines = [f"- file{i}.py (edited 1x) with a long explanation of why it matters" for i in range(500)]
    text, filled, _ = merge_checkpoint(None, {"§6 Files and code sections": lines})
    assert [] == validate_checkpoint(text)
    assert filled[0].startswith("§6 Files and code sections (")


def test_no_session_and_the_writer_allowlist(world: World) -> None:
    with pytest.raises(PassError, match="needs a session"):
        run_checkpoint(world.context())
    report = run_checkpoint(world.context(SID_B), dry_run=True)
    assert not world.tree.checkpoint(SID_B).exists()
    assert report.changes[0].diff().startswith("--- /dev/null")
    with pytest.raises(NotInWriterAllowlistError):
        world.tree.check_write(
            world.tree.session_dir(SID_B) / "other.md", Writer(agent="checkpoint-writer", session_id=SID_B)
        )


def test_a_whole_checkpoint_write_is_checked_and_keeps_the_old_one(world: World) -> None:
    """``write_checkpoint`` (MCP ``memory_checkpoint``, ``mimomem write checkpoint``): what a model sends."""
    where = world.context(SID_B).where
    path = world.tree.checkpoint(SID_B)
    first = checkpoint_template().replace("## §5 Current work\n", "## §5 Current work\n\n- migrating the cache\n", 1)
    written, undo = write_checkpoint(where, SID_B, first, delegated=True)
    assert written == path and undo is None  # nothing was replaced
    assert (None, None) == write_checkpoint(where, SID_B, path.read_text(encoding="utf-8"), delegated=True)
    with pytest.raises(PassError, match="'## §5 Current work' had content and the answer drops it"):
        write_checkpoint(where, SID_B, "# Session checkpoint\n\n## §1 Active intent\n\n> new\n", delegated=True)
    with pytest.raises(PassError, match="none of the 11"):
        write_checkpoint(where, SID_B, "Sure! Here is your checkpoint.", delegated=True)
    assert "migrating the cache" in path.read_text(encoding="utf-8")  # refusals wrote nothing
    second = first.replace("- migrating the cache", "- the cache is migrated")
    second = second.replace("## §9 Live resources\n", "")  # an empty section may be left out: it comes back
    written, undo = write_checkpoint(where, SID_B, second, delegated=True)
    text = path.read_text(encoding="utf-8")
    assert "the cache is migrated" in text and [] == validate_checkpoint(text)
    assert undo is not None and "migrating the cache" in undo.read_text(encoding="utf-8")
