"""Scenario routing from the snapshot gives exactly what routing over every memory gave."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.common import frontmatter
from mimomem.curated.memory import Memory
from mimomem.curated.routing import MIN_SCENARIO_OVERLAP, routed
from mimomem.text.tokens import tokenize

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
TOPICS = ["部署", "数据库", "端口", "缓存", "测试", "日志", "鉴权", "队列", "前端", "构建"]
WORDS = ["pnpm", "postgres", "redis", "nginx", "docker", "pytest", "vite", "kafka"]
PROMPTS = ["部署前数据库端口要改成多少？上次 pnpm 构建失败", "redis 缓存 测试", "日志 kafka 队列 nginx", "nothing here"]

pytestmark = pytest.mark.usefixtures("cache")  # tests/curated/conftest.py


def reference(store: CuratedMemory, prompt: str) -> list[Memory]:
    """Routing as it was: every memory built, every scenario tokenized."""
    have = {t.text for t in tokenize(prompt)}
    out = []
    for memory in store.memories():
        if memory.superseded_by or memory.kind == "rule-proposal":
            continue
        for scenario in memory.load_when:
            terms = {t.text for t in tokenize(scenario)}
            if terms and len(terms & have) / len(terms) >= MIN_SCENARIO_OVERLAP:
                out.append(memory)
                break
    return out


def _fill(tmp_path: Path) -> None:
    rng = random.Random(5)
    store = CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)
    for scope, count in (("project", 120), ("global", 40)):
        items = [
            {
                "category": ["facts", "decisions", "pitfalls", "rules"][i % 4],
                "summary": f"{scope} {rng.choice(TOPICS)} note {i} {rng.choice(WORDS)}",
                "body": f"{rng.choice(TOPICS)} {rng.choice(WORDS)}",
                "load_when": [f"{rng.choice(TOPICS)} {rng.choice(WORDS)}" for _ in range(rng.randint(0, 2))],
                "slug": f"both{i}" if i < 30 else f"{scope}{i}",  # the first 30 ids are in both roots
            }
            for i in range(count)
        ]
        assert not store.remember_many(items, author="user", scope=scope).refused
    store.remember("facts", "部署 redis 新说明", author="user", load_when=["部署 redis"], supersedes="facts/both0")
    store.remember("rules", "数据库 端口 提议", author="model", load_when=["数据库 端口"])  # a rule-proposal


def _views(tmp_path: Path, prompt: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    def ids(memories: list[Memory]) -> list[tuple[str, str]]:
        return [(m.scope, m.id) for m in memories]

    new = ids(routed(CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW), prompt))
    return new, ids(reference(CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW), prompt))


def test_routing_from_the_snapshot_equals_routing_over_every_memory(tmp_path, monkeypatch):
    _fill(tmp_path)
    CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW).memories()  # a new process saves snapshots
    built = []
    real = Memory.__new__
    monkeypatch.setattr(Memory, "__new__", lambda cls, *a, **k: built.append(1) or real(cls, *a, **k))  # type: ignore[func-returns-value]
    for prompt in PROMPTS:
        built.clear()
        new, old = _views(tmp_path, prompt)
        assert new == old
        assert prompt == "nothing here" or new
        assert len(built) > 100  # the reference built every memory ...
    built.clear()
    routed(CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW), PROMPTS[0])
    assert 0 < len(built) < 60  # ... the snapshot path only the routed ones


def test_hand_edits_and_files_the_snapshot_lacks_are_routed_as_before(tmp_path):
    _fill(tmp_path)
    CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW).memories()
    facts = tmp_path / "proj" / ".memory" / "facts"
    edited = sorted(facts.glob("project*.md"))[0]
    doc = frontmatter.parse(edited.read_text(encoding="utf-8"))
    edited.write_text(frontmatter.serialize({**doc.meta, "load_when": ["日志 kafka"]}, doc.body), encoding="utf-8")
    meta = {**doc.meta, "id": "facts/by-hand", "load_when": ["队列 nginx"]}
    (facts / "by-hand.md").write_text(frontmatter.serialize(meta, "x"), encoding="utf-8")
    for prompt in PROMPTS:
        new, old = _views(tmp_path, prompt)
        assert new == old
    assert ("project", "facts/by-hand") in _views(tmp_path, PROMPTS[2])[0]
