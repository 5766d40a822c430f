# ruff: noqa: E501  (a case is one line of text, kept whole to be read as written)
"""Write heldout-4.jsonl: a fourth held-out split (issue 32, round 4), never tuned on.

Written on 2026-12-07 (18:50 UTC) by the helper of issue 32's fourth round, before any code of
that round changed, from shapes none of the earlier sets uses and none of the earlier rounds
fixed: the value before its label ("X is the grafana password", X 就是跳板机的密码), label
abbreviations and emoji (pw, creds, 비번, パス, 🔑), values with CJK characters, spaces, ``#`` or
percent escapes inside, a YAML block scalar (``password: |``), a dotted key path (``--set
auth.rootPassword=``), tomcat-users attributes, an escaped JSON string, a TOML inline table, a
git diff of an ``.env`` file, a Markdown table or a CSV whose header names the password column,
a value printed on the line after the command that prints it (a REPL, ``echo $X``, ``kubectl …
| base64 -d``), a value piped into ``--password-stdin`` / ``sudo -S``, shell and PowerShell
environment settings (``set -gx``, ``$env:X =``, ``setx``, ``ConvertTo-SecureString``), setter
calls and keyword arguments in code, a Dockerfile ``ENV`` with a space, a JWT wrapped across two
lines, an ``ssm put-parameter --type SecureString`` value, ``gh secret set --body``, kubeconfig
``client-key-data`` and token prefixes of services the earlier sets never named.

Look-alikes (must not be redacted): descriptions of a password instead of one (初始密码是手机号后
六位, "the password is your employee id"), "same as above", quoted prose after a password label
("ask Bob in #ops", 「管理者に聞いて」), database keys (``primary_key: user_id``), auth *types*
(``grant_type: password``), references to a secret (``secretKeyRef``, ``$env:TOKEN``,
``os.environ[...]``, ``getpass()``), documented example keys (AWS's ``…EXAMPLE``), a publishable
Stripe key, a base64 image data URI, a bcrypt cost setting, Markdown tables and CSVs whose
password column holds only ``***`` or "(vault)", token budgets.

``python corpora/secrets-adversarial/build_heldout4.py`` rewrites the file.
"""

from __future__ import annotations

import base64
import json
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from build import ALNUM, B64, HERE, URLSAFE, Fake, L, S

