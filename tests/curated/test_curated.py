"""Curated memory: files, compiled outlines, scoring, operations, safety, concurrency."""

from __future__ import annotations

import datetime as dt
import math
import multiprocessing
import os
import random
from pathlib import Path

import pytest

import mimomem
from mimomem import BM25Index, CuratedMemory
from mimomem.cli import main
from mimomem.curated.store import (
    GENERATED,
    DuplicateMemoryError,
    InvalidCuratedIdError,
    InvalidMemoryError,
    MemoryNotFoundError,
    NoProjectRootError,
    OutsideRootError,
    default_global_root,
    slugify,
)
from mimomem.errors import SecretRefusedError
from mimomem.common.frontmatter import parse, serialize

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


class Clock:
    """A settable clock for the store's ``now``."""

    def __init__(self, t: dt.datetime = NOW) -> None:
        self.t = t

    def __call__(self) -> dt.datetime:
        return self.t


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def _write_raw(path: Path, meta: dict, body: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(serialize(meta, body), encoding="utf-8")


# -- roots ----------------------------------------------------------------------------------
def test_default_global_root_honours_xdg_config_home(tmp_path: Path) -> None:
    assert tmp_path / "mimomem" / "memory" == default_global_root({"XDG_CONFIG_HOME": str(tmp_path)})
    assert Path("/h/.config/mimomem/memory") == default_global_root({"XDG_CONFIG_HOME": "rel", "HOME": "/h"})
    assert Path("/h/.config/mimomem/memory") == default_global_root({"HOME": "/h"})


def test_roots_are_created_on_first_write_with_gitignore(store: CuratedMemory, tmp_path: Path) -> None:
    assert not (tmp_path / "proj" / ".memory").exists()
    assert [] == store.recall("anything")  # reading absent roots is fine
    store.remember("facts", "The staging host is stage-3", "", author="user")
    root = tmp_path / "proj" / ".memory"
    ignored = (root / ".gitignore").read_text().split()
    assert ".state.json" in ignored and ".lock" in ignored
    assert not (tmp_path / "global").exists()


def test_project_scope_needs_a_project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # not inside a git repository
    s = CuratedMemory(global_root=tmp_path / "g", now=NOW)
    assert "project" not in s.roots
    with pytest.raises(NoProjectRootError, match="--global"):
        s.remember("facts", "x y z", author="user")
    assert "global" == s.remember("facts", "x y z", author="user", scope="global").scope


def test_project_root_is_found_from_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    monkeypatch.chdir(repo / "src")
    s = CuratedMemory(global_root=tmp_path / "g", now=NOW)
    assert repo / ".memory" == s.roots["project"]


# -- files and compiled outlines --------------------------------------------------------------
def test_remember_writes_frontmatter_file(store: CuratedMemory) -> None:
    m = store.remember(
        "decisions", "Use Postgres 16 for the main DB", "Chosen for logical replication.",
        author="user", highlight="postgres 16", load_when=["db work", "部署"], pinned=True,
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


def test_slugs_are_unique_and_safe() -> None:
    assert "hello-world" == slugify("Hello, World!")
    assert "端口-5433" == slugify("端口 5433")
    assert "memory" == slugify("!!!")
    assert len(slugify("word " * 50)) <= 60


def test_same_slug_gets_a_suffix(store: CuratedMemory) -> None:
    long = "deploy notes for the blue green switch over on the staging cluster"
    a = store.remember("facts", long + " alpha", "uses blue green switch", author="user")
    b = store.remember("facts", long + " beta", "completely unrelated words about tokenizer speed", author="user")
    assert a.slug == slugify(long + " beta") and len(a.slug) <= 60
    assert (f"facts/{a.slug}", f"facts/{a.slug}-2") == (a.id, b.id)


# -- recall and scoring ------------------------------------------------------------------------
def test_recall_returns_full_text_and_why(store: CuratedMemory) -> None:
    store.remember("facts", "数据库端口是 5433", "生产数据库 postgres 端口改为 5433。", author="user")
    store.remember("facts", "Tokenizer uses bigrams", "CJK runs become bigrams.", author="user")
    (r,) = store.recall("数据库端口", limit=1)
    assert "facts/数据库端口是-5433" == r.id
    assert "生产数据库 postgres 端口改为 5433。" == r.memory.body
    assert ("数据库端口",) == r.matched_terms  # its bigrams are not listed again
    assert r.score == pytest.approx(r.bm25 * r.scope_prior * r.decay * r.rehearsal)
    assert (1.0, 1.0, 1.0, 0) == (r.scope_prior, r.decay, r.rehearsal, r.hits)
    assert "bm25" in r.why() and "rehearsal" in r.why()


def test_bm25_base_equals_the_core_index(store: CuratedMemory) -> None:
    texts = {"alpha": "redis cache eviction policy", "beta": "redis cluster failover", "gamma": "postgres vacuum"}
    for slug, summary in texts.items():
        store.remember("facts", summary, "", author="user", slug=slug)
    index = BM25Index()
    for slug, summary in texts.items():
        index.add_text(slug, f"{summary}\n\n")
    expected = {h.doc_id: h.score for h in index.search(mimomem.parse_query("redis failover", segment=True), 10)}
    got = {r.memory.slug: r.bm25 for r in store.recall("redis failover", limit=10, count_hits=False)}
    assert expected == got


def test_scope_prior_halves_global(tmp_path: Path) -> None:
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW)
    s.remember("facts", "lockfile is pnpm-lock.yaml", "", author="user", slug="lock-p")
    s.remember("facts", "lockfile is pnpm-lock.yaml", "", author="user", slug="lock-g", scope="global")
    p, g = s.recall("lockfile", limit=2, count_hits=False)
    assert ("lock-p", "project", "lock-g", "global") == (p.memory.slug, p.memory.scope, g.memory.slug, g.memory.scope)
    assert (1.0, 0.5) == (p.scope_prior, g.scope_prior)
    assert g.score == pytest.approx(p.score / 2)


def test_time_decay_half_life_and_pinned(tmp_path: Path) -> None:
    clock = Clock(NOW - dt.timedelta(days=28))
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=clock, half_life_days=14)
    s.remember("facts", "old note about vite config", "", author="user", slug="old")
    s.remember("facts", "pinned note about vite config", "", author="user", slug="pinned", pinned=True)
    clock.t = NOW
    s.remember("facts", "new note about vite config", "", author="user", slug="new")
    by = {r.memory.slug: r for r in s.recall("vite", limit=3, count_hits=False)}
    assert by["old"].decay == pytest.approx(0.25)
    assert 1.0 == by["pinned"].decay == by["new"].decay
    no_decay = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW, half_life_days=0)
    assert {1.0} == {r.decay for r in no_decay.recall("vite", limit=3, count_hits=False)}


