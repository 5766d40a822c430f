"""Query expansion from the glossary: matching, weighting below the user's words, user file."""

from __future__ import annotations

import pytest

from mimomem import MemoryIndex
from mimomem.search.document_index import DocumentIndex
from mimomem.text.query import parse_query
from mimomem.text.synonyms import Glossary


def test_glossary_parses_groups_and_ignores_comments_and_singletons():
    g = Glossary.parse("# comment\n部署\tdeploy\tdeployment\n\nlonely\n端口\tport\n")
    assert 2 == len(g)


def test_expansion_matches_inside_longer_runs_and_skips_terms_already_asked():
    g = Glossary.parse("数据库\tdatabase\tdb\n部署\tdeploy\n环境变量\tenvironment variable\n")
    extra = g.expand(parse_query("测试数据库 db"))
    assert [("database",)] == [t.tokens for t in extra.terms]  # db was typed, 数据库 is in the run
    assert [("部署",)] == [t.tokens for t in g.expand(parse_query("Deploy script")).terms]
    assert [("环境", "境变", "变量")] == [t.tokens for t in g.expand(parse_query("environment variable")).terms]
    assert () == g.expand(parse_query("unrelated words")).terms


def test_shipped_glossary_loads():
    g = Glossary.load()
    assert len(g) > 50
    assert ("deploy",) in [t.tokens for t in g.expand(parse_query("部署")).terms]


@pytest.fixture
def index() -> DocumentIndex:
    idx = DocumentIndex(glossary=Glossary.parse("部署\tdeploy\n"))
    idx.add_documents(
        [("zh", "部署脚本在这里"), ("en", "the deploy script lives here"), ("x", "something else"), ("y", "more noise")]
    )
    return idx


@pytest.mark.parametrize("backend", ["fts5-bigram", "native-index"])
def test_expanded_terms_find_more_but_rank_below_the_users_words(index, backend):
    assert ["zh"] == [h.doc_id for h in index.search("部署", backend=backend)]
    hits = index.search("部署", backend=backend, expand=True)
    assert ["zh", "en"] == [h.doc_id for h in hits]
    full = {h.doc_id: h.score for h in index.search("部署", backend=backend, expand=True, expand_weight=1.0)}
    assert hits[1].score == pytest.approx(0.5 * full["en"])
    assert hits[0].score == pytest.approx(full["zh"])


def test_expansion_is_the_same_on_bigram_and_native(index):
    a = index.search("部署 script", backend="fts5-bigram", expand=True, snippets=True)
    b = index.search("部署 script", backend="native-index", expand=True, snippets=True)
    assert [(h.doc_id, h.snippet) for h in a] == [(h.doc_id, h.snippet) for h in b]
    assert [h.score for h in a] == pytest.approx([h.score for h in b], rel=1e-12)
    assert "<<deploy>>" in dict((h.doc_id, h.snippet) for h in a)["en"]


def test_unicode61_is_never_expanded(index):
    assert [] == index.search("部署", backend="fts5-unicode61", expand=True)


def test_memory_index_reads_the_user_glossary_in_the_root(tmp_path):
    root = tmp_path / "memory"
    (root / "global").mkdir(parents=True)
    (root / "global" / "MEMORY.md").write_text("我们用 kubectl rollout 发版\n", encoding="utf-8")
    (root / "synonyms.tsv").write_text("上线\trollout\n", encoding="utf-8")
    assert [] == list(MemoryIndex(root).search("上线"))
    hits = MemoryIndex(root, expand_synonyms=True).search("上线")
    assert 1 == len(hits) and "<<rollout>>" in hits[0].snippet


def test_translations_in_is_the_light_lookup_of_the_same_vocabulary() -> None:
    from mimomem.text.expansion import translations_in

    assert "数据库" in translations_in("which database port", ["database", "port"])
    assert "database" in translations_in("数据库端口", [])
    assert [] == translations_in("nothing here", ["zzzz"])
    assert len(translations_in("", ["port"], per_word=1)) == 1
