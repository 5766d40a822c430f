"""The pure parts of the retrieval options: feedback terms, proximity, vocabularies, query kinds."""

from __future__ import annotations

import pytest

from mimomem.text.expansion import Vocabulary, cross_language, near_synonyms
from mimomem.text.feedback import FeedbackParams, feedback_terms, relevance_model
from mimomem.text.proximity import ProximityParams, proximity_bonus, query_pairs
from mimomem.text.query import parse_query
from mimomem.text.query_kind import QUERY_KINDS, is_question, query_kind


def test_relevance_model_weights_documents_by_score_share():
    model = relevance_model([(3.0, ["a", "b"]), (1.0, ["a", "c", "c", "d"]), (0.0, ["zero"])])
    assert model["a"] == pytest.approx(0.75 * 0.5 + 0.25 * 0.25)
    assert model["c"] == pytest.approx(0.25 * 0.5)
    assert "zero" not in model
    assert sum(model.values()) == pytest.approx(1.0)


def test_feedback_terms_skip_the_query_common_and_weak_tokens():
    feedback = [(2.0, ["部署", "helm", "helm", "的", "x", "12", "staging"]), (1.0, ["部署", "helm", "staging", "rare"])]
    df = {"部署": 3, "helm": 4, "的": 60, "staging": 2, "rare": 1, "x": 1, "12": 1}
    params = FeedbackParams(docs=2, terms=2, weight=0.3)
    terms = feedback_terms(["部署"], feedback, lambda t: df.get(t, 0), 100, params)
    assert [t for t, _ in terms] == ["helm", "staging"]
    assert sum(w for _, w in terms) == pytest.approx(1.0)
    kl = feedback_terms(["部署"], feedback, lambda t: df.get(t, 0), 100, FeedbackParams(terms=5, method="kl"))
    assert "的" not in [t for t, _ in kl] and kl == sorted(kl, key=lambda tw: (-tw[1], tw[0]))
    assert feedback_terms([], feedback, lambda t: 1, 0, params) == []


def test_rm3_looks_up_only_the_tokens_it_may_choose_and_picks_what_a_full_scan_picks():
    import random

    rng = random.Random(5)
    vocab = [f"t{i:03d}" for i in range(300)]
    feedback = [(rng.uniform(0.5, 3), rng.choices(vocab, k=200)) for _ in range(5)]
    df = {t: rng.choice([0, 1, 5, 40, 60]) for t in vocab}  # 0: not indexed, 60 of 100: idf clamp
    asked: list[str] = []

    def doc_freq(token: str) -> int:
        asked.append(token)
        return df[token]

    params = FeedbackParams(docs=5, terms=10)
    terms = feedback_terms(["t000"], feedback, doc_freq, 100, params)
    model = relevance_model(feedback)
    full = sorted((-p, t) for t, p in model.items() if t != "t000" and 0 < df[t] < 50)[:10]
    assert [t for t, _ in terms] == [t for _, t in full]
    assert len(asked) < len(model) / 2


def test_feedback_params_are_checked():
    with pytest.raises(ValueError, match="method"):
        FeedbackParams(method="bo1")
    with pytest.raises(ValueError):
        FeedbackParams(weight=0)
    with pytest.raises(ValueError):
        ProximityParams(window=0)


def test_query_pairs_never_pair_overlapping_bigrams():
    pairs = query_pairs([(0, 2, "数据", 1.0), (1, 3, "据库", 2.0), (2, 4, "库迁", 3.0), (3, 5, "迁移", 0.5)])
    assert [(a, b) for a, b, _ in pairs] == [("库迁", "数据"), ("据库", "迁移"), ("数据", "迁移")]
    assert dict(((a, b), idf) for a, b, idf in pairs)[("数据", "迁移")] == 0.5


def test_proximity_bonus_grows_as_the_tokens_come_closer():
    pairs = query_pairs([(0, 10, "connection", 2.0), (11, 15, "pool", 1.0)])
    params = ProximityParams(window=8, weight=1.0)
    near = proximity_bonus(pairs, ["connection", "pool", "size", "is", "20"], params)
    far = proximity_bonus(pairs, ["connection", "to", "the", "venue", "was", "slow", "at", "the", "pool"], params)
    apart = proximity_bonus(pairs, ("connection " + "x " * 20 + "pool").split(), params)
    assert near > far > apart == 0.0
    assert proximity_bonus(pairs, ["connection", "pool"], ProximityParams(weight=2.0)) == pytest.approx(2 * near)
    assert proximity_bonus([], ["a"], params) == 0.0


def test_vocabulary_matches_longest_first_and_expands_both_ways():
    vocab = Vocabulary.translations("数据\tdata\n数据库\tdatabase\n部署\tdeploy\n")
    assert [t.tokens for t in vocab.expand(parse_query("测试数据库")).terms] == [("database",)]
    assert [t.tokens for t in vocab.expand(parse_query("Deploy the app")).terms] == [("部署",)]
    assert vocab.expand(parse_query("部署 deploy")).terms == ()  # both already asked
    groups = Vocabulary.groups("部署\t上线\t发布\n")
    assert {t.source for t in groups.expand(parse_query("上线流程")).terms} == {"部署", "发布"}
    assert all(t.kind == "expansion" for t in groups.expand(parse_query("上线")).terms)


def test_shipped_vocabularies_load_and_know_developer_words():
    xlang = cross_language()
    assert len(xlang) > 1000
    assert ("deploy",) in [t.tokens for t in xlang.expand(parse_query("部署")).terms]
    assert ("缓存",) in [t.tokens for t in xlang.expand(parse_query("cache")).terms]
    assert len(near_synonyms()) > 100


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("部署", "cjk-short"),
        ("数据库迁移", "cjk-term"),
        ("端口5433", "mixed"),
        ("ＡＰＩ版本", "mixed"),
        ("测试数据库用哪个端口？", "zh-question"),
        ("记忆多久整理一次", "zh-question"),
        ("How long are backups kept?", "en-question"),
        ("how do I undo the last migration", "en-question"),
        ("memory_fts_idx", "identifier"),
        ("v1.2.3", "identifier"),
        ("camelCaseName", "identifier"),
        ("connection pool", "en-words"),
        ("キャッシュを消す", "ja"),
        ("앱 배포 방법", "ko"),
    ],
)
def test_query_kind(text, kind):
    assert query_kind(text) == kind
    assert kind in QUERY_KINDS


def test_is_question_needs_a_marker():
    assert is_question("pnpm 用哪个版本")
    assert is_question("deploy?")
    assert not is_question("部署脚本")
    assert not is_question("how")  # one word is a keyword, not a question
    assert not is_question("")
