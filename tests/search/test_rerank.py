"""Retrieval options (mimomem.search.rerank): off changes nothing, on only adds to the user's terms' scores.

Every test runs on both SQLite-cache backends that take options; under ``MIMOMEM_PURE=1`` the
native-index backend is the pure twin, so the same assertions cover both implementations.
"""

from __future__ import annotations

import pytest

from mimomem import MemoryIndex
from mimomem.errors import InvalidRetrievalError
from mimomem.search import rerank
from mimomem.search.document_index import DocumentIndex
from mimomem.search.rerank import OFF, RetrievalOptions, options_for, rank_with_options, resolve
from mimomem.search.rows import Row, put_rows
from mimomem.text.expansion import Vocabulary
from mimomem.text.feedback import FeedbackParams, feedback_terms
from mimomem.text.proximity import ProximityParams
from mimomem.text.query import Query
from mimomem.text.query_kind import QUERY_KINDS
from mimomem.text.tokens import tokenize

BACKENDS = ("fts5-bigram", "native-index")

DOCS = [
    ("n1", "部署脚本用 pnpm install --frozen-lockfile，helm upgrade 发布到 staging"),
    ("n2", "上线前先跑 helm diff，确认 staging 的 values 没有漂移"),
    ("n3", "deploy 失败时用 helm rollback 回滚到上一个 revision"),
    ("n4", "测试数据库端口是 5433，不再是 5432"),
    ("n5", "缓存 TTL 改成 600 秒，Redis 键前缀 lantern:v2:"),
    ("n6", "数据库迁移用 alembic，迁移脚本放在 migrations/ 目录"),
    ("n7", "前端构建用 Vite，产物放在 dist/，部署时由 nginx 托管"),
    ("n8", "日志统一输出 JSON，字段 level、msg、trace_id"),
    ("n9", "the staging deploy runs helm upgrade with the frozen lockfile"),
    ("n10", "connection pool size is 20; the pool is shared by all workers"),
    ("n11", "pool parties are fun; the connection to the venue was slow"),
    ("n12", "数据库连接池大小是 20，所有 worker 共用"),
]

FEEDBACK = RetrievalOptions(feedback=FeedbackParams(docs=3, terms=10, weight=0.4))
PROXIMITY = RetrievalOptions(proximity=ProximityParams(window=8, weight=2.0))
XLANG = RetrievalOptions(cross_language=0.5)
EVERYTHING = RetrievalOptions(
    feedback=FeedbackParams(docs=3, terms=10, weight=0.4),
    cross_language=0.5,
    near_synonyms=0.3,
    proximity=ProximityParams(),
)
VOCAB = {
    "cross_language": Vocabulary.translations("部署\tdeploy\tdeployment\n回滚\trollback\n"),
    "near_synonyms": Vocabulary.groups("部署\t上线\t发布\n"),
}


@pytest.fixture(scope="module")
def index() -> DocumentIndex:
    idx = DocumentIndex()
    idx.add_documents(DOCS)
    return idx


def _rank(index: DocumentIndex, text: str, backend: str, options: RetrievalOptions, limit: int = 20):
    parsed = index.parse(text, backend)
    return rank_with_options(index, parsed, backend, options, limit=limit, vocabularies=VOCAB)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text", ["部署", "数据库迁移", "connection pool", "测试数据库用哪个端口？", "5433"])
