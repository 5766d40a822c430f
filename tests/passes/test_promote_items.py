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
