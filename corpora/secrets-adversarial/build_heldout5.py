# ruff: noqa: E501  (a case is one line of text, kept whole to be read as written)
"""Write heldout-5.jsonl: a fifth blind split (issue 32, round 5), never tuned on.

Written on 2026-12-07 (21:10 UTC) by the helper of issue 32's fifth round, before any code of
that round changed, from shapes none of the earlier sets uses and none of heldout-4's read misses
names: a value by its place in a call, a statement or a protocol (``server.login("bob", X)``,
``auth=("bob", X)``, ``define('DB_PASSWORD', X)``, ``#define API_KEY X``, a Rust ``const`` with a
type, ``os.getenv("…", X)``, a Terraform variable's ``default``, Groovy ``storePassword 'X'``,
``INSERT INTO users (name, password) VALUES (…)``, ``db.createUser({pwd: …})``, a GraphQL
argument, a Go ``%+v`` or Lombok ``toString()`` dump, a Python dict repr, an IMAP ``LOGIN``, FTP
``PASS``, Redis ``AUTH``, an SMTP ``AUTH PLAIN`` blob); password slots of other tools
(``smbclient`` and ``isql`` positionals, ``cmdkey /pass:``, ``schtasks /RP``, ``ssh-keygen -N``,
``openssl enc -k``, ``qpdf --encrypt``, ``pdftk … user_pw``, ``mount -o …,password=``,
``echo X | chpasswd``, a value piped into ``vercel env add`` / ``docker secret create``,
``launchctl setenv``, ``git config github.token``, ``yarn config set npmAuthToken``);
what services print when they start or are asked (MySQL's temporary password, Jenkins' and
Elasticsearch's first-start banners, MinIO's ``RootPass:``, ``vault operator init``, ``argocd admin
initial-password``, ``cat`` of a file named for a credential, a psql-aligned table); config
shapes (WireGuard ``PresharedKey``, ``wpa_supplicant`` ``psk=``, an rclone ``pass =``, a YAML
anchor between key and value, TOML triple quotes, a JS template literal, HTML-escaped quotes,
an ``<input type="password" value=…>``, a PowerShell hashtable header, ``$(echo … | base64 -d)``,
a shell ``local``); chat habits (a typo'd label, ``p/w``, full-width letters, bold Markdown
around the value, a pointing emoji as the bridge, "token value:", 账号/密码：a/b, 授权码, 助记词,
a value in kana or hangul, labels in Spanish, German, French and Russian, a seed phrase of
lowercase words, a TOTP ``otpauth://`` secret, an Ethereum private key in hex); and a long key
wrapped over three lines after its label.

Look-alikes (must not be redacted): public keys and addresses named as such, hashes named as
hashes (``hashedPassword``, ``password_hash``, ``$argon2id$``), a Gerrit ``Change-Id``, client ids,
prompts and error messages that mention a password, the same calls and commands with a variable,
a reference or an empty value, a ``#define`` of a length, a ``const`` TTL, vault's key counts,
a path where a password is kept, "the secret is to …" / "the key is to …" metaphors, promises to
send a password later in Japanese and Korean, advice about recovery phrases.

``python corpora/secrets-adversarial/build_heldout5.py`` rewrites the file.
"""

from __future__ import annotations

import base64
import json
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from build import ALNUM, B64, HERE, URLSAFE, Fake, L, S

HEX = "0123456789abcdef"
B32 = string.ascii_uppercase + "234567"
# plain lowercase words for a seed phrase (a mnemonic of the BIP-39 kind; not its list)
WORDS = [
    "orbit",
    "velvet",
    "canyon",
    "ladder",
    "pepper",
    "silent",
    "hammer",
    "frozen",
    "tunnel",
    "meadow",
    "rocket",
    "violin",
    "bamboo",
    "cactus",
    "drift",
    "ember",
    "fossil",
    "galaxy",
    "harbor",
    "island",
    "jungle",
    "kettle",
    "lantern",
    "marble",
    "nectar",
    "oyster",
    "pistol",
    "quarry",
    "ribbon",
    "saddle",
    "timber",
    "umbrella",
    "vendor",
    "walnut",
    "yonder",
    "zebra",
]
KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ"
HANGUL = "가나다라마바사아자차카타파하고노도로모보소오조초코토포호구누두루무부수우주"


