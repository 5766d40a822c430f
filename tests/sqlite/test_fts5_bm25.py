"""FTS5's bm25() over ``tokenize='mimomem'`` equals ``BM25Index`` and the shadow column's, exactly."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import mimomem
from mimomem.search.db import BIGRAM_SPEC, shadow_tokens
from mimomem.text.query import parse_query

REL = 1e-9  # as tests/text/test_bm25.py: our sums against SQLite's, both in doubles
WORDS = ["部署", "脚本", "端口", "数据库", "决定", "使用", "配置", "pnpm", "lockfile", "postgres", "v1.2.3", "Tauri2.0"]
FILLER = "的了是在和有我们这个那个就也都而及与着或一个没有"


def corpus(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    docs = []
    for _ in range(n):
        parts = [
            rng.choice(WORDS) if rng.random() < 0.4 else "".join(rng.sample(FILLER, 3))
            for _ in range(rng.randint(3, 40))
        ]
        docs.append(rng.choice(["", " ", "，"]).join(parts))
    return docs


QUERIES = [
    "部署脚本",
    "端口5433 数据库",
    "pnpm lockfile",
    "v1.2.3",
    "我们决定使用 postgres",
    "配置的",
    "Tauri 2.0",
    "没有",
]


def test_bm25_over_the_tokenizer_equals_bm25index_on_1000_documents(apsw_conn: Any) -> None:
    docs = corpus(1000, seed=20)
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem')")
    with apsw_conn:
        apsw_conn.executemany("INSERT INTO t(rowid, body) VALUES (?, ?)", list(enumerate(docs, 1)))
    index = mimomem.BM25Index()
    for rowid, doc in enumerate(docs, 1):
        index.add_text(rowid, doc)
    compared = 0
    for text in QUERIES:
        sql = "SELECT rowid, -bm25(t) FROM t WHERE t MATCH mimomem_query(?, 'full')"  # the package's phrase model
        theirs = dict(apsw_conn.execute(sql, (text,)))
        ours = index.search(text, k=10_000)
        assert {h.doc_id for h in ours} == set(theirs)
        for hit in ours:
            assert math.isclose(hit.score, theirs[hit.doc_id], rel_tol=REL, abs_tol=0.0), (text, hit)
        compared += len(ours)
    assert compared > 1000


@pytest.mark.parametrize("detail", ["full", None])
def test_bm25_is_identical_to_the_shadow_column(apsw_conn: Any, detail: str | None) -> None:
    """The same token stream either way: FTS5 computes bit-identical scores, so a backend may switch."""
    docs = corpus(300, seed=7)
    apsw_conn.execute(
        f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem');"
        f'CREATE VIRTUAL TABLE s USING fts5(tokens, tokenize="{BIGRAM_SPEC}")'
    )
    with apsw_conn:
        for rowid, doc in enumerate(docs, 1):
            apsw_conn.execute("INSERT INTO t(rowid, body) VALUES (?, ?)", (rowid, doc))
            apsw_conn.execute("INSERT INTO s(rowid, tokens) VALUES (?, ?)", (rowid, shadow_tokens(doc)))
    compared = 0
    for text in QUERIES:
        native = list(
            apsw_conn.execute(
                "SELECT rowid, bm25(t) FROM t WHERE t MATCH mimomem_query(?, coalesce(?, 'none')) ORDER BY rowid",
                (text, detail),
            )
        )
        shadow = list(
            apsw_conn.execute(
                "SELECT rowid, bm25(s) FROM s WHERE s MATCH ? ORDER BY rowid",
                (parse_query(text).to_fts5(detail or "none"),),
            )
        )
        assert shadow == native
        compared += len(native)
    assert compared > 300
