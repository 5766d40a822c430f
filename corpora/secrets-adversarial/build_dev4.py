"""Write dev-4.jsonl: the fourth round's dev set (tuned on), from the shapes the held-out splits showed.

Written on 2026-12-07 (18:55 UTC) by the helper of issue 32's fourth round, after heldout-4 was
written and run once at main (ca31b5a).  Its secrets are the shapes the third round's halves
stored, read after their final runs and so no longer blind, in other words, tools and languages:
a value with a quote, a bracket or a slash inside (an INI or TOML quoted value, an ODBC ``Pwd=…;``
or ``Password=…;`` with a braced value, a CJK label's value), a single-dash long option naming a
password (``keytool -storepass``, ``jarsigner -keypass``), a new value on the line after the
sentence that says the credential changed, a webhook or chat token of lower case and digits only,
密码就用 … 吧 (用 as the verb that hands the value over), and a quoted passphrase with spaces.
Its look-alikes are what those rules must leave alone: prose in quotes after a password label
(``password: "see the vault"``), brackets in code and in redaction marks (``password[0]``,
``[REDACTED]``), ODBC strings with no password or an empty one, keytool reading the password from
a file or a variable, a changed-credential sentence whose next line says where the new one is, and
lower-case runs that are words, hex ids or paths.  Every value is FAKE (``build.Fake``, another
seed).  ``python corpora/secrets-adversarial/build_dev4.py`` rewrites it.
"""

from __future__ import annotations

import json
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from build import ALNUM, HERE, Fake, L, S

LOWER_ALNUM = string.ascii_lowercase + string.digits


def punct(f: Fake, signs: str = "'\"[]()/{}") -> str:
    """A password with a quote, a bracket or a slash inside."""
    core = f.s(ALNUM, 10)
    a, b = f.r.sample(signs, 2)
    return core[:3] + a + core[3:7] + b + core[7:]


def lower_digits(f: Fake, n: int) -> str:
    while True:
        v = "".join(f.r.choice(LOWER_ALNUM) for _ in range(n))
        if sum(c.isdigit() for c in v) >= 3 and any(c in "ghijklmnopqrstuvwxyz" for c in v):
            return v


