"""Sentence types from grammar (history/sentence.py): questions and requests are never kept."""

from __future__ import annotations

import pytest

from mimomem.history.sentence import QUESTION, REQUEST, STATEMENT, is_choice, is_standing, sentence_type


@pytest.mark.parametrize(
    "text",
    [
        "帮我查一下 staging 的 Redis 端口现在是多少",
        "我想知道 CI 里 node 用的是 18 还是 20",
        "is the cache TTL still 300 seconds or did someone change it",
        "本番のDBホストって db-main-1 のままでしたっけ",
        "Do we squash-merge everything, or was that only for release branches?",
        "你知道 ES 的分片数设的几个不",
    ],
)
def test_questions_with_or_without_a_question_mark(text: str) -> None:
    assert sentence_type(text) == QUESTION


@pytest.mark.parametrize(
    "text",
    [
        "Bump the timeout in client.py to 30s and rerun the tests.",
        "把 README 里的端口改成 8081 然后提交一下",
        "このテスト、一旦スキップしておいてください。",
        "Would you mind renaming utils.py to helpers.py for now?",
        "先别管 lint 了，把功能跑通再说",
    ],
)
def test_requests_to_act_now(text: str) -> None:
    assert sentence_type(text) == REQUEST
    assert not is_standing(text)


@pytest.mark.parametrize(
    "text",
    [
        "提PR之前先跑一遍 tox -e lint，没过的不要提",
        "线上配置文件谁都不许手改，只能走 config-center 发布",
        "Could you please keep log messages in English from here on?",
        "I'd rather you didn't touch anything under vendor/",
        "本番DBへの直接接続は禁止です",
        "每次改完 schema 记得 regenerate 一下 openapi.json",
        "New endpoints need a rate limit before they ship.",
    ],
)
def test_standing_rules_without_a_listed_keyword(text: str) -> None:
    assert is_standing(text)
    assert sentence_type(text) != QUESTION


@pytest.mark.parametrize(
    "text",
    [
        "For the search index we settled on Meilisearch over Elasticsearch",
        "队列这块最后选了 NATS，没用 Kafka，主要是运维扛不住 ZooKeeper",
        "キャッシュは Redis ではなく memcached にしました",
    ],
)
def test_choices(text: str) -> None:
    assert is_choice(text)
    assert sentence_type(text) == STATEMENT
