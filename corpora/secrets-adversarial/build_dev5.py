"""Write dev-5.jsonl: the fifth round's dev set (tuned on), from the shapes heldout-4 still stored.

Written on 2026-12-07 (21:30 UTC) by the helper of issue 32's fifth round, after heldout-5 was
written and run once, from heldout-4's read misses in other words, tools and languages: a key emoji
or a one-character label (🗝, 密), the variant 密匙, a password of Han, kana or hangul with digits,
a PIN typed with spaces between its digits, ``ConvertTo-SecureString`` with ``-AsPlainText``, the
positional password of ``net use``, a default after ``||`` / ``??`` / ``or`` / ``${NAME:-…}`` whose
name is a credential's, a ``--value`` / ``--secret-string`` option of a command that stores a
secret, a token wrapped over two or three lines, a value on its own line or in a fence after
``label:``, a passphrase of lowercase words with no digit, and a PowerShell ``-EncodedCommand``
whose decoded script sets a key.  Its look-alikes are what those rules must leave alone: a Han
description of a password, a count in spaced digits, ``ConvertTo-SecureString`` of a variable,
``net use`` prompting (``*``), defaults that are ports, empty or a command, a parameter stored as
plain ``String``, a token followed by a line of prose, a fence holding a command, prose after a
password label, and an encoded command with no secret.  Every value is FAKE (``build.Fake``, another
seed).  ``python corpora/secrets-adversarial/build_dev5.py`` rewrites it.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from build import B64, HERE, URLSAFE, Fake, L, S


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def pwsh_enc(script: str) -> str:
    return base64.b64encode(script.encode("utf-16-le")).decode()


def secrets(f: Fake) -> list[dict[str, object]]:
    rows = []
    # -- a key emoji or a one-character label ----------------------------------------------------------
    v = f.tok(32)
    rows.append(S(f"🗝️ {v}  (prod only)", "emoji", "en", v))
    v = f.pw()
    rows.append(S(f"🔐: {v}", "emoji", "en", v))
    v = f.pw()
    rows.append(S(f"账号 root / 密 {v}", "one-char", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"用户名：deploy\n密：{v}", "one-char", "zh-Hans", v))
    # -- 密匙 -------------------------------------------------------------------------------------------
    v = f.tok(28)
    rows.append(S(f"服务端的密匙为{v}，别外传", "label", "zh-Hans", v))
    v = f.tok(24)
    rows.append(S(f"推送服务密匙 {v}", "label", "zh-Hans", v))
    # -- values of any script --------------------------------------------------------------------------
    v = "芝麻开门" + f.pin(4)
    rows.append(S(f"路由器后台密码：{v}", "value-han", "zh-Hans", v))
    v = "青山绿水" + f.pin(2) + "ab"
    rows.append(S(f"口令是{v}。", "value-han", "zh-Hans", v))
    v = "さくらもち" + f.pin(3)
    rows.append(S(f"共有フォルダのパスワードは {v} です", "value-kana", "ja", v))
    v = "하늘사랑" + f.pin(2)
    rows.append(S(f"관리자 비밀번호는 {v} 입니다", "value-hangul", "ko", v))
    # -- spaced digits ---------------------------------------------------------------------------------
    v = " ".join(f.pin(1) for _ in range(4))
    rows.append(S(f"alarm PIN: {v}", "value-spaced", "en", v))
    v = " ".join(f.pin(2) for _ in range(3))
    rows.append(S(f"保险柜密码 {v}", "value-spaced", "zh-Hans", v))
    # -- ConvertTo-SecureString ------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"$sec = ConvertTo-SecureString -String '{v}' -AsPlainText -Force", "powershell", "en", v))
    v = f.pw()
    rows.append(
        S(
            f"$cred = New-Object PSCredential('CORP\\svc', (ConvertTo-SecureString -AsPlainText -Force '{v}'))",
            "powershell",
            "en",
            v,
        )
    )
    # -- net use's positional password -----------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"net use \\\\nas01\\backup {v} /user:admin /persistent:no", "cmd", "en", v))
    v = f.pw()
    rows.append(S(f"C:\\> net use * \\\\srv\\c$ /u:DOM\\svc {v}", "cmd", "en", v))
    # -- a default after ||, ??, or, :- ----------------------------------------------------------------
    v = f.tok(32)
    rows.append(S(f'const ghToken = process.env.GH_TOKEN ?? "{v}";', "code-fallback", "en", v))
    v = f.pw()
    rows.append(S(f'PGPASS="${{DB_PASSWORD:-{v}}}"', "shell-default", "en", v))
    v = f.pw()
    rows.append(S(f'password = os.environ.get("SMTP_PASSWORD") or "{v}"', "code-fallback", "en", v))
    v = f.tok(24)
    rows.append(S(f": ${{API_SECRET:={v}}}", "shell-default", "en", v))
    v = f.pw()
    rows.append(S(f'REDIS_PASSWORD = os.environ.get("REDIS_PASSWORD", "{v}")', "getter-default", "en", v))
    v = f.tok(32)
    rows.append(S(f'token = ENV.fetch("API_TOKEN", "{v}")', "getter-default", "en", v))
    # -- a command that stores a secret ----------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"aws secretsmanager create-secret --name prod/redis --secret-string '{v}'", "cli-value", "en", v))
    v = f.tok(28)
    rows.append(
        S(
            f"aws ssm put-parameter --overwrite --value {v} --name /ci/npm-token --type SecureString",
            "cli-value",
            "en",
            v,
        )
    )
    # -- a token wrapped over lines --------------------------------------------------------------------
    head = b64url(b'{"alg":"HS512","typ":"JWT"}')
    body = b64url(json.dumps({"uid": f.pin(6), "role": "ops"}).encode())
    tok = f"{head}.{body}.{f.s(URLSAFE, 86)}"
    cut = 60
    rows.append(S(f"access_token:\n{tok[:cut]}\n{tok[cut:]}", "wrapped", "en", tok[:cut], tok[cut:]))
    v = f.s(B64, 120)
    rows.append(S(f"AccountKey={v[:64]}\n{v[64:]}==", "wrapped", "en", v[:64], v[64:]))
    # -- the value on its own line or in a fence after the label ---------------------------------------
    v = f.pw()
    rows.append(S(f"Root password:\n\n```\n{v}\n```\nkeep it in the safe", "fence", "en", v))
    v = f.pw()
    rows.append(S(f"* 数据库密码：\n  ```text\n  {v}\n  ```", "fence", "zh-Hans", v))
    v = f.tok(30)
    rows.append(S(f"**API token**:\n\n    {v}\n", "indented", "en", v))
    # -- a passphrase of lowercase words ---------------------------------------------------------------
    rows.append(
        S('passphrase: "correct horse battery staple"', "passphrase-words", "en", "correct horse battery staple")
    )
    rows.append(
        S("wifi password is purple monkey dishwasher lamp", "passphrase-words", "en", "purple monkey dishwasher lamp")
    )
    rows.append(
        S(
            "the vault passphrase = glacier pumpkin orbit saddle velvet",
            "passphrase-words",
            "en",
            "glacier pumpkin orbit saddle velvet",
        )
    )
    # -- an encoded PowerShell command -----------------------------------------------------------------
    v = f.tok(32)
    enc = pwsh_enc(f"$env:OPENAI_API_KEY = '{v}'; python run.py")
    rows.append(S(f"powershell.exe -NoProfile -EncodedCommand {enc}", "pwsh-encoded", "en", enc))
    return rows


def round_two(f: Fake) -> list[dict[str, object]]:
    """Written at 22:00 UTC after heldout-5's final blind run, from the shapes it stored, in other words."""
    rows = []
    v = f.pw()
    rows.append(S(f"ＤＢ密码：{v}", "fullwidth", "zh-Hans", v))
    v = "".join(f.r.choice("かきくけこさしすせそ") for _ in range(5)) + f.pin(3)
    rows.append(S(f"合言葉は『{v}』で", "value-kana", "ja", v))
    v = f.pw()
    rows.append(S(f'#define SMTP_PASSWORD "{v}"', "c-define", "en", v))
    v = f.tok(40)
    rows.append(S(f'static GITHUB_TOKEN: &str = "{v}";', "rust-const", "en", v))
    v = f.pw()
    rows.append(S(f'ftp.login("uploader", "{v}")', "call-login", "en", v))
    v = f.pw()
    rows.append(S(f'httpx.get(u, auth=("ci-bot", "{v}"))', "call-auth-tuple", "en", v))
    v = f.tok(28)
    rows.append(S(f"echo -n '{v}' | gcloud secrets versions add api-token --data-file=-", "stdin-store", "en", v))
    v = f.pw()
    rows.append(S(f"services:\n  db:\n    password: !!str {v}", "yaml-tag", "en", v))
    v = f.pw()
    rows.append(S("admin_password = " + "'" * 3 + v + "'" * 3, "toml-triple", "en", v))
    v = f.tok(30)
    rows.append(S(f"webhook secret ➡️ {v}", "emoji-bridge", "en", v))
    v = f.pw()
    rows.append(S(f"adminPass={v}", "camel-pass", "en", v))
    v = f.pw()
    rows.append(S(f"a senha do banco é {v}", "label-pt", "pt", v))
    v = f.pw()
    rows.append(S(f"Kennwort: {v}", "label-de", "de", v))
    phrase = "ocean velvet copper lantern harbor meadow"
    rows.append(S(f"mnemonic = {phrase}", "mnemonic", "en", phrase))
    return rows


