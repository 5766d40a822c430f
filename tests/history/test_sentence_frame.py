"""Frames around a clause (history/sentence_frame.py) and what they make of a sentence."""

from __future__ import annotations

import pytest

from mimomem.history.sentence import QUESTION, REQUEST, is_standing, sentence_type
from mimomem.history.sentence_frame import (
    asks_in_clause,
    describes_behaviour,
    inceptive,
    one_off,
    opinion_or_hedge,
    polite_request,
    undecorated,
)
from mimomem.history.sentence_moment import about_the_moment


def test_decoration_after_the_last_word_comes_off() -> None:
    assert undecorated("ポートは 6379 でしたっけ…") == "ポートは 6379 でしたっけ"
    assert undecorated("포트가 8080 인가요ㅎㅎ") == "포트가 8080 인가요"
    assert undecorated("测试库是 db-test-2 吧😅") == "测试库是 db-test-2 吧"
    assert undecorated("v2 で合ってる？w") == "v2 で合ってる？"
    assert undecorated("port 5433 lol") == "port 5433"


@pytest.mark.parametrize(
    "text",
    [
        "Redis のポートって 6379 でしたっけ…",  # the particle, then an ellipsis
        "本番 DB は db-prod-1 でしたか、念のため",  # a question clause, then a comment
        "预发的端口是 5433 吗 我记不清了",
        "这个 bucket 是 hq-assets 还是 hq-static 呢，我忘了",
        "API 서버 포트가 8080 인가요ㅎㅎ",
        "스테이징 DB 는 stg-db-2 였나",  # plain -나 after the past
        "deploy.sh 는 아직 bash 로 돌리나",
        "Prod runs on 3 replicas, doesn't it",  # a question tag
        "so the api runs on port 8080, right",
    ],
)
def test_a_question_behind_decoration_a_comment_or_a_tag(text: str) -> None:
    assert sentence_type(text) == QUESTION


def test_a_question_clause_is_found_only_before_more_words_or_as_a_tag() -> None:
    assert asks_in_clause("本番 DB は db-prod-1 でしたか、念のため")
    assert not asks_in_clause("本番 DB は db-prod-1 です")
    assert not asks_in_clause("Put the new field on the right")


@pytest.mark.parametrize(
    "text",
    [
        "이제부터 커밋 메시지는 영어로 써 주세요.",
        "지금부터 PR에는 스크린샷을 꼭 첨부해 주세요.",  # 지금 starts the span: not "for now"
        "다음부터는 배포 전에 저한테 먼저 말씀해 주세요.",
        "향후 신규 API 는 v2 경로로 만들어 주세요.",
        "今日からレビューは二人以上でお願いします。",
        "今度から本番のログは S3 に保存してもらえますか。",  # a polite request worded as a question
        "下次起发版前先在群里说一声",
        "Starting today, please tag every release with the ticket number.",
        "Next time, please run the linter before you push.",
    ],
)
def test_a_polite_order_from_a_point_in_time_on_is_standing(text: str) -> None:
    assert is_standing(text)
    assert sentence_type(text) != QUESTION


def test_inceptive_spans_and_their_closing() -> None:
    assert inceptive("从今天起提交信息一律用英文写") == "从今天起"
    assert inceptive("오늘부터 main 에 푸시하지 마세요") == "오늘부터"
    assert inceptive("from today on, squash") is not None
    assert inceptive("今日から金曜までは deploy しないで") is None  # closed again: a period, not a rule
    assert polite_request("本番のログは S3 に保存してもらえますか。")
    assert polite_request("롤백 스크립트도 같이 넣어 주시겠어요?")
    assert not polite_request("本番のログは S3 にありますか")


@pytest.mark.parametrize(
    "text",
    [
        "Don't merge PR 412 until I've reviewed it.",
        "Please don't touch the billing module in this PR.",
        "이번 PR 에서는 DB 스키마를 건드리지 마세요.",
        "先别合这个分支，等我看完 review",
        "この PR では設定ファイルは触らないでください。",
    ],
)
def test_an_order_about_one_instance_is_a_request_not_a_rule(text: str) -> None:
    assert one_off(text) or sentence_type(text) == REQUEST
    assert not is_standing(text)


