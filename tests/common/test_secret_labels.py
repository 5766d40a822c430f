"""The label rule: the value a credential label names, in five languages, by structure (issue 32).

Every case here was missed (or, for a look-alike, would be wrongly caught by a looser rule) by
the scanner before the label rule; values are FAKE.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mimomem.common.secret_labels import label_values
from mimomem.common.secrets import redact_secrets, scan_secrets

ADVERSARIAL = Path(__file__).parents[2] / "corpora" / "secrets-adversarial"
SHORT = "Qz7!mk"  # FAKE, below the old 8-character floor
TOKEN = "vg4AgFljYUOrFONioymsUpyprX1P7PF4"  # FAKE
SECRET40 = "q8Rz2Lm5Xw9Kp3Vt7Nb1Hc6Jd4Fg0Sa2Yu8Ei5Oo"  # FAKE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # any verb, copula or punctuation between label and value
        (f"The staging DB password is set to {SHORT}.", SHORT),
        (f"root passphrase changed to {SHORT} yesterday", SHORT),
        (f"Our VPN passcode -> {SHORT}", SHORT),
        ("the admin's PIN: 4821", "4821"),
        (f"password for the wifi: {SHORT}", SHORT),
        (f"Password (prod) — {SHORT}", SHORT),
        (f"I reset the router password to {SHORT}", SHORT),
        (f"The signing secret for the webhook is {TOKEN}", TOKEN),
        ("The new master password will be 'tangerine'", "tangerine"),
        # Chinese, simplified and traditional
        (f"数据库密码已经改成{SHORT}了", SHORT),
        (f"生产环境的root密码为：{SHORT}", SHORT),
        (f"服务器登录口令设置成 {SHORT}", SHORT),
        (f"这个接口的访问令牌是{TOKEN}", TOKEN),
        (f"資料庫密碼是{SHORT}", SHORT),
        (f"API 金鑰：{TOKEN}", TOKEN),
        (f"存取權杖設為 {TOKEN}", TOKEN),
        # Japanese and Korean
        (f"本番DBのパスワードは{SHORT}です", SHORT),
        (f"APIキーは {TOKEN} に変更しました", TOKEN),
        ("暗証番号は2992です", "2992"),
        (f"シークレットキーは「{TOKEN}」", TOKEN),
        (f"운영 DB 비밀번호는 {SHORT}입니다", SHORT),
        (f"액세스 토큰을 {TOKEN}로 바꿨어요", TOKEN),
        (f"와이파이 비번은 {SHORT}", SHORT),
        ("PIN 번호는 4821", "4821"),
        # mixed
        (f"prod的password是{SHORT}", SHORT),
        (f"staging 비밀번호 is {SHORT}", SHORT),
        # key-value files with a value shorter than the old floor
        (f"DB_PASS={SHORT}", SHORT),
        (f"machine github.com login octocat password {SHORT}", SHORT),
        (f'{{"username": "svc", "password": "{SHORT}"}}', SHORT),
        (f"[client]\nuser = app\npassword = {SHORT}", SHORT),
        (f"Here is the password:\n{SHORT}\nthanks", SHORT),  # the value on the next line
        (f'ssh-keygen passphrase: "{SHORT} horse 9"', f"{SHORT} horse 9"),  # quoted, spaces and all
        (f"export PGPASSWORD={SHORT}", SHORT),
        (f"SSH 密钥的密码短语是 {SHORT}", SHORT),
        ("recovery code: 8f3k-2j9d", "8f3k-2j9d"),  # "code" after a word that makes it a credential
        ("인증코드: 482913", "482913"),
        (f"Wi-Fiのパスは {SHORT} です", SHORT),
    ],
)
def test_the_value_after_a_label_is_redacted(text: str, value: str) -> None:
    assert value not in redact_secrets(text)
    assert [value] == [text[s:e] for _, s, e in label_values(text)]


@pytest.mark.parametrize(
    "text",
    [
        f"Access key AKIA2QWERTYUIOPASDFG and secret key {SECRET40} for the backup user.",
        f"AWS access key / secret: AKIA2QWERTYUIOPASDFG / {SECRET40}",
        f"the access key and secret key are Kp3Vt7Nb1Hc6Jd4Fg0Sa and {SECRET40}",
        f"阿里云 AccessKey ID 是 LTAI5tQz7mK9pL2wX4vB8nC3，AccessKey Secret 是 {SECRET40}",
    ],
)
def test_a_pair_of_keys_in_one_sentence(text: str) -> None:
    redacted = redact_secrets(text)
    assert SECRET40 not in redacted
    assert "AKIA2QWERTYUIOPASDFG" not in redacted and "Kp3Vt7Nb1Hc6Jd4Fg0Sa" not in redacted


@pytest.mark.parametrize(
    "text",
    [
        # a property of the credential, not the credential: the head modifies another noun
        "password length is 12",
        "token count 4096",
        "密码长度至少8位",
        "密碼長度需要至少12個字元",
        "トークン数は4096まで",
        "비밀번호 변경 주기는 90일",
        "API key rotation every 90 days",
        "max_tokens: 4096",
        # a quantity: a number followed by its unit
        "비밀번호는 8자리 이상이어야 합니다",
        "the password was 12 characters long",
        "密码是6位数字",
        "a password of 8 to 64 characters",
        # words, placeholders, code, keyboard keys, identifiers
        "Set the password to something strong.",
        "비밀번호는 vault에 있어요",
        "パスワードはREADMEを参照",
        "the key is F5",
        "the shortcut key is Ctrl+Shift+P",
        "primary key: user_id",
        "password = getpass.getpass()",
        "model = Model(password='IAmSensitive')",
        "cache key: 9f8e7d6c5b4a39281706",
        "tests pass: 1234",
        "def public_key(self) -> X448PublicKey:",  # found redacted in secret-free text by an audit
        "_normalized_key = _pep_440_key",
        "tree-ssa-strlen.cc (strlen_pass::handle_assign,",
        "Pin python3-resolvelib Build-Depends",
        'the passphrase "enter again" prompt shows',
        "getent passwd in postinst.  Closes: 444902",
        '"usage":{"input_tokens":10,"output_tokens":20}},"uuid":"a1"',
        "error code: 5001",
        "zip code: 94107",
        "ファイルパスは /usr/local/bin",
        "パスポート番号 TK1234567",
        "passwords:\n  min_length: 12\n  require_symbols: true",  # a nested mapping's key is no value
        "token:\n  type: string",
        "password: !vault |",
        "the secret is HS256-signed",
        "token: Optional[str] = None",
        '<mimomem-pass name="dream" project="shop-api">',
        "ping 10.0.0.1 and pin numpy to 1.26",
    ],
)
def test_look_alikes_stay(text: str) -> None:
    assert redact_secrets(text) == text


def _load(name: str) -> list[dict[str, object]]:
    lines = (ADVERSARIAL / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _counts(name: str) -> tuple[int, int, int]:
    """Secret cases with no finding, secret cases with a value left after redaction, look-alikes redacted."""
    missed = stored = flagged = 0
    for case in _load(name):
        text = str(case["text"])
        if case["secret"]:
            missed += not scan_secrets(text)
            stored += any(str(v) in redact_secrets(text) for v in case["values"])  # type: ignore[attr-defined]
        else:
            flagged += redact_secrets(text) != text
    return missed, stored, flagged


def test_adversarial_dev_set() -> None:
    """corpora/secrets-adversarial/dev.jsonl (108 secrets, 108 look-alikes), tuned on.
    Before (main at ee64661): 71 missed, 82 with a value stored, 2 look-alikes redacted."""
    assert _counts("dev.jsonl") == (0, 0, 0)


def test_adversarial_dev_set_round_three() -> None:
    """corpora/secrets-adversarial/dev-3.jsonl (102 secrets, 74 look-alikes: structured snippets,
    connection strings, headers, JWTs, webhooks, flags, remotes, CJK labels), tuned on.
    Before (main at 6c4d56d): 21 of its first 90 secrets stored; its third round then broke the
    second's rules twice and the label rule once (密码是「不告诉你」, a quoted value of Han characters)."""
    assert _counts("dev-3.jsonl") == (0, 0, 0)


def test_a_quoted_value_of_words_in_a_script_no_keyboard_types_passwords_in_stays() -> None:
    assert redact_secrets("密码是「不告诉你」") == "密码是「不告诉你」"
    assert "Tiger lamp 42 orbit!" not in redact_secrets('passphrase: "Tiger lamp 42 orbit!"')
