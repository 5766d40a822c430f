"""BM25 scores equal SQLite FTS5's own bm25(), for both twins of the index core.

The oracle is the stdlib sqlite3 module: an FTS5 table whose one column holds the
document's tokens joined by spaces, read back by the ``ascii`` tokenizer with ``_`` as a
token character (it passes every non-ASCII character through unchanged, so each of our
tokens is exactly one FTS5 token).  Our score must equal ``-bm25(t)`` to 1e-9 relative.
"""

from __future__ import annotations

import math
import random
import sqlite3
from collections.abc import Hashable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem import BM25Index, tokenize
from mimomem.text.bm25 import Hit
from mimomem.text.query import Query, parse_query

REL = 1e-9


class FTS5Oracle:
    """An in-memory FTS5 table kept in step with the index under test."""

    def __init__(self) -> None:
        self.con = sqlite3.connect(":memory:")
        self.con.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize=\"ascii tokenchars '_'\")")
        self.rowid: dict[Hashable, int] = {}
        self.doc_of: dict[int, Hashable] = {}
        self.next_rowid = 1

    def __del__(self) -> None:  # Python 3.13 warns about unclosed connections
        self.con.close()

    def add(self, doc_id: Hashable, tokens: Sequence[str]) -> None:
        body = " ".join(tokens)
        if doc_id in self.rowid:  # an update keeps the row, like an UPSERT would
            self.con.execute("UPDATE t SET body = ? WHERE rowid = ?", (body, self.rowid[doc_id]))
            return
        self.con.execute("INSERT INTO t(rowid, body) VALUES (?, ?)", (self.next_rowid, body))
        self.rowid[doc_id] = self.next_rowid
        self.doc_of[self.next_rowid] = doc_id
        self.next_rowid += 1

    def remove(self, doc_id: Hashable) -> None:
        rowid = self.rowid.pop(doc_id)
        del self.doc_of[rowid]
        self.con.execute("DELETE FROM t WHERE rowid = ?", (rowid,))

    def scores(self, match: str) -> dict[Hashable, float]:
        rows = self.con.execute("SELECT rowid, -bm25(t) FROM t WHERE t MATCH ?", (match,)).fetchall()
        return {self.doc_of[rowid]: score for rowid, score in rows}


def match_string(phrases: Sequence[Sequence[str]]) -> str:
    return " OR ".join('"' + " ".join(p) + '"' for p in phrases)


def assert_same_as_fts5(ours: list[tuple[Hashable, float]], theirs: dict[Hashable, float]) -> None:
    assert {d for d, _ in ours} == set(theirs)
    for doc_id, score in ours:
        assert math.isclose(score, theirs[doc_id], rel_tol=REL, abs_tol=0.0), (doc_id, score, theirs[doc_id])
    scores = [s for _, s in ours]
    assert scores == sorted(scores, reverse=True)


# -- generated corpora ----------------------------------------------------------------

COMMON = ["的是", "部署", "pnpm"]  # drawn often: these end up in more than half the rows
CJK = ["脚本", "端口", "数据", "据库", "配置", "依赖", "接口", "整理", "记忆", "の学", "한국", "国어"]
WORDS = ["lockfile", "postgres", "5433", "v1", "2", "3", "memory_fts_idx", "task_id_re", "aa", "near", "or", "not"]


def random_doc(rng: random.Random) -> list[str]:
    n = rng.choice([0, 1, 2, 5, 10, 20, 40, 80])
    doc = []  # type: ignore[var-annotated]
    while len(doc) < n:
        r = rng.random()
        if r < 0.3:
            doc.append(rng.choice(COMMON))
        elif r < 0.4:
            doc.extend(["aa"] * rng.randint(2, 4))  # runs for repeated-token phrases
        elif r < 0.7:
            doc.append(rng.choice(CJK))
        else:
            doc.append(rng.choice(WORDS))
    return doc[:n] if n else []


def random_query(rng: random.Random, docs: list[list[str]]) -> list[tuple[str, ...]]:
    phrases = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        source = rng.choice(docs) if docs else []
        if r < 0.3 and len(source) >= 2:  # a phrase that occurs somewhere
            i = rng.randrange(len(source) - 1)
            phrases.append(tuple(source[i : i + rng.randint(2, 3)]))
        elif r < 0.4:
            phrases.append(("aa",) * rng.randint(2, 3))
        elif r < 0.5:
            phrases.append((rng.choice(COMMON),))
        elif r < 0.55:
            phrases.append(("zzz_absent",))
        else:
            phrases.append((rng.choice(CJK + WORDS),))
    if rng.random() < 0.1:
        phrases.append(phrases[0])  # FTS5 counts a duplicated phrase twice
    return phrases


