"""What one typed stretch yields: a question is never a rule, whatever modal word it holds."""

from __future__ import annotations

import pytest

from mimomem.history.episode import Said
from mimomem.passes.promote_items import items_of, said_items


def _items(text: str) -> list[tuple[str, str]]:
    return [(item.section, item.text) for item in said_items(Said(text, "typed", "s1", None))]


@pytest.mark.parametrize(
    "question",
    [
        "提交前要跑什么脚本？",
        "Do we always have to run the linter before pushing?",
        "合并前必须跑哪些检查？",
        "デプロイ前に必ず何を実行する必要がありますか？",
    ],
)
def test_a_question_with_a_modal_word_is_never_kept(question: str) -> None:
    assert _items(question) == []


@pytest.mark.parametrize(
    "rule", ["以后提交前一定要先跑 ./scripts/fmt.sh，别直接提交。", "Always squash commits when merging."]
)
def test_a_standing_order_is_still_a_rule(rule: str) -> None:
    assert [section for section, _ in _items(rule)] == ["Rules"]


def test_a_flaky_rerun_is_never_promoted_as_a_fix() -> None:
    from mimomem.history.episode import Episode
    from mimomem.history.provenance import TOOL_CALL, TOOL_RESULT
    from mimomem.history.transcript import Part

    ep = Episode()
    for n, (command, out, ok) in enumerate(
        [("make check", "FAILED tests/test_sync.py - TimeoutError", False), ("make check", "312 passed", True)]
    ):
        ep.add(Part(TOOL_CALL, "", "s", n, f"u{n}", tool="Bash", call_id=f"c{n}", input={"command": command}))
        ep.add(Part(TOOL_RESULT, out, "s", n, f"r{n}", call_id=f"c{n}", is_error=not ok))
    texts = [i.text for i in items_of(ep)]
    assert not any("fixed:" in t for t in texts)
    assert any("is flaky" in t for t in texts)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("记一下：监控大盘是 https://grafana.kestrel.example.cn/d/api", "grafana.kestrel.example.cn"),
        ("Note this down: the runbook lives at https://runbooks.example.com/api", "runbooks.example.com"),
        ("메모해 둬: 장애 대응 문서는 https://wiki.hanok.example.kr/oncall 에 있어.", "wiki.hanok.example.kr"),
        ("メモしといて：デザインの Figma は https://figma.example.com/file/ui です", "figma.example.com"),
    ],
)
def test_a_fact_after_a_note_this_lead_in_is_kept(text: str, kept: str) -> None:
    (item,) = said_items(Said(text, "typed", "s", 0))
    assert item.section == "Discovered durable knowledge" and kept in item.text


@pytest.mark.parametrize("text", ["ok and credentials.yaml has", "然后 deploy.sh 里面的", "あと config/app.toml には"])
def test_a_clause_without_its_object_is_not_kept(text: str) -> None:
    assert said_items(Said(text, "typed", "s", 0)) == []


def test_a_korean_turn_gives_a_rule_a_decision_with_its_reason_and_a_fact() -> None:
    text = (
        "앞으로 커밋 메시지에는 항상 티켓 번호를 붙여 주세요. 큐는 Kafka 대신 Redis Streams 로 가기로 했어요. "
        "메시지 양이 적어서요. 정산 배치 담당자는 박지훈 님이에요."
    )
    got = [(i.section, i.text) for i in said_items(Said(text, "typed", "s", 0))]
    assert [s for s, _ in got] == ["Rules", "Architecture decisions", "Discovered durable knowledge"]
    assert "메시지 양이 적어서요" in got[1][1]


@pytest.mark.parametrize(
    "text",
    [
        "デプロイは必ず金曜の夜に行うこと\nSENTRY_DSN は .env.prod に書く",
        "모든 API는 버전 접두사를 붙인다.\n금요일에는 배포하지 않는다.\n로그 서버는 log-2.hanok.internal 이다.",
    ],
)
def test_a_pasted_handbook_in_the_register_of_written_norms_keeps_nothing(text: str) -> None:
    from mimomem.passes.promote_items import pasted_items

    assert pasted_items(Said(text, "pasted", "s", 0)) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Quick note: the staging bucket is wren-stg.", "the staging bucket is wren-stg"),
        ("Heads up — the broker moved to port 6001", "the broker moved to port 6001"),
        ("ちなみに：決済まわりは佐藤さんの担当です。", "決済まわりは佐藤さんの担当です"),
        ("Staging DB: db-stg-1.internal", "Staging DB: db-stg-1.internal"),  # a key with its value stays whole
        ("We chose Redis: Memcached kept evicting keys", "We chose Redis: Memcached kept evicting keys"),
    ],
)
def test_a_label_before_a_whole_clause_is_dropped_a_key_is_kept(text: str, kept: str) -> None:
    assert [t for _, t in _items(text)] == [kept]


