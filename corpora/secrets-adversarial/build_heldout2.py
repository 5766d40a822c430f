"""Write heldout-2.jsonl: a second held-out split, other constructions than dev and heldout.

Written on 2026-12-07 (13:30 UTC) by the helper of issue 32's second round, before any
detection code of that round was changed, and run once on the old code (main at 49dde18) and
once at the end; never tuned on.  Every value is FAKE (``build.Fake``, another seed).

A case may list ``turns`` instead of one text: the turns of a conversation, each redacted on its
own (as the transcript reader does); its ``text`` is the turns joined by blank lines (what a
scanner that sees one text gets).  ``python corpora/secrets-adversarial/build_heldout2.py``
rewrites the file.
"""

from __future__ import annotations

import base64
import json
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from build import ALNUM, HERE, URLSAFE, Fake, L, S

HEX = "0123456789abcdef"
UPPER_ALNUM = string.ascii_uppercase + string.digits


def T(turns: list[str], secret: bool, shape: str, lang: str, *values: str) -> dict[str, object]:
    """A case of several turns."""
    row = S("\n\n".join(turns), shape, lang, *values) if secret else L("\n\n".join(turns), shape, lang)
    row["turns"] = turns
    return row


def hexs(f: Fake, n: int) -> str:
    return "".join(f.r.choice(HEX) for _ in range(n))


