"""What links a tool's line to the conversation (passes/found_links.py)."""

from __future__ import annotations

import pytest

from mimomem.history.tool_values import Record
from mimomem.passes.found_links import Question, answer_of, key_score, quotes


def _rec(value: str, cite: str | None = None, key: str | None = "k") -> Record:
    return Record(cite, f"{key}: {value}", key, value)


@pytest.mark.parametrize(
    ("answer", "value", "linked"),
    [
        ("8 个。", "8", True),
        ("port 8080", "8", False),  # a digit inside a longer number is not that number
        ("Go 1.22.5.", "1.22.5", True),
        ("go1.22.5。", "1.22.5", True),  # the value inside the answer's own token
        ("redis-sess.internal:6380 です", "redis://redis-sess.internal:6380/0", True),
        ("每秒 １２,０００ 个。", "12000", True),  # full-width digits and a thousands separator
        ("はい、false です。", "false", True),
        ("It's fine.", "false", False),
        ("负责人是王磊。", "王磊", True),
    ],
)
def test_the_answer_repeats_the_value(answer: str, value: str, linked: bool) -> None:
    assert quotes(answer_of(answer), _rec(value)) is linked


@pytest.mark.parametrize(
    "answer", ["It's set on line 3 of clients/payment.yaml.", "在第 3 行。", "3 行目にあります。", "see payment.yaml:3"]
)
def test_the_answer_cites_the_records_line(answer: str) -> None:
    assert quotes(answer_of(answer), _rec("5", "clients/payment.yaml:3"))
    assert not quotes(answer_of(answer), _rec("exponential", "clients/payment.yaml:4"))


def test_the_question_names_the_key_in_english_chinese_or_a_loanword() -> None:
    assert key_score("server.worker_count", Question.of("how many workers do we run?")) == 1
    assert key_score("client.read_timeout", Question.of("超时时间设的多少？")) == 1  # 超时: timeout
    assert key_score("CACHE_TTL", Question.of("キャッシュの有効期限ってどこで決めてる？")) == 1  # キャッシュ: cache
    assert key_score("grpc_port", Question.of("which grpc port?")) == 2
    assert key_score("log_level", Question.of("超时时间设的多少？")) == 0
    assert key_score(None, Question.of("how many workers?")) == 0
