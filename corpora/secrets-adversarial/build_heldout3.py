# ruff: noqa: E501  (a case is one line of text, kept whole to be read as written)
"""Write heldout-3.jsonl and heldout-3b.jsonl: a third held-out split, in two halves.

Written on 2026-12-07 (16:05 UTC) by the helper of issue 32's third round, before any detection
code of that round was changed.  Its cases are the shapes other people paste: credentials inside
JSON / YAML / TOML / ``.env`` / INI / XML / properties snippets and docker-compose files,
connection strings of many databases and brokers (user information in any scheme, ``password=``
inside a DSN, ODBC ``Pwd=``, JDBC, ADO.NET, a Kafka JAAS line), HTTP ``Authorization`` /
``Cookie`` / API-key headers, JWTs, webhook URLs with the token in the path or the query, command
line flags of many tools (``-p'…'``, ``--password=``, ``PGPASSWORD=… pg_dump``, ``-w``, ``-P``,
``-passout pass:``, ``--from-literal``), tokens in git remote URLs, labels in zh-Hans / zh-Hant /
ja / ko with other particles and verbs, a label and its value in different sentences or lines,
and values with punctuation inside.

The cases are drawn in one list and dealt alternately into two halves: ``heldout-3.jsonl`` is run
on the old code (before) and at the end; ``heldout-3b.jsonl`` is run only at the end.  Neither is
looked at while tuning.  Every value is FAKE (``build.Fake``, another seed).

Look-alikes (must not be redacted): commit ids and content hashes, UUIDs (also as request ids),
versions and image tags, file paths, base64 of public data (a PNG header, an SRI integrity hash,
an SSH public key), the word password with no value, connection strings and command lines with no
password (or one read from a prompt, a file, stdin or a variable), and placeholders.  Decision,
as in heldout-2: defaults and slots to fill (``changeme``, ``xxx``, ``<your-token>``,
``YOUR_API_KEY``, ``********``, ``${VAR}``, ``${{ secrets.X }}``) are look-alikes, since they
are public and hiding them protects nothing; Slack's documented example webhook
(``T00000000/B00000000/XXXXXXXX…``) likewise.

``python corpora/secrets-adversarial/build_heldout3.py`` rewrites both files.
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
LOWER_ALNUM = string.ascii_lowercase + string.digits


def hexs(f: Fake, n: int) -> str:
    return "".join(f.r.choice(HEX) for _ in range(n))


def punct(f: Fake) -> str:
    """A password with punctuation inside (the characters a naive value rule stops at)."""
    core = f.s(ALNUM, 10)
    a, b = f.r.sample(";,:/'.()[]=-", 2)
    return core[:3] + a + core[3:7] + b + core[7:]


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(f: Fake) -> tuple[str, str, str]:
    head = b64url(b'{"alg":"HS256","typ":"JWT"}')
    body = b64url(json.dumps({"sub": str(f.pin(7)), "name": "ops", "iat": 1765000000 + int(f.pin(5))}).encode())
    sig = f.s(URLSAFE, 43)
    return f"{head}.{body}.{sig}", body, sig


def secrets(f: Fake) -> list[dict[str, object]]:
    rows = []
    # -- structured snippets -----------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f'{{"db": {{"host": "db.internal", "user": "app", "pass": "{v}"}}}}', "json", "en", v))
    v = f.tok(40)
    rows.append(S(f'{{"clientId":"billing-web","clientSecret":"{v}","scopes":["read"]}}', "json", "en", v))
    v = punct(f)
    rows.append(
        S(
            f"spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n    username: app\n    password: '{v}'",
            "yaml",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(S(f'smtp:\n  auth:\n    user: alerts@example.com\n    pass: "{v}"', "yaml", "en", v))
    v = f.pw()
    rows.append(S(f'[database]\nhost = "db.internal"\nport = 5432\npassword = "{v}"', "toml", "en", v))
    v = f.tok()
    rows.append(S(f'[http-basic.private]\nusername = "ci"\npassword = "{v}"', "toml", "en", v))
    v = "key-" + hexs(f, 32)
    rows.append(S(f"MAILGUN_DOMAIN=mg.example.com\nMAILGUN_API_KEY={v}\nMAILGUN_REGION=eu", "env", "en", v))
    v = f.pw()
    rows.append(S(f'DB_HOST=db\nDB_PASS="{v}"  # prod, rotate in March\nDB_NAME=shop', "env", "en", v))
    v = punct(f)
    rows.append(S(f'[client]\nuser=root\npassword="{v}"\nhost=127.0.0.1', "ini", "en", v))
    v = f.tok()
    rows.append(S(f"[global]\nindex-url = https://__token__:{v}@pypi.example.com/simple", "ini", "en", v))
    v = f.pw()
    rows.append(
        S(
            "services:\n  db:\n    image: postgres:16\n    environment:\n"
            f"      - POSTGRES_USER=app\n      - POSTGRES_PASSWORD={v}\n",
            "compose",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(
        S(
            f"services:\n  mysql:\n    image: mysql:8.4\n    environment:\n      MYSQL_ROOT_PASSWORD: {v}\n"
            "      MYSQL_DATABASE: app",
            "compose",
            "en",
            v,
        )
    )
    v = f.s(B64, 40)
    rows.append(S(f"//registry.example.com/:_auth={v}\nalways-auth=true", "npmrc", "en", v))
    v = f.pw()
    rows.append(
        S(
            f"<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>{v}</password>\n</server>",
            "xml",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(S(f"spring.datasource.url=jdbc:mysql://db/app\nspring.datasource.password={v}", "properties", "en", v))
    v = f.pw()
    rows.append(S(f'admin_password = "{v}"\nregion = "eu-west-1"', "tfvars", "en", v))
    v = f.tok()
    rows.append(S(f"stringData:\n  api-key: {v}\n  region: eu", "k8s", "en", v))
    v = f.pw()
    rows.append(S(f'  <add key="SmtpPassword" value="{v}" />', "xml", "en", v))
    # -- connection strings ---------------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"mongodb+srv://admin:{v}@cluster0.ab1cd.mongodb.net/test?retryWrites=true", "dsn-url", "en", v))
    v = f.pw()
    rows.append(S(f"CELERY_BROKER_URL=amqp://worker:{v}@rabbit.internal:5672/jobs", "dsn-url", "en", v))
    v = f.pw()
    rows.append(S(f"engine = create_engine('mysql+pymysql://app:{v}@db/app')", "dsn-url", "en", v))
    v = f.pw()
    rows.append(S(f"jdbc:sqlserver://db:1433;databaseName=app;user=sa;password={v};encrypt=true", "dsn-kv", "en", v))
    v = punct(f).replace(";", "!")
    rows.append(
        S(
            f"Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:db,1433;Database=app;Uid=app;Pwd={v};Encrypt=yes",
            "dsn-odbc",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(
        S(f'"ConnectionStrings": {{ "Main": "Server=db;Database=app;User Id=sa;Password={v};" }}', "dsn-kv", "en", v)
    )
    v = f.pw()
    rows.append(S(f"sqlplus scott/{v}@//db.internal:1521/ORCL", "dsn-oracle", "en", v))
    v = f.pw()
    rows.append(
        S(
            "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
            f'username="app" password="{v}";',
            "dsn-jaas",
            "en",
            v,
        )
    )
    v = f.pw()
    rows.append(S(f"nats://svc:{v}@nats.internal:4222", "dsn-url", "en", v))
    v = f.pw()
    rows.append(S(f"clickhouse://default:{v}@ch.internal:9000/metrics", "dsn-url", "en", v))
    v = f.pw()
    rows.append(S(f"postgresql://app@db.internal/app?sslmode=require&password={v}", "dsn-query", "en", v))
    v = f.pw()
    rows.append(S(f"Data Source=db;Initial Catalog=app;User ID=sa;Pwd={v}", "dsn-kv", "en", v))
    v = f.pw()
    rows.append(S(f"SMTP_URL=smtp://alerts%40example.com:{v}@smtp.example.com:587", "dsn-url", "en", v))
    v = f.pw()
    rows.append(S(f"ES_HOSTS=https://elastic:{v}@es.internal:9200", "dsn-url", "en", v))
    v = f.pw()
    rows.append(S(f'dsn := "app:{v}@tcp(db:3306)/shop?parseTime=true"', "dsn-go", "en", v))
    v = f.pw()
    rows.append(S(f"REDIS_URL=rediss://default:{v}@cache.internal:6380/0", "dsn-url", "en", v))
    # -- HTTP headers -----------------------------------------------------------------------------------------
    p = f.pw()
    enc = base64.b64encode(f"deploy:{p}".encode()).decode()
    rows.append(S(f"Authorization: Basic {enc}", "header-basic", "en", enc))
    v = f.tok(40)
    rows.append(S(f"curl -s -H 'Authorization: Bearer {v}' https://api.example.com/v1/me", "header-bearer", "en", v))
    a, b = f.s(LOWER_ALNUM, 32), f.tok(32)
    rows.append(S(f"Cookie: sessionid={a}; csrftoken={b}", "header-cookie", "en", a))
    v = f.tok()
    rows.append(S(f'http GET api.example.com/items "X-Api-Key: {v}"', "header-key", "en", v))
    p = f.pw()
    enc = base64.b64encode(f"proxy:{p}".encode()).decode()
    rows.append(S(f"Proxy-Authorization: Basic {enc}", "header-basic", "en", enc))
    v = f.s(URLSAFE, 40)
    rows.append(S(f"Set-Cookie: _session_id={v}; Path=/; Secure; HttpOnly", "header-cookie", "en", v))
    v = hexs(f, 40)
    rows.append(S(f"Authorization: Token {v}", "header-token", "en", v))
    v = f.s(URLSAFE, 20)
    rows.append(
        S(f'curl --header "PRIVATE-TOKEN: {v}" https://gitlab.example.com/api/v4/projects', "header-key", "en", v)
    )
    # -- JWTs ---------------------------------------------------------------------------------------------------------
    t, body, sig = jwt(f)
    rows.append(S(f"here's the bearer I copied from devtools {t} — expires in an hour", "jwt", "en", body, sig))
    t, body, sig = jwt(f)
    rows.append(S(f"https://app.example.com/callback#access_token={t}&token_type=bearer", "jwt", "en", body, sig))
    t, body, sig = jwt(f)
    rows.append(S(f'{{"id_token": "{t}", "expires_in": 3600}}', "jwt", "en", body, sig))
    t, body, sig = jwt(f)
    rows.append(S(f"登录后拿到的 JWT 是 {t}", "jwt", "zh-Hans", body, sig))
    # -- webhooks ---------------------------------------------------------------------------------------------------
    v = f.tok(24)
    rows.append(S(f"https://hooks.slack.com/services/T04AB12CD/B05EF34GH/{v}", "webhook", "en", v))
    v = f"{f.pin(10)}:AA{f.s(URLSAFE, 33)}"
    rows.append(S(f"curl https://api.telegram.org/bot{v}/sendMessage -d chat_id=42", "webhook", "en", v))
    v = hexs(f, 64)
    rows.append(S(f"钉钉机器人：https://oapi.dingtalk.com/robot/send?access_token={v}", "webhook", "zh-Hans", v))
    v = f.s(LOWER_ALNUM, 26)
    rows.append(S(f"mattermost incoming hook https://chat.example.com/hooks/{v}", "webhook", "en", v))
    v = f.s(URLSAFE, 43)
    rows.append(
        S(
            f"https://prod-12.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers&sv=1.0&sig={v}",
            "webhook",
            "en",
            v,
        )
    )
    v = f.tok(32)
    rows.append(
        S(
            f"GitLab trigger: curl -X POST -F token={v} -F ref=main https://gitlab.example.com/api/v4/projects/7/trigger/pipeline",
            "webhook",
            "en",
            v,
        )
    )
    # -- command line flags -------------------------------------------------------------------------------------
    v = punct(f).replace("'", "!")
    rows.append(S(f"mysql -uroot -p'{v}' -h db.internal shop", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"PGPASSWORD='{v}' pg_dump -h db -U app shop > shop.sql", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"mysqldump --user=backup --password={v} --all-databases > all.sql", "cli", "en", v))
    v = f.tok()
    rows.append(S(f"docker login --username ci --password {v} ghcr.io", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"curl --user admin:{v} -X POST https://jenkins.internal/job/deploy/build", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"mongosh --username admin --password {v} --authenticationDatabase admin", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"az login --service-principal -u 5f1c... -p {v} --tenant contoso.onmicrosoft.com", "cli", "en", v))
    v = f.pw()
    rows.append(
        S(f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{v}", "cli", "en", v)
    )
    v = f.pw()
    rows.append(S(f"7z a -p{v} -mhe=on backup.7z ./dumps", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"zip -P {v} -r handoff.zip reports/", "cli", "en", v))
    v = f.pw()
    rows.append(
        S(f'ldapsearch -x -H ldap://ldap.internal -D "cn=admin,dc=example,dc=org" -w {v} "(uid=bob)"', "cli", "en", v)
    )
    v = f.pw()
    rows.append(S(f"mosquitto_pub -h mqtt.internal -u sensor -P {v} -t plant/temp -m 21", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"keytool -importcert -file ca.pem -keystore trust.jks -storepass {v} -noprompt", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"java -Djavax.net.ssl.keyStorePassword={v} -jar service.jar", "cli", "en", v))
    v = f.pw()
    rows.append(
        S(f"kubectl create secret generic db --from-literal=username=app --from-literal=password={v}", "cli", "en", v)
    )
    v = f.s(B64, 40)
    rows.append(S(f"aws configure set aws_secret_access_key {v} --profile prod", "cli", "en", v))
    v = f.tok()
    rows.append(S(f"heroku config:set API_SECRET={v} -a shop-api", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"rabbitmqctl add_user svc-orders {v}", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"helm repo add internal https://charts.internal --username ci --password {v}", "cli", "en", v))
    v = f.pw()
    rows.append(S(f"htpasswd -b -c /etc/nginx/.htpasswd admin {v}", "cli", "en", v))
    # -- git remotes and package indexes ---------------------------------------------------------------------------
    v = f.s(URLSAFE, 20)
    rows.append(S(f"git clone https://oauth2:{v}@gitlab.example.com/team/infra.git", "git-remote", "en", v))
    v = f.tok(40)
    rows.append(S(f"git remote set-url origin https://bob:{v}@github.com/acme/shop.git", "git-remote", "en", v))
    v = f.tok(36)
    rows.append(S(f'[remote "origin"]\n\turl = https://x-access-token:{v}@github.com/acme/api', "git-remote", "en", v))
    v = f.tok()
    rows.append(
        S(f"pip install --extra-index-url https://ci:{v}@pkgs.internal/simple acme-tools", "git-remote", "en", v)
    )
    # -- labels in Chinese, Japanese and Korean with other particles and verbs --------------------------------------
    v = f.pw()
    rows.append(S(f"数据库口令是{v}，别外传", "cjk-label", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"把 root 的登录密码改成了 {v}", "cjk-label", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"秘钥给你：{v}", "cjk-label", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"跳板机密码就用 {v} 吧", "cjk-label", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"访问密钥为{v}，有效期一年", "cjk-label", "zh-Hans", v))
    v = f.pw()
    rows.append(S(f"資料庫密碼設為 {v} 了", "cjk-label", "zh-Hant", v))
    v = f.tok()
    rows.append(S(f"存取權杖：{v}（請勿外流）", "cjk-label", "zh-Hant", v))
    v = f.pw()
    rows.append(S(f"通行碼改成 {v}", "cjk-label", "zh-Hant", v))
    v = f.pw()
    rows.append(S(f"管理画面のパスワードを {v} に変更しました", "cjk-label", "ja", v))
    v = f.tok()
    rows.append(S(f"APIキー：{v}（本番用）", "cjk-label", "ja", v))
    v = f.tok()
    rows.append(S(f"アクセストークンは{v}。", "cjk-label", "ja", v))
    v = f.pw()
    rows.append(S(f"合言葉は「{v}」です", "cjk-label", "ja", v))
    v = f.pw()
    rows.append(S(f"비밀번호를 {v} 로 바꿨어", "cjk-label", "ko", v))
    v = f.tok()
    rows.append(S(f"API 키는 {v} 입니다", "cjk-label", "ko", v))
    v = f.tok()
    rows.append(S(f"액세스 토큰 여기 있어요: {v}", "cjk-label", "ko", v))
    v = f.pw()
    rows.append(S(f"암호는 {v} 야", "cjk-label", "ko", v))
    # -- a label and its value in different sentences or lines ------------------------------------------------------
    v = f.pw()
    rows.append(S(f"The admin password changed again. New one: {v}", "split", "en", v))
    v = f.pw()
    rows.append(S(f"SMTP password — I'll paste it below.\n\n{v}", "split", "en", v))
    v = f.pw()
    rows.append(S(f"堡垒机的密码换了。\n新的：{v}", "split", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"トークンを再発行しました。\n{v}\nこれを使ってください。", "split", "ja", v))
    v = f.pw()
    rows.append(S(f"서버 비밀번호 바뀌었어요. 새 거는 {v} 예요.", "split", "ko", v))
    v = f.tok()
    rows.append(S(f"Need the Grafana API key? Sure.\n{v}", "split", "en", v))
    # -- values with punctuation inside ------------------------------------------------------------------------------------
    v = punct(f)
    rows.append(S(f"the vpn password is {v} (yes, with the punctuation)", "punct", "en", v))
    v = punct(f)
    rows.append(S(f"password: {v}", "punct", "en", v))
    v = punct(f)
    rows.append(S(f"密码：{v}", "punct", "zh-Hans", v))
    v = f.s(ALNUM, 6) + " " + f.s(ALNUM, 6) + " " + f.s(ALNUM, 6)
    rows.append(S(f'passphrase = "{v}"', "punct", "en", v))
    return rows


def lookalikes() -> list[dict[str, object]]:
    png = base64.b64encode(bytes.fromhex("89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61")).decode()
    return [
        # hashes that are commit ids or content hashes
        L("git cherry-pick 3e1f9a2b7c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f onto release/2.4", "hash", "en"),
        L("HEAD is now at 4b825dc642cb6eb9a060e54bf8d69288fbee4904 Merge pull request #412", "hash", "en"),
        L("docker pull nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31", "hash", "en"),
        L(
            '"integrity": "sha512-Gd9BDoq4rqb6Qlx7dJ98Jx4yM1tW2p7HfB7qU0mTn6f8Hh6z1dC8Z5S2pFq4xHkXkBqeQmQn8pR3Tz1pD9t2Mw=="',
            "hash",
            "en",
        ),
        L(
            "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345",
            "hash",
            "en",
        ),
        L('ETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"', "hash", "en"),
        L("修复在提交 9fceb02d0ae598e95dc970b74767f19372d61af8 里", "hash", "zh-Hans"),
        L("コミット 1a410efbd13591db07496601ebc7a059dd55cfe9 で直しました", "hash", "ja"),
        # UUIDs
        L("tenant_id: 72f988bf-86f1-41af-91ab-2d7cd011db47", "uuid", "en"),
        L("X-Request-Id: 9b2c4e8a-1f3d-4c6b-8a7e-2d5f1c9b0e34", "uuid", "en"),
        L('{"requestId": "c0a80101-0000-4000-8000-00000000abcd", "status": 500}', "uuid", "en"),
        L("订单号 e7d3c2b1-5a4f-4e6d-9c8b-7a6f5e4d3c2b 支付失败", "uuid", "zh-Hans"),
        # versions, tags, ports, sizes
        L("image: postgres:16.2-alpine", "version", "en"),
        L('"version": "2.0.0-beta.3+build.5"', "version", "en"),
        L("upgraded python-jose to 3.3.0 and pyjwt to 2.8.0", "version", "en"),
        L("DATABASE_PORT=5432\nREDIS_PORT=6379\nMAX_CONNECTIONS=200", "env", "en"),
        L('{"password_min_length": 12, "token_ttl": 900, "passwordless": true}', "json", "en"),
        # file paths
        L("the key lives at /etc/ssl/private/server.key and the cert next to it", "path", "en"),
        L("ssh -i ~/.ssh/id_ed25519 deploy@10.0.3.7", "path", "en"),
        L(r"C:\Users\me\AppData\Roaming\npm\token-cache.json is stale", "path", "en"),
        L("secrets are mounted under /var/run/secrets/kubernetes.io/serviceaccount/token", "path", "en"),
        # base64 of public data
        L(f'<img src="data:image/png;base64,{png}">', "base64", "en"),
        L("echo aGVsbG8gd29ybGQ= | base64 -d", "base64", "en"),
        L(
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl bob@laptop",
            "public-key",
            "en",
        ),
        # the word with no value
        L("reset your password from the login page, then log in again", "word", "en"),
        L("the password field is required and the token header is optional", "word", "en"),
        L("密码错误，请重试", "word", "zh-Hans"),
        L("パスワードを忘れた場合は管理者に連絡してください", "word", "ja"),
        L("비밀번호를 잊어버렸어요", "word", "ko"),
        L("請輸入密碼後再按確認", "word", "zh-Hant"),
        L("密钥在 KMS 里托管，不落盘", "word", "zh-Hans"),
        L("トークンの発行には管理者権限が必要です", "word", "ja"),
        L("API 키를 발급받으려면 콘솔에 로그인하세요", "word", "ko"),
        # placeholders and defaults
        L("password: <your-password>", "placeholder", "en"),
        L("api_key: YOUR_API_KEY_HERE", "placeholder", "en"),
        L("DB_PASSWORD=changeme", "placeholder", "en"),
        L('password: "********"', "placeholder", "en"),
        L("token: xxx", "placeholder", "en"),
        L("PASSWORD=${DB_PASSWORD}", "placeholder", "en"),
        L("          password: ${{ secrets.REGISTRY_PASSWORD }}", "placeholder", "en"),
        L('password: ""\ntoken: null\nsecret: ~', "placeholder", "en"),
        L("Authorization: Bearer $TOKEN", "placeholder", "en"),
        L("Authorization: Bearer <token>", "placeholder", "en"),
        L("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "placeholder", "en"),
        L("a JWT looks like xxxxx.yyyyy.zzzzz", "placeholder", "en"),
        L("mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/", "placeholder", "en"),
        # connection strings without a password
        L("DATABASE_URL=postgres://localhost:5432/app", "dsn", "en"),
        L("mongodb://db-0.internal:27017,db-1.internal:27017/?replicaSet=rs0", "dsn", "en"),
        L("Server=db;Database=app;Integrated Security=true;TrustServerCertificate=true", "dsn", "en"),
        L("Driver={ODBC Driver 18 for SQL Server};Server=db;Trusted_Connection=yes", "dsn", "en"),
        L("jdbc:postgresql://db:5432/app?user=app&ssl=true", "dsn", "en"),
        L("amqp://rabbit.internal:5672/jobs", "dsn", "en"),
        # command lines without a secret
        L("mysql -u root -p -h db.internal shop", "cli", "en"),
        L("psql -h db -U app -W shop", "cli", "en"),
        L("docker login -u ci --password-stdin ghcr.io < ~/.ghcr", "cli", "en"),
        L("mysqldump --defaults-extra-file=/etc/backup.cnf --all-databases", "cli", "en"),
        L("git clone git@github.com:acme/shop.git", "cli", "en"),
        L("git clone https://github.com/acme/shop.git", "cli", "en"),
        L("openssl rand -hex 32 > jwt.secret", "cli", "en"),
        L("htpasswd -c /etc/nginx/.htpasswd admin", "cli", "en"),
        L("kubectl create secret generic db --from-file=password=./db-password.txt", "cli", "en"),
        L("curl -H 'Accept: application/json' https://api.example.com/v1/health", "cli", "en"),
        L("7z x backup.7z -o./restore", "cli", "en"),
        L("export PGPASSFILE=~/.pgpass", "cli", "en"),
        # headers and cookies without a secret
        L("Cookie: theme=dark; lang=zh-CN", "header", "en"),
        L("Content-Type: application/json\nAccept-Encoding: gzip", "header", "en"),
        # turns of prose about secrets
        L("the token expired at 2024-05-01T10:00:00Z, so I regenerated it in the console", "word", "en"),
        L("令牌过期时间是 3600 秒，刷新令牌是 30 天", "word", "zh-Hans"),
    ]


def main() -> None:
    rows_s = secrets(Fake(20261207_3))
    rows_l = lookalikes()
    halves: list[list[dict[str, object]]] = [[], []]
    for i, row in enumerate(rows_s):
        halves[i % 2].append(row)
    for i, row in enumerate(rows_l):
        halves[i % 2].append(row)
    for name, rows in zip(("heldout-3.jsonl", "heldout-3b.jsonl"), halves, strict=True):
        with (HERE / name).open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        n = sum(1 for r in rows if r["secret"])
        print(f"{name}: {n} secrets, {len(rows) - n} look-alikes")


if __name__ == "__main__":
    main()
