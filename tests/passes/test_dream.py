"""dream --no-model: dated, sourced MEMORY.md lines from the history, deduplicated, within the caps."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import World
from trajectory_fixtures import Transcript, day

from mimomem.errors import WritingDisabledError
from mimomem.history.claude_code import import_claude_code
from mimomem.passes.base import PassContext
from mimomem.passes.dream import Candidate, plan_memory, run_dream
from mimomem.passes.memory_doc import MAX_BYTES, MAX_LINES, MemoryDoc, health
from mimomem.passes.wording import absolute_dates
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

EXPECTED_RULES = [
    "- 以后都用 pnpm (user, 2026-11-28, s:aaaaaaaa)",
    "- Always run ruff check before committing (user, 2026-11-29, s:bbbbbbbb)",
    "- 记住：测试数据库端口是 5433 (user, 2026-11-30, s:cccccccc)",
    "- From now on, never push directly to main (user, 2026-11-30, s:ses_d4d4d4d4mimo)",
]
EXPECTED_DECISIONS = ["- We decided to use SQLite for the cache (user, 2026-11-29, s:bbbbbbbb)"]
EXPECTED_KNOWLEDGE = [
    '- `pnpm run deploy:staging` fails with "ERR_PNPM_NO_SCRIPT Missing script: deploy:staging"; fix: after editing '
    "package.json, the same call succeeded (seen 2 times) (tool, 2026-11-28, s:aaaaaaaa, s:bbbbbbbb)",
    "- Usual command: `pnpm test` (run 4 times in 4 sessions) (model, 2026-11-28, s:aaaaaaaa, s:bbbbbbbb, s:cccccccc)",
    "- Usual command: `ruff check .` (run 2 times in 2 sessions) (model, 2026-11-29, s:bbbbbbbb, s:cccccccc)",
]


def _items(path: Path, heading: str) -> list[str]:
    section = MemoryDoc.parse(path.read_text(encoding="utf-8")).find(heading)
    assert section is not None, heading
    return section.items()


def test_dream_writes_the_expected_lines_with_provenance(world: World) -> None:
    report = run_dream(world.context())
    memory = world.memory()
    assert [str(memory)] == report.written
    assert EXPECTED_RULES == _items(memory, "Rules")
    assert EXPECTED_DECISIONS == _items(memory, "Architecture decisions")
    assert EXPECTED_KNOWLEDGE == _items(memory, "Discovered durable knowledge")
    text = memory.read_text(encoding="utf-8")
    assert "## Project context" in text and "(none yet)" in text  # untouched section keeps its placeholder
    assert "\n\n\n" not in text
    assert 8 == len(report.sections["Consolidated"])
    assert ["MEMORY.md: 28/200 lines, 1.3/10 KB"] == report.sections["Health"]


def test_a_second_dream_changes_nothing(world: World) -> None:
    run_dream(world.context())
    before = world.memory().read_text(encoding="utf-8")
    report = run_dream(world.context())
    assert [] == report.written and [] == report.changes
    assert before == world.memory().read_text(encoding="utf-8")
    assert 8 == len(report.sections["Skipped"])
    assert "Consolidated" not in report.sections


def test_existing_lines_are_kept_and_not_repeated(world: World) -> None:
    memory = world.memory()
    memory.parent.mkdir(parents=True)
    memory.write_text(
        "# Project memory\n\n## Rules\n\n- 以后都用 pnpm\n- Keep the API stable.\n\n## Patterns\n\nfree text stays\n",
        encoding="utf-8",
    )
    report = run_dream(world.context())
    rules = _items(memory, "Rules")
    assert ["- 以后都用 pnpm", "- Keep the API stable.", *EXPECTED_RULES[1:]] == rules
    assert "already in memory: 以后都用 pnpm" in report.sections["Skipped"]
    text = memory.read_text(encoding="utf-8")
    assert "## Patterns\n\nfree text stays\n" in text
    assert text.index("## Architecture decisions") < text.index("## Discovered durable knowledge")


def test_usual_command_lines_are_updated_in_place(world: World) -> None:
    run_dream(world.context())
    more = Transcript("99999999-9999-4999-8999-999999999999", str(world.project), day(30, 16))
    more.user("run the tests").bash("pnpm test", "12 passed")
    import_claude_code(world.store, more.write(world.tmp / "projects").parent)
    report = run_dream(world.context())
    assert ["Discovered durable knowledge: Usual command: `pnpm test` (run 5 times in 5 sessions)"] == report.sections[
        "Updated"
    ]
    knowledge = _items(world.memory(), "Discovered durable knowledge")
    assert 3 == len(knowledge)
    assert knowledge[1].startswith("- Usual command: `pnpm test` (run 5 times in 5 sessions)")


def test_relative_dates_become_absolute(world: World) -> None:
    t = Transcript("12121212-1212-4212-8212-121212121212", str(world.project), day(29, 20))
    t.user("从今天开始，以后都用 uv 安装依赖。From tomorrow on, always pin versions.")
    import_claude_code(world.store, t.write(world.tmp / "projects").parent)
    run_dream(world.context())
    rules = _items(world.memory(), "Rules")
    assert any(r.startswith("- 从2026-11-29开始，以后都用 uv 安装依赖 (user, 2026-11-29,") for r in rules)
    assert any(r.startswith("- From 2026-11-30 on, always pin versions (user, 2026-11-29,") for r in rules)
    assert "3 days ago we decided on 2026-11-27" == absolute_dates("3 days ago we decided on 2026-11-27", None)
    assert "2026-11-27 决定" == absolute_dates("3天前 决定", 1796040000000)


def test_a_large_memory_spills_its_largest_section(world: World) -> None:
    memory = world.memory()
    memory.parent.mkdir(parents=True)
    facts = [f"- Fact {i}: service {i} listens on port {5000 + i}, logs to /var/log/s{i}.log" for i in range(150)]
    rules = [f"- Rule {i}: keep module {i} under 500 lines" for i in range(60)]
    memory.write_text(
        "# Project memory\n\n## Rules\n\n"
        + "\n".join(rules)
        + "\n\n## Discovered durable knowledge\n\n"
        + "\n".join(facts)
        + "\n",
        encoding="utf-8",
    )
    report = run_dream(world.context())
    text = memory.read_text(encoding="utf-8")
    assert health(text).lines <= MAX_LINES and health(text).bytes <= MAX_BYTES
    spill = memory.parent / "memory-discovered-durable-knowledge.md"
    spilled = spill.read_text(encoding="utf-8")
    assert spilled.startswith("# Project memory: Discovered durable knowledge\n")
    assert all(fact in spilled for fact in facts) and EXPECTED_KNOWLEDGE[0] in spilled
    section = MemoryDoc.parse(text).find("Discovered durable knowledge")
    assert section is not None
    index = section.index_lines()
    assert 1 == len(index) and index[0].startswith("- See memory-discovered-durable-knowledge.md (153 items) - ")
    assert [] == section.items()
    assert EXPECTED_RULES[0] in _items(memory, "Rules")  # the smaller section stays
    assert any("moved 153 items" in line for line in report.sections["Health"])
    assert str(spill) in report.written
    again = run_dream(world.context())  # the spilled items still count as known
    assert [] == again.changes


def test_dry_run_shows_a_diff_and_writes_nothing(world: World) -> None:
    report = run_dream(world.context(), dry_run=True)
    assert not world.memory().exists()
    assert report.dry_run and [] == report.written
    diff = report.changes[0].diff()
    assert diff.startswith("--- /dev/null\n+++ b")
    assert "+- 以后都用 pnpm (user, 2026-11-28, s:aaaaaaaa)\n" in diff
    assert "(dry run: nothing written)" in report.render(diffs=True)


def test_the_live_file_is_merged_under_the_lock(world: World) -> None:
    report = run_dream(world.context(), dry_run=True)
    memory = world.memory()
    memory.parent.mkdir(parents=True)
    memory.write_text("# Project memory\n\n## Rules\n\n- Written meanwhile by the user.\n", encoding="utf-8")
    change = report.changes[0]
    world.tree.update(change.path, change.apply, Writer(agent="dream", project_id=world.context().where.project_id))
    rules = _items(memory, "Rules")
    assert ["- Written meanwhile by the user.", *EXPECTED_RULES] == rules


def test_the_window_limits_what_is_promoted(world: World) -> None:
    report = run_dream(world.context(days=1), dry_run=True)  # NOW is 2026-11-30 18:00: C and D only
    promoted = report.sections["Consolidated"]
    assert [
        "Rules: 记住：测试数据库端口是 5433",
        "Rules: From now on, never push directly to main",
        "Discovered durable knowledge: Usual command: `pnpm test` (run 2 times in 2 sessions)",
    ] == promoted


def test_writing_disabled_and_empty_history(world: World, tmp_path: Path) -> None:
    off = MemoryTree(world.tree.root, write_enabled=False)
    ctx = world.context()
    with pytest.raises(WritingDisabledError):
        run_dream(PassContext(ctx.where._replace(tree=off), ctx.store, ctx.project_dir, ctx.now))
    empty = PassContext(ctx.where, ctx.store, "/no/such/project", ctx.now)
    report = run_dream(empty)
    assert any("history import" in line for line in report.sections["Skipped"])


def test_secrets_are_never_promoted(world: World) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    plan = plan_memory(
        None, [Candidate("Rules", f"- Always use token {token} (user, 2026-11-30, s:x)", "x")], {}, today="2026-11-30"
    )
    assert token not in plan.text
    assert ["a Rules line holding a likely secret (github-token); not written"] == plan.lines["Skipped"]
