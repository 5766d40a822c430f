"""CuratedMemory operations: remember, supersede, refusals, rules, forget, two roots, concurrent writers."""

from __future__ import annotations

import datetime as dt
import multiprocessing
import os
from pathlib import Path

import pytest

import mimomem
from mimomem import CuratedMemory
from mimomem.common.frontmatter import parse
from mimomem.curated.ids import slugify
from mimomem.errors import InvalidMemoryError, MemoryNotFoundError, SecretRefusedError

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def test_remember_writes_frontmatter_file(store: CuratedMemory) -> None:
    m = store.remember(
        "decisions",
        "Use Postgres 16 for the main DB",
        "Chosen for logical replication.",
        author="user",
        highlight="postgres 16",
        load_when=["db work", "部署"],
        pinned=True,
    )
    assert "decisions/use-postgres-16-for-the-main-db" == m.id
    doc = parse(m.path.read_text(encoding="utf-8"))
    assert doc.problem is None
    meta = doc.meta
    assert (m.id, "decision", "Use Postgres 16 for the main DB") == (meta["id"], meta["kind"], meta["summary"])
    assert ["db work", "部署"] == meta["load_when"]
    assert meta["pinned"] is True and meta["supersedes"] is None and meta["superseded_by"] is None
    assert "2026-11-30T12:00:00Z" == meta["created"] == meta["updated"]
    assert "Chosen for logical replication.\n" == doc.body
    assert not [p for p in m.path.parent.iterdir() if p.name.endswith(".tmp")]


def test_same_slug_gets_a_suffix(store: CuratedMemory) -> None:
    long = "deploy notes for the blue green switch over on the staging cluster"
    a = store.remember("facts", long + " alpha", "uses blue green switch", author="user")
    b = store.remember("facts", long + " beta", "completely unrelated words about tokenizer speed", author="user")
    assert a.slug == slugify(long + " beta") and len(a.slug) <= 60
    assert (f"facts/{a.slug}", f"facts/{a.slug}-2") == (a.id, b.id)


def test_superseded_kept_but_never_returned(store: CuratedMemory) -> None:
    old = store.remember("facts", "staging port is 8080", "", author="user")
    new = store.remember("facts", "staging port moved", "staging now listens on 9090", author="user", supersedes=old.id)
    assert [new.id] == [r.id for r in store.recall("staging port", limit=5)]
    assert old.path.exists()
    assert new.id == parse(old.path.read_text()).meta["superseded_by"]
    assert old.id == new.supersedes
    statuses = {m.id: m.status for m in store.inspect().memories}
    assert {old.id: "superseded", new.id: "live"} == statuses
    with pytest.raises(InvalidMemoryError, match="already superseded"):
        store.remember("facts", "staging port final", "x", author="user", supersedes=old.id)
    with pytest.raises(MemoryNotFoundError):
        store.remember("facts", "another", "x", author="user", supersedes="facts/nope")


def test_secret_is_refused_and_nothing_written(store: CuratedMemory) -> None:
    with pytest.raises(SecretRefusedError) as info:
        store.remember("facts", "CI token", "GH_TOKEN=ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", author="user")
    assert "github-token" in str(info.value)
    assert "a1B2c3D4" not in str(info.value)
    assert not list(store.roots["project"].rglob("*ci-token*"))
    ok = store.remember(
        "facts",
        "CI token lives in GH_TOKEN",
        "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 mimomem:allow-secret",
        author="user",
    )
    assert ok.path.exists()


def test_oversized_memory_is_refused(store: CuratedMemory) -> None:
    with pytest.raises(InvalidMemoryError, match="byte limit"):
        store.remember("facts", "a huge memory", "x " * 600_000, author="user")
    assert [] == store.memories()


def test_model_rules_become_proposals(store: CuratedMemory) -> None:
    p = store.remember("rules", "Always run ruff before committing", "ruff check .", author="model")
    assert "rule-proposal" == p.kind
    assert [] == store.hard_rules()
    assert [] == store.recall("ruff")
    assert "## Rule proposals awaiting review" in (store.roots["project"] / "ROOT.md").read_text()
    accepted = store.accept_rule(p.id)
    assert "rule" == accepted.kind and [p.id] == [m.id for m in store.hard_rules()]
    q = store.remember("rules", "Prefer tabs", "", author="model")
    store.reject_rule(q.id)
    assert not q.path.exists()
    with pytest.raises(InvalidMemoryError, match="not a rule-proposal"):
        store.accept_rule(p.id)
    facts_by_model = store.remember("facts", "model noticed the CI is slow", "", author="model")
    assert "fact" == facts_by_model.kind
    with pytest.raises(InvalidMemoryError, match="author"):
        store.remember("facts", "who wrote this", "", author="robot")


