"""Write dev.jsonl and heldout.jsonl: secrets and look-alikes meant to break the scanner.

Every value is FAKE: drawn from a seeded generator in the alphabet and length of the real
format (so a shape rule has something to match), never a real credential.  Each line is one
JSON object: ``text``, ``secret`` (true / false), ``shape``, ``lang`` and, for a secret,
``values``: the substrings that must not survive redaction (for a private key block, every
line of its body).  ``python corpora/secrets-adversarial/build.py`` rewrites both files.
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

HERE = Path(__file__).parent
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


class Fake:
    """Seeded fake values of each format."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def s(self, alphabet: str, n: int) -> str:
        while True:
            v = "".join(self.r.choice(alphabet) for _ in range(n))
            if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
                return v

    def tok(self, n: int = 32) -> str:
        return self.s(ALNUM, n)

    def pw(self) -> str:
        core = self.s(ALNUM, 9)
        return core[:4] + self.r.choice("!#%&*@^") + core[4:]

    def short(self) -> str:  # below the old 8-character floor
        core = self.s(ALNUM, 5)
        return core[:3] + self.r.choice("!#%&*@") + core[3:]

    def pin(self, n: int) -> str:
        return "".join(self.r.choice("123456789") for _ in range(n))

    def awsid(self) -> str:
        return "AKIA" + self.s(string.ascii_uppercase + string.digits, 16)

    def awssecret(self) -> str:
        return self.s(B64, 40)

    def azure(self) -> str:
        return self.s(B64, 86) + "=="

    def azure_client(self) -> str:
        return self.s(ALNUM, 3) + "8Q~" + self.s(URLSAFE, 34)

    def ghp(self) -> str:
        return "ghp_" + self.tok(36)

    def glpat(self) -> str:
        return "glpat-" + self.s(URLSAFE, 20)

    def slack(self, kind: str = "b") -> str:
        return f"xox{kind}-{self.pin(12)}-{self.pin(13)}-{self.tok(24)}"

    def telegram(self, aa: bool = True) -> str:
        body = ("AA" + self.s(URLSAFE, 33)) if aa else self.s(URLSAFE, 35)
        return f"{self.pin(10)}:{body}"

    def discord(self) -> str:
        uid = base64.b64encode(self.pin(18).encode()).decode().rstrip("=")
        return f"{uid}.{self.s(URLSAFE, 6)}.{self.s(URLSAFE, 38)}"

    def openai(self) -> str:
        return "sk-proj-" + self.s(URLSAFE, 48)

    def anthropic(self) -> str:
        return "sk-ant-api03-" + self.s(URLSAFE, 93) + "AA"

    def stripe(self, prefix: str = "sk_live_") -> str:
        return prefix + self.tok(24)

    def npm(self) -> str:
        return "npm_" + self.tok(36)

    def pypi(self) -> str:
        return "pypi-AgEIcHlwaS5vcmc" + self.s(URLSAFE, 64)

    def pem_lines(self, n: int = 8) -> list[str]:
        return [self.s(B64, 64) for _ in range(n)] + [self.s(B64, 28) + "=="]

    def pem(
        self, label: str = "RSA PRIVATE KEY", n: int = 8, headers: list[str] | None = None
    ) -> tuple[str, list[str]]:
        body = self.pem_lines(n)
        head = [f"-----BEGIN {label}-----", *(headers or [])]
        return "\n".join([*head, *body, f"-----END {label}-----"]), body


def case(text: str, secret: bool, shape: str, lang: str, values: list[str] | None = None) -> dict[str, object]:
    row: dict[str, object] = {"text": text, "secret": secret, "shape": shape, "lang": lang}
    if secret:
        assert values, text
        for v in values:
            assert v in text, (v, text)
        row["values"] = values
    return row


def S(text: str, shape: str, lang: str, *values: str) -> dict[str, object]:
    return case(text, True, shape, lang, list(values))


def L(text: str, shape: str, lang: str) -> dict[str, object]:
    return case(text, False, shape, lang)