def test_a_lasting_context_or_a_resumptive_pronoun_is_not_one_instance() -> None:
    assert not one_off("Never commit .env files in this repo.")
    assert not one_off("数据库字段命名用 snake_case，表名复数，这个别搞错")
    assert is_standing("数据库字段命名用 snake_case，表名复数，这个别搞错")


@pytest.mark.parametrize(
    "text",
    [
        "I think we should always use dataclasses here.",
        "Personally I never liked the ORM.",
        "我个人觉得 GraphQL 在这里有点多余",
        "正直、この設計はちょっと複雑すぎる気がする。",
        "솔직히 이 구조는 좀 복잡한 것 같아요.",
        "prod is still on node 18 i think",
    ],
)
def test_an_opinion_or_a_guess_is_no_rule(text: str) -> None:
    assert opinion_or_hedge(text)
    assert not is_standing(text)


@pytest.mark.parametrize(
    "text",
    [
        "The cleanup job always deletes files older than 7 days.",
        "Our retry helper never retries on 4xx responses.",
        "このスクリプトは必ず main ブランチから実行される。",
    ],
)
def test_what_code_does_is_described_not_ordered(text: str) -> None:
    assert describes_behaviour(text)
    assert not is_standing(text)


@pytest.mark.parametrize("text", ["We never deploy on Fridays.", "Nobody merges on a red pipeline.", "Always rebase."])
def test_people_and_orders_are_not_descriptions(text: str) -> None:
    assert not describes_behaviour(text)


@pytest.mark.parametrize(
    "text",
    [
        "Check the logs when the job finishes.",
        "Ping me when you're done.",
        "跑完测试之后把结果发我",
        "改完 nginx.conf 以后截个图发我",  # 以后 after a completed action is "after that"
        "デプロイが終わったら Slack で教えて",
        "배포 끝나면 알려 주세요.",
    ],
)
def test_an_order_waiting_for_one_task_or_reporting_back_is_not_standing(text: str) -> None:
    assert not is_standing(text)
    assert sentence_type(text) == REQUEST


@pytest.mark.parametrize(
    "text", ["Run the linter before pushing.", "Bump the version when you cut a release.", "提交信息以后用英文写"]
)
def test_a_generic_condition_or_a_topic_before_yihou_stays_standing(text: str) -> None:
    assert is_standing(text)


def test_from_now_on_over_a_verb_is_an_order_over_a_copula_a_fact() -> None:
    assert is_standing("これからはテーブル名を複数形にすること、例えば users や orders。")
    assert not is_standing("今後は通知まわりは山本さんの担当です。")
    assert not is_standing("陈晨转岗了，账单服务以后归周涛管")


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, that fixed the 502 on api-3!",
        "好了，api-3 的 502 没了",
        "ありがとう、api-3 の 502 直りました！",
        "If we moved to Postgres 16 we'd get MERGE.",
        "要是换成 Redis 会快一点",
        "I get ECONNREFUSED on 5432 when I start it.",
    ],
)
def test_a_reaction_a_hypothesis_or_the_speakers_experience_is_about_the_moment(text: str) -> None:
    assert about_the_moment(text)


def test_a_statement_after_a_filler_or_a_conditional_rule_is_not_about_the_moment() -> None:
    assert not about_the_moment("OK so the broker is on port 6001 now.")
    assert is_standing("If the build fails, never retry it blindly.")


def test_descriptions_of_code_in_japanese_are_no_rules_a_norm_without_exception_is() -> None:
    assert not is_standing("この関数は常に None を返す。")
    assert not is_standing("全てのリクエストは auth ミドルウェアを通る。")
    assert is_standing("ログは全部 JSON で出す、例外なく。")