def secrets(f: Fake) -> list[dict[str, object]]:
    rows = []
    # -- a label, then a relative clause or aside, then the value -------------------------------------
    v = f.pw()
    rows.append(S(f"the password we use for staging, which Bob set last week, is {v}", "label-relative", "en", v))
    v = f.tok()
    rows.append(S(f"The token that the CI bot uses to push tags is {v}", "label-relative", "en", v))
    v = f.tok()
    rows.append(S(f"the key I generated for the metrics exporter yesterday: {v}", "label-relative", "en", v))
    v = f.pw()
    rows.append(S(f"Admin password (the one Priya rotated on Monday) = {v}", "label-relative", "en", v))
    v = f.pw()
    rows.append(S(f"我们给测试环境用的那个数据库密码，就是上周小王改的那个，是 {v}", "label-relative", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"運維組上個月發給我們的那把 API 金鑰：{v}", "label-relative", "zh-Hant", v))
    v = f.pw()
    rows.append(S(f"先週田中さんが設定した本番サーバーのパスワードは {v} です", "label-relative", "ja", v))
    v = f.pw()
    rows.append(S(f"지난주에 민수가 바꾼 스테이징 서버 비밀번호는 {v} 이에요", "label-relative", "ko", v))
    # -- the value in the next clause or on the next line ------------------------------------------------
    v = f.pw()
    rows.append(S(f"密码如下：\n{v}", "next-line", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"I found the deploy token, here it is: {v}", "next-clause", "en", v))
    v = f.tok()
    rows.append(S(f"Got the vault root token. It's {v}.", "next-clause", "en", v))
    v = f.pw()
    rows.append(S(f"新的 Redis 密码我发你了，记一下：{v}", "next-clause", "zh-Hans", v))
    v = f.tok()
    rows.append(S(f"the API key for sentry is on the next line\n\n{v}\n\nplease don't commit it", "next-line", "en", v))
    v = f.pw()
    rows.append(S(f"パスワードは以下の通りです。\n{v}", "next-line", "ja", v))
    v = f.pw()
    rows.append(S(f"비밀번호 알려드릴게요.\n{v}", "next-line", "ko", v))
    # -- access key / secret key pairs ------------------------------------------------------------------
    a, b = "LTAI" + f.s(ALNUM, 20), f.s(ALNUM, 30)
    rows.append(S(f"AK: {a}, SK: {b}", "ak-sk", "mixed", a, b))
    a, b = "LTAI" + f.s(ALNUM, 20), f.s(ALNUM, 30)
    rows.append(S(f"AccessKeyId / AccessKeySecret: {a} / {b}", "ak-sk", "en", a, b))
    a, b = "AKID" + f.s(ALNUM, 32), f.s(ALNUM, 32)
    rows.append(S(f"腾讯云 SecretId：{a}，SecretKey：{b}", "ak-sk", "zh-Hans", a, b))
    a, b = f.s(UPPER_ALNUM, 20), f.s(ALNUM, 40)
    rows.append(S(f"华为云的 AK/SK 分别是 {a} 和 {b}", "ak-sk", "zh-Hans", a, b))
    a, b = "LTAI" + f.s(ALNUM, 20), f.s(ALNUM, 30)
    rows.append(S(f"ossutil config -e oss-cn-hangzhou.aliyuncs.com -i {a} -k {b}", "ak-sk-shell", "en", a, b))
    # -- shell command lines ------------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"mysql -h db.internal -u root -p{v} app", "shell", "en", v))
    v = f.pw()
    rows.append(S(f"curl -u deploy:{v} https://ci.example.com/api/json", "shell", "en", v))
    v = f.tok()
    rows.append(S(f"./release.sh --token={v} --dry-run", "shell", "en", v))
    v = f.tok()
    rows.append(S(f"export BUILDKITE_AGENT_TOKEN={v}", "shell", "en", v))
    v = f.pw()
    rows.append(S(f"then `sshpass -p '{v}' ssh ops@bastion` and you're in", "shell", "en", v))
    v = f.tok()
    rows.append(S(f"docker login -u ci -p {v} registry.example.com", "shell", "en", v))
    v = f.pw()
    rows.append(S(f"redis-cli -h cache -a {v} ping", "shell", "en", v))
    v = f.pw()
    rows.append(S(f'psql "host=db.internal user=app password={v} dbname=prod"', "shell", "en", v))
    v = f.pw()
    rows.append(S(f"wget --user=me --password={v} ftp://files.internal/dump.sql.gz", "shell", "en", v))
    # -- in a file name, a path or a query --------------------------------------------------------------
    v = f.tok()
    rows.append(S(f"I named the backup `vault-token-{v}.json` so I wouldn't lose it", "file-name", "en", v))
    v = f.s(URLSAFE, 68)
    rows.append(S(f"the alert hook: https://discord.com/api/webhooks/1203948576612345678/{v}", "url-path", "en", v))
    v = f.tok()
    rows.append(S(f"the reset link was https://app.example.com/reset?token={v}&u=42", "url-query", "en", v))
    # -- in tool output --------------------------------------------------------------------------------
    p, t = f.pw(), f.tok()
    env = f"$ cat .env\nNODE_ENV=production\nDATABASE_URL=postgres://app:{p}@db:5432/app\nSESSION_SECRET={t}\nPORT=3000"
    rows.append(S(env, "tool-env", "en", p, t))
    v = hexs(f, 128)
    rows.append(
        S(
            f"=== shop-api Config Vars\nLOG_LEVEL:       info\nSECRET_KEY_BASE: {v}\nWEB_CONCURRENCY: 2",
            "tool-config",
            "en",
            v,
        )
    )
    pw = f.pw()
    enc = base64.b64encode(pw.encode()).decode()
    rows.append(
        S(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n"
            f"data:\n  username: YXBw\n  password: {enc}\ntype: Opaque",
            "tool-k8s-secret",
            "en",
            enc,
        )
    )
    v = "hf_" + f.s(ALNUM, 34)
    rows.append(S(f"$ printenv | grep -i hf\nHF_HOME=/data/hf\nHF_TOKEN={v}", "tool-env", "en", v))
    # -- inside a code fence -------------------------------------------------------------------------------
    v = f.tok()
    rows.append(S(f'```python\nclient = Client(api_key="{v}")\n```', "fence", "en", v))
    v = f.pw()
    rows.append(S(f"```ini\n[smtp]\nuser = alerts\nsecret = {v}\n```", "fence", "en", v))
    v = "hvs." + f.s(URLSAFE, 90)
    rows.append(S(f"```\nVAULT_ADDR=https://vault.internal:8200\nVAULT_TOKEN={v}\n```", "fence", "en", v))
    # -- pasted twice ---------------------------------------------------------------------------------------
    v = f.pw()
    rows.append(S(f"password: {v}\n\n(again, in case it got cut off)\n{v}", "twice", "en", v))
    v = f.tok()
    rows.append(S(f"令牌：{v}\n上面那条可能被截断了，再贴一次：{v}", "twice", "zh-Hans", v))
    # -- split across turns --------------------------------------------------------------------------------------
    v = f.pw()
    rows.append(T(["What's the Jenkins admin password?", f"it's {v}"], True, "turns", "en", v))
    v = f.pw()
    rows.append(T(["the staging db password is in my next message", f"here: {v}"], True, "turns", "en", v))
    v = f.tok()
    rows.append(T(["Gitea 的访问令牌发你", f"{v} 这个"], True, "turns", "zh-Hans", v))
    v = f.pw()
    rows.append(T(["サーバーのパスワード教えて", f"{v} だよ"], True, "turns", "ja", v))
    # -- Japanese / Korean / traditional Chinese with other particles and verbs ----------------------------
    v = f.tok()
    rows.append(S(f"本番の API トークンなら {v} だよ", "label-particle", "ja", v))
    v = f.pw()
    rows.append(S(f"ステージングのDBパスワード、{v} になってます", "label-particle", "ja", v))
    v = f.pw()
    rows.append(S(f"관리자 비번이라면 {v} 이거예요", "label-particle", "ko", v))
    v = f.tok()
    rows.append(S(f"배포 토큰으로 {v} 을 쓰세요", "label-particle", "ko", v))
    v = f.pw()
    rows.append(S(f"測試機的 root 密碼改好了，新的是 {v}", "label-particle", "zh-Hant", v))
    v = f.pw()
    rows.append(S(f"那組帳密：admin／{v}", "label-particle", "zh-Hant", v))
    return rows


