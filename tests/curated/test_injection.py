"""Tiered injection: rules and outline always, bodies by recall within budget, nothing cut silently."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.curated.injection import render_injection

NOW = dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW)
    s.remember("rules", "Never commit secrets", "Use environment variables.", author="user", scope="global")
    s.remember("rules", "Run pytest before pushing", "", author="user")
    s.remember("rules", "Model suggests: always rebase", "", author="model")  # a proposal, not a rule
    s.remember(
        "facts",
        "Deploy target is k8s",
        "Deploy goes through helm charts in deploy/.",
        author="user",
        load_when=["deploy"],
        pinned=True,
    )
    for i in range(6):
        s.remember(
            "pitfalls", f"Redis pitfall number {i}", f"redis detail {i}: " + "x" * 150 + f" tail{i}", author="user"
        )
    return s


def test_hard_rules_and_outline_always_present(store: CuratedMemory) -> None:
    text = store.render_injection("something unrelated entirely")
    assert "- Never commit secrets (global:rules/never-commit-secrets)\n  Use environment variables." in text
    assert "- Run pytest before pushing (project:rules/run-pytest-before-pushing)" in text
    assert "always rebase" not in text
    assert "## Outline" in text and "pitfalls 6" in text and "deploy (1)" in text
    assert "goal: Deploy target is k8s" in text
    assert "(none matched)" in text


def test_bodies_respect_max_and_budget_and_left_out_is_listed(store: CuratedMemory) -> None:
    text = store.render_injection("redis pitfall", max_bodies=4, budget_chars=500)
    shown = text.count("\n### pitfalls/")
    assert shown == 2  # each block is ~200 characters; a third would pass 500
    section = text.split("## Relevant memories")[1]
    used = int(section.split("(", 1)[1].split("/", 1)[0])
    assert used <= 500
    listed = text.split("Left out, over the character budget: ")[1].split(".\n")[0]
    assert 4 == listed.count("pitfalls/") and "(242 chars)" in listed
    assert "beyond the" not in text
    capped = store.render_injection("redis pitfall", max_bodies=2, budget_chars=5000)
    assert 2 == capped.count("\n### pitfalls/")
    beyond = capped.split("Also matched, beyond the 2-body limit: ")[1].split(".\n")[0]
    assert 4 == beyond.count("pitfalls/")
    assert "over the character budget" not in capped
    assert "mimomem recall" in text


def test_every_matching_memory_is_shown_or_named(store: CuratedMemory) -> None:
    text = store.render_injection("redis pitfall", max_bodies=3, budget_chars=10_000)
    for i in range(6):
        assert f"pitfalls/redis-pitfall-number-{i}" in text


def test_zero_budget_lists_everything_as_left_out(store: CuratedMemory) -> None:
    text = render_injection(store, "deploy helm", max_bodies=4, budget_chars=0)
    assert "(none fit the budget)" in text
    assert "facts/deploy-target-is-k8s" in text.split("Left out")[1]


def test_injection_does_not_count_hits(store: CuratedMemory) -> None:
    store.render_injection("redis pitfall")
    assert {0} == {r.hits for r in store.recall("redis pitfall", limit=6, count_hits=False)}


def test_rules_are_not_repeated_as_bodies(store: CuratedMemory) -> None:
    text = store.render_injection("pytest pushing")
    assert 1 == text.count("Run pytest before pushing")


def test_negative_limits_refused(store: CuratedMemory) -> None:
    with pytest.raises(ValueError):
        store.render_injection("x", max_bodies=-1)


def test_outline_caps_goals_and_scenarios_and_says_so(tmp_path: Path) -> None:
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW)
    s.remember_many(
        [
            {
                "category": "facts",
                "summary": f"pinned goal {i} about topic{i}",
                "pinned": True,
                "load_when": [f"case {i}"],
            }
            for i in range(14)
        ],
        author="user",
    )
    lines = s.outline(max_goals=10, max_scenarios=5)
    assert 10 == sum(1 for ln in lines if ln.startswith("  - goal: "))
    assert any("... and 4 more pinned memories" in ln for ln in lines)
    assert any(ln.endswith("; ... and 9 more scenarios") for ln in lines)
    assert 14 == (s.roots["project"] / "ROOT.md").read_text().count("- pinned goal")


def test_a_load_when_scenario_brings_its_memory_as_the_prompt_hook_does(tmp_path: Path) -> None:
    """`inject 部署` ignored a memory's load_when scenario while `context --prompt 部署` honoured it -> both do."""
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW)
    s.remember("facts", "数据库端口是 5433", "生产库 postgres 改到 5433。", author="user", load_when=["部署"])
    s.remember("facts", "部署用 pnpm", "部署脚本用 pnpm。", author="user")
    assert [r.memory.summary for r in s.recall("部署", count_hits=False)] == ["部署用 pnpm"]  # recall alone misses it
    text = s.render_injection("部署", max_bodies=4, budget_chars=5000)
    relevant = text[text.index("## Relevant memories") :]
    assert "数据库端口是 5433" in relevant and "部署用 pnpm" in relevant
    assert relevant.index("数据库端口是 5433") < relevant.index("部署用 pnpm")  # the scenario first, as the hook
    assert relevant.count("数据库端口是 5433") == 1
