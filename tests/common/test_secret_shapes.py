"""Shape rules: whole private key blocks and URL user information (issue 32); values are FAKE."""

from __future__ import annotations

import random
import string

import pytest

from mimomem.common.secrets import ALLOW_MARKER, redact_secrets, scan_secrets

_R = random.Random(32)
BODY = ["".join(_R.choice(string.ascii_letters + string.digits + "+/") for _ in range(64)) for _ in range(6)]
BODY.append("".join(_R.choice(string.ascii_letters + string.digits) for _ in range(20)) + "==")


def block(label: str = "RSA PRIVATE KEY", body: list[str] = BODY, sep: str = "\n", end: bool = True) -> str:
    lines = [f"-----BEGIN {label}-----", *body] + ([f"-----END {label}-----"] if end else [])
    return sep.join(lines)


def _no_body_left(text: str) -> None:
    redacted = redact_secrets(text)
    assert not [line for line in BODY if line in redacted], redacted


@pytest.mark.parametrize(
    "text",
    [
        block(),
        block("EC PRIVATE KEY"),
        block("OPENSSH PRIVATE KEY"),
        block("ENCRYPTED PRIVATE KEY"),
        block("PGP PRIVATE KEY BLOCK", ["Version: GnuPG v2", "", *BODY, "=a1Zx"]),
        block("DSA PRIVATE KEY", ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,3F2A9C0B1D7E4F60", "", *BODY]),
        f"```\n{block()}\n```",  # in a code fence
        "\n".join("> " + line for line in block().split("\n")),  # quoted
        "    " + block().replace("\n", "\n    "),  # indented
        block(sep="\r\n"),  # CRLF
        '{"private_key": "' + block(sep="\\n") + '\\n"}',  # a JSON string (a service-account file)
        'KEY = ("' + '"\n       "'.join(block().split("\n")) + '")',  # concatenated string literals
        block(end=False),  # cut short: no END line
        f"first:\n{block()}\nand again:\n{block()}",  # pasted twice
        "\n".join(block().split("\n")[:3]) + "\nuser: (continued)\n" + "\n".join(block().split("\n")[3:]),  # split
    ],
)
def test_a_private_key_block_is_redacted_whole(text: str) -> None:
    assert scan_secrets(text)
    _no_body_left(text)


def test_the_text_after_a_block_stays() -> None:
    text = f"my key:\n{block()}\nthanks, that is all"
    assert redact_secrets(text) == "my key:\n[redacted private-key]\nthanks, that is all"
    cut = block(end=False) + "\nthanks"
    assert redact_secrets(cut).endswith("\nthanks")


def test_public_blocks_and_the_allow_marker_stay() -> None:
    for label in ("PUBLIC KEY", "CERTIFICATE", "PGP PUBLIC KEY BLOCK"):
        assert redact_secrets(block(label)) == block(label)
    allowed = block().replace("-----\n", f"----- {ALLOW_MARKER}\n", 1)
    assert scan_secrets(allowed) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "git clone https://:G28VFRnN5nm1EmtYDro9WucAlvAQTbKx@git.corp.example/org/repo.git",
            "G28VFRnN5nm1EmtYDro9WucAlvAQTbKx",
        ),
        ("REDIS_URL=redis://:Xkp!01@cache:6379/0", "Xkp!01"),
        ("postgres://app:Qz7!mk@db/prod", "Qz7!mk"),
        ("redis://:123456@cache:6379", "123456"),
    ],
)
def test_url_user_information_with_any_user(text: str, value: str) -> None:
    assert value not in redact_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "https://user@host/path",
        "git@github.com:org/repo.git",
        "ssh://git@host:2222/repo",
        "https://:@host",
        "redis://cache:6379/0",
    ],
)
def test_urls_without_a_password_stay(text: str) -> None:
    assert redact_secrets(text) == text


def test_slack_browser_tokens() -> None:
    for kind in "cd":
        token = f"xox{kind}-539226397343-7766248922578-o9lMZsWDzTmUYiVm69Fg30Gv"
        assert token not in redact_secrets(f"session {token}")


@pytest.mark.parametrize(
    "text",
    [
        "https://acct.blob.core.windows.net/c/f.txt?sv=2021-08-06&sp=r&sig=Xy7%2Bq9KzL3mN0pQrStUvWx%3D",
        "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ],
)
def test_the_signature_of_a_signed_url(text: str) -> None:
    assert redact_secrets(text).endswith("=[redacted signed-url-signature]")
    assert redact_secrets("def verify(signature=None):") == "def verify(signature=None):"


GHP = "ghp_7Hq2Lm9Vx4Tz8Kw3Pn6Rs1Yb5Cd0Fg2Jh4Ma"


@pytest.mark.parametrize(
    "text",
    [
        f"There is one file: token-{GHP}.txt",  # ls output (the attack's d07)
        f"删掉 attack/backups/token-{GHP}.txt 这个文件，以后备份目录不要放 token 文件。",
        f"git checkout fix_{GHP}",
        "backup_sk-ant-api03-Xk29fLq8Zp3Vw7Rt5Yn1Bc4Hm6Jd0Gs2.tar.gz",
    ],
)
def test_a_token_joined_to_the_words_of_a_file_name(text: str) -> None:
    out = redact_secrets(text)
    assert "[redacted" in out
    assert GHP not in out and "Xk29fLq8Zp3Vw7Rt5Yn1Bc4Hm6Jd0Gs2" not in out


@pytest.mark.parametrize("text", [f"x{GHP}", "mask-ant-release-notes-2024-q3.md", "risk-assessment-of-rollout.txt"])
def test_a_prefix_inside_a_longer_word_is_no_token(text: str) -> None:
    assert scan_secrets(text) == []
