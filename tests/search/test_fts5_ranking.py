"""The two-step FTS5 ranking (index alone, then rows) equals ranking every match joined to its row."""

from __future__ import annotations

import random

import pytest

from mimomem.search import db
from mimomem.search.backends import Fts5Backend
from mimomem.search.document_index import DocumentIndex
from mimomem.search.rows import Row, put_rows
from mimomem.text.query import parse_query

WORDS = ["部署", "脚本", "端口", "数据库", "配置", "pnpm", "lockfile", "postgres", "5433", "缓存", "回滚", "发布"]
SCOPES = ("global", "projects", "sessions")
FILTERS = [{}, {"scope": "project"}, {"scope": "session", "scope_id": "s1"}, {"type": "notes"}, {"scope_id": "s3"}]


@pytest.fixture(scope="module")
def index() -> DocumentIndex:
    rng = random.Random(4)
    rows = []
    for i in range(600):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        if i % 5 == 0:
            text = "部署 脚本"  # many identical documents: ties decided by path
        rows.append(
            Row(
                f"/m/{rng.randrange(10**6):06d}-{i}.md",
                SCOPES[i % 3],
                f"s{i % 4}",
                ("memory", "notes")[i % 2],
                text,
                "",
            )
        )
    index = DocumentIndex()
    with db.transaction(index.connection):
        put_rows(index.connection, rows)
    return index


@pytest.mark.parametrize("backend", ["fts5-bigram", "fts5-unicode61"])
@pytest.mark.parametrize("query", ["部署", "部署脚本", "端口 5433", "pnpm lockfile 缓存", "回滚", "nothing"])
@pytest.mark.parametrize("limit", [1, 3, 10, 30, 200])
def test_two_steps_equal_one_joined_statement(index, backend, query, limit):
    fts = index.backend(backend)
    assert isinstance(fts, Fts5Backend)
    parsed = index.parse(query, backend)
    match = fts.match_string(parsed)
    for filters in FILTERS:
        got = fts.rank(parsed, limit=limit, **filters)
        where, params = db_filters(filters)
        assert got == (fts._rank_joined(match, where, params, limit) if match else [])


def db_filters(filters: dict[str, str]) -> tuple[str, list[str]]:
    from mimomem.search.backend_common import filter_sql

    return filter_sql(filters.get("scope"), filters.get("scope_id"), filters.get("type"))


def test_very_selective_filters_fall_back_to_the_joined_statement(index, monkeypatch):
    import mimomem.search.backends as backends

    monkeypatch.setattr(backends, "TWO_STEP_MAX_FETCH", 8)
    fts = index.backend("fts5-bigram")
    parsed = parse_query("部署")
    joined = fts._rank_joined(fts.match_string(parsed), " AND f.scope_id = ?", ["s3"], 5)
    assert fts.rank(parsed, limit=5, scope_id="s3") == joined