@pytest.mark.parametrize("seed", range(8))
def test_scores_equal_fts5_bm25_on_generated_corpora(implementation, seed):
    rng = random.Random(seed)
    core, oracle = implementation.BM25Core(), FTS5Oracle()
    docs: dict[Hashable, list[str]] = {}
    for i in range(rng.randint(20, 150)):
        doc = random_doc(rng)
        docs[i] = doc
        core.add(i, doc)
        oracle.add(i, doc)
    compared = 0
    for _ in range(40):
        phrases = random_query(rng, list(docs.values()))
        ours = core.search(phrases, 10_000)
        assert_same_as_fts5(ours, oracle.scores(match_string(phrases)))
        compared += len(ours)
    assert compared > 100  # the generated queries really hit documents


@pytest.mark.parametrize("seed", range(4))
def test_scores_equal_fts5_after_deletes_and_updates(implementation, seed):
    rng = random.Random(100 + seed)
    core, oracle = implementation.BM25Core(), FTS5Oracle()
    docs: dict[Hashable, list[str]] = {}
    for step in range(300):
        doc_id = f"note-{rng.randrange(60)}"
        if doc_id in docs and rng.random() < 0.3:
            assert core.remove(doc_id) is True
            oracle.remove(doc_id)
            del docs[doc_id]
        else:
            doc = random_doc(rng)
            core.add(doc_id, doc)  # replaces when present
            oracle.add(doc_id, doc)
            docs[doc_id] = doc
        if step % 25 == 24:
            assert len(core) == len(docs)
            assert core.total_tokens() == sum(len(d) for d in docs.values())
            for _ in range(5):
                phrases = random_query(rng, list(docs.values()))
                assert_same_as_fts5(core.search(phrases, 10_000), oracle.scores(match_string(phrases)))


def test_idf_clamp_for_terms_in_half_the_rows_or_more(implementation):
    core, oracle = implementation.BM25Core(), FTS5Oracle()
    for i in range(10):
        doc = ["half"] * (i < 5) + ["most"] * (i < 6) + ["rare"] * (i == 0) + ["pad"] * i
        core.add(i, doc)
        oracle.add(i, doc)
    for term in ["half", "most", "rare"]:
        ours = core.search([(term,)], 100)
        assert_same_as_fts5(ours, oracle.scores(f'"{term}"'))
    # idf clamped to 1e-6: the score is tiny but the rows still match
    assert all(0 < s < 1e-5 for _, s in core.search([("most",)], 100))
    assert len(core.search([("half",)], 100)) == 5


def test_empty_documents_count_as_rows(implementation):
    core, oracle = implementation.BM25Core(), FTS5Oracle()
    for i in range(7):
        doc = ["x", "y"] if i < 2 else []
        core.add(i, doc)
        oracle.add(i, doc)
    assert len(core) == 7
    assert_same_as_fts5(core.search([("x",), ("x", "y")], 10), oracle.scores('"x" OR "x y"'))


def test_repeated_token_phrases_count_overlapping_instances(implementation):
    core, oracle = implementation.BM25Core(), FTS5Oracle()
    docs = {"three": ["aa"] * 3, "two": ["aa", "aa", "b"], "split": ["aa", "b", "aa"], "other": ["c"] * 4}
    for doc_id, doc in docs.items():
        core.add(doc_id, doc)
        oracle.add(doc_id, doc)
    for phrase in [("aa", "aa"), ("aa", "aa", "aa"), ("aa", "b", "aa")]:
        assert_same_as_fts5(core.search([phrase], 10), oracle.scores(match_string([phrase])))
    assert {d for d, _ in core.search([("aa", "aa")], 10)} == {"three", "two"}


def test_duplicated_phrase_scores_twice(implementation):
    core = implementation.BM25Core()
    for i in range(6):
        core.add(i, ["rare"] if i == 0 else ["common"])
    ((_, once),) = core.search([("rare",)], 10)
    ((_, twice),) = core.search([("rare",), ("rare",)], 10)
    assert twice == once + once


