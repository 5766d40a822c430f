"""Keyword rules of the scanner: flags, cookies, headers and stated values, in English and Chinese."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mimomem.common.secret_phrases import cookies, flag_values, random_value, stated_values
from mimomem.common.secrets import redact_secrets, scan_secrets

DATA = Path(__file__).parents[1] / "data" / "secrets"
TOKEN = "vg4AgFljYUOrFONioymsUpyprX1P7PF4"  # FAKE
PASSWORD = "Ska7F8&v_qszR"  # FAKE


def _load(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_labelled_set_is_all_caught_and_nothing_flagged() -> None:
    """eval-trust.jsonl (written before tuning): before the keyword rules 28 of 76 caught, 0 of 86 flagged."""
    cases = _load("eval-trust.jsonl")
    missed = [c["text"] for c in cases if c["secret"] and not scan_secrets(str(c["text"]))]
    flagged = [c["text"] for c in cases if not c["secret"] and scan_secrets(str(c["text"]))]
    assert (76, 86) == (sum(1 for c in cases if c["secret"]), sum(1 for c in cases if not c["secret"]))
    assert ([], []) == (missed, flagged)


def test_held_out_set_counts() -> None:
    """eval-trust-heldout.jsonl, written after tuning and measured once: 16 of 22 caught, 0 of 22 flagged;
    20 of 22 with the label rule (issue 32, not tuned on this set)."""
    cases = _load("eval-trust-heldout.jsonl")
    caught = sum(1 for c in cases if c["secret"] and scan_secrets(str(c["text"])))
    flagged = sum(1 for c in cases if not c["secret"] and scan_secrets(str(c["text"])))
    assert (20, 0) == (caught, flagged)


@pytest.mark.parametrize(
    "text",
    [
        f"mytool --token {TOKEN}",
        f"gh auth login --token '{TOKEN}'",
        f"vault login {TOKEN}",
        f"vault login -address=https://v:8200 {TOKEN}",
    ],
)
def test_flag_values(text: str) -> None:
    assert [TOKEN] == [text[s:e] for _, s, e in flag_values(text)]


@pytest.mark.parametrize(
    "text",
    [
        "mytool --token $TOKEN",
        "mytool --token-file /run/secrets/token",
        f"mytool --token-name {TOKEN}",  # a name, not the token
        "vault login -method=github",
        "vault login $VAULT_TOKEN",
        "--api-key <your-key>",
    ],
)
def test_flag_look_alikes(text: str) -> None:
    assert [] == list(flag_values(text))


def test_cookie_values_by_name_and_randomness() -> None:
    text = f"Cookie: _ga=GA1.2.1234.5678; sessionid={TOKEN}; theme=dark"
    assert [TOKEN] == [text[s:e] for _, s, e in cookies(text)]
    assert [] == list(cookies("Set-Cookie: theme=dark; Path=/; HttpOnly"))
    assert [] == list(cookies("Cookie: session=<session-id>"))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"the token is {TOKEN}", TOKEN),
        (f"The API key was {TOKEN}.", TOKEN),
        (f"AppSecret：{TOKEN}", TOKEN),
        (f"token 是 {TOKEN}", TOKEN),
        (f"API 密钥是 {TOKEN}", TOKEN),
        (f"令牌为{TOKEN}", TOKEN),
        (f"密码是{PASSWORD}", PASSWORD),
        (f"口令是「{PASSWORD}」", PASSWORD),
        (f"私钥密码是{PASSWORD}，别外传", PASSWORD),
        (f"Authorization: Token {TOKEN}", TOKEN),
    ],
)
def test_stated_values(text: str, value: str) -> None:
    assert [value] == [text[s:e] for _, s, e in stated_values(text)]
    assert value not in redact_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "the token is valid for 24 hours",
        "the token is `$GITHUB_TOKEN` in CI",
        "cache key is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "密码是必填项",
        "密码是 8 位以上，包含大小写字母",
        "口令是 ${PASS}",
        "密钥是 ~/.ssh/id_ed25519 这个文件",
        "令牌是 GitHub 设置里生成的 classic token",
    ],
)
def test_prose_about_secrets_passes(text: str) -> None:
    assert [] == list(stated_values(text))


def test_random_value() -> None:
    assert random_value(TOKEN, hex_ok=False)
    assert not random_value("3f9a2b7c1d4e5f60718293a4b5c6d7e8f9012345", hex_ok=False)
    assert random_value("3f9a2b7c1d4e5f60718293a4b5c6d7e8f9012345", hex_ok=True)
    assert not random_value("prod/db/credentials", hex_ok=True)
    assert not random_value("YOUR_API_KEY_HERE_PLEASE", hex_ok=True)
