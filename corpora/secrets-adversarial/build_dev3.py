# ruff: noqa: E501  (a case is one line of text, kept whole to be read as written)
"""Write dev-3.jsonl: the third round's dev set (tuned on), the same families as heldout-3 in other words.

Written on 2026-12-07 (16:20 UTC) by the helper of issue 32's third round, after heldout-3 and
heldout-3b were written and heldout-3 run once, from the families the issue names (structured
snippets, connection strings, headers, JWTs, webhooks, command-line flags, git remotes, CJK labels,
a label and its value apart, punctuation in values) with other keys, tools, schemes and words than
the held-out halves use.  The scanner is tuned on this set.  Every value is FAKE (``build.Fake``,
another seed).  ``python corpora/secrets-adversarial/build_dev3.py`` rewrites it.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from build import ALNUM, HERE, URLSAFE, Fake, L, S

HEX = "0123456789abcdef"


def hexs(f: Fake, n: int) -> str:
    return "".join(f.r.choice(HEX) for _ in range(n))


def punct(f: Fake) -> str:
    core = f.s(ALNUM, 10)
    a, b = f.r.sample(";,:/.()[]=-!?", 2)
    return core[:4] + a + core[4:8] + b + core[8:]


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(f: Fake) -> tuple[str, str, str]:
    head = b64url(b'{"typ":"JWT","alg":"RS256"}')
    body = b64url(json.dumps({"uid": int(f.pin(6)), "role": "admin", "exp": 1766000000}).encode())
    sig = f.s(URLSAFE, 86)
    return f"{head}.{body}.{sig}", body, sig


def secrets(f: Fake) -> list[dict[str, object]]:
    r = []
    # structured snippets
    v = f.pw()
    r.append(S(f'{{"mysql": {{"username": "root", "passwd": "{v}"}}}}', "json", "en", v))
    v = f.tok(36)
    r.append(S(f'{{"auth": {{"apiSecret": "{v}", "region": "us"}}}}', "json", "en", v))
    v = punct(f)
    r.append(S(f"db:\n  host: pg\n  password: {v}\n  pool: 5", "yaml", "en", v))
    v = f.tok()
    r.append(S(f"redis:\n    host: cache\n    auth_token: {v}", "yaml", "en", v))
    v = f.tok()
    r.append(S(f"[auth]\nissuer = \"acme\"\nsecret = '{v}'", "toml", "en", v))
    v = f.tok()
    r.append(S(f'export SENDGRID_KEY="SG.{v[:22]}.{v}"', "env", "en", v))
    v = f.pw()
    r.append(S(f"APP_SECRET={v} # do not share\nAPP_ENV=prod", "env", "en", v))
    v = f.pw()
    r.append(S(f"[mysql]\nhost = db\npasswd = {v}", "ini", "en", v))
    v = f.pw()
    r.append(
        S(
            f"    environment:\n      - MONGO_INITDB_ROOT_USERNAME=root\n      - MONGO_INITDB_ROOT_PASSWORD={v}",
            "compose",
            "en",
            v,
        )
    )
    v = f.pw()
    r.append(
        S(f"    environment:\n      RABBITMQ_DEFAULT_USER: app\n      RABBITMQ_DEFAULT_PASS: {v}", "compose", "en", v)
    )
    v = f.pw()
    r.append(S(f"<DataSource>\n  <User>app</User>\n  <Password>{v}</Password>\n</DataSource>", "xml", "en", v))
    v = f.pw()
    r.append(
        S(f'<add name="Main" connectionString="Server=sql01;Database=crm;User ID=crm;Password={v};" />', "xml", "en", v)
    )
    v = f.pw()
    r.append(S(f"db.user=report\ndb.pass={v}", "properties", "en", v))
    v = f.pw()
    r.append(S(f"mail.smtp.host=smtp.example.com\nmail.smtp.password = {v}", "properties", "en", v))
    v = f.pw()
    r.append(S(f'resource "aws_db_instance" "main" {{\n  username = "app"\n  password = "{v}"\n}}', "hcl", "en", v))
    v = f.tok(36)
    r.append(S(f"//npm.pkg.github.com/:_authToken={v}", "npmrc", "en", v))
    p = f.pw()
    enc = base64.b64encode(f"ci:{p}".encode()).decode()
    r.append(S(f'{{"auths": {{"ghcr.io": {{"auth": "{enc}"}}}}}}', "docker-config", "en", enc))
    # connection strings
    for scheme, host in (
        ("mssql", "db:1433/app"),
        ("couchdb", "couch:5984"),
        ("mqtt", "broker:1883"),
        ("neo4j+s", "graph.example.com"),
        ("cockroachdb", "crdb:26257/bank"),
        ("sftp", "files.example.com/in"),
        ("ftp", "ftp.example.com/pub"),
    ):
        v = f.pw()
        r.append(S(f"{scheme}://svc:{v}@{host}", "dsn-url", "en", v))
    v = f.pw()
    r.append(S(f"host=pg port=5432 user=app password={v} sslmode=disable", "dsn-kv", "en", v))
    v = f.pw()
    r.append(S(f"Server=sql02;Uid=etl;Pwd={v};", "dsn-odbc", "en", v))
    v = f.pw()
    r.append(S(f"DRIVER={{MySQL ODBC 8.0}};SERVER=db;UID=app;PWD={v}", "dsn-odbc", "en", v))
    v = f.pw()
    r.append(S(f"jdbc:oracle:thin:scott/{v}@db.example.com:1521:ORCL", "dsn-oracle", "en", v))
    v = f.pw()
    r.append(S(f"jdbc:mysql://db/shop?user=app&password={v}&useSSL=true", "dsn-query", "en", v))
    v = f.pw()
    r.append(S(f'db, err := sql.Open("mysql", "app:{v}@unix(/tmp/mysql.sock)/shop")', "dsn-go", "en", v))
    # headers
    v = f.tok(40)
    r.append(S(f'curl -H "X-Auth-Token: {v}" https://api.example.com/v2/servers', "header-key", "en", v))
    v = f.s(URLSAFE, 48)
    r.append(S(f"Cookie: connect.sid=s%3A{v}", "header-cookie", "en", v))
    v = hexs(f, 32)
    r.append(S(f"Ocp-Apim-Subscription-Key: {v}", "header-key", "en", v))
    v = f.tok(32)
    r.append(S(f"api-key: {v}", "header-key", "en", v))
    p = f.pw()
    enc = base64.b64encode(f"admin:{p}".encode()).decode()
    r.append(S(f"authorization: basic {enc}", "header-basic", "en", enc))
    # JWTs
    t, body, sig = jwt(f)
    r.append(S(f"use this one for the test: {t}", "jwt", "en", body, sig))
    t, body, sig = jwt(f)
    r.append(S(f"GET /api/me?token={t}", "jwt", "en", body, sig))
    # webhooks
    v = f.s(URLSAFE, 68)
    r.append(S(f"https://discordapp.com/api/webhooks/998877665544332211/{v}", "webhook", "en", v))
    v = f"{f.pin(9)}:AA{f.s(URLSAFE, 33)}"
    r.append(S(f"https://api.telegram.org/bot{v}/getUpdates", "webhook", "en", v))
    v = hexs(f, 64)
    r.append(S(f"webhook: https://oapi.dingtalk.com/robot/send?access_token={v}", "webhook", "en", v))
    v = f.tok(24)
    r.append(S(f"SLACK_WEBHOOK=https://hooks.slack.com/services/T01ZZ9QAB/B07XY12CD/{v}", "webhook", "en", v))
    # command-line flags
    v = f.pw()
    r.append(S(f'mysql -u app -p"{v}" shop', "cli", "en", v))
    v = f.pw()
    r.append(S(f"mysqladmin -uroot -p{v} status", "cli", "en", v))
    v = f.pw()
    r.append(S(f"curl -u :{v} https://registry.example.com/v2/_catalog", "cli", "en", v))
    v = f.pw()
    r.append(S(f"wget --http-user=ci --http-password={v} https://ci.example.com/artifact.zip", "cli", "en", v))
    v = f.pw()
    r.append(S(f"smbclient //nas/share -U backup%{v}", "cli", "en", v))
    v = f.pw()
    r.append(S(f'sqlcmd -S sql01 -U sa -P {v} -Q "select 1"', "cli", "en", v))
    v = f.pw()
    r.append(S(f"gpg --batch --passphrase {v} -d backup.tar.gpg", "cli", "en", v))
    v = f.pw()
    r.append(S(f"openssl rsa -in enc.key -out plain.key -passin pass:{v}", "cli", "en", v))
    v = f.pw()
    r.append(S(f"unzip -P {v} export.zip", "cli", "en", v))
    v = f.tok(40)
    r.append(S(f"kubectl --token={v} get pods -A", "cli", "en", v))
    v = f.pw()
    r.append(S(f"argocd login cd.example.com --username admin --password {v}", "cli", "en", v))
    v = f.tok(40)
    r.append(
        S(f'git -c http.extraHeader="Authorization: Bearer {v}" clone https://git.example.com/x.git', "cli", "en", v)
    )
    v = f.pw()
    r.append(S(f"rabbitmqctl change_password admin {v}", "cli", "en", v))
    # git remotes
    v = f.pw()
    r.append(S(f"git clone https://deploy:{v}@bitbucket.org/acme/web.git", "git-remote", "en", v))
    v = f.tok(40)
    r.append(S(f"git push https://{v}@github.com/acme/web.git main", "git-remote", "en", v))
    # CJK labels
    for text, lang in (
        ("口令：{v}", "zh-Hans"),
        ("新密码设置为 {v}", "zh-Hans"),
        ("密码已改为{v}。", "zh-Hans"),
        ("用户名 admin 密码 {v}", "zh-Hans"),
        ("私钥口令 {v}", "zh-Hans"),
        ("API密钥：{v}", "zh-Hans"),
        ("新密碼是 {v}", "zh-Hant"),
        ("金鑰為 {v}", "zh-Hant"),
        ("PW は {v}", "ja"),
        ("パスは「{v}」", "ja"),
        ("シークレットキーは {v} です", "ja"),
        ("비번은 {v}", "ko"),
        ("패스워드는 {v} 입니다", "ko"),
        ("시크릿 키는 {v}", "ko"),
        ("암호: {v}", "ko"),
    ):
        v = f.pw()
        r.append(S(text.format(v=v), "cjk-label", lang, v))
    # label and value apart
    v = f.pw()
    r.append(S(f"DB password changed. The new one is {v}", "split", "en", v))
    v = f.tok()
    r.append(S(f"Here's the API key for staging.\n{v}", "split", "en", v))
    v = f.pw()
    r.append(S(f"密码我单独发：\n\n{v}", "split", "zh-Hans", v))
    v = f.tok()
    r.append(S(f"トークン再発行しました：\n{v}", "split", "ja", v))
    # punctuation inside
    v = punct(f)
    r.append(S(f"the wifi password is {v}", "punct", "en", v))
    v = punct(f)
    r.append(S(f"pass: {v}", "punct", "en", v))
    v = punct(f)
    r.append(S(f"新密码：{v}", "punct", "zh-Hans", v))
    # round two, written before the rules for round one's misses: the structures those rules claim
    v = f.pw()
    r.append(
        S(
            f"        env:\n          - name: DB_PASSWORD\n            value: {v}\n          - name: DB_HOST\n            value: pg",
            "k8s-env",
            "en",
            v,
        )
    )
    v = f.tok()
    r.append(
        S(f'[{{"name": "STRIPE_SECRET", "value": "{v}"}}, {{"name": "REGION", "value": "eu"}}]', "name-value", "en", v)
    )
    v = f.pw()
    r.append(S(f"CREATE USER 'report'@'%' IDENTIFIED BY '{v}';", "sql", "en", v))
    v = f.pw()
    r.append(S(f"ALTER ROLE app WITH LOGIN PASSWORD '{v}';", "sql", "en", v))
    v = f.pw()
    r.append(S(f"requirepass {v}\nmaxmemory 2gb", "config-line", "en", v))
    v = f.pw()
    r.append(S(f'dsn = "etl:{v}@tcp(10.0.0.5:3306)/warehouse"', "dsn-go", "en", v))
    v = f.pw()
    r.append(S(f"bcp dbo.orders out orders.dat -S sql01 -U etl -P {v} -c", "cli", "en", v))
    v = f.pw()
    r.append(S(f"expdp system/{v}@ORCLPDB schemas=HR directory=DP", "dsn-oracle", "en", v))
    v = f.tok(40)
    r.append(S(f"remote: https://{v}@gitlab.example.com/acme/api.git", "git-remote", "en", v))
    v = f.pw()
    r.append(S(f"rpcclient -U ops%{v} 10.0.0.9", "cli", "en", v))
    v = f.pw()
    r.append(S(f"<credentials><secret>{v}</secret></credentials>", "xml", "en", v))
    v = f.pw()
    r.append(S(f"rabbitmqctl set_user_password svc {v}", "cli", "en", v))
    # round three, written after round two's rules to break them: other grammars with a credential slot
    v = f.tok(36)
    r.append(S(f"git config --global github.token {v}", "cli-set", "en", v))
    v = f.tok(36)
    r.append(S(f"yarn config set npmAuthToken {v}", "cli-set", "en", v))
    v = f.pw()
    r.append(S(f'gh secret set DEPLOY_PASSWORD --body "{v}"', "cli-set", "en", v))
    v = f.s(ALNUM, 8) + " " + f.s(ALNUM, 5) + " 42 " + f.s(ALNUM, 6) + "!"
    r.append(S(f'passphrase: "{v}"', "punct", "en", v))
    v = f.s(URLSAFE, 40)
    r.append(S(f"Cookie: lang=en; PHPSESSID={v}", "header-cookie", "en", v))
    v = f.tok(40)
    r.append(S(f'curl -b "auth_token={v}" https://app.example.com/me', "header-cookie", "en", v))
    v = f.tok(32)
    r.append(S(f"https://ci.example.com/api/hooks/{v}", "webhook", "en", v))
    v = f.tok(32)
    r.append(S(f"https://maps.example.com/v1/geocode?q=paris&apikey={v}", "url-query", "en", v))
    v = f.pw()
    r.append(S(f"密码是「{v}」", "cjk-label", "zh-Hans", v))
    v = f.pw()
    r.append(S(f'비밀번호 "{v}" 로 로그인하세요', "cjk-label", "ko", v))
    v = f.pw()
    r.append(S(f'{{"http-basic": {{"repo.example.com": {{"username": "ci", "password": "{v}"}}}}}}', "json", "en", v))
    v = f.tok(40)
    r.append(
        S(f"az ad sp create-for-rbac ... then: az login --service-principal -u app -p {v} --tenant t1", "cli", "en", v)
    )
    return r


def lookalikes() -> list[dict[str, object]]:
    return [
        L("git show 7c3f2a9e4b1d8f6a0c5e2b9d4f7a1c3e6b8d0f2a", "hash", "en"),
        L("git revert abc1234 def5678", "hash", "en"),
        L("Change-Id: I8473b95934b5732ac55d26311a706c9c2bde9940", "hash", "en"),
        L('checksum = "4c2b8e1a9f3d7c6b5a4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a"', "hash", "en"),
        L("github.com/pkg/errors v0.9.1 h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=", "hash", "en"),
        L(
            "FROM node:20.11.1-bookworm-slim@sha256:bf3a3c1f1b8b9c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d",
            "hash",
            "en",
        ),
        L("request-id: 1b4e28ba-2fa1-11d2-883f-0016d3cca427", "uuid", "en"),
        L('{"id": "f47ac10b-58cc-4372-a567-0e02b2c3d479", "name": "report"}', "uuid", "en"),
        L("trace_id=6ba7b810-9dad-11d1-80b4-00c04fd430c8 span=1", "uuid", "en"),
        L("bumped to v1.2.3-rc.1+build.45", "version", "en"),
        L("python==3.11.8, numpy==1.26.4", "version", "en"),
        L("credentials live in ~/.aws/credentials and ~/.docker/config.json", "path", "en"),
        L("mounted at /run/secrets/db_password", "path", "en"),
        L("client cert ./certs/client.key, ca ./certs/ca.pem", "path", "en"),
        L('<img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=">', "base64", "en"),
        L("echo SGVsbG8sIFdvcmxkIQ== | base64 -d", "base64", "en"),
        L("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA5eTn8Wv0q9Jf4vY3x2Lr1mN0pQ ops@bastion", "public-key", "en"),
        L("password reset link expired, request a new one", "word", "en"),
        L("Forgot password?", "word", "en"),
        L("请输入新密码", "word", "zh-Hans"),
        L("パスワードが違います", "word", "ja"),
        L("비밀번호가 틀렸습니다", "word", "ko"),
        L('"password": {"type": "string", "minLength": 12}', "json", "en"),
        L("password_hash = bcrypt.hashpw(password, bcrypt.gensalt())", "code", "en"),
        L("def check_password(pw: str) -> bool:", "code", "en"),
        L("password: ${POSTGRES_PASSWORD}", "placeholder", "en"),
        L('token: "{{ vault_token }}"', "placeholder", "en"),
        L("API_KEY=your_api_key_here", "placeholder", "en"),
        L("password=<redacted>", "placeholder", "en"),
        L("DB_PASSWORD=***", "placeholder", "en"),
        L("secret: REPLACE_ME", "placeholder", "en"),
        L("Authorization: Bearer {token}", "placeholder", "en"),
        L("mongodb://user:password@localhost:27017/test", "placeholder", "en"),
        L("postgresql:///app?host=/var/run/postgresql", "dsn", "en"),
        L("Server=db;Database=crm;Trusted_Connection=True;", "dsn", "en"),
        L("sqlite:///data/app.db", "dsn", "en"),
        L("mysql -u root -p shop < dump.sql", "cli", "en"),
        L("docker login ghcr.io", "cli", "en"),
        L("sshpass -f ~/.pw ssh ops@bastion", "cli", "en"),
        L("openssl req -new -key server.key -out server.csr", "cli", "en"),
        L("gpg --batch --passphrase-file pw.txt -d backup.tar.gpg", "cli", "en"),
        L("kubectl get secret db -o yaml", "cli", "en"),
        L("git remote -v", "cli", "en"),
        L("Cache-Control: no-cache\nAccept: */*", "header", "en"),
        L("Cookie: _ga=GA1.2.1234567890.1700000000", "header", "en"),
        L("the JWT header is eyJhbGciOiJIUzI1NiJ9", "jwt", "en"),
        L("max_tokens=4096, token_limit: 8192", "count", "en"),
        L("secret_santa_2024.xlsx is on the drive", "path", "en"),
        L("令牌桶算法每秒补充 100 个令牌", "word", "zh-Hans"),
        L("密碼至少 12 碼", "word", "zh-Hant"),
        # round two look-alikes
        L(
            "        env:\n          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef: {name: db, key: password}",
            "k8s-env",
            "en",
        ),
        L("CREATE USER 'report'@'%' IDENTIFIED BY PASSWORD;", "sql", "en"),
        L("ALTER USER app WITH PASSWORD NULL;", "sql", "en"),
        L("requirepass ${REDIS_PASSWORD}", "config-line", "en"),
        L("uses: actions/checkout@v4", "git-remote", "en"),
        L("npm i @types/node@20.11.5", "version", "en"),
        L("docker run -p 8080:80 -v /data:/data nginx", "cli", "en"),
        L("ssh -p 2222 -w 0:0 ops@bastion", "cli", "en"),
        L("mkdir -p build/Release2 && cp -p src/a.c build/", "cli", "en"),
        L("<password-policy><min-length>12</min-length></password-policy>", "xml", "en"),
        L("<secret>${SMTP_SECRET}</secret>", "xml", "en"),
        L("git clone https://alice@github.com/acme/web.git", "git-remote", "en"),
        L('dsn = "etl@tcp(10.0.0.5:3306)/warehouse"', "dsn-go", "en"),
        L("rabbitmqctl list_users", "cli", "en"),
        L("sqlplus / as sysdba", "dsn-oracle", "en"),
        L("see docs/auth/password/reset.md", "path", "en"),
        # round three look-alikes
        L('git config --global user.name "Bob Lee"', "cli-set", "en"),
        L("yarn config set registry https://registry.example.com", "cli-set", "en"),
        L("gh secret set DEPLOY_KEY < deploy_key.pem", "cli-set", "en"),
        L('passphrase: "${BACKUP_PASSPHRASE}"', "placeholder", "en"),
        L("https://maps.example.com/v1/geocode?q=paris&apikey=YOUR_KEY", "placeholder", "en"),
        L("https://docs.example.com/api/hooks/overview", "url", "en"),
        L("密码是「不告诉你」", "word", "zh-Hans"),
        L("git config --global core.autocrlf input", "cli-set", "en"),
    ]


def main() -> None:
    rows = secrets(Fake(20261207_4)) + lookalikes()
    with (HERE / "dev-3.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = sum(1 for r in rows if r["secret"])
    print(f"dev-3: {n} secrets, {len(rows) - n} look-alikes")


if __name__ == "__main__":
    main()