def test_forget_removes_and_recompiles(store: CuratedMemory) -> None:
    a = store.remember("facts", "tokenizer emits bigrams", "", author="user")
    b = store.remember("facts", "tokenizer rewrite", "now emits unigrams too", author="user", supersedes=a.id)
    result = store.forget(b.id)
    assert not b.path.exists() and [a.id] == result.dangling
    assert f"- [{b.slug}]" not in (store.roots["project"] / "facts" / "index.md").read_text()
    assert any(p.kind == "orphaned-supersedes" for p in store.inspect().problems)
    with pytest.raises(MemoryNotFoundError):
        store.forget(b.id)


def test_forget_resets_the_hit_counter(store: CuratedMemory) -> None:
    m = store.remember("facts", "ephemeral note about gradle", "", author="user")
    store.recall("gradle")
    store.recall("gradle")
    store.forget(m.id)
    again = store.remember("facts", "ephemeral note about gradle", "", author="user")
    assert again.id == m.id
    assert 0 == store.recall("gradle", count_hits=False)[0].hits


def test_project_wins_and_global_rules_resident(tmp_path: Path) -> None:
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW)
    s.remember("rules", "Write commit messages in English", "", author="user", scope="global", slug="commits")
    s.remember("rules", "No secrets in memory", "", author="user", scope="global", slug="secrets")
    s.remember("rules", "Commit messages may be in Chinese here", "", author="user", slug="commits")
    rules = [(m.scope, m.id, m.summary) for m in s.hard_rules()]
    assert [
        ("project", "rules/commits", "Commit messages may be in Chinese here"),
        ("global", "rules/secrets", "No secrets in memory"),
    ] == rules
    assert "project" == s.get("rules/commits").scope
    statuses = {(m.scope, m.id): m.status for m in s.inspect().memories}
    assert "shadowed" == statuses[("global", "rules/commits")]
    s.forget("rules/commits", scope="project")
    assert "global" == s.get("rules/commits").scope


def _remember_some(project: str, global_root: str, prefix: str, n: int) -> None:
    s = CuratedMemory(project, global_root, now=NOW)
    for i in range(n):
        s.remember("facts", f"{prefix} parallel memory {i}", f"{prefix} body {i} words{i}", author="user")


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
def test_concurrent_writers_lose_nothing(store: CuratedMemory) -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [
        ctx.Process(target=_remember_some, args=(str(store.project_dir), str(store.roots["global"]), name, 8))
        for name in ("alpha", "beta", "gamma")
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [0, 0, 0] == [p.exitcode for p in procs]
    store.reload()
    assert 24 == len(store.memories())
    assert store.inspect().ok  # every index.md line present, nothing drifted


def test_bulk_write_does_not_follow_a_planted_temp_file_link(store: CuratedMemory, tmp_path: Path) -> None:
    store.remember("facts", "seed memory", "", author="user")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    facts = store.roots["project"] / "facts"
    for pid in {os.getpid(), *range(1, 50)}:  # the old temp name was .<name>.<pid>.tmp
        (facts / f".planted.md.{pid}.tmp").symlink_to(victim)
    result = store.remember_many([{"category": "facts", "summary": "planted thing", "slug": "planted"}], author="user")
    assert result.written == ["facts/planted"]
    assert victim.read_text() == "precious"
    assert not (facts / "planted.md").is_symlink()


def test_store_module_exports_the_store_and_its_result_types() -> None:
    import mimomem.curated.store as store_module
    from mimomem.curated import memory as model

    assert store_module.CuratedMemory is CuratedMemory is mimomem.CuratedMemory
    for name in ("Memory", "Recalled", "BulkResult", "ForgetResult", "InspectReport", "DEFAULT_CATEGORIES"):
        assert name in store_module.__all__ and getattr(store_module, name) is getattr(model, name)