def secrets(f: Fake) -> list[dict[str, object]]:
    rows = []
    # -- a quote, bracket or slash inside ------------------------------------------------------------------
    v = punct(f, "'[]/")
    rows.append(S(f'[mysqld]\nuser = backup\npassword = "{v}"\nsocket = /run/mysqld.sock', "ini-quoted", "en", v))
    v = punct(f, '"[]/')
    rows.append(S(f"[smtp]\nserver = mail.internal\npass = '{v}'", "ini-quoted", "en", v))
    v = punct(f, "'[]/()")
    rows.append(S(f'[database]\npassword = "{v}"  # rotated monthly', "toml-quoted", "en", v))
    v = punct(f, "[]/(){}")
    rows.append(
        S(
            f"Driver={{PostgreSQL Unicode}};Server=pg.internal;Port=5432;Uid=report;Pwd={v};SSLmode=require",
            "odbc",
            "en",
            v,
        )
    )
    v = punct(f, "[]/()")
    rows.append(S(f"Server=db;Database=crm;User Id=crm;Password={v};Connect Timeout=30", "adonet", "en", v))
    v = punct(f, "[]/();")
    rows.append(S(f"DRIVER={{MySQL ODBC 8.0 Driver}};SERVER=db;UID=etl;PWD={{{v}}};", "odbc-braced", "en", v))
    v = punct(f, "[]/()")
    rows.append(S(f"口令：{v}", "label-punct", "zh-Hans", v))
    v = punct(f, "[]/()")
    rows.append(S(f"管理者パスワード：{v}", "label-punct", "ja", v))
    v = punct(f, "[]/()")
    rows.append(S(f"DB 비밀번호: {v}", "label-punct", "ko", v))
    v = punct(f, "[]/():")
    rows.append(S(f"the jenkins admin password is {v} now", "label-punct", "en", v))
    v = punct(f, "[]/()")
    rows.append(S(f"資料庫密碼是 {v}，記得改", "label-punct", "zh-Hant", v))
    # -- a single-dash long option naming a password ---------------------------------------------------
    v = f.pw()
    rows.append(
        S(f"keytool -genkeypair -alias app -keystore app.jks -keypass {v} -dname CN=app", "option-single-dash", "en", v)
    )
    v = f.pw()
    rows.append(S(f"jarsigner -keystore release.jks -storepass {v} app.apk release", "option-single-dash", "en", v))
    v = f.pw()
    rows.append(
        S(
            f"keytool -importkeystore -srckeystore a.p12 -srcstorepass {v} -destkeystore b.jks",
            "option-single-dash",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(S(f"influx -username admin -password {v} -execute 'SHOW DATABASES'", "option-single-dash", "en", v))
    # -- the new value on the line after the sentence --------------------------------------------------
    v = f.pw()
    rows.append(S(f"The staging DB password was rotated.\nNew: {v}", "next-line", "en", v))
    v = f.tok(32)
    rows.append(S(f"API 密钥重置了。\n新的是 {v}", "next-line", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"VPNのパスワードを変えました。\n新しいのは {v} です。", "next-line", "ja", v))
    v = f.pw()
    rows.append(S(f"공유 계정 비밀번호 변경했습니다. 이걸로 쓰세요: {v}", "next-sentence", "ko", v))
    v = f.tok(32)
    rows.append(S(f"Want the Sentry auth token? Here.\n{v}", "next-line", "en", v))
    v = f.pw()
    rows.append(S(f"帳號密碼更新了。\n新的：{v}", "next-line", "zh-Hant", v))
    # -- lower case and digits -------------------------------------------------------------------------
    v = lower_digits(f, 26)
    rows.append(S(f"rocket hook: https://chat.internal.example.com/hooks/{v}", "webhook-lower", "en", v))
    v = lower_digits(f, 26)
    rows.append(S(f"curl -X POST -d @msg.json https://team.example.org/hooks/{v}", "webhook-lower", "en", v))
    v = lower_digits(f, 32)
    rows.append(S(f"the bot token is {v}", "token-lower", "en", v))
    v = lower_digits(f, 40)
    rows.append(S(f"机器人 token：{v}", "token-lower", "zh-Hans", v))
    # -- 就用 ------------------------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"测试库密码就用 {v} 吧", "zh-use", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"口令先用{v}，上线前再换", "zh-use", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"密碼就用 {v} 好了", "zh-use", "zh-Hant", v))
    # -- a quoted passphrase with spaces ---------------------------------------------------------------
    v = f"{f.s(ALNUM, 5)} {f.s(ALNUM, 6)} {f.s(ALNUM, 5)}"
    rows.append(S(f"BACKUP_PASSPHRASE='{v}'", "passphrase-spaces", "en", v))
    v = f"{f.s(ALNUM, 6)} {f.s(ALNUM, 6)}"
    rows.append(S(f'{{"passphrase": "{v}", "cipher": "aes256"}}', "passphrase-spaces", "en", v))
    v = f"rQ4 mango {f.pin(2)}Yx tulip"
    rows.append(S(f'gpg_passphrase: "{v}"', "passphrase-spaces", "en", v))
    v = f"{f.s(ALNUM, 4)} {f.s(ALNUM, 4)} {f.s(ALNUM, 4)} {f.s(ALNUM, 4)}"
    rows.append(S(f'restic password = "{v}"', "passphrase-spaces", "en", v))
    return rows


def lookalikes() -> list[dict[str, object]]:
    return [
        # prose in quotes after a password label
        L('password: "see the vault"', "quoted-prose", "en"),
        L('passphrase = "ask the on-call engineer"', "quoted-prose", "en"),
        L('"password": "use the one from 1Password"', "quoted-prose", "en"),
        L('token: "not set yet"', "quoted-prose", "en"),
        L("secret = 'stored in KMS, never here'", "quoted-prose", "en"),
        L('the password is "whatever Bob told you"', "quoted-prose", "en"),
        L('DB_PASSWORD="same as staging"', "quoted-prose", "en"),
        L("密码：“找运维要”", "quoted-prose", "zh-Hans"),
        L('api_key: "Set me in CI"', "quoted-prose", "en"),
        # brackets in code and in redaction marks
        L("password = passwords[user_id]", "code", "en"),
        L("if not password or password[0] == ' ':", "code", "en"),
        L("password: [REDACTED]", "redaction", "en"),
        L("密码：[已隐藏]", "redaction", "zh-Hans"),
        L("token = tokens.get(name) or secrets[name]", "code", "en"),
        L("pwd=os.path.join(base, 'x')", "code", "en"),
        # ODBC strings with no password
        L("Driver={ODBC Driver 18 for SQL Server};Server=db;Database=app;Trusted_Connection=yes;", "odbc", "en"),
        L("DRIVER={SQLite3};Database=/var/lib/app.db;", "odbc", "en"),
        L("Server=db;Database=app;User Id=app;Password=;", "odbc", "en"),
        L("Server=db;Database=app;Authentication=Active Directory Integrated;", "odbc", "en"),
        # keytool without a password on the line
        L("keytool -list -v -keystore app.jks", "option-single-dash", "en"),
        L("keytool -storepasswd -keystore app.jks", "option-single-dash", "en"),
        L("keytool -list -keystore app.jks -storepass:env STOREPASS", "option-single-dash", "en"),
        L("keytool -list -keystore app.jks -storepass:file /run/secrets/storepass", "option-single-dash", "en"),
        L("jarsigner -verify -verbose app.apk", "option-single-dash", "en"),
        # changed, and the next line says where
        L("The staging DB password was rotated.\nSee OPS-1234 for the new one.", "next-line", "en"),
        L("API 密钥重置了。\n新的在 1Password 里。", "next-line", "zh-Hans"),
        L("パスワードを変えました。\n詳細は Slack で。", "next-line", "ja"),
        L("Want the Sentry auth token? Here.\nhttps://sentry.io/settings/account/api/auth-tokens/", "next-line", "en"),
        # lower case runs that are words, hex ids or paths
        L("https://chat.example.com/hooks/incoming-webhook-setup", "webhook-lower", "en"),
        L("https://github.com/acme/shop/commit/9c1e4b7a2f0d8e6c3b5a7f9e1d2c4b6a8f0e2d4c", "hash", "en"),
        L("docker logs 4f2a9c81b3d7", "hash", "en"),
        L("the bot token is stored in vault under chatops", "word", "en"),
        # 就用 without a value
        L("密码就用原来的吧", "zh-use", "zh-Hans"),
        L("就用 SSH key 登录吧，不用密码", "zh-use", "zh-Hans"),
        L("口令先用默认的，上线前再换", "zh-use", "zh-Hans"),
    ]


def main() -> None:
    rows = secrets(Fake(2026120740)) + lookalikes()
    with (HERE / "dev-4.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = sum(1 for r in rows if r["secret"])
    print(f"dev-4: {n} secrets, {len(rows) - n} look-alikes")


if __name__ == "__main__":
    main()
