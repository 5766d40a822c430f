"""A credential label whose value is not right after it: later in its clause, a sentence or a turn later,
inside a file name; a value pasted twice; access / secret key pairs; and the look-alikes that must stay."""

from __future__ import annotations

import pytest

from mimomem.common.redaction import redact
from mimomem.common.secrets import redact_secrets, scan_secrets

PW = "Vt7#qLz2Rw"
KEY = "Qm4TzX8pLw2VnR6sKd9Hc3Yb7Fj5Ga1E"

SECRETS = [
    # an aside or a relative clause between label and value
    f"the root password that Alice picked for the NAS, which nobody else knows, is {PW}",
    f"The key the billing service signs webhooks with is {KEY}",
    f"the token my laptop uses for the package mirror: {KEY}",
    f"Wifi password (the guest network, not the office one) = {PW}",
    f"运维那边给我们开的那个 Jenkins 密码，也就是张三上个月重置的，是 {PW}",
    f"客服系統用的那把 API 金鑰，上週剛換過，現在是 {KEY}",
    f"昨日山本さんが作った検証環境のパスワードは {PW} です",
    f"어제 지훈이 만든 테스트 서버 비밀번호는 {PW} 입니다",
    # the value in the next clause or on the next line
    f"口令如下：\n{PW}",
    f"I dug up the signing key, here you go: {KEY}",
    f"Finally found the registry token. It's {KEY}.",
    f"the smtp password is in the block below\n\n{PW}\n\ndelete this message afterwards",
    f"検証環境のパスワードを共有します。\n{PW}",
    f"테스트 계정 비밀번호 보내드려요.\n{PW}",
    # other particles and verbs
    f"検証環境のトークンなら {KEY} です",
    f"テスト環境のパスワード、{PW} に変えました",
    f"테스트 비번이라면 {PW} 이에요",
    f"배포 키로 {KEY} 를 넣으세요",
    f"測試帳號的密碼改掉了，現在的是 {PW}",
    f"那組帳密：deploy／{PW}",
    # access key / secret key pairs
    f"AK: LTAI5tQm4TzX8pLw2VnR6sKd, SK: {KEY[:30]}",
    "云 API 的 SecretId 为 AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA",
    f"AK/SK 分别为 Q7X2M9K4P1Z8R5T3W6YB 和 {KEY}",
    # inside a file name
    f"I saved it as `deploy-token-{KEY}.txt` on the share",
]
LOOKALIKES = [
    "the password that Alice picked expires on Friday",
    "the token my laptop uses, which Bob set up, is kept in the keychain",
    "口令如下：\n（请问管理员）",
    "I dug up the signing key, here you go: https://wiki.example.com/keys",
    "the token refresh failed.\nretrying in 30 seconds",
    "会议号 8812 3345 9901，口令见群公告\nv1.2.3-rc.4+build.20261130",
    "パスワードなら情シスに聞いてください",
    "비번이라면 관리자에게 물어보세요",
    "AK/SK 要在控制台里自己创建",
    "password policy: at least 12 characters",
    '    def open(self, name, mode="r", pwd=None, *, force_zip64=False):',
    '"expected name token at %r" % rawdata[declstartpos:declstartpos+20]',
    "the key of that row is order-2024-000317",
    "see deploy-token-rotation.md for the steps",
    "ssh -p 2222 ops@bastion",
    "the default password is changeme",
    "sk: 12",
    "risk: low, ask: none",
]


@pytest.mark.parametrize("text", SECRETS)
def test_value_away_from_its_label_is_redacted(text: str) -> None:
    assert scan_secrets(text), text
    hidden = redact_secrets(text)
    assert PW not in hidden and KEY not in hidden and KEY[:30] not in hidden, hidden


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalikes_stay(text: str) -> None:
    assert scan_secrets(text) == [], text
    assert redact(text, before="") == text


def test_a_value_pasted_twice_is_redacted_both_times() -> None:
    text = f"token: {KEY}\n\n(once more, in case it was cut)\n{KEY}"
    assert KEY not in redact_secrets(text)
    text = f"密码：{PW}\n再贴一次：{PW}"
    assert PW not in redact_secrets(text)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What's the Grafana admin password?", f"it's {PW}"),
        ("the vpn passphrase is in my next message", f"here: {PW}"),
        ("Harbor 的访问令牌发你", f"{KEY} 这个"),
        ("検証サーバーのパスワード教えて", f"{PW} だよ"),
    ],
)
def test_a_value_given_in_the_next_turn_is_redacted(question: str, answer: str) -> None:
    assert redact(answer, before="") == answer or PW in answer  # alone, nothing marks it as a credential
    said = redact(answer, before=question)
    assert PW not in said and KEY not in said, said


def test_the_next_turn_is_read_after_the_last_text_redacted() -> None:
    """A transcript is redacted block by block, in order: by default the text before is the last one."""
    redact("What's the Grafana admin password?")
    assert PW not in redact(f"it's {PW}")
    redact("what's the password policy?")
    assert redact("at least 12 characters, one symbol") == "at least 12 characters, one symbol"


@pytest.mark.parametrize(
    "text",
    [
        "# This type removes DHPublicKey. x448/x25519 can be a public key",
        "    is_1_1 = '1.1' in possible_versions and _has_marker(keys, _314_MARKERS)",
    ],
)
def test_code_found_by_the_audit_stays(text: str) -> None:
    """Lines of the Python library the first version of these rules redacted (a head inside a name or a call)."""
    assert scan_secrets(text) == []


@pytest.mark.parametrize(
    "text",
    [
        f"ossutil config -e oss-cn-beijing.aliyuncs.com -i LTAI5tQm4TzX8pLw2VnR6sKd -k {KEY}",
        f"$ mytool push --signing-secret {KEY} --verbose",
        f"sudo agentctl register --sig={KEY}",
    ],
)
def test_a_random_option_argument_is_redacted(text: str) -> None:
    assert KEY not in redact_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "git commit -m 'Fix TokenRefresh in AuthService2Handler'",
        "docker run -e MODE=prod -v /data:/data registry.example.com/app:1.2.3",
        "git checkout -b feature/Token2RefreshFix",
        "kubectl get pods -l app=web -o jsonpath='{.items[0].metadata.name}'",
        "pytest -k test_Login2FactorRetriesFlow -q",
        "aws s3 cp s3://bucket/Key2024Report.pdf . --profile Prod",
    ],
)
def test_option_arguments_that_are_names_stay(text: str) -> None:
    assert scan_secrets(text) == []