def test_rehearsal_grows_with_hits_and_is_bounded() -> None:
    values = [CuratedMemory.rehearsal(h) for h in range(0, 200)]
    assert 1.0 == values[0]
    assert values[1] == pytest.approx(1.1)
    assert values == sorted(values)
    assert 1.5 == values[31] == values[199]


def test_hits_are_counted_in_state_file(store: CuratedMemory) -> None:
    store.remember("facts", "jieba warm up at start", "", author="user")
    first = store.recall("jieba")
    second = store.recall("jieba")
    store.recall("jieba", count_hits=False)
    third = store.recall("jieba", count_hits=False)
    assert [0, 1, 2] == [first[0].hits, second[0].hits, third[0].hits]
    assert third[0].rehearsal == pytest.approx(1 + 0.1 * math.log2(3))
    fresh = CuratedMemory(store.project_dir, store.roots["global"], now=NOW)
    assert 2 == fresh.recall("jieba", count_hits=False)[0].hits


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


def _brute_force(store: CuratedMemory, query: str, k: int) -> list[tuple[str, float]]:
    """The same formula over every memory, without the batched candidate fetch."""
    parsed = mimomem.parse_query(query, segment=True)
    index = BM25Index()
    memories = {}
    for m in store.memories():
        if m.superseded_by or m.kind == "rule-proposal":
            continue
        key = f"{m.scope}:{m.id}"
        memories[key] = m
        index.add_text(key, m.text)
    hits = {scope: root.read_hits() for scope, root in store._roots.items()}
    scored = []
    for key, base in index.search(parsed, len(memories)):
        m = memories[key]
        mult = {"project": 1.0, "global": 0.5}[m.scope] * store._decay(m, store.now())
        mult *= CuratedMemory.rehearsal(hits[m.scope].get(m.id, 0))
        scored.append((base * mult, m.scope != "project", m.id))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    return [(i, s) for s, _, i in scored[:k]]


