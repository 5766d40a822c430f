"""A pasted text told by its form (history/pasted_shape.py) and what provenance makes of it."""

from __future__ import annotations

import pytest

from mimomem.history import pasted_shape as shape
from mimomem.history.provenance import PASTED, TYPED, split_user_text

PASTED_TEXTS = [
    # a chat log: speakers and times of day, with or without a lead-in
    "saw this in the team chat\nAlex Kim  4:02 PM\nfrom today every service needs a runbook\nAlex Kim  4:03 PM\nok?",
    "运维群里的\n[09:12] 李娜：以后改配置都要走工单\n[09:13] 李娜：别直接 ssh 上去改",
    "[오전 10:01] 박서준: 이제부터 핫픽스도 리뷰 받아야 해요\n[오전 10:02] 박서준: 참고하세요",
    # a mail: header fields or a banner, and its body after them
    "Subject: on-call changes\nFrom: ops@example.com\n\nAll engineers must join the rotation.\nRegards,\nOps",
    "-------- 転送メッセージ --------\n件名: リリース手順\n\n今後はタグを必ず署名すること。",
    # a text closed by its source
    "Tickets must be triaged within one day.\nStale tickets are closed after 30 days.\n— Support Handbook",
    # an indented block after a caption, code / config, a log
    "the spec\n    Exports must be encrypted at rest.\n    Keys rotate every 90 days.",
    "what's wrong here\nworkers:\n  count: 4\n  # never raise this above 8\n  queue: jobs",
    "keeps failing\nERROR: could not connect to db-2\nWARNING: retrying in 5s\nhint: always use the pooler",
    # a caption, then a document's voice; a head reporting someone's words; a quoted sentence
    "Security Policy\nAll laptops must use full-disk encryption.\nPasswords are rotated every quarter.",
    "Léa said in standup: from now on nobody merges without a green nightly",
    "README 里写着「所有脚本都必须能重复执行」",
]
TYPED_TEXTS = [
    "A couple of my rules:\nUse pnpm.\nNever commit generated files.\nKeep PRs small.",
    "我们的约定\n接口统一返回 JSON。\n日志统一用 structlog。",
    "메모\n스테이징: stg.example.com\n운영: app.example.com",
    "Notes for the deploy\n- run make check first\n- tag the release\n- we post in #deploys",
    "The cache is redis-3 on port 6380. We chose it for its latency.",
    'Always run "make check" before pushing.',
    "Ground rules:\n- we use uv\n- no print in library code\n- docs in docs/\n- one test per bug\n"
    "- keep modules small\n- ruff on save\n- mypy strict\n- squash merges",
]


@pytest.mark.parametrize("text", PASTED_TEXTS)
def test_a_text_with_a_documents_form_is_pasted(text: str) -> None:
    kinds = [s.kind for s in split_user_text(text)]
    assert PASTED in kinds
    typed = " ".join(s.text for s in split_user_text(text) if s.kind == TYPED)
    for needle in (
        "every service needs",
        "走工单",
        "리뷰 받아야",
        "join the rotation",
        "署名",
        "triaged",
        "encrypted",
        "above 8",
        "pooler",
        "full-disk",
        "nobody merges",
        "重复执行",
    ):
        assert needle not in typed


@pytest.mark.parametrize("text", TYPED_TEXTS)
def test_the_users_own_lists_and_notes_stay_typed(text: str) -> None:
    assert {s.kind for s in split_user_text(text)} == {TYPED}


def test_the_shapes_read_lines_only() -> None:
    assert shape.stamped("Jordan Lee  9:14 AM") and shape.stamped("[오후 3:12] 김민수: 네")
    assert not shape.stamped("The build at 9:14 failed because the cache was cold")
    assert shape.code_like(["server:", "  port: 8080", "  debug: true"])
    assert not shape.code_like(["Staging: stg.example.com", "DB: pg-1.internal:5432"])  # the user's note
    assert shape.mail(["From: a@example.com", "Subject: hi"]) and not shape.mail(["Subject: hi"])
    assert shape.attribution("— Engineering Handbook, §4.2") and not shape.attribution("- run the tests")
    assert shape.caption("Incident Response") and not shape.caption("The cache is redis-3.")
    assert shape.own_voice("我们组的约定") and not shape.own_voice("Copying the doc so you have it")


def test_a_dash_or_an_arrow_ends_a_lead_in_as_a_colon_does() -> None:
    inline = split_user_text("Notes from the runbook - every deploy needs a rollback plan and a named owner.")
    assert [s.kind for s in inline] == [TYPED, PASTED] and "rollback" in inline[1].text
    block = split_user_text("平台组的规范——\n所有队列必须设置死信队列。\n消息体一律不超过 256KB。")
    assert [s.kind for s in block] == [TYPED, PASTED]
    assert {s.kind for s in split_user_text("Heads up — we deploy on Tuesdays now.")} == {TYPED}
    assert {s.kind for s in split_user_text("A few rules -\n- squash merges\n- no force pushes")} == {TYPED}


def test_a_source_alone_below_a_paragraph_makes_the_paragraph_quoted() -> None:
    text = "Reviews need two approvals. Hotfixes are reviewed after the fact.\n\n— Platform Team Handbook"
    assert {s.kind for s in split_user_text(text)} == {PASTED}
    assert {s.kind for s in split_user_text("Keep PRs small.\n\n- and squash them")} == {TYPED}


def test_a_quoted_example_stays_the_users() -> None:
    text = 'every PR title starts with the ticket id, like "TP-1093: fix tooltip overflow"; run lint first'
    assert {s.kind for s in split_user_text(text)} == {TYPED}


def test_a_quotation_told_by_the_verb_after_it_is_someone_elses() -> None:
    told = (
        "引き継ぎメモに「ログは毎朝手で消すこと」と書いてあった",
        '위키에 "모든 배포는 화요일에만 한다"라고 적혀 있어요',
    )
    for text in told:
        kinds = [s.kind for s in split_user_text(text)]
        assert kinds == [TYPED, PASTED], text
