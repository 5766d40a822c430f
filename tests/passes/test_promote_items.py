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