LOWER_ALNUM = string.ascii_lowercase + string.digits


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def secrets(f: Fake) -> list[dict[str, object]]:
    rows = []
    # -- the value before its label ----------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"`{v}` is the admin password for grafana, don't paste it in #general", "value-first", "en", v))
    v = f.pw()
    rows.append(S(f"{v} 就是跳板机的密码，记一下", "value-first", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"{v} が管理画面のパスワードです", "value-first", "ja", v))
    v = f.pw()
    rows.append(S(f"{v} 가 관리자 비밀번호예요", "value-first", "ko", v))
    v = f.tok(28)
    rows.append(S(f"here: {v} — that's the read-only API key for the metrics box", "value-first", "en", v))
    # -- abbreviations and emoji as labels -------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"creds for the staging box are deploy/{v}", "abbrev", "en", v))
    v = f.pw()
    rows.append(S(f"pw {v} (same for both routers)", "abbrev", "en", v))
    v = f.pw()
    rows.append(S(f"공유기 비번 {v} 로 바꿨어", "abbrev", "ko", v))
    v = f.pw()
    rows.append(S(f"NASのパス {v} にしといた", "abbrev", "ja", v))
    v = f.tok(30)
    rows.append(S(f"🔑 {v}", "emoji", "en", v))
    v = f.pw()
    rows.append(S(f"帳號 ops，密 {v}", "abbrev", "zh-Hant", v))
    # -- synonyms and variants in CJK ------------------------------------------------------------------
    v = f.tok(32)
    rows.append(S(f"密匙：{v}", "label", "zh-Hans", v))
    v = f.tok(40)
    rows.append(S(f"API 金鑰貼在這：{v}", "label", "zh-Hant", v))
    v = f.tok(36)
    rows.append(S(f"認証トークン→{v}", "label", "ja", v))
    v = f.tok(32)
    rows.append(S(f"시크릿 키: {v}", "label", "ko", v))
    v = f.tok(40)
    rows.append(S(f"액세스 토큰은 {v} 입니다", "label", "ko", v))
    # -- values with unusual characters ----------------------------------------------------------------
    v = "天王盖地虎" + f.pin(4)
    rows.append(S(f"wifi 密码是 {v}，区分大小写", "value-cjk", "zh-Hans", v))
    v = f.s(ALNUM, 5) + "#" + f.s(ALNUM, 6)
    rows.append(S(f"REDIS_HOST=cache\nREDIS_PASSWORD={v}\nREDIS_DB=0", "value-hash", "en", v))
    v = f.s(ALNUM, 6) + "%21" + f.s(ALNUM, 4)
    rows.append(S(f"POST /login\n\nusername=bob&password={v}&remember=1", "value-percent", "en", v))
    v = " ".join(f.pin(1) for _ in range(6))
    rows.append(S(f"the door passcode is {v}", "value-spaced", "en", v))
    v = f.s(ALNUM, 6) + "\\" + f.s(ALNUM, 5)
    rows.append(S(f"set the service account password to {v} (with the backslash)", "value-backslash", "en", v))
    # -- config syntaxes -------------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"postgresql:\n  auth:\n    password: |\n      {v}\n    database: app", "yaml-block", "en", v))
    v = f.pw()
    rows.append(
        S(
            f"helm install pg bitnami/postgresql --set auth.postgresPassword={v} --set primary.persistence.size=20Gi",
            "cli-dotted",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(
        S(
            f'<tomcat-users>\n  <user username="manager" password="{v}" roles="manager-gui"/>\n</tomcat-users>',
            "xml-attr",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(S(f'payload = "{{\\"user\\":\\"svc\\",\\"password\\":\\"{v}\\"}}"', "json-escaped", "en", v))
    v = f.tok(24)
    rows.append(S(f'[registries.internal]\nauth = {{ user = "ci", password = "{v}" }}', "toml-inline", "en", v))
    a, b = f.pw(), f.pw()
    rows.append(
        S(
            f"diff --git a/.env b/.env\n@@ -3,2 +3,2 @@\n-SMTP_PASS={a}\n+SMTP_PASS={b}\n SMTP_PORT=587",
            "diff",
            "en",
            a,
            b,
        )
    )
    v = f.pw()
    rows.append(S(f"| env | user | password |\n|---|---|---|\n| prod | admin | {v} |", "table", "en", v))
    v = f.pw()
    rows.append(S(f"host,user,password,port\ndb-prod-1,app,{v},5432", "csv", "en", v))
    v = f.pw()
    rows.append(S(f"| 环境 | 账号 | 密码 |\n| --- | --- | --- |\n| 测试 | root | {v} |", "table", "zh-Hans", v))
    v = f.pw()
    rows.append(
        S(f"[prod]\nweb1 ansible_host=10.0.0.5 ansible_user=deploy ansible_become_pass={v}", "inventory", "en", v)
    )
    v = f.s(B64, 64)
    rows.append(
        S(
            f"users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTi\n    client-key-data: {v}",
            "kubeconfig",
            "en",
            v,
        )
    )
    # -- printed on the line after the command ---------------------------------------------------------
    v = f.s(B64, 40)
    rows.append(S(f">>> os.environ['AWS_SECRET_ACCESS_KEY']\n'{v}'", "repl-output", "en", v))
    v = f.pw()
    rows.append(S(f"$ echo $DB_PASSWORD\n{v}", "echo-output", "en", v))
    v = f.pw()
    rows.append(
        S(f"$ kubectl get secret pg -o jsonpath='{{.data.password}}' | base64 -d\n{v}", "decoded-output", "en", v)
    )
    # -- fed through a pipe ----------------------------------------------------------------------------
    v = f.tok(36)
    rows.append(S(f'echo "{v}" | docker login registry.example.com -u ci --password-stdin', "stdin", "en", v))
    v = f.pw()
    rows.append(S(f"echo '{v}' | sudo -S systemctl restart nginx", "stdin", "en", v))
    # -- shells and PowerShell -------------------------------------------------------------------------
    v = f.tok(40)
    rows.append(S(f"set -gx OPENAI_API_KEY {v}", "fish", "en", v))
    v = f.tok(32)
    rows.append(S(f'$env:SENDGRID_API_KEY = "{v}"', "powershell", "en", v))
    v = f.tok(32)
    rows.append(S(f"setx STRIPE_SECRET {v}", "cmd", "en", v))
    v = f.pw()
    rows.append(S(f'$pw = ConvertTo-SecureString "{v}" -AsPlainText -Force', "powershell", "en", v))
    v = f.pw()
    rows.append(S(f"net use Z: \\\\fs01\\share /user:CORP\\bob {v}", "cmd", "en", v))
    # -- code ------------------------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f'ds.setPassword("{v}");\nds.setUser("report");', "code-setter", "en", v))
    v = f.tok(40)
    rows.append(S(f'client = Client(base_url="https://api.example.com", api_key="{v}")', "code-kwarg", "en", v))
    v = f.tok(32)
    rows.append(S(f'const apiKey = process.env.MAPS_KEY || "{v}";', "code-fallback", "en", v))
    v = f.pw()
    rows.append(S(f'cfg := mysql.Config{{User: "app", Passwd: "{v}", Net: "tcp"}}', "code-struct", "en", v))
    v = f.pw()
    rows.append(S(f"ENV DB_PASSWORD {v}\nENV NODE_ENV production", "dockerfile", "en", v))
    # -- command lines ---------------------------------------------------------------------------------
    v = f.pw()
    rows.append(
        S(
            f"aws ssm put-parameter --name /prod/db/master --type SecureString --value '{v}' --overwrite",
            "cli-value",
            "en",
            v,
        )
    )
    v = f.tok(32)
    rows.append(S(f"gh secret set DEPLOY_TOKEN --body {v} --repo acme/shop", "cli-body", "en", v))
    v = f.pw()
    rows.append(S(f'ansible-playbook site.yml -e "ansible_password={v}"', "cli-extra-vars", "en", v))
    v = f.pw()
    rows.append(S(f"vault kv put secret/app/db username=app password={v}", "cli-kv", "en", v))
    v = f.tok(36)
    rows.append(S(f"npm config set //npm.pkg.example.com/:_authToken {v}", "cli-npm", "en", v))
    # -- prefixed tokens without a label ---------------------------------------------------------------
    v = "hvs." + f.s(URLSAFE, 90)
    rows.append(S(f"vault login {v}", "prefix", "en", v))
    v = "dop_v1_" + "".join(f.r.choice("0123456789abcdef") for _ in range(64))
    rows.append(S(f"doctl auth init -t {v}", "prefix", "en", v))
    v = "shpat_" + "".join(f.r.choice("0123456789abcdef") for _ in range(32))
    rows.append(S(f"用这个调 Shopify 的接口 {v}", "prefix", "zh-Hans", v))
    v = "AIza" + f.s(URLSAFE, 35)
    rows.append(S(f"https://maps.googleapis.com/maps/api/geocode/json?address=Tokyo&key={v}", "prefix-query", "en", v))
    v = "SG." + f.s(URLSAFE, 22) + "." + f.s(URLSAFE, 43)
    rows.append(S(f"메일 발송은 {v} 써", "prefix", "ko", v))
    v = "hf_" + f.s(ALNUM, 34)
    rows.append(S(f"huggingface-cli login したあとに {v} を貼った", "prefix", "ja", v))
    # -- split across lines ------------------------------------------------------------------------------
    head = b64url(b'{"alg":"RS256","typ":"JWT"}')
    body = b64url(json.dumps({"sub": f.pin(8), "scope": "admin"}).encode())
    sig = f.s(URLSAFE, 86)
    tokn = f"{head}.{body}.{sig}"
    cut = len(tokn) // 2
    rows.append(S(f"Authorization: Bearer {tokn[:cut]}\n{tokn[cut:]}", "wrapped", "en", tokn[:cut], tokn[cut:]))
    v = f.pw()
    rows.append(S(f"### Staging DB\n\n- host: db-stg.internal\n- pass:\n\n```\n{v}\n```", "markdown", "en", v))
    v = f.pw()
    rows.append(S(f"登入資訊如下\n帳號：admin\n密碼：\n{v}", "next-line", "zh-Hant", v))
    return rows


def lookalikes() -> list[dict[str, object]]:
    return [
        # descriptions of a password, not one
        L("初始密码是手机号后六位，首次登录后修改", "description", "zh-Hans"),
        L("the password is your employee id followed by your birth year", "description", "en"),
        L("パスワードは社員番号です", "description", "ja"),
        L("비밀번호는 생년월일 6자리예요", "description", "ko"),
        L("預設密碼就是帳號名稱", "description", "zh-Hant"),
        # same as above / ask someone
        L("密码：同上", "reference", "zh-Hans"),
        L("パスワード：前と同じ", "reference", "ja"),
        L("비밀번호: 위와 동일", "reference", "ko"),
        L('pass: "ask Bob in #ops"', "quoted-prose", "en"),
        L("パスワード：「管理者に聞いて」", "quoted-prose", "ja"),
        L('密码: "找运维要"', "quoted-prose", "zh-Hans"),
        L('api_key: "set in the CI settings page"', "quoted-prose", "en"),
        # keys that are not secrets
        L("primary_key: user_id\nsort_key: created_at", "db-key", "en"),
        L("ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customers(id);", "db-key", "en"),
        L('{"grant_type": "password", "token_type": "Bearer", "expires_in": 3600}', "auth-type", "en"),
        L("AUTH_TYPE=basic\nPASSWORDLESS=true\nPASSWORD_MIN_LENGTH=12", "auth-type", "en"),
        L("BCRYPT_ROUNDS=12\nSESSION_LIFETIME=120", "auth-type", "en"),
        # references to a secret
        L(
            "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: pg\n        key: password",
            "reference",
            "en",
        ),
        L('Invoke-RestMethod -Uri $url -Headers @{Authorization = "Bearer $env:GH_TOKEN"}', "reference", "en"),
        L('client = Client(api_key=os.environ["OPENAI_API_KEY"])', "reference", "en"),
        L("password = getpass.getpass('DB password: ')", "reference", "en"),
        L("ds.setPassword(config.getDbPassword());", "reference", "en"),
        L("$cred = Get-Credential -UserName CORP\\bob -Message 'VPN password'", "reference", "en"),
        L("ARG NPM_TOKEN\nRUN --mount=type=secret,id=npmrc npm ci", "reference", "en"),
        L('echo "$REGISTRY_PASSWORD" | docker login registry.example.com -u ci --password-stdin', "reference", "en"),
        L("helm install pg bitnami/postgresql --set auth.existingSecret=pg-credentials", "reference", "en"),
        # documented examples and public values
        L(
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "documented-example",
            "en",
        ),
        L("Stripe.setPublishableKey('pk_test_TYooMQauvdEDq54NiTphI7jx');", "publishable", "en"),
        L(
            '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
            "data-uri",
            "en",
        ),
        L("commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the token refresh race", "hash", "en"),
        # tables and CSVs with nothing in the password column
        L("| env | user | password |\n|---|---|---|\n| prod | admin | *** |\n| stg | admin | (vault) |", "table", "en"),
        L("host,user,password,port\ndb-prod-1,app,,5432", "csv", "en"),
        L("| 环境 | 账号 | 密码 |\n| --- | --- | --- |\n| 测试 | root | 见 1Password |", "table", "zh-Hans"),
        # budgets and counts
        L("max_tokens=4096, temperature=0.2", "count", "en"),
        L("令牌桶容量 100，每秒补充 20 个令牌", "count", "zh-Hans"),
        L("トークン上限は 200k です", "count", "ja"),
        L("keyboard shortcut: Ctrl+Shift+K opens the key manager", "word", "en"),
        L("$ echo $SHELL\n/bin/zsh", "echo-output", "en"),
        L(">>> os.environ['HOME']\n'/home/bob'", "repl-output", "en"),
    ]


def main() -> None:
    rows = secrets(Fake(20261207_4)) + lookalikes()
    with (HERE / "heldout-4.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = sum(1 for r in rows if r["secret"])
    print(f"heldout-4.jsonl: {n} secrets, {len(rows) - n} look-alikes")


if __name__ == "__main__":
    main()