def test_weights_scale_each_phrase_share_of_the_score(implementation):
    core = implementation.BM25Core()
    for i, tokens in enumerate([["a", "b"], ["a"], ["b", "c", "c"], ["c"], ["d"]]):
        core.add(i, tokens)
    alone = {p: dict(core.search([(p,)], 10)) for p in ("a", "b", "c")}
    weighted = dict(core.search([("a",), ("b",), ("c",)], 10, [0.5, 2.0, 0.0]))
    for doc in range(5):
        want = 0.5 * alone["a"].get(doc, 0.0) + 2.0 * alone["b"].get(doc, 0.0)
        assert weighted.get(doc, 0.0) == pytest.approx(want, rel=REL)
    assert core.search([("a",), ("b",)], 10, [1.0, 1.0]) == core.search([("a",), ("b",)], 10)
    with pytest.raises(ValueError, match="one per phrase"):
        core.search([("a",)], 10, [1.0, 2.0])


def test_index_search_checks_its_weights():
    index = BM25Index()
    index.add("d", ["部署", "脚本"])
    assert [h.doc_id for h in index.search(["部署", "脚本"], weights=[0.3, 0.0])] == ["d"]
    for bad in ([1.0], [1.0, -1.0], [1.0, float("nan")]):
        with pytest.raises(ValueError, match="weights"):
            index.search(["部署", "脚本"], weights=bad)


def test_search_edge_cases(implementation):
    core = implementation.BM25Core()
    assert core.search([("x",)], 10) == []  # empty index
    core.add("a", ["x", "y"])
    core.add("b", ["x"])
    assert core.search([("x",)], 0) == []
    assert core.search([], 10) == []
    assert core.search([("absent",)], 10) == []
    assert [d for d, _ in core.search([("x",)], 1)] == ["b"]  # shorter document wins
    assert core.remove("a") is True
    assert core.remove("a") is False
    assert "a" not in core and "b" in core
    assert core.doc_ids() == ["b"]
    assert core.doc_freq("y") == 0 and core.term_count() == 1 and core.total_tokens() == 1


def test_add_text_equals_add_of_its_tokens(implementation):
    text = "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容；端口5433"
    a, b = implementation.BM25Core(), implementation.BM25Core()
    a.add_text("d", text)
    b.add("d", [t.text for t in implementation.tokenize_bigram(text)])
    a.add_text("e", "部署 npm")
    b.add("e", ["部署", "npm"])
    for phrases in [[("部署",)], [("npm",), ("部署", "署脚")], [("5433",)]]:
        assert a.search(phrases, 10) == b.search(phrases, 10)
    assert (a.total_tokens(), a.term_count()) == (b.total_tokens(), b.term_count())


# -- end to end: text -> tokens -> BM25Index vs FTS5 with the rendered MATCH string ---

NOTES = {
    "pnpm": "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容",
    "port": "我们决定使用端口5433，数据库是postgres",
    "scattered": "部署很顺利。另外，这个脚本需要重写。",
    "ci": "CI 用 GitHub Actions，部署到 staging 之前跑 pytest",
    "version": "升级到 v1.2.3 之后 TASK_ID_RE 不再匹配 T5.3",
    "index": "memory_fts_idx 是 FTS5 的索引，整理记忆时重建",
    "ja": "多くの学生が試験に落ちた",
    "ko": "한국어 문서도 검색된다",
    "empty": "",
}
FAILURE_QUERIES = {
    "部署": "pnpm",
    "部署脚本": "pnpm",
    "lockfile": "pnpm",
    "端口": "port",
    "postgres": "port",
    "5433": "port",
    "数据库": "port",
    "我们决定使用端口5433": "port",
}


def build_index_and_oracle() -> tuple[BM25Index, FTS5Oracle]:
    index, oracle = BM25Index(), FTS5Oracle()
    for doc_id, text in NOTES.items():
        index.add_text(doc_id, text)
        oracle.add(doc_id, [t.text for t in tokenize(text)])
    return index, oracle


@pytest.mark.parametrize(
    "query", [*FAILURE_QUERIES, "部署 脚本", "v1.2.3", "记忆多久整理一次", "学生", 'T5.3 OR "NEAR"']
)
def test_index_search_equals_fts5_with_rendered_match(query):
    index, oracle = build_index_and_oracle()
    parsed = parse_query(query)
    match = parsed.to_fts5()
    assert match is not None
    hits = index.search(parsed, k=100)
    assert_same_as_fts5([(h.doc_id, h.score) for h in hits], oracle.scores(match))