def test_off_is_the_plain_ranking(index, backend, text):
    parsed = index.parse(text, backend)
    rows, query = rank_with_options(index, parsed, backend, OFF, limit=20)
    assert rows == index.rank(parsed, backend, limit=20)
    assert query is parsed


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("options", [FEEDBACK, PROXIMITY, XLANG, EVERYTHING], ids=["fb", "prox", "xlang", "all"])
@pytest.mark.parametrize("text", ["部署", "数据库迁移", "connection pool", "helm 发布"])
def test_options_only_add_to_the_users_terms_scores(index, backend, options, text):
    base = {r.path: r.score for r in index.rank(index.parse(text, backend), backend, limit=100)}
    rows, query = _rank(index, text, backend, options)
    assert query.terms[: len(index.parse(text, backend).terms)] == index.parse(text, backend).terms
    for row in rows:
        assert row.score >= base.get(row.path, 0.0) - 1e-12
    assert set(base) <= {r.path for r in rows}  # nothing the user's terms found is lost
    assert [r.score for r in rows] == sorted((r.score for r in rows), reverse=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_vocabulary_pass_adds_exactly_weight_times_the_expansion_score(index, backend):
    parsed = index.parse("部署", backend)
    rows, combined = _rank(index, "部署", backend, XLANG)
    extra = Query(parsed.text, combined.terms[len(parsed.terms) :])
    assert {t.tokens for t in extra.terms} == {("deploy",), ("deployment",)}
    base = {r.path: r.score for r in index.rank(parsed, backend, limit=100)}
    more = {r.path: r.score for r in index.rank(extra, backend, limit=100)}
    for row in rows:
        assert row.score == pytest.approx(base.get(row.path, 0.0) + 0.5 * more.get(row.path, 0.0), rel=1e-12)
    assert "n9" in {r.path for r in rows} and "n9" not in base  # found only through "deploy"


@pytest.mark.parametrize("backend", BACKENDS)
def test_feedback_leaves_documents_sharing_nothing_with_the_feedback_documents_alone(index, backend):
    parsed = index.parse("部署", backend)
    rows, combined = _rank(index, "部署", backend, FEEDBACK)
    assert combined.terms == parsed.terms  # feedback tokens are scored, never marked in snippets
    base = index.rank(parsed, backend, limit=100)
    texts = dict(DOCS)
    feedback_tokens = {t.text for r in base[:3] for t in tokenize(texts[r.path])} - {"部署"}
    scores = {r.path: r.score for r in rows}
    assert len(scores) > len(base)  # feedback found documents without 部署
    for row in base:
        if not feedback_tokens & {t.text for t in tokenize(texts[row.path])}:
            assert scores[row.path] == row.score
        assert scores[row.path] >= row.score


@pytest.mark.parametrize("backend", BACKENDS)
def test_feedback_adds_exactly_each_tokens_weighted_score_in_one_pass(index, backend, monkeypatch):
    chosen: list[tuple[str, float]] = []
    real = feedback_terms

    def spy(*args, **kwargs):
        chosen[:] = real(*args, **kwargs)
        return chosen

    monkeypatch.setattr(rerank, "feedback_terms", spy)
    parsed = index.parse("部署", backend)
    rows, _ = _rank(index, "部署", backend, FEEDBACK)
    assert chosen
    base = {r.path: r.score for r in index.rank(parsed, backend, limit=100)}
    scale = FEEDBACK.feedback.weight * len(parsed.terms)  # type: ignore[union-attr]
    alone = {
        t: {r.path: r.score for r in index.rank(Query(t, (parse_token(t),)), backend, limit=100)} for t, _ in chosen
    }
    for row in rows:
        want = base.get(row.path, 0.0) + sum(scale * w * alone[t].get(row.path, 0.0) for t, w in chosen)
        assert row.score == pytest.approx(want, rel=1e-9)


def test_feedback_reads_rows_only_for_what_makes_the_cut(index, monkeypatch):
    from mimomem.search.native_index import NativeIndex

    asked: list[int] = []
    real = NativeIndex.rows_of

    def spy(self, ids):
        asked.extend(ids)
        return real(self, ids)

    monkeypatch.setattr(NativeIndex, "rows_of", spy)
    rows, _ = _rank(index, "部署", "fts5-bigram", FEEDBACK, limit=2)
    assert len(rows) == 2
    assert len(asked) <= 2  # the feedback pool holds more documents; at most the final cut is read
    full, _ = _rank(index, "部署", "fts5-bigram", FEEDBACK, limit=20)
    assert rows == full[:2]


def parse_token(token: str):
    from mimomem.text.query import Term

    return Term((token,), "feedback", token)


@pytest.mark.parametrize("backend", BACKENDS)
def test_proximity_rewards_the_document_with_the_words_together(index, backend):
    plain = [r.path for r in index.rank(index.parse("connection pool", backend), backend, limit=10)]
    rows, query = _rank(index, "connection pool", backend, PROXIMITY)
    assert query.terms == index.parse("connection pool", backend).terms  # no terms added
    assert rows[0].path == "n10"
    assert set(plain) == {r.path for r in rows}  # re-ranked, nothing added or lost


@pytest.mark.parametrize("options", [FEEDBACK, PROXIMITY, XLANG, EVERYTHING], ids=["fb", "prox", "xlang", "all"])
def test_backends_agree_and_runs_repeat(index, options):
    for text in ("部署", "数据库迁移", "connection pool", "测试数据库用哪个端口？"):
        first = _rank(index, text, "fts5-bigram", options)[0]
        again = _rank(index, text, "fts5-bigram", options)[0]
        native = _rank(index, text, "native-index", options)[0]
        assert first == again
        assert [r.path for r in first] == [r.path for r in native]
        assert [r.score for r in first] == pytest.approx([r.score for r in native], rel=1e-9)


def test_unicode61_is_never_changed(index):
    parsed = index.parse("部署", "fts5-unicode61")
    assert _rank(index, "部署", "fts5-unicode61", EVERYTHING)[0] == index.rank(parsed, "fts5-unicode61", limit=20)


def test_filters_apply_to_every_pass(tmp_path):
    from mimomem.search import db

    idx = DocumentIndex()
    rows = [Row(d, "global" if i % 2 else "projects", "", "memory", t, "") for i, (d, t) in enumerate(DOCS)]
    with db.transaction(idx.connection):
        put_rows(idx.connection, rows)
    for backend in BACKENDS:
        parsed = idx.parse("部署", backend)
        got, _ = rank_with_options(idx, parsed, backend, EVERYTHING, limit=20, scope="global", vocabularies=VOCAB)
        assert got and all(r.scope == "global" for r in got)


def test_resolve_and_the_policy():
    assert resolve("off", "部署") is OFF
    assert resolve(FEEDBACK, "anything") is FEEDBACK
    assert resolve(None, "部署") == options_for("部署") == resolve("auto", "部署")
    assert set(rerank.DEFAULT_POLICY) <= set(QUERY_KINDS)
    assert options_for("部署", {"cjk-short": PROXIMITY}) is PROXIMITY
    assert options_for("connection pool", {"cjk-short": PROXIMITY}) is OFF
    with pytest.raises(InvalidRetrievalError, match="'off'"):
        resolve("fast", "部署")
    assert not OFF and FEEDBACK and XLANG and PROXIMITY


@pytest.mark.parametrize("backend", BACKENDS)
def test_document_index_search_takes_retrieval(index, backend):
    plain = index.search("部署", backend=backend, retrieval="off", limit=20)
    assert [h.doc_id for h in plain] == [r.path for r in index.rank(index.parse("部署", backend), backend, limit=20)]
    with_fb = index.search("部署", backend=backend, retrieval=FEEDBACK, limit=20, snippets=True)
    assert len(with_fb) >= len(plain)
    assert all(h.snippet is not None for h in with_fb)


def test_memory_index_search_takes_retrieval(tmp_path):
    root = tmp_path / "data" / "memory"
    (root / "global").mkdir(parents=True)
    for doc_id, text in DOCS:
        (root / "global" / f"{doc_id}.md").write_text(f"# {doc_id}\n\n{text}\n", encoding="utf-8")
    with MemoryIndex(root, tmp_path / "cache.db", score_floor=0) as mem:
        plain = mem.search("部署", retrieval="off", limit=20)
        more = mem.search("部署", retrieval=FEEDBACK, limit=20)
        assert {h.path for h in plain} <= {h.path for h in more}
        with pytest.raises(InvalidRetrievalError):
            mem.search("部署", retrieval="sometimes")