def heldout() -> list[dict[str, object]]:
    """Written before the structural scanner, never tuned on: measured once at the end."""
    f = Fake(20261207)
    rows = []
    # -- labels, any language, any bridge --------------------------------------------------------
    v = f.short()
    rows.append(S(f"FYI the wifi passphrase became {v} after the reset", "label", "en", v))
    v = f.pw()
    rows.append(S(f"login credentials for jenkins → admin / {v}", "label", "en", v))
    v = f.pin(4)
    rows.append(S(f"Her PIN code's {v}, don't tell anyone", "label-short", "en", v))
    v = f.tok()
    rows.append(S(f"The API secret we were given: `{v}`", "label", "en", v))
    v = f.awssecret()
    rows.append(S(f"secret access key was rotated; now it's {v}", "label", "en", v))
    v = f.short()
    rows.append(S(f"Passcode for the door lock has been updated to {v}", "label-short", "en", v))
    v = f.short()
    rows.append(S(f"生产库的连接密码换为{v}", "label-short", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"你把令牌更新成 {v} 就行", "label", "zh-Hans", v))
    a, b = f.awsid(), f.awssecret()
    rows.append(S(f"AK：{a}  SK：{b}", "key-pair", "zh-Hans", a, b))
    v = f.tok()
    rows.append(S(f"新的访问密钥就是{v}，旧的作废", "label", "zh-Hans", v))
    v = f.pin(6)
    rows.append(S(f"保险箱的开箱密码：{v}", "label-short", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"管理後台密碼已更改為 {v}", "label", "zh-Hant", v))
    v = f.tok()
    rows.append(S(f"Git 權杖：{v}", "label", "zh-Hant", v))
    v = f.pin(4)
    rows.append(S(f"提款卡密碼是{v}", "label-short", "zh-Hant", v))
    v = f.short()
    rows.append(S(f"私鑰口令：{v}", "label-short", "zh-Hant", v))
    v = f.short()
    rows.append(S(f"VPNのパスワードを{v}に設定しました", "label-short", "ja", v))
    a, b = f.awsid(), f.awssecret()
    rows.append(S(f"ステージングのアクセスキーIDは{a}、シークレットアクセスキーは{b}です", "key-pair", "ja", a, b))
    v = f.tok()
    rows.append(S(f"認証情報：{v}", "label", "ja", v))
    v = f.pin(6)
    rows.append(S(f"暗証番号→{v}", "label-short", "ja", v))
    v = f.short()
    rows.append(S(f"서버 root 암호는 {v}로 변경됨", "label-short", "ko", v))
    v = f.tok()
    rows.append(S(f"인증 키가 {v}예요", "label", "ko", v))
    v = f.pw()
    rows.append(S(f"비밀번호를 {v}(으)로 설정했습니다", "label", "ko", v))
    v = f.tok()
    rows.append(S(f"staging 的 secret key 设成 {v} 了", "label", "mixed", v))
    v = f.short()
    rows.append(S(f"DBパスワード is {v}", "label-short", "mixed", v))
    # -- private keys ------------------------------------------------------------------------------
    block, body = f.pem("OPENSSH PRIVATE KEY", 6)
    quoted = "\n".join("> " + line for line in block.split("\n"))
    rows.append(S(f"```text\n{quoted}\n```", "pem-quoted", "en", *body))
    block, body = f.pem("PGP PRIVATE KEY BLOCK", 7, ["Version: GnuPG v2", ""])
    cut = block.split("\n")[: 3 + 5]
    rows.append(S("gpg export (cut off):\n" + "\n".join(cut), "pem-cut", "en", *body[:5]))
    block, body = f.pem("EC PRIVATE KEY", 3)
    rows.append(S(block.replace("\n", "\r\n"), "pem-crlf", "en", *body))
    block, body = f.pem("DSA PRIVATE KEY", 6, ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,3F2A9C0B1D7E4F60", ""])
    rows.append(S(f"这是旧的 DSA 私钥，带口令加密：\n{block}", "pem-encrypted", "zh-Hans", *body))
    block, body = f.pem("PRIVATE KEY", 5)
    rows.append(S('KEY = ("' + '"\n       "'.join(block.split("\n")) + '")', "pem-in-code", "en", *body))
    # -- URL user information ---------------------------------------------------------------------
    v = f.short()
    rows.append(S(f"mongodb+srv://:{v}@cluster0.ab1cd.mongodb.net/app", "url-empty-user", "en", v))
    v = f.pw()
    rows.append(S(f"ftp://anonymous:{v}@files.internal/pub", "url", "en", v))
    v = f.glpat()
    rows.append(S(f"git remote set-url origin https://oauth2:{v}@gitlab.com/x/y.git", "url", "en", v))
    v = f.tok()
    rows.append(S(f"smtp://:{v}@smtp.mailer.io:587", "url-empty-user", "en", v))
    # -- files ---------------------------------------------------------------------------------------
    v = f.short()
    rows.append(S(f"default login anonymous password {v}", "netrc", "en", v))
    v = f.short()
    rows.append(S(f"*:*:*:replicator:{v}", "pgpass", "en", v))
    v = f.tok(40)
    rows.append(S(f"export STRIPE_SECRET={v}", "env", "en", v))
    v = f.short()
    rows.append(S(f"smtp:\n  host: mail.local\n  passwd: {v}", "yaml-short", "en", v))
    v = f.short()
    rows.append(S(f"[database]\nhost=db1\npasswd={v}", "ini-short", "en", v))
    v = f.tok(10)
    rows.append(S(f'{{"auth": {{"token": "{v}"}}}}', "json-short", "en", v))
    v = f.s(B64, 120)
    rows.append(S(f"aws_session_token = {v}", "cloud-file", "en", v))
    v = f.azure_client()
    rows.append(S(f"AZURE_CLIENT_SECRET={v}", "cloud-file", "en", v))
    block, body = f.pem("PRIVATE KEY", 6)
    rows.append(
        S(
            '{"type": "service_account", "private_key": "' + block.replace("\n", "\\n") + '\\n"}',
            "gcp-json",
            "en",
            *body,
        )
    )
    # -- token prefixes ------------------------------------------------------------------------------
    v = f.telegram(aa=False)
    rows.append(S(f"telegram bot {v}", "telegram", "en", v))
    v = f.discord()
    rows.append(S(f"discord: {v}", "discord", "en", v))
    v = f.slack("p")
    rows.append(S(f"Slackボットのトークンは {v} です", "slack", "ja", v))
    v = f.ghp()
    rows.append(S(f"깃허브 토큰: {v}", "github", "ko", v))
    v = f.stripe("rk_live_")
    rows.append(S(f"restricted key {v}", "stripe", "en", v))
    v = f.pypi()
    rows.append(S(f"twine 用的 {v}", "pypi", "zh-Hans", v))
    # -- look-alikes -------------------------------------------------------------------------------
    rows += [
        L("password must contain at least 10 characters", "policy", "en"),
        L("token limit is 8192", "count", "en"),
        L("密码至少要12位，包含大小写", "policy", "zh-Hans"),
        L("密碼有效期為90天", "policy", "zh-Hant"),
        L("パスワードの長さは16文字", "policy", "ja"),
        L("비밀번호 길이는 최소 10자", "policy", "ko"),
        L("the key is to cache aggressively", "prose", "en"),
        L("API key header name: X-Api-Key", "name", "en"),
        L("token usage: 12,345 prompt / 678 completion", "count", "en"),
        L("令牌数上限是 200000", "count", "zh-Hans"),
        L("access key ID format: 20 uppercase chars", "policy", "en"),
        L("set PGPASSWORD in your environment, not here", "prose", "en"),
        L("redis://cache:6379/0", "url", "en"),
        L("postgres://app@db:5432/prod", "url", "en"),
        L("build 12:04:33:812:INFO started", "log", "en"),
        L(
            "-----BEGIN CERTIFICATE REQUEST-----\nMIICvDCCAaQCAQAwdzELMAkGA1UEBhMCVVMxDTALBgNVBAgMBFV0YWgxDzANBgNV\n"
            "-----END CERTIFICATE REQUEST-----",
            "pem-public",
            "en",
        ),
        L(
            "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGJ1c2sBEADKd3b0ZmV4YW1wbGVrZXlkYXRhZm9ydGVzdGluZ29ubHk0MjQy\n"
            "=Zq9x\n-----END PGP PUBLIC KEY BLOCK-----",
            "pem-public",
            "en",
        ),
        L("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA2mB1kz4Jd0b9 me@laptop", "public-key", "en"),
        L("password: ********", "placeholder", "en"),
        L("密码：（见1Password）", "placeholder", "zh-Hans"),
        L("トークン: <ここに入力>", "placeholder", "ja"),
        L("비밀번호: 없음", "placeholder", "ko"),
        L("the PIN is printed on the back of the card", "prose", "en"),
        L("machine example.com login me", "netrc-no-password", "en"),
        L("secret_key_length = 64", "count", "en"),
        L("MAX_PASSWORD_LENGTH=128", "count", "en"),
        L("the token is valid for 24h", "prose", "en"),
        L("Our Slack channel is #tokens-rotation", "prose", "en"),
        L("kubectl create secret generic db-pass --from-literal=password=$DB_PASS", "placeholder", "en"),
        L("パスワードを忘れた場合はリセットしてください", "prose", "ja"),
        L("토큰은 24시간 후 만료됩니다", "prose", "ko"),
        L("API 金鑰要每 90 天輪替一次", "policy", "zh-Hant"),
        L("the secret key is stored in KMS under alias/prod-app", "prose", "en"),
        L("commit 9f8e7d6c5b4a39281706f5e4d3c2b1a098765432 fixed the token refresh", "sha", "en"),
        L("PIN码输错3次会锁卡", "policy", "zh-Hans"),
    ]
    return rows


def dev() -> list[dict[str, object]]:
    """The set the scanner is tuned on."""
    f = Fake(7)
    rows = []
    # -- labels: English ---------------------------------------------------------------------------
    v = f.short()
    rows.append(S(f"The staging DB password is set to {v}.", "label-short", "en", v))
    v = f.pw()
    rows.append(S(f"root passphrase changed to {v} yesterday", "label", "en", v))
    v = f.pin(6)
    rows.append(S(f"Our VPN passcode -> {v}", "label-short", "en", v))
    v = f.pin(4)
    rows.append(S(f"the admin's PIN: {v}", "label-short", "en", v))
    v = f.tok()
    rows.append(S(f"The signing secret for the webhook is {v}", "label", "en", v))
    v = f.tok()
    rows.append(S(f"client secret = {v} (don't share)", "label", "en", v))
    v = f.tok()
    rows.append(S(f"use this bearer credential: {v}", "label", "en", v))
    v = f.short()
    rows.append(S(f"password for the wifi: {v}", "label-short", "en", v))
    rows.append(S("The new master password will be 'tangerine'", "label-quoted", "en", "tangerine"))
    v = f.short()
    rows.append(S(f"I reset the router password to {v}", "label-short", "en", v))
    v = f.tok()
    rows.append(S(f"deploy token = {v}", "label", "en", v))
    v = f.s(ALNUM, 12)
    rows.append(S(f"license key: {v}", "label-short", "en", v))
    v = f.pw()
    rows.append(S(f"Password (prod) — {v}", "label", "en", v))
    a, b = f.awsid(), f.awssecret()
    rows.append(S(f"Access key {a} and secret key {b} for the backup user.", "key-pair", "en", a, b))
    a, b = f.awsid(), f.awssecret()
    rows.append(S(f"AWS access key / secret: {a} / {b}", "key-pair", "en", a, b))
    a, b = f.tok(20), f.tok(40)
    rows.append(S(f"the access key and secret key are {a} and {b}", "key-pair", "en", a, b))
    # -- labels: Chinese (simplified) --------------------------------------------------------------
    v = f.short()
    rows.append(S(f"数据库密码已经改成{v}了", "label-short", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"生产环境的root密码为：{v}", "label", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"服务器登录口令设置成 {v}", "label", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"这个接口的访问令牌是{v}", "label", "zh-Hans", v))
    a, b = "LTAI" + f.tok(20), f.tok(30)
    rows.append(S(f"阿里云 AccessKey ID 是 {a}，AccessKey Secret 是 {b}", "key-pair", "zh-Hans", a, b))
    v = f.pin(6)
    rows.append(S(f"测试账号的密码：{v}", "label-short", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"把 API 秘钥换成了 {v}", "label", "zh-Hans", v))
    v = f.tok(16)
    rows.append(S(f"邮箱授权码是{v}", "label", "zh-Hans", v))
    v = f.short()
    rows.append(S(f"wifi密码 {v}", "label-short", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"凭证：{v}", "label", "zh-Hans", v))
    # -- labels: Chinese (traditional) -------------------------------------------------------------
    v = f.short()
    rows.append(S(f"資料庫密碼是{v}", "label-short", "zh-Hant", v))
    v = f.pw()
    rows.append(S(f"正式環境的管理員密碼為：{v}", "label", "zh-Hant", v))
    v = f.tok()
    rows.append(S(f"API 金鑰：{v}", "label", "zh-Hant", v))
    v = f.tok()
    rows.append(S(f"存取權杖設為 {v}", "label", "zh-Hant", v))
    v = f.pw()
    rows.append(S(f"憑證密碼改為{v}", "label", "zh-Hant", v))
    v = f.pw()
    rows.append(S(f"這台機器的 SSH 私鑰密碼是 {v}", "label", "zh-Hant", v))
    v = f.tok()
    rows.append(S(f"部署用的密鑰換成 {v} 了", "label", "zh-Hant", v))
    # -- labels: Japanese -----------------------------------------------------------------------
    v = f.short()
    rows.append(S(f"本番DBのパスワードは{v}です", "label-short", "ja", v))
    v = f.pw()
    rows.append(S(f"管理者パスワード：{v}", "label", "ja", v))
    v = f.tok()
    rows.append(S(f"APIキーは {v} に変更しました", "label", "ja", v))
    v = f.tok()
    rows.append(S(f"アクセストークン＝{v}", "label", "ja", v))
    v = f.pin(4)
    rows.append(S(f"暗証番号は{v}です", "label-short", "ja", v))
    v = f.tok()
    rows.append(S(f"シークレットキーは「{v}」", "label", "ja", v))
    v = f.pw()
    rows.append(S(f"秘密鍵のパスフレーズは {v}", "label", "ja", v))
    v = f.short()
    rows.append(S(f"ルーターのパスワードを{v}に変えた", "label-short", "ja", v))
    # -- labels: Korean -------------------------------------------------------------------------
    v = f.short()
    rows.append(S(f"운영 DB 비밀번호는 {v}입니다", "label-short", "ko", v))
    v = f.pw()
    rows.append(S(f"관리자 패스워드: {v}", "label", "ko", v))
    v = f.tok()
    rows.append(S(f"API 키는 {v} 입니다", "label", "ko", v))
    v = f.tok()
    rows.append(S(f"액세스 토큰을 {v}로 바꿨어요", "label", "ko", v))
    v = f.short()
    rows.append(S(f"와이파이 비번은 {v}", "label-short", "ko", v))
    v = f.tok()
    rows.append(S(f"시크릿 키: {v}", "label", "ko", v))
    v = f.pin(4)
    rows.append(S(f"PIN 번호는 {v}", "label-short", "ko", v))
    # -- labels: mixed ----------------------------------------------------------------------------
    v = f.short()
    rows.append(S(f"prod的password是{v}", "label-short", "mixed", v))
    v = f.pw()
    rows.append(S(f"Redis パスワード = {v}", "label", "mixed", v))
    v = f.tok()
    rows.append(S(f"token 改成 {v} 了", "label", "mixed", v))
    v = f.short()
    rows.append(S(f"staging 비밀번호 is {v}", "label-short", "mixed", v))
    # -- private keys ------------------------------------------------------------------------------
    block, body = f.pem("RSA PRIVATE KEY")
    rows.append(S(block, "pem", "en", *body))
    block, body = f.pem("EC PRIVATE KEY", 3)
    rows.append(S(f"```\n{block}\n```", "pem-fenced", "en", *body))
    block, body = f.pem("OPENSSH PRIVATE KEY", 6)
    rows.append(S(f"my key:\n{block}\nthanks", "pem", "en", *body))
    block, body = f.pem("PGP PRIVATE KEY BLOCK", 6, ["Version: Keybase OpenPGP v1", ""])
    rows.append(S(block.replace("-----END", "=a1Zx\n-----END"), "pem-pgp", "en", *body))
    block, body = f.pem("PRIVATE KEY", 8)
    rows.append(S("\n".join(block.split("\n")[:6]), "pem-cut", "en", *body[:5]))
    block, body = f.pem("RSA PRIVATE KEY", 4)
    rows.append(S(f"第一次：\n{block}\n又贴了一遍：\n{block}", "pem-twice", "zh-Hans", *body))
    block, body = f.pem("RSA PRIVATE KEY", 6)
    lines = block.split("\n")
    rows.append(S("\n".join(lines[:4]) + "\nuser: (continued)\n" + "\n".join(lines[4:]), "pem-split", "en", *body))
    block, body = f.pem("PRIVATE KEY", 6)
    rows.append(S('"private_key": "' + block.replace("\n", "\\n") + '\\n",', "gcp-json", "en", *body))
    block, body = f.pem("ENCRYPTED PRIVATE KEY", 5)
    rows.append(S(f"    {block.replace(chr(10), chr(10) + '    ')}", "pem-indented", "en", *body))
    # -- URL user information --------------------------------------------------------------------
    v = f.tok()
    rows.append(S(f"git clone https://:{v}@git.corp.example/org/repo.git", "url-empty-user", "en", v))
    v = f.short()
    rows.append(S(f"REDIS_URL=redis://:{v}@cache:6379/0", "url-empty-user", "en", v))
    v = f.short()
    rows.append(S(f"postgres://app:{v}@db/prod", "url-short", "en", v))
    v = f.pw()
    rows.append(S(f"amqp://guest2:{v}@mq.internal:5672", "url", "en", v))
    # -- files ---------------------------------------------------------------------------------------
    v = f.tok()
    rows.append(S(f"machine api.heroku.com\n  login me@corp.io\n  password {v}", "netrc", "en", v))
    v = f.short()
    rows.append(S(f"machine github.com login octocat password {v}", "netrc-short", "en", v))
    v = f.short()
    rows.append(S(f"db.internal:5432:app:app_user:{v}", "pgpass", "en", v))
    v = f.short()
    rows.append(S(f"DB_PASS={v}", "env-short", "en", v))
    v = f.short()
    rows.append(S(f"[client]\nuser = app\npassword = {v}", "ini-short", "en", v))
    v = f.short()
    rows.append(S(f'{{"username": "svc", "password": "{v}"}}', "json-short", "en", v))
    v = f.pw()
    rows.append(S(f"redis:\n  host: cache\n  auth: {v}", "yaml", "en", v))
    a, b = f.awsid(), f.awssecret()
    rows.append(S(f"[default]\naws_access_key_id = {a}\naws_secret_access_key = {b}", "cloud-file", "en", a, b))
    v = f.azure()
    rows.append(
        S(
            f"DefaultEndpointsProtocol=https;AccountName=x;AccountKey={v};EndpointSuffix=core.windows.net",
            "cloud-file",
            "en",
            v,
        )
    )
    v = f.azure_client()
    rows.append(S(f'{{"clientId": "x", "clientSecret": "{v}"}}', "cloud-file", "en", v))
    # -- token prefixes ------------------------------------------------------------------------------
    v = f.slack("b")
    rows.append(S(f"bot token {v}", "slack", "en", v))
    v = f.slack("c")
    rows.append(S(f"browser session {v}", "slack", "en", v))
    v = f.telegram()
    rows.append(S(f"TELEGRAM: {v}", "telegram", "en", v))
    v = f.telegram(aa=False)
    rows.append(S(f"机器人 {v}", "telegram", "zh-Hans", v))
    v = f.discord()
    rows.append(S(f"DISCORD_TOKEN {v}", "discord", "en", v))
    v = f.ghp()
    rows.append(S(f"gh token {v}", "github", "en", v))
    v = f.glpat()
    rows.append(S(f"gitlab {v}", "gitlab", "en", v))
    v = f.openai()
    rows.append(S(f"OpenAI {v}", "openai", "en", v))
    v = f.anthropic()
    rows.append(S(f"claude {v}", "anthropic", "en", v))
    v = f.stripe()
    rows.append(S(f"stripe {v}", "stripe", "en", v))
    v = f.npm()
    rows.append(S(f"//registry.npmjs.org/:_authToken={v}", "npm", "en", v))
    v = f.pypi()
    rows.append(S(f"pypi {v}", "pypi", "en", v))
    # -- look-alikes ------------------------------------------------------------------------------
    rows += [
        L("password length is 12", "count", "en"),
        L("token count 4096", "count", "en"),
        L("密码长度至少8位", "policy", "zh-Hans"),
        L("密碼長度需要至少12個字元", "policy", "zh-Hant"),
        L("パスワードは8文字以上にしてください", "policy", "ja"),
        L("비밀번호는 8자리 이상이어야 합니다", "policy", "ko"),
        L("the token expires in 3600 seconds", "prose", "en"),
        L("max_tokens: 4096", "count", "en"),
        L("API key rotation every 90 days", "policy", "en"),
        L("Set the password to something strong.", "prose", "en"),
        L("密码是必填项", "prose", "zh-Hans"),
        L("パスワードはREADMEを参照", "prose", "ja"),
        L("비밀번호는 vault에 있어요", "prose", "ko"),
        L("the shortcut key is Ctrl+Shift+P", "prose", "en"),
        L("primary key: user_id", "name", "en"),
        L("password: ${DB_PASSWORD}", "placeholder", "en"),
        L("token: <your-token-here>", "placeholder", "en"),
        L("https://user@host/path", "url", "en"),
        L("git@github.com:org/repo.git", "url", "en"),
        L("ssh://git@host:2222/repo", "url", "en"),
        L("machine github.com login octocat", "netrc-no-password", "en"),
        L("2024:01:15:10:30", "log", "en"),
        L("fe80:0:0:0:1ff:fe23:4567:890a", "address", "en"),
        L(
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEk3b7X1Yc0Vp9m2Qx8aLrT5sdF4Hn\n"
            "-----END PUBLIC KEY-----",
            "pem-public",
            "en",
        ),
        L(
            "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUKxk0b3c7d2Jtq1YgHkN5qZr8a0wwCgYIKoZIzj0EAwIw\n"
            "-----END CERTIFICATE-----",
            "pem-public",
            "en",
        ),
        L("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx2b3ZlbHlrZXlmb3J0ZXN0aW5nb25seQ me@host", "public-key", "en"),
        L("image sha256:4f5b9c0d2e1a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c", "sha", "en"),
        L("request id 550e8400-e29b-41d4-a716-446655440000", "uuid", "en"),
        L("令牌桶算法每秒生成100个令牌", "prose", "zh-Hans"),
        L("トークン数は4096まで", "count", "ja"),
        L("토큰 수는 4096개", "count", "ko"),
        L("密钥轮换周期是90天", "policy", "zh-Hans"),
        L("The PIN must be 4 digits", "policy", "en"),
        L("require_password: true", "flag", "en"),
        L("token_ttl = 3600", "count", "en"),
        L("the secret to good caching is invalidation", "prose", "en"),
        L("密码错误次数超过5次会锁定", "policy", "zh-Hans"),
        L("the password was 12 characters long", "count", "en"),
        L("API key 的格式是 sk- 开头加 48 位字符", "policy", "zh-Hans"),
        L("비밀번호 변경 주기는 90일", "policy", "ko"),
        L("パスワード変更はsettings画面から", "prose", "ja"),
        L("export TOKEN_FILE=/run/secrets/token", "path", "en"),
        L("Use `docker login --password-stdin`", "flag", "en"),
        L("url: https://{{ user }}:{{ pass }}@host", "placeholder", "en"),
        L("密碼：請洽管理員", "placeholder", "zh-Hant"),
        L("암호화 키는 KMS에서 관리합니다", "prose", "ko"),
        L("the key is F5", "prose", "en"),
        L("token: null", "placeholder", "en"),
        L("password = getpass.getpass()", "code", "en"),
        L("密码是6位数字", "policy", "zh-Hans"),
        L("a password of 8 to 64 characters", "policy", "en"),
        L("the new passphrase has 5 words", "policy", "en"),
        L("PIN: 未设置", "placeholder", "mixed"),
        L("access key and secret are in ~/.aws/credentials", "path", "en"),
    ]
    # -- a second round, written after the first tuning to break it again -----------------------------
    v = f.short()
    rows.append(S(f"pw: {v}", "label-short", "en", v))
    v = f.short()
    rows.append(S(f"the root pw was changed to {v}.", "label-short", "en", v))
    v = f.short()
    rows.append(S(f"export PGPASSWORD={v}", "env-short", "en", v))
    v = f.short()
    rows.append(S(f"- password: {v}", "yaml-short", "en", v))
    v = f.short()
    rows.append(S(f'password = "{v}"', "toml-short", "en", v))
    v = f.pin(4)
    rows.append(S(f"the PIN for the card is {v}", "label-short", "en", v))
    rows.append(S('ssh-keygen passphrase: "Qz7 mk 9 plover"', "label-quoted-spaces", "en", "Qz7 mk 9 plover"))
    v = f.pw()
    rows.append(S(f"SSH 密钥的密码短语是 {v}", "label", "zh-Hans", v))
    v = f.short()
    rows.append(S(f"口令是「{v}」", "label-short", "zh-Hans", v))
    v = f.short()
    rows.append(S(f"密码 = {v}", "label-short", "zh-Hans", v))
    v = f.short()
    rows.append(S(f"암호: {v}", "label-short", "ko", v))
    v = f.short()
    rows.append(S(f"비밀번호가 {v}로 바뀌었어요", "label-short", "ko", v))
    v = f.tok()
    rows.append(S(f"새 API 키 → {v}", "label", "ko", v))
    v = f.s(string.ascii_uppercase + string.digits, 4)
    w = "-".join([v, f.s(string.ascii_uppercase + string.digits, 4), f.s(string.ascii_uppercase + string.digits, 4)])
    rows.append(S(f"license key: {w}", "label", "en", w))
    rows += [
        L("token: string", "type", "en"),
        L("api_key: str", "type", "en"),
        L("password: SecretStr = Field(...)", "type", "en"),
        L("token: Optional[str] = None", "type", "en"),
        L("def check_password(pw: str) -> bool:", "code", "en"),
        L("the secret is HS256-signed", "prose", "en"),
        L("API key: 32 hex chars", "policy", "en"),
        L("password: !vault |", "yaml-tag", "en"),
        L("PIN: 0000", "placeholder", "en"),
        L("キーは Ctrl+S で保存", "prose", "ja"),
        L("키: F12", "prose", "ko"),
        L("秘钥长度 2048 位", "policy", "zh-Hans"),
        L("私钥文件是 ~/.ssh/id_ed25519", "path", "zh-Hans"),
        L("密钥是 AES-256-GCM", "prose", "zh-Hans"),
        L("令牌类型：Bearer", "prose", "zh-Hans"),
        L("password hash: $2b$12$KIXQJt9yS0p7rZLqWm3eCe", "hash", "en"),
        L("Passwords: 3 changed, 2 failed", "count", "en"),
        L("tokens: 1,234", "count", "en"),
        L("pwd: /home/me/project", "path", "en"),
        L("api_key: os.getenv('API_KEY')", "code", "en"),
        L("password reset link: https://app.local/reset", "prose", "en"),
        L("the key was rotated 2024-05-01", "date", "en"),
        L("key: 'k1'", "placeholder", "en"),
        L('<mimomem-pass name="dream" project="shop-api">', "markup", "en"),
        L("bypass: true", "flag", "en"),
        L("passwords:\n  min_length: 12\n  require_symbols: true", "yaml", "en"),
        L("token:\n  type: string\n  format: uuid", "yaml", "en"),
    ]
    v = f.short()
    rows.append(S(f"Here is the password:\n{v}\nthanks", "label-next-line", "en", v))
    # -- a third round: other credential nouns, signed URLs ---------------------------------------------
    v = f.s(string.ascii_lowercase + string.digits, 4) + "-" + f.s(string.ascii_lowercase + string.digits, 4)
    rows.append(S(f"recovery code: {v}", "label-short", "en", v))
    v = f.pin(6)
    rows.append(S(f"the access code is {v}", "label-short", "en", v))
    v = f.short()
    rows.append(S(f"Wi-Fiのパスは {v} です", "label-short", "ja", v))
    v = f.pin(6)
    rows.append(S(f"인증코드: {v}", "label-short", "ko", v))
    v = f.tok(30)
    rows.append(S(f"https://acct.blob.core.windows.net/c/f.txt?sv=2021-08-06&sp=r&sig={v}%3D", "signed-url", "en", v))
    v = f.s("0123456789abcdef", 64)
    rows.append(
        S(f"https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature={v}", "signed-url", "en", v)
    )
    rows += [
        L("source code: 1234 lines", "count", "en"),
        L("error code: 5001", "code", "en"),
        L("exit code 137", "code", "en"),
        L("status code 404", "code", "en"),
        L("zip code: 94107", "code", "en"),
        L("ファイルパスは /usr/local/bin", "path", "ja"),
        L("パスは C:\\Users\\me\\bin", "path", "ja"),
        L("パスポート番号 TK1234567", "prose", "ja"),
        L("def verify(signature=None):", "code", "en"),
        L("验证码登录功能已上线", "prose", "zh-Hans"),
    ]
    # -- a fourth round: look-alikes the tuned scanner redacted in secret-free text (Debian docs, the
    # Python library, this repository's corpora) -------------------------------------------------------
    rows += [
        L("新用户密码用 argon2id（argon2-cffi）", "prose", "zh-Hans"),
        L('The repo pins `"packageManager": "pnpm@9.1.0"`.', "code", "en"),
        L('"usage":{"input_tokens":10,"output_tokens":20}},"uuid":"a1"', "json", "en"),
        L("tree-ssa-strlen.cc (strlen_pass::handle_assign,", "code", "en"),
        L("Drop debian/slapo-pw-pbkdf2.5, included upstream", "prose", "en"),
        L("Pin python3-resolvelib Build-Depends", "prose", "en"),
        L('add them to the "hosts:", "passwd:" and "group:" lines', "prose", "en"),
        L('the passphrase "enter again" prompt shows', "prose", "en"),
        L("getent passwd in postinst.  Closes: 444902", "prose", "en"),
        L("def public_key(self) -> X448PublicKey:", "code", "en"),
        L("def exchange(self, peer_public_key: X448PublicKey) -> bytes:", "code", "en"),
        L("_normalized_key = _pep_440_key", "code", "en"),
        L(":type passphrase: :py:data:`bytes`", "code", "en"),
        L("raise exceptions for implicit and authorization_code #475 / #406", "prose", "en"),
        L('AttributeOID.CHALLENGE_PASSWORD: "challengePassword",', "code", "en"),
        L('"expected name token at %r" % rawdata[declstartpos:declstartpos+20]', "code", "en"),
        L("or a DSA private key:\n'openssl dsaparam -out dsaparam.pem 2048; openssl gendsa'", "prose", "en"),
    ]
    return rows


def main() -> None:
    for name, rows in (("dev", dev()), ("heldout", heldout())):
        with (HERE / f"{name}.jsonl").open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        secrets = sum(1 for r in rows if r["secret"])
        print(f"{name}: {secrets} secrets, {len(rows) - secrets} look-alikes")


if __name__ == "__main__":
    main()
