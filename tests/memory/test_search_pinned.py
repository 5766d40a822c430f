"""The memory search pinned by equality: every hit, score, hint and explanation over a grid of queries.

``search_pinned.json`` was written by the code before the query came to be parsed once per search
(memory/fusion.py hands the parsed query to the tree index, the curated store and the hosts' memory).
A change to how the search parses, ranks, narrows or explains must show here as a changed row: write
the file again (``python tests/memory/test_search_pinned.py``) only for a change meant to alter results,
and say so in the commit.

The grid: Chinese, English, mixed, stop words only, identifiers, an empty and two over-long queries; no
filter, each filter, filters that empty the result (with their explanation); the three search backends.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from mimomem.curated.store import CuratedMemory
from mimomem.memory.search import Filters, Found, Results, explain, search
from mimomem.search.params import SEARCH_BACKENDS
from mimomem.text.query import TRUNCATED_HINT
from mimomem.tree import host_paths
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import Where, locate
from mimomem.tree.writer import Writer

PINNED = Path(__file__).with_name("search_pinned.json")
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.timezone.utc)
SPELL = {"scope": "--scope {}", "scope_id": "--scope-id {}", "type": "--type {}", "all_projects": "--all-projects"}

QUERIES = (
    "数据库端口",
    "发布冻结期怎么安排",
    "部署流程是什么",
    "database port",
    "How do we deploy to staging?",
    "release freeze",
    "staging 的数据库端口",
    "Redis 缓存 TTL 是多少",
    "pnpm-lock.yaml v1.2.3",
    "什么 怎么 是不是",
    "the of and is",
    "",
    "design decisions",
    "端口 " * 700 + "冻结",
    "我们在部署之前需要先确认数据库端口和缓存配置是否已经按照发布冻结期的规则更新完毕，"
    "并且通知所有相关的同事以及运维团队负责人还有测试同学和产品经理",  # more than MAX_TERMS terms, few words
)

FILTERS = (
    Filters(),
    Filters(all_projects=True),
    Filters(scope="project"),
    Filters(scope="session"),
    Filters(scope="host"),
    Filters(scope="global"),
    Filters(type="facts"),
    Filters(type="notes"),
    Filters(type="decisions", scope="project"),
    Filters(curated=False),
)

FACT = (
    "---\nname: release-freeze\ndescription: 发布冻结期\nmetadata:\n  type: project\n---\n\n"
    "每月最后一周是发布冻结期，只允许修复线上故障。Release freeze: hotfixes only.\n"
)


@contextmanager
def _environment(base: Path, env: MutableMapping[str, str]) -> Iterator[None]:
    """``env`` (os.environ) pointed into ``base`` for the duration; restored after."""
    names = ("HOME", "MIMOMEM_HOME", "XDG_CONFIG_HOME", "MIMOMEM_HOST_MEMORY", "MIMOMEM_BACKEND", *host_paths.ENV_NAMES)
    saved = {name: env.get(name) for name in names}
    for name in names:
        env.pop(name, None)
    env.update(HOME=str(base / "user"), MIMOMEM_HOME=str(base / "data"), XDG_CONFIG_HOME=str(base / "config"))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value


def _memory(base: Path) -> tuple[Where, CuratedMemory, dict[str, str]]:
    """Two projects' trees, session notes, templates, curated memories of both scopes, a host's own fact."""
    for name in ("shop", "blog"):
        (base / name / ".git").mkdir(parents=True)
    tree = MemoryTree()
    shop = locate(base / "shop", session_id="s1", tree=tree)
    blog = locate(base / "blog", session_id="s2", tree=tree)
    tree.ensure_templates(Writer(agent="main", session_id="s1", project_id=shop.project_id, worktree=base / "shop"))
    tree.write(
        tree.project_memory(shop.project_id),
        "# Project memory\n\n## Rules\n- 数据库端口 5433\n- Deploy to staging with `make deploy-staging`.\n"
        "- 部署流程：先跑 pnpm install（pnpm-lock.yaml 不可手改），再发布 v1.2.3。\n",
        shop.writer(),
    )
    tree.write(
        tree.project_memory(blog.project_id), "# P\n\n## Rules\n- 数据库端口 3306，数据库端口别改\n", blog.writer()
    )
    tree.write(
        tree.notes("s1"), "# Session notes\n\n## [turn 1 · 2026-12-01T10:00Z]\n\n数据库端口迁移到 5433\n", shop.writer()
    )
    tree.write(
        tree.notes("s2"),
        "# Session notes\n\n## [turn 1 · 2026-12-01T10:00Z]\n\nRedis 缓存 TTL 改成 300 秒\n",
        blog.writer(),
    )
    store = CuratedMemory(project_root=base / "shop", now=NOW)
    store.remember("facts", "staging 的数据库端口是 6543", author="user")
    store.remember("facts", "Redis cache TTL is 600 seconds", body="缓存 TTL 在 config/cache.toml", author="user")
    store.remember("decisions", "发布冻结期只修线上故障", body="每月最后一周。", author="user")
    store.remember("rules", "Always run the database migrations before deploying", author="user", scope="global")
    folder = Path(host_paths.claude_memory_dir(str(base / "shop"), os.environ) or "")
    folder.mkdir(parents=True)
    (folder / "release_freeze.md").write_text(FACT, encoding="utf-8")
    (folder / "MEMORY.md").write_text("- [发布冻结期](release_freeze.md) — 冻结\n", encoding="utf-8")
    names = {str(folder): "<host memory>", str(base): "<base>", shop.project_id: "<shop>", blog.project_id: "<blog>"}
    return shop, store, names


def _row(results: Results, names: dict[str, str], lines: dict[str, int]) -> dict[str, object]:
    """What a search gave, with this run's paths and project ids written as ``names`` says, and each line
    of hints and explanation as its number in ``lines`` (they repeat from search to search)."""

    def plain(text: str) -> str:
        for value, name in names.items():
            text = text.replace(value, name)
        return text

    emptied = results.emptied_by
    return {
        "backend": results.backend,
        "query": results.query[:80],
        "hits": [
            [h.source, plain(h.path), plain(h.label), h.scope, plain(h.scope_id), h.type, *_scores(h), plain(h.snippet)]
            for h in results
        ],
        "hints": [lines.setdefault(plain(h), len(lines)) for h in results.hints],
        "warnings": list(results.warnings),
        "emptied_by": emptied and [list(emptied.dropped), emptied.count],
        "explain": [lines.setdefault(plain(line), len(lines)) for line in explain(results, SPELL)],
    }


def _scores(hit: Found) -> tuple[str, str]:
    """The fused score and the source's own, exactly (repr keeps every digit)."""
    return repr(hit.score), repr(hit.source_score)


