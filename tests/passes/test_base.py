"""What every pass shares: undo copies of what it replaced, reports that never show a secret, dry runs."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from conftest import World

from mimomem.passes.base import Change, PassContext, PassReport, apply_changes, save_undo


def test_undo_copies_are_numbered_private_and_never_overwritten(world: World) -> None:
    path = world.memory()
    first = save_undo(world.tree, path, "v1\n")
    second = save_undo(world.tree, path, "v2\n")
    assert (first.name, second.name) == ("MEMORY.md.1", "MEMORY.md.2")
    assert first.read_text(encoding="utf-8") == "v1\n" and second.read_text(encoding="utf-8") == "v2\n"
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    assert not first.is_relative_to(world.tree.root)  # beside the memory tree, never inside it
    first.unlink()  # a gap in the numbers: the next copy still never replaces copy 2
    third = save_undo(world.tree, path, "v3\n")
    assert second.read_text(encoding="utf-8") == "v2\n" and third.read_text(encoding="utf-8") == "v3\n"


def test_only_the_newest_undo_copies_of_a_file_are_kept(world: World) -> None:
    """Before: one more copy per promotion, never pruned (499 copies of MEMORY.md after 500 sessions)."""
    from mimomem.passes.base import UNDO_KEPT

    path = world.memory()
    other = save_undo(world.tree, path.with_name("memory-sessions.md"), "other\n")
    copies = [save_undo(world.tree, path, f"v{n}\n") for n in range(1, 26)]
    left = sorted((p for p in copies[0].parent.iterdir() if p.name.startswith("MEMORY.md.")), key=lambda p: p.name)
    assert {p.name for p in left} == {f"MEMORY.md.{n}" for n in range(26 - UNDO_KEPT, 26)}
    assert copies[-1].read_text(encoding="utf-8") == "v25\n" and other.exists()  # another file's copies stay


def test_a_file_outside_the_tree_keeps_its_copy_under_outside(world: World, tmp_path: Path) -> None:
    copy = save_undo(world.tree, tmp_path / "elsewhere" / "SKILL.md", "old skill\n")
    assert "outside" in copy.parts and copy.name == "SKILL.md.1"


def _change(path: Path, new: str) -> Change:
    return Change(path, None, new, lambda live: new)


def test_apply_writes_as_the_passes_agent_and_names_the_undo_copy(world: World) -> None:
    ctx = world.context()
    path = world.memory()
    world.tree.write(path, "# Project memory\n\n## Rules\n\n- old\n", ctx.writer("main"))
    report = PassReport("dream", ("Consolidated",), changes=[_change(path, "# Project memory\n\n## Rules\n\n- new\n")])
    apply_changes(ctx, report, "dream", dry_run=False)
    assert report.written == [str(path)] and len(report.undo) == 1
    copy = report.undo[0].split(" was ", 1)[1].split(" ", 1)[0]
    assert Path(copy).read_text(encoding="utf-8").endswith("- old\n")
    assert f"(restore: cp {copy} {path})" in report.undo[0]
    assert "## Undo copies" in report.render()


def test_a_dry_run_writes_nothing_and_shows_the_diff(world: World) -> None:
    path = world.memory()
    report = PassReport("dream", ("Consolidated",), changes=[_change(path, "# Project memory\n")])
    apply_changes(world.context(), report, "dream", dry_run=True)
    assert not path.exists() and report.written == []
    text = report.render(diffs=True)
    assert text.startswith("# mimomem dream (dry run: nothing written)")
    assert "--- /dev/null" in text and "+# Project memory" in text


def test_an_unchanged_file_is_neither_written_nor_copied(world: World) -> None:
    ctx = world.context()
    path = world.memory()
    world.tree.write(path, "# Project memory\n", ctx.writer("main"))
    report = PassReport("dream", ("Consolidated",), changes=[Change(path, "x", "y", lambda live: live)])
    apply_changes(ctx, report, "dream", dry_run=False)
    assert (report.written, report.undo) == ([], [])


def test_a_report_never_prints_a_secret(world: World) -> None:
    key = "AKIA" + "QWERTYUIOPASDFGH"
    report = PassReport("distill", ("Skipped",), changes=[_change(world.memory(), f"token {key}\n")])
    report.add("Skipped", f"a command used {key}")
    assert key not in report.render(diffs=True)
    data = report.as_dict()
    assert key not in str(data) and data["skipped"] == ["a command used [redacted aws-access-key-id]"]
    assert "- (none)" in PassReport("dream", ("Consolidated",)).render()


def test_a_negative_window_is_refused(world: World) -> None:
    with pytest.raises(ValueError, match="days must be 0"):
        PassContext.open(world.context().where, world.store, days=-1)
    assert world.context(days=0).days is None  # 0 means all of the history
