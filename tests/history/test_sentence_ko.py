"""Korean sentence types by their endings and particles (history/sentence_ko.py, read through sentence.py)."""

from __future__ import annotations

import pytest

from mimomem.history.sentence import QUESTION, REQUEST, STATEMENT, is_standing, sentence_type
from mimomem.history.sentence_ko import hangul, ko_plain_present


def test_hangul_and_the_plain_present() -> None:
    assert hangul("포트는 5544예요") and not hangul("port 5544") and not hangul("端口 5544")
    assert ko_plain_present("모든 배포는 화요일에 한다.") and ko_plain_present("금요일에는 배포하지 않는다")
    assert not ko_plain_present("포트는 5544예요.") and not ko_plain_present("배포했다")


@pytest.mark.parametrize(
    "text",
    [
        "스테이징 레디스 포트가 6380 인가요",  # -가요
        "배포 브랜치가 release 맞나요",  # -나요
        "이 서비스 로그는 어디에 쌓이는지 궁금해요",  # wh-word, embedded -는지
        "로그 보관 기간이 30일인지 90일인지 알려줄 수 있어요",  # A-인지 B-인지
        "빌드 타임아웃이 몇 분이죠",
    ],
)
def test_korean_questions_by_their_endings(text: str) -> None:
    assert sentence_type(text) == QUESTION


@pytest.mark.parametrize(
    "text",
    [
        "README 에 있는 포트를 8081 로 바꿔 줘.",
        "지금 돌고 있는 테스트는 일단 멈춰 주세요.",
        "이 함수 이름을 fetch_all 로 바꿔 주세요.",
    ],
)
def test_korean_requests_to_act_now(text: str) -> None:
    assert sentence_type(text) == REQUEST
    assert not is_standing(text)


@pytest.mark.parametrize(
    "text",
    [
        "앞으로 커밋 메시지에는 항상 티켓 번호를 붙여 주세요.",
        "마이그레이션 파일은 절대 손으로 고치지 마세요.",
        "배포 전에는 반드시 make e2e 를 돌려야 합니다.",
        "누구도 운영 DB에 직접 접속하면 안 됩니다.",
    ],
)
def test_korean_standing_rules(text: str) -> None:
    assert is_standing(text)
    assert sentence_type(text) == STATEMENT
