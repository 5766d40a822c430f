"""distill --no-model: a shortlist of workflows repeated across sessions, and SKILL.md files with --write."""

from __future__ import annotations

from pathlib import Path

import yaml
from conftest import World
from trajectory_fixtures import Transcript, day

from mimomem.history.claude_code import import_claude_code
from mimomem.passes.distill import find_workflows, run_distill


def test_the_shortlist(world: World) -> None:
    report = run_distill(world.context(), home=world.tmp)
    assert [
        "ruff-pnpm-test: `ruff check .` → `pnpm test` (2 sessions, 2 runs)",
        "pnpm-run-deploy-staging: `pnpm run deploy:staging` (2 sessions, 2 runs)",
    ] == report.sections["Shortlist"]
    assert ["nothing (shortlist only; pass --write to create the skills)"] == report.sections["Created"]
    assert [] == report.changes
    assert not (world.project / ".claude").exists()


def test_write_creates_skill_files_with_frontmatter(world: World) -> None:
    report = run_distill(world.context(), write=True, home=world.tmp)
    skill = world.project / ".claude" / "skills" / "pnpm-run-deploy-staging" / "SKILL.md"
    assert str(skill) in report.written
    text = skill.read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---\n")[1])
    assert "pnpm-run-deploy-staging" == front["name"]
    assert front["description"].startswith("The shop-api workflow `pnpm run deploy:staging`, as run in 2 sessions")
    assert "1. `pnpm run deploy:staging`" in text
    assert "ERR_PNPM_NO_SCRIPT" in text and "after editing package.json" in text  # the known failure and its fix
    assert "- [session aaaaaaaa]\n- [session bbbbbbbb]\n" in text
    assert (world.project / ".claude" / "skills" / "ruff-pnpm-test" / "SKILL.md").is_file()
    again = run_distill(world.context(), write=True, home=world.tmp)  # existing skills are never overwritten
    assert [] == again.written
    assert all("exists" in line for line in again.sections["Skipped"])


def test_an_existing_skill_covering_the_commands_skips_the_workflow(world: World) -> None:
    own = world.tmp / ".claude" / "skills" / "deploy"
    own.mkdir(parents=True)
    (own / "SKILL.md").write_text("---\nname: deploy\n---\nRun `pnpm run deploy:staging`.\n", encoding="utf-8")
    report = run_distill(world.context(), home=world.tmp)
    assert [f"`pnpm run deploy:staging`: already covered by {own / 'SKILL.md'}"] == report.sections["Skipped"]
    assert 1 == len(report.sections["Shortlist"])


def test_repeats_inside_one_session_need_more_evidence(world: World) -> None:
    t = Transcript("34343434-3434-4434-8434-343434343434", str(world.project), day(30, 20)).user("build twice")
    t.bash("cargo build --release", "ok").bash("cargo test", "ok").bash("cargo build --release", "ok")
    import_claude_code(world.store, t.write(world.tmp / "projects").parent)
    report = run_distill(world.context(), home=world.tmp)
    assert any("`cargo build --release`: 2 runs" in line for line in report.sections["Needs more evidence"])


def test_nothing_repeated_is_a_valid_outcome(world: World) -> None:
    ctx = world.context()
    ctx.project_dir = "/no/such/project"
    report = run_distill(ctx, write=True, home=world.tmp)
    assert "Shortlist" not in report.sections
    assert ["nothing - no workflow repeated across sessions yet"] == report.sections["Created"]


def test_dry_run_write_shows_the_new_files(world: World) -> None:
    report = run_distill(world.context(), write=True, dry_run=True, home=world.tmp)
    assert [] == report.written
    assert not (world.project / ".claude").exists()
    assert all(c.diff().startswith("--- /dev/null") for c in report.changes)


def test_workflows_ignore_trivial_and_failing_commands(world: World) -> None:
    shortlist, _ = find_workflows(world.context().evidence())
    steps = {step for flow in shortlist for step in flow.steps}
    assert "ls" not in steps and "git push" not in steps
    assert all(len(flow.sessions) >= 2 for flow in shortlist)


def test_custom_skills_dir(world: World, tmp_path: Path) -> None:
    target = world.project / ".mimomem" / "skills"
    report = run_distill(world.context(), write=True, skills_dir=target, home=world.tmp)
    assert (target / "ruff-pnpm-test" / "SKILL.md").is_file()
    assert 2 == len(report.written)
