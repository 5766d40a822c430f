"""The e2e dev set's questions, readable: one ``q(...)`` per question; build.py writes questions.jsonl.

Fields: id, project, kind, the question (asked from a fresh session), the answer strings (any
one must reach the session, or all with ``require="all"``), for superseded questions the stale
value(s), and for distractors words that occur in no transcript of the project.  A quarter
of each kind is the held-out split (by the hash of the id), not looked at while tuning.
"""

from __future__ import annotations

import hashlib
from typing import Any

Q: list[dict[str, Any]] = []


def q(
    id: str,
    project: str,
    kind: str,
    question: str,
    answers: Any = (),
    stale: Any = (),
    require: str = "any",
    absent: Any = (),
) -> None:
    d = {"id": id, "project": project, "kind": kind, "question": question}
    if answers:
        d["answers"] = list(answers)
    if require != "any":
        d["require"] = require
    if stale:
        d["stale"] = list(stale)
    if absent:
        d["absent"] = list(absent)
    Q.append(d)


A, B = "lanhai-billing", "tidepool-web"
q("la-i1", A, "instruction", "提交信息有什么格式要求？", ["开头加模块名"])
q("la-i2", A, "instruction", "数据库迁移文件可以手写吗？", ["alembic revision --autogenerate"])
q("la-i3", A, "instruction", "我能直接 force push 到 main 吗？", ["永远走 merge request"])
q("la-i4", A, "instruction", "装命令行工具的时候有什么要注意的？", ["别用 curl 管道装东西"])
q("la-i5", A, "instruction", "PayHarbor 的签名密钥应该放在哪里？", ["PAYHARBOR_WEBHOOK_SECRET"])
q("la-d1", A, "decision", "发票编号加锁为什么不用 advisory lock？", ["transaction 模式", "会串到别的连接上"])
q("la-d2", A, "decision", "当初为什么要把包管理从 poetry 换掉？", ["要四分钟", "只要二十秒"])
q("la-d3", A, "decision", "对账结果为什么不发邮件给财务？", ["还没确认邮件格式"])
q("la-d4", A, "decision", "PayHarbor 的重复 webhook 事件怎么处理？", ["event_id 做唯一键"])
q("la-d5", A, "decision", "发票编号怎么计数？", ["每个租户单独计数"])
q("la-f1", A, "fact", "staging 数据库的主机名是什么？", ["pg-staging.lanhai.internal"])
q("la-f2", A, "fact", "连 staging 要经过哪台跳板机？", ["jump.lanhai.internal"])
q("la-f3", A, "fact", "测试数据库的连接串放在哪个环境变量里？", ["LANHAI_DB_URL"])
q("la-f4", A, "fact", "本地测试库的端口是多少？", ["55432"])
q("la-f5", A, "fact", "ruff 钉的是哪个版本？", ["0.6.9"])
q("la-f6", A, "fact", "报表服务连的 PostgreSQL 是什么版本？", ["15.6"])
q("la-f7", A, "fact", "月度报表导出到哪个 S3 路径？", ["s3://lanhai-reports/monthly/"])
q("la-f8", A, "fact", "PayHarbor webhook 的签名在哪个请求头里？", ["X-PayHarbor-Signature"])
q("la-f9", A, "fact", "发票编号跳号那个问题的工单号是多少？", ["BIL-482"])
q("la-f10", A, "fact", "ruff 的行宽设成多少？", ["line-length = 100", "行宽 100"])
q("la-f11", A, "fact", "invoice_counters 表现在有多少行？", ["912 (1 row)"])
q("la-f12", A, "fact", "本地测试数据库用什么命令启动？", ["docker compose up -d db-test"])
q("la-f13", A, "fact", "PayHarbor 投递失败最多重试几次？", ["up to 8 times"])
q("la-x1", A, "failure", "poetry install 报 Python 版本不支持，当时怎么解决的？", ["poetry env use 3.11"])
q("la-x2", A, "failure", "staging 对账脚本报 SSL connection is required，是怎么修好的？", ["PGSSLMODE=require"])
q(
    "la-x3",
    A,
    "failure",
    "test_numbering_concurrent 出现 deadlock detected，怎么解决的？",
    ["sorted(tenants)", "按 tenant 排序"],
)
q("la-x4", A, "failure", "uv sync 报找不到 Python 解释器，怎么办？", ["uv python install 3.11.9"])
q("la-x5", A, "failure", "执行 push.sh 报 Permission denied，怎么处理的？", ["chmod +x deploy/push.sh"])
q("la-x6", A, "failure", "CSV 导出中文乱码是怎么修的？", ["utf-8-sig"])
q(
    "la-x7",
    A,
    "failure",
    "webhook 测试报 relation webhook_events does not exist，怎么修的？",
    ['alembic revision --autogenerate -m "webhook_events"'],
)
q("la-x8", A, "failure", "ruff 的 B006 mutable default 报错最后怎么改的？", ["dates=None"])
q(
    "la-w1",
    A,
    "workflow",
    "staging 的部署步骤是什么？",
    ["alembic upgrade head", "./deploy/push.sh staging", "billing.smoke --env staging"],
    require="all",
)
q(
    "la-w2",
    A,
    "workflow",
    "怎么在本机跑 staging 对账？",
    ["ssh -N -L", "billing.reconcile --env staging"],
    require="all",
)
q(
    "la-w3",
    A,
    "workflow",
    "加一张新表的迁移流程是什么？",
    ["alembic revision --autogenerate", "alembic upgrade head"],
    require="all",
)
q("la-w4", A, "workflow", "ruff 报的问题怎么批量修？", ["ruff check . --fix"])
q("la-s1", A, "superseded", "staging 数据库端口是多少？", ["6543"], stale=["5433"])
q("la-s2", A, "superseded", "跑测试用什么命令？", ["uv run pytest"], stale=["poetry run pytest"])
q("la-s3", A, "superseded", "对账任务每天几点跑？", ["03:15"], stale=["02:30"])
q("la-s4", A, "superseded", "CI 里安装依赖用什么命令？", ["uv sync --frozen"], stale=["poetry install"])
q(
    "la-c1",
    A,
    "cross-language",
    "Why don't we use advisory locks for invoice numbers?",
    ["transaction 模式", "会串到别的连接上"],
)
q("la-c2", A, "cross-language", "Is the invoice counter reset monthly or yearly?", ["按月重置"])
q("la-c3", A, "cross-language", "Which table do the reconciliation results go into?", ["reconcile_runs"])
q(
    "la-c4",
    A,
    "cross-language",
    "Which jump host do I tunnel through to reach the staging database?",
    ["jump.lanhai.internal"],
)
q(
    "la-c5",
    A,
    "cross-language",
    "What fixed the garbled Chinese characters when finance opened the exported CSV in Excel?",
    ["utf-8-sig"],
)
q("la-n1", A, "distractor", "Redis 缓存的过期时间设的是多少？", absent=["redis"])
q("la-n2", A, "distractor", "Kafka 的 topic 命名规则是什么？", absent=["kafka"])
q("la-n3", A, "distractor", "生产数据库的备份保留多少天？", absent=["保留"])
q("la-n4", A, "distractor", "What is the Grafana dashboard URL for billing?", absent=["grafana"])
q("la-n5", A, "distractor", "退款审批需要几级审批？", absent=["审批"])
q(
    "la-n6",
    A,
    "distractor",
    "How do we rotate the TLS certificates on the load balancer?",
    absent=["load balancer", "tls"],
)
q("la-n7", A, "distractor", "前端用的是 Vue 还是 React？", absent=["vue"])
q("la-n8", A, "distractor", "Which Sentry project receives the billing service's errors?", absent=["sentry"])
q("tp-i1", B, "instruction", "Which package manager should I use in this repo?", ["never npm or yarn"])
q("tp-i2", B, "instruction", "How should pull request titles be written?", ["starts with the ticket id"])
q("tp-i3", B, "instruction", "What do I have to run before I report a change as done?", ["pnpm -w lint"])
q("tp-i4", B, "instruction", "Can I publish the packages from my laptop?", ["Never publish from a laptop"])
q("tp-i5", B, "instruction", "Where should the local API base URL be configured?", [".env.development.local"])
q("tp-i6", B, "instruction", "Who has to review changes to the workflows folder?", ["tomasz-k", "Tomasz reviews"])
q("tp-i7", B, "instruction", "图表 tooltip 的日期格式有什么要求？", ["YYYY-MM-DD HH:mm", "yyyy-MM-dd HH:mm"])
q(
    "tp-d1",
    B,
    "decision",
    "Why did we pick TanStack Query over Redux?",
    ["cached API responses", "Redux boilerplate slowed"],
)
q("tp-d2", B, "decision", "为什么不用 moment 处理日期？", ["70KB"])
q("tp-d3", B, "decision", "Why isn't the API base URL kept in .env?", ["because .env is committed"])
q("tp-f1", B, "fact", "Which machine runs the CI job?", ["ci-runner-03.tidepool.dev"])
q("tp-f2", B, "fact", "Which env var holds the Sentry DSN?", ["VITE_SENTRY_DSN"])
q("tp-f3", B, "fact", "What is the tracing sample rate in production?", ["0.2 in production"])
q("tp-f4", B, "fact", "Where does the Unleash server run?", ["flags.tidepool.dev"])
q("tp-f5", B, "fact", "Which env var has the Unleash client key?", ["VITE_UNLEASH_CLIENT_KEY"])
q("tp-f6", B, "fact", "What was the ticket for the feature flags work?", ["TP-1121"])
q("tp-f7", B, "fact", "Which ticket was the red CI build?", ["TP-1108"])
q("tp-f8", B, "fact", "Which MapTiler style id did we settle on?", ["tidepool-ocean-v4"])
q("tp-f9", B, "fact", "Which CA certificate file does Node need for the staging API?", ["tidepool-staging-ca.pem"])
q("tp-f10", B, "fact", "Which version of date-fns-tz did we add?", ["3.1.3"])
q("tp-f11", B, "fact", "What is the file name pattern of the CSV export?", ["tidepool-export-{yyyyMMdd}.csv"])
q("tp-f12", B, "fact", "Which feature flag guards the new export button?", ["export-v2"])
q("tp-x1", B, "failure", "pnpm install failed with ERR_PNPM_UNSUPPORTED_ENGINE; what fixed it?", ["fnm use 20.11.1"])
q(
    "tp-x2",
    B,
    "failure",
    "The API tests fail with UNABLE_TO_VERIFY_LEAF_SIGNATURE. What was the fix?",
    ["NODE_EXTRA_CA_CERTS"],
)
q(
    "tp-x3",
    B,
    "failure",
    "CI could not find the module @rollup/rollup-linux-x64-gnu; how was that fixed?",
    ["pnpm-store-v3"],
)
q(
    "tp-x4",
    B,
    "failure",
    "The preview server said port 4173 is already in use. What did we do?",
    ["lsof -ti:4173 | xargs kill"],
)
q(
    "tp-x5",
    B,
    "failure",
    "Vitest failed with ERR_REQUIRE_ESM after the Node upgrade; how did we fix it?",
    ["vitest.config.mts"],
)
q(
    "tp-x6",
    B,
    "failure",
    "The export file name test was off by one day. What was wrong?",
    ["must use a UTC date", "Date.UTC(2026, 9, 14)"],
)
q(
    "tp-x7",
    B,
    "failure",
    "Lint warned about react-hooks/exhaustive-deps in TrendChart; what fixed it?",
    ["[shown, colors]"],
)
q(
    "tp-w1",
    B,
    "workflow",
    "How do we run the end-to-end tests?",
    ["pnpm build", "pnpm preview --port 4173", "pnpm test:e2e --project=chromium"],
    require="all",
)
q(
    "tp-w2",
    B,
    "workflow",
    "What are the release steps?",
    ["pnpm changeset version", "publish --access restricted"],
    require="all",
)
q("tp-w3", B, "workflow", "How do I start the local dev server?", ["pnpm dev"])
q("tp-w4", B, "workflow", "How do I run the unit tests once, without watch mode?", ["pnpm test -- --run"])
q(
    "tp-s1",
    B,
    "superseded",
    "What is the staging API base URL?",
    ["api.stg2.tidepool.dev"],
    stale=["api.staging.tidepool.dev"],
)
q("tp-s2", B, "superseded", "Which Node version does the project use?", ["22.3.0"], stale=["20.11.1"])
q(
    "tp-s3",
    B,
    "superseded",
    "What cache key does CI use for the pnpm store?",
    ["pnpm-store-v3"],
    stale=["pnpm-store-v2"],
)
q("tp-c1", B, "cross-language", "服务端状态是用哪个库管理的？", ["TanStack Query"])
q("tp-c2", B, "cross-language", "CI 任务跑在哪台机器上？", ["ci-runner-03.tidepool.dev"])
q(
    "tp-c3",
    B,
    "cross-language",
    "How many lines can the trend chart show before the rest are merged?",
    ["最多显示 6 条线"],
)
q("tp-c4", B, "cross-language", "Which colour palette do the charts use?", ["Okabe-Ito"])
q("tp-c5", B, "cross-language", "How are dates stored?", ["UTC 的 ISO 字符串"])
q("tp-c6", B, "cross-language", "生产环境的链路追踪采样率是多少？", ["0.2 in production"])
q("tp-c7", B, "cross-language", "Where does the export button go on the page?", ["表格右上角"])
# host: the answer is only in the project's Claude Code auto-memory (host-memory/<project>/), never said in a session
q("la-h1", A, "host", "对账报告里的时间用哪个时区显示？", ["Asia/Shanghai"])
q("la-h2", A, "host", "What is our PayHarbor sandbox merchant number?", ["PH-SBX-77120"])
q("tp-h1", B, "host", "At what width are the screenshots in a UI pull request taken?", ["1440px"])
q("tp-h2", B, "host", "旧版仪表盘哪天下线？", ["2027-02-15"])
q("tp-n1", B, "distractor", "What is the Storybook deploy URL?", absent=["storybook"])
q("tp-n2", B, "distractor", "Which GraphQL codegen config do we use?", absent=["graphql", "codegen"])
q(
    "tp-n3",
    B,
    "distractor",
    "How is the service worker cache configured for offline mode?",
    absent=["service worker", "offline"],
)
q("tp-n4", B, "distractor", "Docker 镜像用的是哪个基础镜像？", absent=["docker", "基础镜像"])
q("tp-n5", B, "distractor", "What is the Cypress retry count?", absent=["cypress"])
q("tp-n6", B, "distractor", "iOS 推送证书放在哪里？", absent=["ios", "推送"])
q("tp-n7", B, "distractor", "Which i18n library handles the translations?", absent=["i18n", "translation"])
q("tp-n8", B, "distractor", "What is the Kubernetes namespace of the dashboard?", absent=["kubernetes", "namespace"])


def questions() -> list[dict[str, Any]]:
    """Every question with its ``split``: a quarter of each kind, picked by the hash of the id, is held out."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for d in Q:
        by_kind.setdefault(d["kind"], []).append(d)
    for items in by_kind.values():
        ranked = sorted(items, key=lambda d: hashlib.sha1(d["id"].encode()).hexdigest())
        for i, d in enumerate(ranked):
            d["split"] = "heldout" if i % 4 == 3 else "dev"
    return Q
