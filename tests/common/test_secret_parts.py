"""A credential pasted in parts: each piece is redacted where its part is named."""

from __future__ import annotations

import pytest

from mimomem.common import redaction
from mimomem.common.secret_parts import part_values, piece_ok

FIRST = "The staging admin password is long, I'll paste it in two parts. First part: Pk93xQ"
SECOND = "second part: vT72LmZa  (join them with nothing in between)"


def test_a_password_in_two_turns_with_a_reply_between() -> None:
    """The attack's d04: transcript blocks are redacted in order; the assistant's reply sits between."""
    with redaction.redaction_window():
        out = [redaction.redact(t) for t in (FIRST, "Done.", SECOND)]
    joined = "\n".join(out)
    assert "Pk93xQ" not in joined and "vT72LmZa" not in joined
    assert out[2].startswith("second part: [redacted credential-part]")


@pytest.mark.parametrize(
    ("before", "text", "value"),
    [
        ("", "数据库密码太长，分两段发。第一段：Xk82mQ", "Xk82mQ"),
        ("数据库密码太长，分两段发。", "后半：p7Lw9Z", "p7Lw9Z"),
        ("", "DBのパスワードは長いので二回に分けます。前半は hT4kQ9", "hT4kQ9"),
        ("관리자 비밀번호가 길어서 나눠서 보낼게요.", "나머지: Zq8Wm3", "Zq8Wm3"),
        ("the API token is long", "part 2: 9fKx2LqP", "9fKx2LqP"),
    ],
)
def test_a_piece_after_a_credential_named_before(before: str, text: str, value: str) -> None:
    out = redaction.redact(text, before=before)
    assert value not in out and "[redacted credential-part]" in out


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ("", "First part: Pk93xQ"),  # no credential named: a part of anything
        ("", "The password policy has two parts. First part: Introduction"),  # a word
        ("the password is long", "the second part: 3.14.2 release"),  # a version
        ("the password is long", "Part 2: /etc/app.conf"),  # a path
        ("the token is long", "part one: 20240107"),  # a number
    ],
)
def test_no_piece(before: str, text: str) -> None:
    assert redaction.redact(text, before=before) == text


def test_pieces_far_from_a_credential_are_kept() -> None:
    with redaction.redaction_window():
        redaction.redact("The staging admin password is rotated weekly.")
        for _ in range(8):
            redaction.redact("ok")
        assert redaction.redact("Section two, first part: Rk29x1") == "Section two, first part: Rk29x1"


def test_piece_ok() -> None:
    assert piece_ok("Pk93xQ") and piece_ok("p7-Lw9")
    assert not piece_ok("abc") and not piece_ok("hello") and not piece_ok("1234") and not piece_ok("https://x.y/z1")
    assert list(part_values("First part: Pk93xQ", recent=False)) == []