def secrets(f: Fake) -> list[dict[str, object]]:
    rows = []

    def hexs(n: int) -> str:
        return "".join(f.r.choice(HEX) for _ in range(n))

    # -- a value by its place in a call or a statement ---------------------------------------------------
    v = f.pw()
    rows.append(
        S(
            f'server = smtplib.SMTP_SSL("smtp.example.com")\nserver.login("alerts@example.com", "{v}")',
            "call-login",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(S(f'r = requests.get(url, auth=("svc-report", "{v}"), timeout=10)', "call-auth-tuple", "en", v))
    a, b = f.pw(), f.s(URLSAFE, 48)
    rows.append(S(f"define( 'DB_PASSWORD', '{a}' );\ndefine( 'AUTH_KEY', '{b}' );", "php-define", "en", a, b))
    v = f.tok(32)
    rows.append(S(f'#define API_KEY "{v}"\n#define API_HOST "api.example.com"', "c-define", "en", v))
    v = f.tok(40)
    rows.append(S(f'const SLACK_SIGNING_SECRET: &str = "{v}";', "rust-const", "en", v))
    v = f.pw()
    rows.append(S(f'DB_PASS = os.getenv("DB_PASS", "{v}")', "getenv-default", "en", v))
    v = f.pw()
    rows.append(S(f'variable "db_password" {{\n  type    = string\n  default = "{v}"\n}}', "hcl-default", "en", v))
    v = f.pw()
    rows.append(
        S(
            f"signingConfigs {{\n    release {{\n        storeFile file('release.jks')\n        storePassword '{v}'\n        keyAlias 'upload'\n    }}\n}}",
            "gradle",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(
        S(f"INSERT INTO users (name, email, password) VALUES ('ops', 'ops@example.com', '{v}');", "sql-insert", "en", v)
    )
    v = f.pw()
    rows.append(S(f'db.createUser({{ user: "reporting", pwd: "{v}", roles: ["read"] }})', "mongo-shell", "en", v))
    v = f.pw()
    rows.append(S(f'mutation {{ login(email: "qa@example.com", password: "{v}") {{ token }} }}', "graphql", "en", v))
    v = f.pw()
    rows.append(S(f"config: {{Host:db.internal Port:5432 User:app Password:{v} SSLMode:require}}", "go-dump", "en", v))
    v = f.pw()
    rows.append(
        S(
            f"DataSourceProperties(url=jdbc:postgresql://db/app, username=app, password={v}, driver=null)",
            "tostring",
            "en",
            v,
        )
    )
    v = f.tok(24)
    rows.append(S(f"{{'user': 'etl', 'host': 'wh.internal', 'passwd': '{v}', 'port': 5439}}", "python-repr", "en", v))
    # -- protocols typed by hand -----------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"* OK IMAP4rev1 ready\na1 LOGIN bob@example.com {v}\na1 OK LOGIN completed", "imap", "en", v))
    v = f.pw()
    rows.append(S(f"220 ftp.example.com\nUSER deploy\n331 Password required\nPASS {v}\n230 Logged in", "ftp", "en", v))
    v = f.tok(20)
    rows.append(S(f"127.0.0.1:6379> AUTH {v}\nOK", "redis-auth", "en", v))
    blob = base64.b64encode(f"\0mailer\0{f.pw()}".encode()).decode()
    rows.append(
        S(
            f"EHLO client\n250 AUTH PLAIN LOGIN\nAUTH PLAIN {blob}\n235 2.7.0 Authentication successful",
            "smtp-plain",
            "en",
            blob,
        )
    )
    # -- password slots of other tools -----------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"smbclient //fs01/finance {v} -U CORP/bob -c 'ls'", "cli-positional", "en", v))
    v = f.pw()
    rows.append(S(f"isql -v ProdDSN sa {v}", "cli-positional", "en", v))
    v = f.pw()
    rows.append(S(f"cmdkey /add:fs01.corp.local /user:CORP\\bob /pass:{v}", "cli-slash", "en", v))
    v = f.pw()
    rows.append(
        S(f'schtasks /Create /TN "nightly" /TR backup.cmd /SC DAILY /RU CORP\\svc /RP {v}', "cli-slash", "en", v)
    )
    v = f.pw()
    rows.append(S(f"ssh-keygen -t ed25519 -f ~/.ssh/deploy -N '{v}' -C deploy@ci", "cli-flag", "en", v))
    v = f.pw()
    rows.append(S(f"openssl enc -aes-256-cbc -salt -in dump.sql -out dump.sql.enc -k {v}", "cli-flag", "en", v))
    a, b = f.pw(), f.pw()
    rows.append(S(f"qpdf --encrypt {a} {b} 256 -- report.pdf report-locked.pdf", "cli-positional", "en", a, b))
    v = f.pw()
    rows.append(S(f"pdftk payslip.pdf output payslip-locked.pdf user_pw {v}", "cli-keyword", "en", v))
    v = f.pw()
    rows.append(
        S(f"sudo mount -t cifs //nas/media /mnt/media -o username=bob,password={v},vers=3.0", "cli-mount", "en", v)
    )
    v = f.pw()
    rows.append(S(f"echo 'backup:{v}' | sudo chpasswd", "stdin-chpasswd", "en", v))
    v = f.tok(32)
    rows.append(S(f"printf '%s' '{v}' | docker secret create stripe_api_key -", "stdin-store", "en", v))
    v = f.tok(24)
    rows.append(S(f"launchctl setenv GITHUB_TOKEN {v}", "cli-env", "en", v))
    v = "ghp_" + f.tok(36)
    rows.append(S(f"git config --global github.token {v}", "cli-config", "en", v))
    v = f.tok(36)
    rows.append(S(f'yarn config set npmAuthToken "{v}"', "cli-config", "en", v))
    # -- what services print ---------------------------------------------------------------------------
    v = f.s(ALNUM + ";:<>", 12)
    rows.append(
        S(
            f"2026-12-07T09:14:02Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: {v}",
            "log-banner",
            "en",
            v,
        )
    )
    v = hexs(32)
    rows.append(
        S(
            f"Jenkins initial setup is required. An admin user has been created and a password generated.\nPlease use the following password to proceed to installation:\n\n{v}\n\nThis may also be found at: /var/jenkins_home/secrets/initialAdminPassword",
            "log-banner",
            "en",
            v,
        )
    )
    v = f.s(URLSAFE + "*=+", 20)
    rows.append(
        S(
            f"ℹ️  Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):\n  {v}",
            "log-banner",
            "en",
            v,
        )
    )
    v = f.tok(20)
    rows.append(S(f"API: http://10.0.0.7:9000\nRootUser: minio\nRootPass: {v}", "log-banner", "en", v))
    k = f.s(B64, 44)
    t = "hvs." + f.s(URLSAFE, 24)
    rows.append(S(f"Unseal Key 1: {k}\n\nInitial Root Token: {t}", "cli-output", "en", k, t))
    v = f.tok(16)
    rows.append(
        S(
            f"$ argocd admin initial-password -n argocd\n{v}\n\n This password must be only used for first time login.",
            "cli-output",
            "en",
            v,
        )
    )
    v = hexs(32)
    rows.append(S(f"$ cat config/master.key\n{v}", "cat-output", "en", v))
    v = f.pw()
    rows.append(S(f" usename  |  passwd\n----------+------------\n reporter | {v}\n(1 row)", "psql-table", "en", v))
    # -- config shapes ---------------------------------------------------------------------------------
    v = f.s(B64, 43) + "="
    rows.append(
        S(f"[Peer]\nPublicKey = {f.s(B64, 43)}=\nPresharedKey = {v}\nAllowedIPs = 10.8.0.0/24", "wireguard", "en", v)
    )
    v = f.pw()
    rows.append(S(f'network={{\n    ssid="office-5g"\n    psk="{v}"\n    key_mgmt=WPA-PSK\n}}', "wpa", "en", v))
    v = f.s(URLSAFE, 40)
    rows.append(S(f"[b2]\ntype = b2\naccount = 0012ab34cd\nkey = {v}", "rclone", "en", v))
    v = f.pw()
    rows.append(S(f"defaults: &db\n  user: app\n  password: &dbpw {v}\nproduction:\n  <<: *db", "yaml-anchor", "en", v))
    v = f.pw()
    rows.append(S(f'[database]\nuser = "app"\npassword = """{v}"""', "toml-triple", "en", v))
    v = f.pw()
    rows.append(S(f"const db = {{ user: 'app', password: `{v}` }};", "js-template", "en", v))
    v = f.pw()
    rows.append(S(f"&lt;add key=&quot;SmtpPassword&quot; value=&quot;{v}&quot; /&gt;", "html-escaped", "en", v))
    v = f.pw()
    rows.append(S(f'<input type="password" name="pw" value="{v}" autocomplete="off">', "html-input", "en", v))
    v = f.tok(32)
    rows.append(S(f'Invoke-RestMethod -Uri $u -Headers @{{ "X-Api-Key" = "{v}" }}', "powershell-hashtable", "en", v))
    raw = f.pw()
    v = base64.b64encode(raw.encode()).decode()
    rows.append(S(f"export DB_PASSWORD=$(echo '{v}' | base64 --decode)", "encoded", "en", v))
    v = f.pw()
    rows.append(S(f'deploy() {{\n  local pass="{v}"\n  sshpass -e ssh ops@web1\n}}', "shell-local", "en", v))
    # -- chat habits -----------------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"pasword for the printer admin page is {v}", "typo", "en", v))
    v = f.pw()
    rows.append(S(f"router p/w {v} fyi", "abbrev", "en", v))
    v = f.pw()
    rows.append(S(f"ＰＡＳＳＷＯＲＤ：{v}", "fullwidth", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"staging login → user **admin**, password **{v}**", "markdown-bold", "en", v))
    v = f.tok(32)
    rows.append(S(f"API key 👉 {v}", "emoji-bridge", "en", v))
    v = f.tok(28)
    rows.append(S(f"token value: {v}", "label-value-word", "en", v))
    v = f.tok(28)
    rows.append(S(f"토큰 값: {v}", "label-value-word", "ko", v))
    v = f.pw()
    rows.append(S(f"账号/密码：admin/{v}", "pair-slash", "zh-Hans", v))
    v = "".join(f.r.choice(string.ascii_lowercase) for _ in range(16))
    rows.append(S(f"QQ 邮箱的 SMTP 授权码是 {v}，别用登录密码", "label", "zh-Hans", v))
    words = [f.r.choice(WORDS) for _ in range(12)]
    v1, v2 = " ".join(words[:6]), " ".join(words[6:])
    rows.append(S(f"助记词：{v1} {v2}", "mnemonic", "zh-Hans", v1, v2))
    words = [f.r.choice(WORDS) for _ in range(12)]
    v1, v2 = " ".join(words[:6]), " ".join(words[6:])
    rows.append(S(f"backup the wallet! recovery phrase: {v1} {v2}", "mnemonic", "en", v1, v2))
    v = "".join(f.r.choice(KANA) for _ in range(6)) + f.pin(2)
    rows.append(S(f"Wi-Fiのパスワードは「{v}」です", "value-kana", "ja", v))
    v = "".join(f.r.choice(HANGUL) for _ in range(5)) + f.pin(3)
    rows.append(S(f"와이파이 비번은 {v} 이에요", "value-hangul", "ko", v))
    v = f.pw()
    rows.append(S(f"la contraseña del router es {v}", "label-es", "es", v))
    v = f.pw()
    rows.append(S(f"Das Passwort für den Testserver lautet {v}", "label-de", "de", v))
    v = f.pw()
    rows.append(S(f"le mot de passe du wifi : {v}", "label-fr", "fr", v))
    v = f.pw()
    rows.append(S(f"пароль от сервера: {v}", "label-ru", "ru", v))
    v = f.s(B32, 32)
    rows.append(S(f"otpauth://totp/ACME:bob@example.com?secret={v}&issuer=ACME", "totp", "en", v))
    v = "0x" + hexs(64)
    rows.append(S(f"deployer private key {v} (testnet only)", "hex-key", "en", v))
    # -- a long key wrapped over lines -----------------------------------------------------------------
    v = f.s(B64, 132)
    parts = [v[:44], v[44:88], v[88:]]
    rows.append(S("storage account key:\n" + "\n".join(parts), "wrapped", "en", *parts))
    return rows


def lookalikes(f: Fake) -> list[dict[str, object]]:
    return [
        L(
            f"[Peer]\nPublicKey = {f.s(B64, 43)}=\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.example.com:51820",
            "public-key",
            "en",
        ),
        L(
            'users.users.bob.hashedPassword = "$6$rounds=656000$pLw1r0kO$Zk3gqkO4tE9fJ2iF0XlqgYjPb5y3nQ7xw8Zt0u1v2Aa";',
            "hash-named",
            "en",
        ),
        L(
            "password_hash: $argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
            "hash-named",
            "en",
        ),
        L(
            "INSERT INTO users (name, password_hash) VALUES ('bob', '$2b$12$KIXQ4r9oQeY1n3Xl5x7zZeJ5fQ9kq2m8c1Vb6Lr0tYwUe3sH4pD2a');",
            "hash-named",
            "en",
        ),
        L("Change-Id: I8473b95934b5732ac55d26311a706c9c2bde9940\nSigned-off-by: Bob <bob@example.com>", "hash", "en"),
        L('"client_id": "4f1c2a9e-7d3b-4c55-9a1e-2b6f8e0d7c31",', "uuid", "en"),
        L("wallet address: 0x742d35Cc6634C0532925a3b844Bc454e4438f44e", "public-address", "en"),
        L("tx hash 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 confirmed", "hash", "en"),
        L("Enter passphrase for key '/home/bob/.ssh/id_ed25519':", "prompt", "en"),
        L(
            'psql: error: connection to server at "db" failed: FATAL:  password authentication failed for user "app"',
            "error",
            "en",
        ),
        L("(error) ERR AUTH <password> called without any password configured for the default user.", "error", "en"),
        L("define( 'DB_PASSWORD', getenv('WORDPRESS_DB_PASSWORD') );", "reference", "en"),
        L("#define PASSWORD_MAX_LEN 128\n#define TOKEN_TTL_SECONDS 3600", "c-define", "en"),
        L("const SESSION_TOKEN_TTL: u64 = 86_400;", "rust-const", "en"),
        L(
            'storePassword System.getenv("KEYSTORE_PASSWORD")\nkeyPassword System.getenv("KEY_PASSWORD")',
            "reference",
            "en",
        ),
        L("INSERT INTO audit_log (action, target) VALUES ('password_reset', 'bob');", "sql", "en"),
        L('<input type="password" name="pw" placeholder="Password" required>', "html-input", "en"),
        L("smbclient -L //fs01 -N", "cli-nopass", "en"),
        L('ssh-keygen -t ed25519 -N "" -f ~/.ssh/ci_key', "cli-empty", "en"),
        L("server.login(user, password)", "call-variables", "en"),
        L('requests.get(url, auth=HTTPBasicAuth(user, os.environ["SVC_PASSWORD"]))', "call-reference", "en"),
        L("git config --global user.email bob@example.com", "cli-config", "en"),
        L(
            "Unseal Key Shares: 5\nUnseal Threshold: 3\nVault initialized with 5 key shares and a key threshold of 3.",
            "cli-output",
            "en",
        ),
        L("the jenkins admin password is in /var/jenkins_home/secrets/initialAdminPassword", "path", "en"),
        L('network={\n    ssid="cafe-guest"\n    key_mgmt=NONE\n}', "wpa", "en"),
        L("the secret is to keep the cache warm before the morning batch", "metaphor", "en"),
        L("honestly the key is to retry with backoff and jitter", "metaphor", "en"),
        L("パスワードはあとでSlackで送ります", "later", "ja"),
        L("비밀번호는 나중에 따로 알려줄게요", "later", "ko"),
        L("never share your 12-word recovery phrase with anyone, not even support", "advice", "en"),
        L("mot de passe : voir le coffre-fort de l'équipe", "reference", "fr"),
        L("密码值不能为空，长度 8 到 64 位", "policy", "zh-Hans"),
    ]


def main() -> None:
    f = Fake(20261207_5)
    rows = secrets(f) + lookalikes(f)
    with (HERE / "heldout-5.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = sum(1 for r in rows if r["secret"])
    print(f"heldout-5.jsonl: {n} secrets, {len(rows) - n} look-alikes")


if __name__ == "__main__":
    main()