def lookalikes() -> list[dict[str, object]]:
    enc = pwsh_enc("Get-Process | Sort-Object CPU -Descending | Select-Object -First 5")
    return [
        L("🔑 rotation is due next week", "emoji", "en"),
        L("机密文件请勿外传，保密等级：内部", "one-char", "zh-Hans"),
        L("密匙要定期轮换，至少每 90 天一次", "label", "zh-Hans"),
        L("新员工的初始密码是身份证后六位", "value-han", "zh-Hans"),
        L("パスワードは社員番号と同じです", "value-kana", "ja"),
        L("비밀번호는 생년월일 여섯 자리예요", "value-hangul", "ko"),
        L("the PIN has 4 digits and expires every 90 days", "value-spaced", "en"),
        L("PIN 长度 6 位", "value-spaced", "zh-Hans"),
        L("$sec = ConvertTo-SecureString $plain -AsPlainText -Force", "powershell", "en"),
        L("$sec = Read-Host 'Password' -AsSecureString", "powershell", "en"),
        L("net use Z: \\\\fs01\\share /user:CORP\\bob *", "cmd", "en"),
        L("net use Z: /delete /y", "cmd", "en"),
        L("const port = process.env.PORT || 3000;", "code-fallback", "en"),
        L('rounds = int(os.getenv("PASSWORD_HASH_ROUNDS", "100000"))', "getter-default", "en"),
        L('pw = os.environ.get("DB_PASSWORD", "")', "getter-default", "en"),
        L('const user = process.env.DB_USER || "admin";', "code-fallback", "en"),
        L("cp //nas/share/report.pdf backup2", "share", "en"),
        L("aws ssm put-parameter --name /app/token-ttl --type String --value 3600", "cli-value", "en"),
        L('PGPASS="${DB_PASSWORD:-}"', "shell-default", "en"),
        L('token = os.environ.get("TOKEN") or ""', "code-fallback", "en"),
        L('PASSWORD="${PASSWORD:-$(cat /run/secrets/db_password)}"', "shell-default", "en"),
        L("const apiBase = process.env.API_BASE || 'https://api.example.com';", "code-fallback", "en"),
        L("aws ssm put-parameter --name /app/port --type String --value 8080", "cli-value", "en"),
        L("aws ssm get-parameter --name /prod/db/master --with-decryption", "cli-value", "en"),
        L("aws secretsmanager create-secret --name prod/redis --secret-string file://redis.json", "cli-value", "en"),
        L(
            "commit 3f9a1c27be0d4e5f8a6b7c9d0e1f2a3b4c5d6e7f\nMerge pull request #42 from acme/fix-token-refresh",
            "wrapped",
            "en",
        ),
        L(
            "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n  ./dist/mimomem-0.9.tar.gz",
            "wrapped",
            "en",
        ),
        L("Root password:\n\n```\necho $ROOT_PASSWORD\n```", "fence", "en"),
        L("password: ask the on-call engineer", "prose", "en"),
        L("password: stored separately, rotated monthly", "prose", "en"),
        L("the secret is to keep the batch small", "prose", "en"),
        L(f"powershell.exe -NoProfile -EncodedCommand {enc}", "pwsh-encoded", "en"),
        # round two
        L("pub_key: AAAAC3NzaC1lZDI1NTE5AAAAIKq3m8xZ2vT9bWcN4yHf7LpR0sJd6uE1gQa5oXiYkUz", "public-key", "en"),
        L(
            "公钥：MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq3m8xZ2vT9bWcN4yHf7LpR0sJd6uE1gQa5oXiYkUz",
            "public-key",
            "zh-Hans",
        ),
        L("ＡＰＩ ＫＥＹ：见飞书文档", "fullwidth", "zh-Hans"),
        L("合言葉は『山』と『川』です", "value-kana", "ja"),
        L('#define PASSWORD_PROMPT "Enter password: "', "c-define", "en"),
        L('ftp.login("anonymous", user_email)', "call-login", "en"),
        L('logger.info("login", "user %s", name)', "call", "en"),
        L("echo 'deploy finished' | mail -s 'token rotation done' ops@example.com", "pipe", "en"),
        L("Das Passwort ist zu kurz.", "label-de", "de"),
        L("a mnemonic is a memory aid", "mnemonic", "en"),
        L("p/w reset link expired, request a new one", "abbrev", "en"),
    ]


def main() -> None:
    rows = secrets(Fake(2026120750)) + round_two(Fake(2026120752)) + lookalikes()
    with (HERE / "dev-5.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = sum(1 for r in rows if r["secret"])
    print(f"dev-5: {n} secrets, {len(rows) - n} look-alikes")


if __name__ == "__main__":
    main()