@pytest.mark.parametrize(("query", "doc_id"), FAILURE_QUERIES.items())
def test_failures_md_queries_find_their_document(implementation, query, doc_id):
    alone = implementation.BM25Core()  # failures.md: the one document, one hit
    alone.add_text(doc_id, NOTES[doc_id])
    assert [d for d, _ in alone.search(parse_query(query).phrases(), 10)] == [doc_id]
    core = implementation.BM25Core()
    for note_id, text in NOTES.items():
        core.add_text(note_id, text)
    assert doc_id in [d for d, _ in core.search(parse_query(query).phrases(), 10)]


def test_exact_phrase_ranks_above_scattered_words(implementation):
    core = implementation.BM25Core()
    for note_id, text in NOTES.items():
        core.add_text(note_id, text)
    ranked = [d for d, _ in core.search(parse_query("部署脚本").phrases(), 10)]
    assert ranked.index("pnpm") < ranked.index("scattered")


@given(st.text(max_size=40))
@settings(max_examples=150, deadline=None)
def test_any_query_text_agrees_with_fts5(query):
    index, oracle = build_index_and_oracle()
    parsed = parse_query(query, segment=False)
    match = parsed.to_fts5()
    if match is None:
        assert index.search(parsed) == []
        return
    hits = index.search(parsed, k=100)
    assert_same_as_fts5([(h.doc_id, h.score) for h in hits], oracle.scores(match))


# -- the BM25Index wrapper ---------------------------------------------------------------


def test_index_accepts_tokens_strings_and_queries_of_every_shape():
    index = BM25Index()
    index.add("tokens", tokenize("部署脚本 pnpm"))
    index.add("strings", ["部署", "npm"])
    index.add_text("text", "端口 5433")
    assert len(index) == 3 and index.doc_ids() == ["tokens", "strings", "text"]
    by_string = index.search("部署")
    assert {h.doc_id for h in by_string} == {"tokens", "strings"}
    assert all(isinstance(h, Hit) for h in by_string)
    assert index.search(parse_query("部署")) == by_string
    assert index.search(["部署"]) == by_string
    assert [h.doc_id for h in index.search([("部署", "署脚")])] == ["tokens"]
    assert {h.doc_id for h in index.search(["npm", ("端口",)])} == {"strings", "text"}
    assert index.search(Query("", ())) == []


def test_index_rejects_bad_arguments():
    index = BM25Index()
    index.add("a", ["x"])
    with pytest.raises(ValueError, match="k must be >= 0"):
        index.search("x", k=-1)
    with pytest.raises(TypeError, match="non-empty strings"):
        index.search([""])
    with pytest.raises(TypeError, match="non-empty strings"):
        index.search([("x", 3)])  # type: ignore[list-item]


def test_index_statistics_and_memory():
    index = BM25Index()
    empty = index.memory_bytes()
    for i in range(50):
        index.add_text(i, f"部署脚本 {i} pnpm")
    assert index.total_tokens() == 50 * 5
    assert index.doc_freq("pnpm") == 50 and index.doc_freq(str(7)) == 1
    assert index.term_count() == 4 + 50  # 部署 署脚 脚本 pnpm + the numbers
    assert index.memory_bytes() > empty
    assert index.remove(3) and not index.remove(3) and 3 not in index


@settings(max_examples=60, deadline=None)
@given(
    docs=st.lists(st.text(alphabet="部署数据库端口ab c5433", min_size=0, max_size=30), min_size=1, max_size=25),
    query=st.text(alphabet="部署数据库端口ab c5433", min_size=1, max_size=12),
)
def test_parts_give_back_the_same_index(docs: list[str], query: str) -> None:
    """``BM25Index.from_parts(index.parts())`` (the prompt hook's plan) ranks exactly as the index,
    ties included, whichever engine runs; removed documents stay removed."""
    index = BM25Index()
    for i, text in enumerate(docs):
        index.add_text(f"d{i}", text)
    index.remove("d0")
    again = BM25Index.from_parts(index.parts())
    assert again.doc_ids() == index.doc_ids() and again.total_tokens() == index.total_tokens()
    assert again.search(query, 50) == index.search(query, 50)
    assert BM25Index.from_parts(again.parts()).search(query, 50) == index.search(query, 50)


def test_parts_from_the_other_engine_are_refused() -> None:
    index = BM25Index()
    index.add_text("a", "部署 端口 5433")
    native, *rest = index.parts()
    with pytest.raises(ValueError, match="other engine"):
        BM25Index.from_parts((not native, *rest))  # type: ignore[arg-type]