def test_top_k_is_exact_against_a_full_scan(tmp_path: Path) -> None:
    rng = random.Random(5)
    words = "redis cache port deploy vite config lockfile tokenizer bigram 数据库 端口 部署 脚本 缓存 测试".split()
    clock = Clock()
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=clock, half_life_days=3)
    items = {"project": [], "global": []}
    for i in range(400):
        summary = " ".join(rng.choice(words) for _ in range(rng.randint(2, 6))) + f" n{i}"
        items[rng.choice(["project", "global"])].append(
            {"category": "facts", "summary": summary, "body": f"item {i}", "slug": f"m{i}", "pinned": rng.random() < 0.05}
        )
    for scope, batch in items.items():
        # spread the ages over 0..60 days so decay reorders the BM25 ranking strongly
        for item in batch:
            clock.t = NOW - dt.timedelta(days=rng.uniform(0, 60))
            assert [] == s.remember_many([item], author="user", scope=scope).refused
    clock.t = NOW
    for _ in range(30):  # give some memories hits
        s.recall(rng.choice(words), limit=3)
    fell_outside_first_batch = 0
    for query in ["redis 端口", "deploy", "数据库 部署 脚本", "vite config lockfile", "缓存", "n17 bigram"]:
        for k in (1, 4, 10):
            got = [(r.id, r.score) for r in s.recall(query, limit=k, count_hits=False)]
            want = _brute_force(s, query, k)
            assert [i for i, _ in want] == [i for i, _ in got]
            assert [sc for _, sc in want] == pytest.approx([sc for _, sc in got])
        first_batch = max(8 * 10, 64)  # what recall(limit=10) fetches first
        base_rank = [h.doc_id for h in s._ranking.index.search(mimomem.parse_query(query, segment=True), first_batch)]
        fell_outside_first_batch += sum(f"{m_scope}:{i}" not in base_rank for i, m_scope in
                                        [(r.id, r.memory.scope) for r in s.recall(query, limit=10, count_hits=False)])
    assert fell_outside_first_batch > 0  # the growing fetch was needed for exactness


# -- remember: refusals -----------------------------------------------------------------------------
def test_near_duplicates_are_refused_with_the_way_out(store: CuratedMemory) -> None:
    first = store.remember("facts", "The build uses pnpm workspaces", "Run pnpm install at the root of the repo.", author="user")
    with pytest.raises(DuplicateMemoryError) as info:
        store.remember("facts", "the build uses PNPM workspaces!", "different body", author="user")
    assert first.id == info.value.existing_id and "same summary" in str(info.value)
    assert f"supersedes={first.id!r}" in str(info.value)
    with pytest.raises(DuplicateMemoryError, match="Jaccard"):
        store.remember("facts", "pnpm workspaces: the build uses them", "Run pnpm install at the root of the repo.", author="user")
    replacement = store.remember(
        "facts", "The build uses pnpm workspaces", "Run pnpm install at the root of the repo.", author="user",
        supersedes=first.id,
    )
    assert replacement.supersedes == first.id
    other = store.remember("facts", "The build uses npm", "A different tool entirely with other words", author="user")
    assert other.id.startswith("facts/")