def lookalikes() -> list[dict[str, object]]:
    """What the new rules must leave alone.

    Decision on default and placeholder passwords (``changeme``, ``password``, ``admin``,
    ``<your-token>``, ``xxxx``): look-alikes.  They are public defaults or slots to fill, the
    fact that a default is ``changeme`` is worth keeping, and hiding them protects nothing.
    """
    return [
        # hashes, ids, versions, ports
        L("sha1 of the release tarball: 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12", "hash", "en"),
        L("md5sum: d41d8cd98f00b204e9800998ecf8427e  empty.txt", "hash", "en"),
        L("reverted a1b2c3d (fix token refresh)", "hash", "en"),
        L("session_id=3f2504e0-4f89-11d3-9a0c-0305e82c3301 in the failing request", "uuid", "en"),
        L("trace id 4bf92f3577b34da6a3ce929d0e0e4736, span 00f067aa0ba902b7", "id", "en"),
        L("the key of that row is order-2024-000317", "id", "en"),
        L("bumped the token library to v2.31.0", "version", "en"),
        L("password-hash 3.1.2 fixes the timing leak", "version", "en"),
        L("the password service listens on :8443", "port", "en"),
        L("密钥服务的端口是 8200", "port", "zh-Hans"),
        L("ssh -p 2222 ops@bastion", "shell-port", "en"),
        L("mysql -h db -P 3306 -u root -p app", "shell-prompt", "en"),
        # placeholders and defaults
        L("export API_TOKEN=<your-token>", "placeholder", "en"),
        L("the default admin password is changeme", "default", "en"),
        L("password: changeme", "default", "en"),
        L("--token=$GITHUB_TOKEN", "placeholder", "en"),
        L('curl -H "Authorization: Bearer ${TOKEN}" https://api.example.com', "placeholder", "en"),
        L("token: {{ .Values.token }}", "placeholder", "en"),
        L("set VAULT_TOKEN=%VAULT_TOKEN% before running", "placeholder", "en"),
        L("AccessKeyId: <your-access-key-id>", "placeholder", "en"),
        L("密码：xxxxxxxx（自己填）", "placeholder", "zh-Hans"),
        L("docker login -u ci --password-stdin < token.txt", "shell", "en"),
        # shell lines with no secret
        L("curl -u deploy https://ci.example.com/api/json", "shell-prompt", "en"),
        L("./release.sh --token-file=/run/secrets/release_token --dry-run", "shell-path", "en"),
        L("export TOKEN_TTL=3600", "shell", "en"),
        L("grep -rn password src/ | wc -l", "shell", "en"),
        L("git log -p -3 -- auth/token.py", "shell", "en"),
        L('psql "host=db.internal user=app dbname=prod"', "shell", "en"),
        # file names and paths
        L("see secrets/db_password.txt for where it is mounted", "path", "en"),
        L("the logs are in token_refresh_2024-05-01.log", "path", "en"),
        L("https://discord.com/api/webhooks (docs page)", "url", "en"),
        # tool output and code without a secret
        L("$ cat .env.example\nDATABASE_URL=postgres://app@localhost/app\nSECRET_KEY=\nDEBUG=true", "tool-env", "en"),
        L('```python\napi_key = os.environ["API_KEY"]\n```', "fence", "en"),
        L("```\nPASSWORD_MIN_LENGTH=12\nTOKEN_EXPIRY_SECONDS=900\n```", "fence", "en"),
        # relative clauses and next lines without a value
        L("the password that Bob set expires next Friday", "label-relative", "en"),
        L("the token we use for staging, which Bob created, is stored in 1Password", "label-relative", "en"),
        L("密码如下：\n（请找运维要）", "next-line", "zh-Hans"),
        L("here it is: https://wiki.example.com/onboarding", "next-clause", "en"),
        L("AK/SK 要在控制台的 AccessKey 管理页面创建", "ak-sk", "zh-Hans"),
        L("AccessKeyId 和 AccessKeySecret 放在 ~/.aliyun/config.json", "ak-sk", "zh-Hans"),
        # other languages, other particles
        L("パスワードなら管理者に聞いてください", "label-particle", "ja"),
        L("비밀번호라면 관리자에게 물어보세요", "label-particle", "ko"),
        L("密碼改好了，新的已經寄到你信箱", "label-particle", "zh-Hant"),
        L("トークンの有効期限は 3600 秒です", "count", "ja"),
        L("토큰으로 로그인하는 기능을 추가했어요", "label-particle", "ko"),
        # turns without a secret
        T(["what's the password policy?", "at least 12 characters, one symbol"], False, "turns", "en"),
        T(["which port is the vault on?", "8200"], False, "turns", "en"),
        T(["which commit broke the token refresh?", "9f8e7d6c5b4a"], False, "turns", "en"),
        T(["what's the image tag?", "it's v2.3.1-rc4"], False, "turns", "en"),
        # the same id twice
        L(
            "request 550e8400-e29b-41d4-a716-446655440000 failed, retried 550e8400-e29b-41d4-a716-446655440000",
            "twice",
            "en",
        ),
    ]


def main() -> None:
    rows = secrets(Fake(20261207_2)) + lookalikes()
    with (HERE / "heldout-2.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = sum(1 for r in rows if r["secret"])
    print(f"heldout-2: {n} secrets, {len(rows) - n} look-alikes")


if __name__ == "__main__":
    main()