def _grid(base: Path) -> dict[str, object]:
    """Every (backend, filters, query) of the grid -> its row; ``lines``: the hints and explanations."""
    where, store, names = _memory(base)
    lines: dict[str, int] = {}
    out = {}
    for backend in SEARCH_BACKENDS:
        for filters in FILTERS:
            for query in QUERIES:
                key = f"{backend} | {filters.named()} {filters.all_projects} {filters.curated} | {query[:40]}"
                out[key] = _row(search(where, query, filters, backend=backend, store=store), names, lines)
    return {"lines": list(lines), "searches": out}


def test_the_search_gives_what_it_gave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    with _environment(tmp_path, os.environ):
        grid = _grid(tmp_path)
    assert grid["lines"] == pinned["lines"]
    now, pinned = grid["searches"], pinned["searches"]
    assert isinstance(now, dict) and list(now) == list(pinned)
    changed = [key for key in pinned if now[key] != pinned[key]]
    assert not changed, f"{len(changed)} of {len(pinned)} searches differ, first {changed[0]!r}: {now[changed[0]]}"


def test_the_grid_reaches_every_source_and_explanation() -> None:
    """The pinned grid is worth pinning: each source gives hits, some searches are empty, some explained."""
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    rows, truncated = pinned["searches"].values(), pinned["lines"].index(TRUNCATED_HINT)
    assert {hit[0] for row in rows for hit in row["hits"]} == {"tree", "curated", "host"}
    assert any(not row["hits"] for row in rows) and any(row["emptied_by"] for row in rows)
    assert any(truncated in row["hints"] for row in rows)


if __name__ == "__main__":  # write the pinned file anew (see the module docstring)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, _environment(Path(tmp), os.environ):
        grid = _grid(Path(tmp))
    PINNED.write_text(json.dumps(grid, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {len(QUERIES) * len(FILTERS) * len(SEARCH_BACKENDS)} searches to {PINNED}", file=sys.stderr)