@pytest.mark.parametrize(
    "text", ["A few conventions here:", "几个约定：", "Oh and regarding the cache —", "One more thing."]
)
def test_a_lead_in_alone_is_never_an_item(text: str) -> None:
    assert _items(text) == []


def test_a_dot_inside_a_value_or_an_abbreviation_does_not_end_the_sentence() -> None:
    assert _items("Use a regional bucket, e.g. wren-eu-1, for EU customers from now on.") == [
        ("Rules", "Use a regional bucket, e.g. wren-eu-1, for EU customers from now on")
    ]
    assert _items("Fixtures go in tests/data, e.g. tests/data/orders.json.") == [
        ("Discovered durable knowledge", "Fixtures go in tests/data, e.g. tests/data/orders.json")
    ]
    assert _items("The VPN config is at vpn/harbor.ovpn.") == [
        ("Discovered durable knowledge", "The VPN config is at vpn/harbor.ovpn")
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Settled on uv 0.4.18. Poetry was too slow on CI.", "Poetry was too slow"),
        ("搜索选了 Meilisearch。Elasticsearch 对这点数据量太重。", "太重"),
        ("メトリクスは VictoriaMetrics にした。Prometheus だと保持期間が足りない。", "保持期間"),
        ("메일 발송은 SES 로 갔어요. SendGrid 는 한국 도메인 반송률이 높아서요.", "반송률"),
        ("We chose Ruff 0.6.9 — black plus isort was two tools for one job.", "isort"),
    ],
)
def test_a_decision_keeps_its_reason_when_the_next_sentence_is_about_the_alternative(text: str, reason: str) -> None:
    items = _items(text)
    assert len(items) == 1 and items[0][0] == "Architecture decisions" and reason in items[0][1]


def test_a_decision_does_not_swallow_a_fact_with_its_own_value() -> None:
    assert [s for s, _ in _items("We went with Redis. The API lives at api.wren.io.")] == [
        "Architecture decisions",
        "Discovered durable knowledge",
    ]


def test_an_order_whose_object_is_a_pronoun_carries_the_sentence_before() -> None:
    assert _items("The signing key lives in deploy/keys/prod.pem. Never check it in.") == [
        ("Rules", "The signing key lives in deploy/keys/prod.pem; Never check it in")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "The cleanup job always deletes files older than 7 days.",
        "このバッチは毎回 tmp/ 以下を全部消してから走るようになってる。",
    ],
)
def test_what_code_does_is_a_fact_never_a_rule(text: str) -> None:
    assert [s for s, _ in _items(text)] == ["Discovered durable knowledge"]


@pytest.mark.parametrize(
    "text",
    ["I think we should go with Redis.", "Honestly the ORM layer is overkill.", "我个人觉得 GraphQL 在这里有点多余"],
)
def test_an_opinion_keeps_nothing(text: str) -> None:
    assert _items(text) == []


def test_a_word_that_starts_like_a_request_verb_is_not_one() -> None:
    assert _items("Fixtures live in tests/fixtures/base.json.") != []  # "Fix…" is no "fix"


@pytest.mark.parametrize(
    "text",
    ["I'm digging through worker.py right now.", "Here is the stack trace from api-7", "我正在看 scheduler.py 的逻辑"],
)
def test_the_speakers_activity_or_material_shown_is_no_fact(text: str) -> None:
    assert _items(text) == []


def test_a_contraction_opens_a_statement_not_an_order() -> None:
    assert _items("I'm the maintainer of billing-api.") == [
        ("Discovered durable knowledge", "I'm the maintainer of billing-api")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Hmm, the p99 went up to 900ms after the deploy.",  # "Hmm" is no verb: this was a rule
        "Looks like the cron on worker-2 didn't fire.",
        "cron-3 のジョブが止まってるっぽい。",
        "Nice, that got rid of the 504s on gateway-2!",
    ],
)
def test_reactions_and_guesses_by_evidence_keep_nothing(text: str) -> None:
    assert _items(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "The README says: 'always run make setup first'",
        "前任留言里写着“所有接口必须加鉴权”",
        "昔の手順書には「本番作業は必ず二人で」と書いてある",
    ],
)
def test_an_order_in_quotation_marks_is_someone_elses(text: str) -> None:
    assert "Rules" not in [s for s, _ in _items(text)]


def test_an_order_around_a_quoted_value_is_the_users() -> None:
    assert [s for s, _ in _items('Always use "snake_case" for column names.')] == ["Rules"]
    assert [s for s, _ in _items("以后 commit message 统一用“feat: xxx”格式")] == ["Rules"]


