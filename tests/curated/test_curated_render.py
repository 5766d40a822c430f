"""Compiled outlines: ROOT.md and <category>/index.md list everything, deterministically."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.curated.render import GENERATED

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def test_compiled_files_are_generated_and_list_everything(store: CuratedMemory) -> None:
    store.remember("rules", "Never force-push to main", "Open a PR instead.", author="user")
    store.remember("facts", "数据库端口是 5433", "旧端口 5432 已废弃", author="user", load_when=["部署"])
    store.remember("facts", "CI runs on two cores", "", author="user", load_when=["部署", "perf"], pinned=True)
    root = store.roots["project"]
    index = (root / "facts" / "index.md").read_text(encoding="utf-8")
    assert index.startswith(GENERATED)
    assert "- [ci-runs-on-two-cores](ci-runs-on-two-cores.md): CI runs on two cores [pinned]" in index
    assert "- [数据库端口是-5433](数据库端口是-5433.md): 数据库端口是 5433" in index
    top = (root / "ROOT.md").read_text(encoding="utf-8")
    assert top.startswith(GENERATED)
    assert "## Hard rules\n\n- Never force-push to main (rules/never-force-push-to-main)" in top
    assert "## Goals\n\n- CI runs on two cores (facts/ci-runs-on-two-cores)" in top
    assert "| 部署 | facts/ci-runs-on-two-cores, facts/数据库端口是-5433 |" in top
    assert "| perf | facts/ci-runs-on-two-cores |" in top
    assert "- [facts/](facts/index.md): 2 live, 2 files" in top


def test_compiled_files_are_deterministic(tmp_path: Path) -> None:
    items = [("facts", f"fact number {w}", f"body {w}") for w in ("alpha", "beta", "gamma", "delta")]
    outputs = []
    for name, order in (("a", items), ("b", list(reversed(items)))):
        s = CuratedMemory(tmp_path / name, tmp_path / f"g{name}", now=NOW)
        for category, summary, body in order:
            s.remember(category, summary, body, author="user", load_when=["x"])
        root = s.roots["project"]
        outputs.append(((root / "ROOT.md").read_text(), (root / "facts" / "index.md").read_text()))
    assert outputs[0] == outputs[1]
