"""Decisions worded without a choice verb (history/sentence_choice.py)."""

from __future__ import annotations

import pytest

from mimomem.history.sentence import is_choice
from mimomem.history.sentence_choice import weighs_alternative


@pytest.mark.parametrize(
    "text",
    [
        "配置中心最后是 Nacos，Apollo 部署太重了。",
        "日志采集最后定的 Loki —— ES 集群太烧钱了",
        "Node is frozen at 18.20 for now - 20 breaks the sharp build on our Alpine images.",
        "The gateway keeps running on gw-1.wren.internal: moving it would break the partners' IP allowlist.",
        "We're holding Django at 4.2.16 for now; 5.x breaks the admin theme we depend on.",
        "we're dropping Celery for RQ, the broker setup was more than we need",
    ],
)
def test_a_decision_without_a_choice_verb_weighs_an_alternative(text: str) -> None:
    assert weighs_alternative(text)
    assert is_choice(text)


@pytest.mark.parametrize(
    "text",
    [
        "CI moved to Buildkite; ci.kestrel.internal only serves old artifacts now",
        "search moved to search-2.internal; the old box is being decommissioned",
        "The API runs on api-1; the worker runs on wk-2.",
        "最后一步是跑 migrate，不然表结构对不上",
        "Huh, so the importer silently skips files over 50 MB.",
    ],
)
def test_a_change_of_state_or_two_facts_side_by_side_are_no_decision(text: str) -> None:
    assert not is_choice(text)