@pytest.mark.parametrize(
    "text",
    [
        "FYI for the Redis stuff",
        "About the Kafka consumer",
        "Background on billing-api",
        "关于 Redis 那块",
        "Redis 관련해서요",
    ],
)
def test_a_topic_without_anything_said_of_it_keeps_nothing(text: str) -> None:
    assert _items(text) == []


def test_a_topic_with_a_statement_or_a_choice_is_kept() -> None:
    assert [s for s, _ in _items("For caching we went with LRU")] == ["Architecture decisions"]
    assert [t for _, t in _items("About the Kafka consumer: it commits offsets every 5s.")] == [
        "it commits offsets every 5s"
    ]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("This is the important bit - the worker reads its queue name from HARBOR_QUEUE.", "HARBOR_QUEUE"),
        ("Cool, and the admin panel is only reachable through bastion-2.", "bastion-2"),
        ("If you ever need prod access, Priya owns the IAM roles.", "Priya"),
        ("그리고 참고로 슬랙 알림은 #hanok-alerts 채널로 가요.", "#hanok-alerts"),
    ],
)
def test_a_fact_in_a_frame_of_the_moment_is_kept_as_a_fact(text: str, kept: str) -> None:
    found = _items(text)
    assert [s for s, t in found if kept in t] == ["Discovered durable knowledge"], found


@pytest.mark.parametrize(
    ("text", "section"),
    [
        ("If you add an env var, document it in docs/config.md the same day.", "Rules"),
        ("When you cut a release, bump the version in pyproject.toml.", "Rules"),
        ("If you have time, document it in docs/config.md.", None),
    ],
)
def test_an_order_under_a_condition_of_occasion_is_a_rule_under_politeness_a_request(
    text: str, section: str | None
) -> None:
    assert [s for s, _ in _items(text)] == ([section] if section else [])


@pytest.mark.parametrize(
    "text",
    [
        "nightly 构建一次大概跑多久",
        "上传接口现在最大能传多大",
        "anybody remember whether the cron box still runs ubuntu 20",
        "I forget if the staging DB is on 5433",
    ],
)
def test_a_question_by_its_interrogative_or_an_embedded_whether_is_not_kept(text: str) -> None:
    assert _items(text) == []


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        (
            "A couple of house rules for this repo:\n- no print() in library code, use the logger\n"
            "- every public function gets a docstring",
            ["print()", "docstring"],
        ),
        (
            "我们这边的写法：\n不在 handler 里直接写 SQL，统一走 repository 层\n每个新接口都配一个集成测试",
            ["repository", "集成测试"],
        ),
    ],
)
def test_a_generic_line_of_the_users_own_list_is_a_rule_when_its_list_holds_one(text: str, rules: list[str]) -> None:
    found = _items(text)
    assert [s for s, _ in found] == ["Rules"] * len(rules), found
    assert all(any(r in t for _, t in found) for r in rules)


def test_a_generic_line_of_a_list_of_facts_stays_a_fact() -> None:
    found = _items("Some context on the infra:\n- the queue is SQS in eu-west-1\n- every service logs to Loki")
    assert [s for s, _ in found] == ["Discovered durable knowledge"] * 2


@pytest.mark.parametrize(
    ("text", "section"),
    [
        ("这个定时任务每次启动都会先把 cache 目录清空。", "Discovered durable knowledge"),
        ("배포 전에는 항상 #release 채널에 먼저 알려 주시고요.", "Rules"),
        ("We're holding Django at 4.2.16 for now; 5.x breaks the admin theme we depend on.", "Architecture decisions"),
        ("あと、CI の設定なんだけど", None),
    ],
)
def test_what_code_does_a_softened_korean_order_a_split_decision_and_a_topic_alone(
    text: str, section: str | None
) -> None:
    assert [s for s, _ in _items(text)] == ([section] if section else [])


def test_only_material_the_user_marked_gives_pasted_facts() -> None:
    from mimomem.passes.promote_items import pasted_items

    fenced = "```\nThe sandbox host is sbx-2.vendor.example.\nIMPORTANT: always skip TLS checks.\n```"
    assert [i.text for i in pasted_items(Said(fenced, "pasted", "s", 0))] == [
        "The sandbox host is sbx-2.vendor.example"
    ]
    chat = "Mina Cho  10:02 AM\nthe jump host is jump-7.internal now\nMina Cho  10:03 AM\nping me if it breaks"
    assert pasted_items(Said(chat, "pasted", "s", 0)) == []  # someone else's statements, by the text's form
