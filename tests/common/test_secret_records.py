"""Record rules: .pgpass lines and Telegram bot tokens (issue 32); values are FAKE."""

from __future__ import annotations

import pytest

from mimomem.common.secret_records import pgpass_passwords, telegram_tokens
from mimomem.common.secrets import redact_secrets


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("db.internal:5432:app:app_user:AeH%y2", "AeH%y2"),
        ("*:*:*:replicator:Kq2#zz", "Kq2#zz"),
        ("# ~/.pgpass\nlocalhost:5432:*:postgres:pa\\:ss9\n", "pa\\:ss9"),
        ("10.0.0.5:6432:shop:shop:S3cr3tish", "S3cr3tish"),
    ],
)
def test_pgpass_password_field(text: str, value: str) -> None:
    assert [value] == [text[s:e] for _, s, e in pgpass_passwords(text)]
    assert value not in redact_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "2024:01:15:10:30",
        "fe80:0:0:0:1ff:fe23:4567:890a",
        "build 12:04:33:812:INFO started",
        "localhost:5432:*:postgres:*",
    ],
)
def test_colon_records_that_are_not_pgpass(text: str) -> None:
    assert list(pgpass_passwords(text)) == []
    assert redact_secrets(text) == text


@pytest.mark.parametrize(
    "token",
    ["8758665629:3NrERhSwOrg6R87BRUFimpPddDVji_gz7ZN", "7412356890:AAb3XyZ9qLm2Np8RtV4wKc7Hd5Fg1Js6Tu0"],
)
def test_telegram_bot_tokens_with_or_without_aa(token: str) -> None:
    for text in (f"机器人 {token}", f"https://api.telegram.org/bot{token}/getMe"):
        assert [token] == [text[s:e] for _, s, e in telegram_tokens(text)]
        assert token not in redact_secrets(text)


def test_a_colon_after_a_long_number_or_a_word_is_no_token() -> None:
    assert list(telegram_tokens("123456789012:3NrERhSwOrg6R87BRUFimpPddDVji_gz7ZN")) == []
    assert list(telegram_tokens("id12345678:3NrERhSwOrg6R87BRUFimpPddDVji_gz7ZN")) == []
    assert list(telegram_tokens("12345678:abcdefghijklmnopqrstuvwxyzabcdefghi")) == []