def test_secret_is_refused_and_nothing_written(store: CuratedMemory) -> None:
    with pytest.raises(SecretRefusedError) as info:
        store.remember("facts", "CI token", "GH_TOKEN=ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", author="user")
    assert "github-token" in str(info.value)
    assert "a1B2c3D4" not in str(info.value)
    assert not list(store.roots["project"].rglob("*ci-token*"))
    ok = store.remember("facts", "CI token lives in GH_TOKEN", "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 mimomem:allow-secret", author="user")
    assert ok.path.exists()


def test_oversized_memory_is_refused(store: CuratedMemory) -> None:
    with pytest.raises(InvalidMemoryError, match="byte limit"):
        store.remember("facts", "a huge memory", "x " * 600_000, author="user")
    assert [] == store.memories()


@pytest.mark.parametrize("query", ['"; DROP TABLE x; --', "foo* AND bar OR NEAR(a b)", "\udcff\udcfe", "", "   ", "的的的"])
def test_hostile_queries_do_not_crash(store: CuratedMemory, query: str) -> None:
    store.remember("facts", "drop table notes", "sql injection words", author="user")
    assert all(r.id == "facts/drop-table-notes" for r in store.recall(query))


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


@pytest.mark.parametrize(
    "bad", ["../etc/passwd", "facts/../../x", "facts/..", "/etc/passwd", "facts/a/b", "facts/", "nope/x", "facts/index", "facts/.hidden"]
)
def test_bad_ids_are_refused(store: CuratedMemory, bad: str) -> None:
    with pytest.raises(InvalidCuratedIdError):
        store.forget(bad)
    with pytest.raises(InvalidCuratedIdError):
        store.get(bad)


@pytest.mark.parametrize("slug", ["..", "../x", "a/b", "", ".hidden", "index", "x\x00y", "-lead"])
def test_bad_slugs_are_refused(store: CuratedMemory, tmp_path: Path, slug: str) -> None:
    with pytest.raises(InvalidCuratedIdError):
        store.remember("facts", f"summary for {slug!r}", "", author="user", slug=slug)
    assert not list(tmp_path.rglob("*summary*"))


def test_symlinks_out_of_the_root_are_refused(store: CuratedMemory, tmp_path: Path) -> None:
    store.remember("facts", "seed memory", "", author="user")
    outside = tmp_path / "outside"
    outside.mkdir()
    (store.roots["project"] / "pitfalls").symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutsideRootError):
        store.remember("pitfalls", "should not escape", "", author="user")
    assert [] == list(outside.iterdir())
    (outside / "x.md").write_text(serialize({"summary": "planted"}, ""))
    (store.roots["project"] / "facts" / "planted.md").symlink_to(outside / "x.md")
    report = store.inspect()
    assert any(p.kind == "skipped" and "symlink" in p.message for p in report.problems)
    assert [] == store.recall("planted")


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


# -- two roots --------------------------------------------------------------------------------------
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


# -- inspect -------------------------------------------------------------------------------------------
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
    _write_raw(facts / "odd.md", {"summary": "odd fields redis", "created": "yesterday", "load_when": {"a": 1}, "id": "facts/other"})
    store.reload()
    problems = store.inspect().problems
    by_file = {}
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


def test_changes_by_another_writer_are_seen(store: CuratedMemory) -> None:
    store.remember("facts", "first memory", "", author="user")
    other = CuratedMemory(store.project_dir, store.roots["global"], now=NOW)
    other.remember("facts", "written by the other process about kafka", "", author="user")
    assert ["facts/written-by-the-other-process-about-kafka"] == [r.id for r in store.recall("kafka")]


