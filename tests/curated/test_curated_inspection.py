"""inspect: statuses, drift of the compiled outlines, malformed files and secrets reported."""

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


def _write_raw(path: Path, meta: dict, body: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(serialize(meta, body), encoding="utf-8")


def test_inspect_clean_store_has_no_problems(store: CuratedMemory) -> None:
    store.remember("facts", "clean memory", "", author="user")
    report = store.inspect()
    assert report.ok, report.problems
    assert ["clean memory"] == [m.summary for m in report.memories]


def test_inspect_detects_drift(store: CuratedMemory) -> None:
    store.remember("facts", "first fact here", "", author="user")
    m2 = store.remember("facts", "second fact here", "", author="user")
    root = store.roots["project"]
    index = root / "facts" / "index.md"
    index.write_text(index.read_text().replace(f"- [{m2.slug}]", f"- [{m2.slug}-renamed]"))
    (root / "ROOT.md").unlink()
    kinds = {(p.kind, Path(p.path).name): p.message for p in store.inspect().problems}
    assert "missing" in kinds[("drift", "index.md")] and "extra" in kinds[("drift", "index.md")]
    assert "missing" in kinds[("drift", "ROOT.md")]
    # a memory file added by hand, outlines not recompiled
    _write_raw(root / "facts" / "hand-made.md", {"id": "facts/hand-made", "summary": "added by hand"})
    store.reload()
    assert any("hand-made" in p.message for p in store.inspect().problems if p.kind == "drift")
    store.compile()
    assert store.inspect().ok


def test_inspect_reports_malformed_and_secrets_and_recall_survives(store: CuratedMemory) -> None:
    store.remember("facts", "healthy memory about redis", "", author="user")
    facts = store.roots["project"] / "facts"
    (facts / "bad-yaml.md").write_text("---\nsummary: [broken\n---\nredis\n")
    (facts / "no-header.md").write_text("redis without frontmatter\n")
    (facts / "latin1.md").write_bytes(b"---\nsummary: caf\xe9\n---\n")
    (facts / "no-summary.md").write_text("---\nkind: fact\n---\nredis\n")
    _write_raw(facts / "leaky.md", {"summary": "redis password"}, "password = " + "Tq8zP2wLx9Kd")
    _write_raw(
        facts / "odd.md",
        {"summary": "odd fields redis", "created": "yesterday", "load_when": {"a": 1}, "id": "facts/other"},
    )
    store.reload()
    problems = store.inspect().problems
    by_file = {}  # type: ignore[var-annotated]
    for p in problems:
        by_file.setdefault(Path(p.path).name, set()).add(p.kind)
    assert {"malformed"} <= by_file["bad-yaml.md"]
    assert {"malformed"} <= by_file["no-header.md"]
    assert {"malformed"} <= by_file["latin1.md"]
    assert {"malformed"} <= by_file["no-summary.md"]
    assert {"secret"} <= by_file["leaky.md"]
    assert {"field", "id-mismatch"} <= by_file["odd.md"]
    assert not any("Tq8zP2wLx9Kd" in p.message for p in problems)
    ids = {r.id for r in store.recall("redis", limit=10)}
    assert {"facts/healthy-memory-about-redis", "facts/leaky", "facts/odd"} == ids
