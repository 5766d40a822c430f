"""Traditional Chinese folded to the simplified closed classes before a sentence is read."""

from __future__ import annotations

import pytest

from mimomem.history.episode import Said
from mimomem.history.sentence_hant import folded
from mimomem.passes.promote_items import said_items


def test_only_chinese_is_folded_and_the_kept_text_is_the_users() -> None:
    assert folded("測試機的帳號要找誰拿") == "测试机的账号要找谁拿"
    assert folded("今後、main への直接 push はやめて") == "今後、main への直接 push はやめて"  # Japanese: its own 後
    assert folded("배포 後") == "배포 後"
    kept = said_items(Said("以後上線前一律先跑 smoke test，別直接發", "typed", "s1", None))
    assert [(i.section, i.text) for i in kept] == [("Rules", "以後上線前一律先跑 smoke test，別直接發")]


@pytest.mark.parametrize(
    "text", ["測試機的帳號要找誰拿啊", "我們現在在看 tw-test-03 上的 log", "要是明天還掛，記得叫我"]
)
def test_a_traditional_question_activity_or_one_off_is_not_kept(text: str) -> None:
    assert said_items(Said(text, "typed", "s1", None)) == []


def test_an_order_under_a_chinese_condition_of_occasion_is_standing() -> None:
    kept = said_items(Said("要是改了接口，记得同步更新 openapi.yaml。", "typed", "s1", None))
    assert [i.section for i in kept] == ["Rules"]