# -- bulk -----------------------------------------------------------------------------------------------
def test_remember_many_reports_refusals_and_compiles_once(store: CuratedMemory) -> None:
    items = [{"category": "facts", "summary": f"bulk fact {i} about topic{i}", "body": f"detail {i}"} for i in range(50)]
    items += [
        {"category": "facts", "summary": "bulk fact 3 about topic3", "body": "dup"},
        {"category": "nope", "summary": "bad category"},
        {"category": "facts", "summary": "has key", "body": "AKIA" + "Q7X2M9K4P1Z8R5T3"},
        {"category": "facts", "summary": "extra field", "colour": "red"},
        "not a mapping",
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
    (notes / "misc" / "with-meta.md").write_text(serialize({"summary": "Meeting day is Tuesday", "category": "facts", "load_when": ["planning"]}, "Standup at 10."))
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


def test_fifos_and_directories_named_md_are_skipped_not_read(store: CuratedMemory, tmp_path: Path) -> None:
    # Opening a FIFO for reading blocks until a writer appears: it must be skipped, not read.
    store.remember("facts", "The staging host is stage-3", "", author="user")
    facts = tmp_path / "proj" / ".memory" / "facts"
    os.mkfifo(facts / "pipe.md")
    (facts / "folder.md").mkdir()
    fresh = CuratedMemory(store.project_dir, store.roots["global"], now=NOW)
    report = fresh.inspect()
    skipped = {Path(p.path).name: p.message for p in report.problems if p.kind == "skipped"}
    assert skipped == {"pipe.md": "not a regular file", "folder.md": "not a regular file"}
    assert ["facts/the-staging-host-is-stage-3"] == [m.id for m in report.memories]
    notes = tmp_path / "notes"
    notes.mkdir()
    os.mkfifo(notes / "pipe.md")
    (notes / "ok.md").write_text("# Redis TTL is one hour\n")
    result = fresh.import_dir(notes)
    assert ["facts/redis-ttl-is-one-hour"] == result.written
    assert [("pipe.md", "not a regular file")] == result.refused


# -- concurrency -------------------------------------------------------------------------------------------
def _recall_many(project: str, global_root: str, n: int) -> None:
    s = CuratedMemory(project, global_root, now=NOW)
    for _ in range(n):
        assert len(s.recall("concurrency counter")) == 1


def _remember_some(project: str, global_root: str, prefix: str, n: int) -> None:
    s = CuratedMemory(project, global_root, now=NOW)
    for i in range(n):
        s.remember("facts", f"{prefix} parallel memory {i}", f"{prefix} body {i} words{i}", author="user")


@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
def test_hit_counters_survive_concurrent_processes(store: CuratedMemory) -> None:
    store.remember("facts", "concurrency counter target", "", author="user")
    ctx = multiprocessing.get_context("fork")
    args = (str(store.project_dir), str(store.roots["global"]), 15)
    procs = [ctx.Process(target=_recall_many, args=args) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [0, 0, 0, 0] == [p.exitcode for p in procs]
    assert 60 == store.recall("concurrency counter", count_hits=False)[0].hits


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


# -- pure vs native ----------------------------------------------------------------------------------------
@pytest.mark.skipif(not mimomem.native_available(), reason="needs the native extension")
def test_pure_and_native_cores_recall_identically(store: CuratedMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    import mimomem.text.bm25 as bm25_module
    from mimomem.text._bm25_py import BM25Core as PureCore

    rng = random.Random(11)
    words = "端口 数据库 部署 redis cache vite 配置 脚本 lockfile 测试 bigram".split()
    store.remember_many(
        [{"category": "facts", "summary": " ".join(rng.sample(words, 4)) + f" {i}", "slug": f"s{i}"} for i in range(200)],
        author="user",
    )
    native = [[(r.id, r.score) for r in store.recall(q, limit=6, count_hits=False)] for q in words]
    monkeypatch.setattr(bm25_module, "BM25Core", PureCore)
    store.reload()
    pure = [[(r.id, r.score) for r in store.recall(q, limit=6, count_hits=False)] for q in words]
    assert native == pure


# -- CLI ---------------------------------------------------------------------------------------------------
def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p").mkdir()  # --project must name an existing directory
    roots = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    assert 0 == main(["remember", "facts", "Redis runs on port 6380", "Not the default port.", "--when", "deploy", *roots])
    assert "remembered facts/redis-runs-on-port-6380" in capsys.readouterr().out
    assert 0 == main(["remember", "rules", "Squash merges only", "--author", "model", *roots])
    assert "rule-proposal" in capsys.readouterr().out
    assert 0 == main(["recall", "redis port", *roots])
    out = capsys.readouterr().out
    assert "## facts/redis-runs-on-port-6380" in out and "why: matched" in out
    assert 0 == main(["rules", "accept", "rules/squash-merges-only", *roots])
    capsys.readouterr()
    assert 0 == main(["inject", "redis", *roots])
    assert "- Squash merges only" in capsys.readouterr().out
    assert 0 == main(["inspect", *roots])
    assert "0 problems" in capsys.readouterr().out
    assert 2 == main(["remember", "facts", "key", "AKIA" + "Q7X2M9K4P1Z8R5T3", *roots])
    err = capsys.readouterr().err
    assert "aws-access-key-id" in err and "Q7X2M9K4" not in err
    assert 2 == main(["forget", "../../etc/passwd", *roots])
    assert 0 == main(["forget", "facts/redis-runs-on-port-6380", *roots])
    assert 1 == main(["recall", "redis", *roots])
    assert 0 == main(["remember", "facts", "global fact about kafka", "--global", *roots])
    assert (tmp_path / "g" / "facts" / "global-fact-about-kafka.md").exists()


def test_cli_inspect_fails_on_problems_and_fix_recompiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p").mkdir()  # --project must name an existing directory
    roots = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    main(["remember", "facts", "something to index", *roots])
    (tmp_path / "p" / ".memory" / "ROOT.md").write_text("hand edited\n")
    capsys.readouterr()
    assert 1 == main(["inspect", *roots])
    assert "drift" in capsys.readouterr().out
    assert 0 == main(["inspect", "--fix", *roots])


def test_cli_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(3):
        (notes / f"n{i}.md").write_text(f"# Note {i} about topic{i}\n\nbody {i}\n")
    (tmp_path / "p").mkdir()  # --project must name an existing directory
    roots = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    assert 0 == main(["import", str(notes), *roots])
    assert "imported 3 memories" in capsys.readouterr().out
    assert os.path.exists(tmp_path / "p" / ".memory" / "facts" / "note-0-about-topic0.md")


def test_duplicate_filter_is_exact_against_brute_force() -> None:
    from mimomem.curated.dedup import DUPLICATE_JACCARD, DedupIndex, token_hashes

    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(40)]
    dedup = DedupIndex()
    texts: dict[str, str] = {}
    for i in range(300):
        base = rng.choice(list(texts.values())) if texts and rng.random() < 0.5 else " ".join(rng.sample(vocab, rng.randint(3, 12)))
        words = base.split()
        for _ in range(rng.randint(0, 2)):  # small edits make near-duplicates
            words[rng.randrange(len(words))] = rng.choice(vocab)
        text = " ".join(words)
        sets = {k: set(token_hashes(t)) for k, t in texts.items()}
        mine = set(token_hashes(text))
        want = max(
            ((len(mine & s) / len(mine | s), k) for k, s in sets.items() if len(mine & s) / len(mine | s) >= DUPLICATE_JACCARD),
            default=None,
        )
        got = dedup.find(text, f"unique summary {i}")
        assert (want[1] if want else None) == (got[0] if got else None)
        if got is None:
            key = f"m{i}"
            texts[key] = text
            dedup.add(key, text, f"unique summary {i}")


# --- adversarial review: planted links beside the memories ---


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


def test_lock_file_link_creates_nothing_outside(store: CuratedMemory, tmp_path: Path) -> None:
    root = store.roots["project"]
    root.mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".lock").symlink_to(outside / "created")
    with pytest.raises(OutsideRootError, match="symlink"):
        store.remember("facts", "lock test", "", author="user")
    assert list(outside.iterdir()) == []


def test_symlinked_root_is_refused_before_anything_is_written(store: CuratedMemory, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    store.roots["project"].parent.mkdir()
    store.roots["project"].symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutsideRootError, match="symlink"):
        store.remember("facts", "root link test", "", author="user")
    assert list(outside.iterdir()) == []
