"""Sentence types from grammar (history/sentence.py): questions and requests are never kept."""

from __future__ import annotations

import pytest

from mimomem.history.sentence import (
    QUESTION,
    REQUEST,
    STATEMENT,
    gives_reason,
    is_choice,
    is_standing,
    is_written_norm,
    sentence_type,
)
from mimomem.history.sentence_fragment import is_fragment


@pytest.mark.parametrize(
    "text",
    [
        "帮我查一下 staging 的 Redis 端口现在是多少",
        "我想知道 CI 里 node 用的是 18 还是 20",
        "is the cache TTL still 300 seconds or did someone change it",
        "本番のDBホストって db-main-1 のままでしたっけ",
        "Do we squash-merge everything, or was that only for release branches?",
        "你知道 ES 的分片数设的几个不",
        "预发环境的数据库还是 db-pre-2 吧",  # 吧 after a copula asks for confirmation
        "ステージングの Redis は 6380 番だよね",
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


@pytest.mark.parametrize(
    ("decision", "reason"),
    [
        ("큐는 Kafka 대신 Redis Streams 로 가기로 했어요.", "메시지 양이 적어서요."),
        ("프런트엔드는 SvelteKit 으로 정했습니다.", "이유는 번들 크기가 작기 때문입니다."),
        ("検索エンジンは OpenSearch に決めた。", "理由はライセンスが Apache 2.0 であること。"),
        ("実行基盤は Cloud Run Jobs に決定しました。", "理由は、夜間バッチが一日一回しか走らないためです。"),
    ],
)
def test_a_decision_and_its_reason_in_the_next_sentence(decision: str, reason: str) -> None:
    assert is_choice(decision) and gives_reason(reason)
    assert not is_choice(reason)


@pytest.mark.parametrize(
    "text",
    [
        "credentials.yaml has",
        "the deploy key lives in",
        "deploy.sh 里面的",
        "端口是",
        "config/app.toml には",
        "settings.py 에는",
    ],
)
def test_a_clause_without_its_object_is_a_fragment(text: str) -> None:
    assert is_fragment(text)


@pytest.mark.parametrize(
    "text",
    [
        "credentials.yaml has the vault token path.",
        "端口是 5433",
        "設定は config/app.toml にある",
        "포트는 5544예요",
        "We went with it",
    ],
)
def test_whole_clauses_are_not_fragments(text: str) -> None:
    assert not is_fragment(text)


@pytest.mark.parametrize(
    "text", ["SENTRY_DSN は .env.prod に書く", "모든 배포는 화요일에 한다.", "금요일에는 배포하지 않는다."]
)
def test_the_register_of_a_written_norm(text: str) -> None:
    assert is_written_norm(text)


@pytest.mark.parametrize(
    "text", ["サーバーは東京にある", "SENTRY_DSN は .env.prod に書きます", "포트는 5544예요.", "We deploy on Tuesdays."]
)
def test_speech_is_not_a_written_norm(text: str) -> None:
    assert not is_written_norm(text)


@pytest.mark.parametrize(
    "text",
    [
        "No one deploys without a ticket.",  # a ban with a negative subject
        "리뷰 두 개 받아야 배포할 수 있어요.",  # -아야 then another verb: only if X, then Y
        "테스트 통과해야 머지돼요.",
        "ログは全部 JSON で出す、例外なく。",  # a plain-form norm without exception
    ],
)
def test_bans_conditions_and_norms_without_a_modal_word_are_standing(text: str) -> None:
    assert is_standing(text)


def test_a_korean_future_is_no_obligation() -> None:
    assert not is_standing("내일 배포할 거야 아마")


@pytest.mark.parametrize(
    "text",
    [
        "日志库换成了 Loki，ES 太吃内存",  # a change of tool with its reason
        "Landed on Vitest, Jest was too slow for our monorepo.",
        "We ended up with Postgres because of the JSON support.",
    ],
)
def test_a_change_with_its_reason_or_ended_up_is_a_choice(text: str) -> None:
    assert is_choice(text)


def test_a_change_without_a_reason_is_no_choice() -> None:
    assert not is_choice("端口改成了 6543")


@pytest.mark.parametrize("text", ["部署脚本在哪来着", "curious which node version CI uses"])
def test_laizhe_and_curious_which_ask(text: str) -> None:
    assert sentence_type(text) == QUESTION


@pytest.mark.parametrize(
    "text",
    [
        "Fix all the lint errors.",
        "Update every call site of parse_date.",
        "把所有的 print 换成 logger",
        "把所有的 console.log 都删掉",
        "全部のテストを直して",
        "모든 테스트 고쳐 주세요.",
    ],
)
def test_one_task_over_a_set_of_things_is_no_habit(text: str) -> None:
    assert not is_standing(text)


@pytest.mark.parametrize(
    "text",
    [
        "Squash every time you merge.",
        "所有接口必须设置超时",
        "凡是涉及金额的字段，一律用 Decimal 存",
        "以后提交前都跑 make lint",
    ],
)
def test_occasions_or_modality_keep_a_quantified_order_standing(text: str) -> None:
    assert is_standing(text)


@pytest.mark.parametrize(
    "text",
    [
        "PRs need two approvals.",
        "Feature branches need a linked issue.",
        "Migrations should be backwards compatible.",
        "No direct pushes to main.",
        "커밋 메시지는 영어로 써야 해요.",
        "PR 은 리뷰어 두 명이 필요합니다.",
        "レビューは二人必要です。",
    ],
)
def test_a_norm_over_a_kind_of_thing_is_standing(text: str) -> None:
    assert is_standing(text)


@pytest.mark.parametrize(
    "text",
    [
        "The PRs need rebasing.",
        "Tests should be faster.",
        "Users need to log in again after the upgrade.",
        "이 함수는 리팩터링해야 해요.",
        "No idea why it fails.",
    ],
)
def test_one_thing_a_wish_or_a_repeat_is_no_norm(text: str) -> None:
    assert not is_standing(text)
