"""Supersession by what a value is about: the same thing in other words or another language
retires the older value; another thing that shares words never does."""

from __future__ import annotations

import pytest

from mimomem.passes.promote import plan
from mimomem.passes.promote_items import FACTS, Item
from mimomem.passes.supersede import supersedes
from mimomem.passes.supersede_memory import holder_of_named
from mimomem.passes.supersede_subject import subject_of


def _bullet(text: str, day: int) -> str:
    return f"- {text} (user, 2026-12-{day:02d}, s:{day:08x})"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("支付模块的负责人是刘洋", "The payment module is owned by Ma Lin now"),  # zh -> en, an owner
        ("The nightly database backup runs at 02:00 UTC", "数据库备份改到每天 03:30 UTC 跑了"),  # en -> zh, a time
        ("日志目录在 /var/log/ferry", "日志路径换成 /data/logs/ferry 了，磁盘大一些"),  # 目录 / 路径, a path
        ("项目的 Node 版本固定在 18.19", "node 已经升到 20.11 了，CI 镜像也跟着换了"),  # a version, an aside
        ("数据库连接池大小是 20", "Heads up, the database connection pool size is 50 since Friday"),
        ("Session cookies expire after 12 hours", "セッション cookie の有効期限は 2 hours に短縮しました"),
        (
            "Grafana is at grafana.tsubame.internal:3000",
            "Grafana のURLは https://metrics.tsubame.example/grafana に移りました",
        ),
        ("The auth service is owned by Alice Chen", "Bob Li took over the auth service from Alice last week"),
        ("스테이징 DB 호스트는 db-stg-1.maru.internal 이에요", "The staging DB host is db-stg-2.maru.internal now"),
        ("API 타임아웃은 30초예요", "API timeout 을 45초로 늘렸어요"),
        ("prod 의 replica 수는 3 이에요", "prod replicas 를 5 로 올렸어요"),
        ("默认分支是 master", "默认分支已经换成了 main"),
        ("このリポジトリのオーナーは田中さんです", "リポジトリの担当は山本さんに変わりました"),
        ("ステージングの API ポートは 8080 です", "ステージング API のポートを 8443 に変更しました"),
        (
            "Elasticsearch のバージョンは 7.17 です",
            "We're on Elasticsearch 8.11 since the cluster upgrade",
        ),  # name + version
        ("监控告警都发到 #ops-alerts 频道", "告警现在统一走 #sre-pager，别再看老频道了"),  # a channel
    ],
)
def test_a_newer_value_of_the_same_thing_in_other_words_or_another_language(old: str, new: str) -> None:
    assert supersedes(_bullet(new, 2), _bullet(old, 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("staging 的 Postgres 端口是 5433", "prod 的 Postgres 端口是 5432"),  # two environments
        ("스테이징 포트는 5433이에요", "The prod port is 5432"),  # two environments, two languages
        ("订单模块的负责人是王磊", "库存模块的负责人是李娜"),  # the owners of two modules
        ("프론트엔드 담당자는 이수진 님이에요", "백엔드 담당자는 정우성 님이에요"),
        ("開発環境のポートは 3000 です", "テスト環境のポートは 3001 です"),
        ("前端仓库在 git.ferry.internal/web", "后端仓库在 git.ferry.internal/api"),
        ("The API server listens on 8080", "The admin server listens on 9090"),
        ("The API service runs Python 3.12", "The data pipeline still runs Python 3.10"),
        ("Connect timeout is 5s", "Read timeout is 30s"),
        ("日志保留 7 天", "数据库备份保留 30 天"),
        ("batch_size 是 8", "max_retries 是 3"),
        ("CI cache key is pnpm-store-v2", "CI moved to Buildkite"),  # the old item is about something narrower
        ("Nightly build runs at 01:00", "주간 정리 작업은 일요일 04:00 에 돌아요"),
        (
            "The Europe cluster runs on eu-1.example.internal",
            "The US cluster runs on us-1.example.internal",
        ),  # US, not us
    ],
)
def test_another_thing_sharing_words_stays(old: str, new: str) -> None:
    assert not supersedes(_bullet(new, 2), _bullet(old, 1))


def test_subject_and_values_are_read_by_form() -> None:
    s = subject_of("- 스테이징 DB 호스트는 db-stg-1.maru.internal 이에요 (user, 2026-12-01, s:aaaaaaaa)")
    assert s.env == {"staging"} and s.attrs == {"location"}
    assert ("location", "db-stg-1.maru.internal") in s.values and ("component", "database") in s.words
    owner = subject_of("支付模块的负责人是刘洋")
    assert owner.attrs == {"owner"} and ("person", "刘洋") in owner.values and "module" in owner.glosses


def test_the_plan_moves_the_old_value_to_history_across_languages() -> None:
    live = f"# Project memory\n\n## Discovered durable knowledge\n\n{_bullet('支付模块的负责人是刘洋', 1)}\n"
    item = Item(FACTS, "The payment module is owned by Ma Lin now", "user", "1e882d63-0000", 1765000000000)
    planned, history = plan(live, [item], {}, today="2026-12-06")
    assert "刘洋" not in planned.text and "Ma Lin" in planned.text
    assert len(history) == 1 and "刘洋" in history[0] and "superseded" in history[0]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("브로커 포트가 6001 로 변경됐어요", "The prod port is 5432"),  # an attribute and an environment only
        ("The message broker listens on port 6000", "스테이징 포트는 5433이에요"),
        ("Redis runs on port 6379", "The port is 8080"),  # no change stated, nothing named
    ],
)
def test_an_item_naming_only_an_attribute_does_not_retire_another_things_value(old: str, new: str) -> None:
    assert not supersedes(_bullet(new, 2), _bullet(old, 1))


def test_an_item_naming_only_the_attribute_retires_it_when_it_states_a_change() -> None:
    assert supersedes(_bullet("端口改成 6543 了", 2), _bullet("数据库端口是 5433", 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # values the agent read from two files, or a file and a command, are two things
        (
            "- /srv/app/Dockerfile:1: `FROM python:3.11.9-slim-bookworm` (read by the agent)",
            "- /srv/app/.python-version:1: `3.12.4` (read by the agent)",
        ),
        (
            "- /srv/app/deploy/gunicorn.conf.py:1: `workers = 9` (read by the agent)",
            "- /srv/app/README.md:2: `Setup: make dev` (read by the agent)",
        ),
        # one environment and none said, no change stated
        (
            "- ステージング API のポートを 8443 に変更しました (user, 2026-12-01, s:aaaaaaaa)",
            _bullet("The API server listens on 8080", 2),
        ),
        # a word on each side the other cannot be compared with (库存 has no translation), no change stated
        (_bullet("The payment module is owned by Ma Lin now", 1), _bullet("库存模块的负责人是李娜", 2)),
    ],
)
def test_two_sources_or_an_environment_or_an_uncompared_word_keep_both(old: str, new: str) -> None:
    assert not supersedes(new, old)


def test_a_value_read_again_from_the_same_file_retires_the_older() -> None:
    old = "- /srv/app/deploy/gunicorn.conf.py:1: `workers = 9` (read by the agent)"
    assert supersedes("- /srv/app/deploy/gunicorn.conf.py:1: `workers = 12` (read by the agent)", old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a ticket id is no host; a problem and a place files go are two things
        (
            "BIL-517：月度报表导出 CSV 的时候中文乱码，财务用 Excel 打开看不了",
            "导出文件放在 s3://lanhai-reports/monthly/ 下面",
        ),
        # two files edited are two things
        (
            "edited /srv/app/.gitlab-ci.yml (now `- uv sync --frozen`)",
            "edited /srv/app/deploy/cron/reconcile.cron (`30 2 * * *` -> `15 3 * * *`)",
        ),
    ],
)
def test_tickets_and_edits_are_not_values_of_one_thing(old: str, new: str) -> None:
    assert not supersedes(_bullet(new, 2), _bullet(old, 1))


def test_an_environment_inside_a_host_is_part_of_the_value() -> None:
    old = "The dashboard should talk to the staging API at https://api.staging.tidepool.dev through TIDEPOOL_API_BASE"
    assert supersedes(_bullet("TIDEPOOL_API_BASE is now https://api.stg2.tidepool.dev", 2), _bullet(old, 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("会话的超时时间是 10 分钟", "Session timeout is 600s now"),  # the same value in another unit and language
        ("캐시 TTL 은 5분이에요", "Cache TTL is 300s now"),  # 캐시 / cache: a loanword
        ("ログの出力先は /var/log/app です", "Logs now go to /srv/log/app"),  # go is the verb, not the subject
        ("ビルドの担当は高橋さんです", "Builds are handled by Ono from now on"),  # a person as 担当, then by
        ("The metrics service listens on metrics.x.internal:9100", "metrics サービスのポートは 9200 に変わりました"),
        ("后端框架用 Flask", "We switched the backend framework from Flask to FastAPI"),  # from A to B
        ("에러 알림은 PagerDuty 로 받아요", "PagerDuty 는 더 이상 안 써요, 알림은 Opsgenie 로 와요"),
        ("The upload cap is 10 MB", "アップロードの上限は 25 MB になりました"),
        ("The image upload limit is 10 MB", "The image upload limit went up to 25 MB"),  # a past verb to a value
    ],
)
def test_a_value_restated_in_another_frame_name_unit_or_language(old: str, new: str) -> None:
    assert supersedes(_bullet(new, 2), _bullet(old, 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("결제 서비스 타임아웃은 5초예요", "The search service timeout is now 2s"),  # 결제 cannot be compared
        ("フロントエンドのレビュー担当は佐藤さんです", "Backend reviews are now owned by Kimura"),
        ("Redis 는 cache-1.x.internal:6379 에 있어요", "Postgres 포트를 5433 으로 바꿨어요"),  # another service's port
        ("订单服务那边的 Redis 现在用 redis-7.x.internal 了", "We bumped worker_count to 16 in config/app.yaml"),
        ("prod 의 replica 수는 3 이에요", "브로커 포트가 6001 로 변경됐어요"),
        ("The web app is pinned to React 18.2", "We moved the admin app from React 18.2 to 19.0"),  # another app
        ("The primary DB is db-1.x.internal", "The replica moved to db-3.x.internal"),
        ("세션 만료는 30분이에요", "세션 만료는 30분이에요"),  # the same again is a duplicate, not a newer value
    ],
)
def test_a_change_of_another_thing_keeps_both(old: str, new: str) -> None:
    assert not supersedes(_bullet(new, 2), _bullet(old, 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ビルドキャッシュの保存先は /var/cache/tsubame です", "Build cache directory: /mnt/ssd/tsubame-cache"),
        ("메시지 큐 포트는 5672 예요", "Heads up: the broker moved to 5673, 5672 is closed now"),
        ("搜索服务的端口是 9200", "搜索服务换到 9201 端口，9200 关掉了"),
    ],
)
def test_a_path_a_compound_loanword_or_an_old_value_said_closed(old: str, new: str) -> None:
    assert supersedes(new, old)


def test_an_old_value_said_unused_and_nothing_else_is_linked_over_the_whole_memory() -> None:
    old = _bullet("The message broker listens on port 6000", 1)
    assert not supersedes(_bullet("6000 은 이제 안 써요", 2), old)  # the pair alone: which 6000?
    assert holder_of_named("6000 은 이제 안 써요", [old]) == [old]  # the one item of the memory that holds it


def test_a_path_alone_is_of_the_path_attribute_and_a_host_of_the_location() -> None:
    assert subject_of("日志在 /var/log/app").attrs == {"path"}
    assert subject_of("日志在 logs.internal").attrs == {"location"}
    assert not supersedes("The log directory is /srv/logs", "Logs are shipped to logs-1.internal")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("开发库的端口是 15432", "The dev DB port is 15433 now"),
        ("消息队列在 mq-1.ferry.internal", "The broker is on mq-2.ferry.internal now"),
        ("메시지 큐는 mq-1.maru.internal 에 있어요", "FYI the message broker is on mq-2.maru.internal now"),
        ("Our default branch is develop", "Actually, the default branch is trunk"),
    ],
)
def test_a_component_by_another_name_or_a_corrected_lower_case_value(old: str, new: str) -> None:
    assert supersedes(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The primary DB is db-1.ferry.internal", "We moved the read replica to db-3.ferry.internal"),
        ("Postgres 的端口是 5432", "消息队列端口改成 5673"),  # a database and a broker: two components
        ("代码库在 git.example/app", "The broker is on mq-2.ferry.internal now"),  # 代码库 is no database
        ("The release branch is release-2026", "The default branch is trunk"),
    ],
)
def test_two_components_or_two_roles_of_one_keep_both(old: str, new: str) -> None:
    assert not supersedes(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("对了 报表任务开 3 个线程哈", "报表任务线程数 5"),  # a modal particle and "the number of" are no subject
        ("請求サービスのレビューは高橋さんが見てます", "請求まわりのレビュアーは伊藤さんです"),  # さん is a person
        (
            "the feature flag service is flags.ferry.lan",
            "hmm no i was wrong, feature flags are served from ff.ferry.lan",
        ),
        ("The mail provider is Postmark", "mail provider: SES"),  # key: value - the value by its place
        ("Build output goes to out/", "build output: dist/"),  # a directory said with its slash
        ("注意：测试库的端口是 7410", "公告：测试库端口 7411"),  # a notice's label is not what it is about
    ],
)
def test_a_restatement_in_another_shape_with_no_change_word(old: str, new: str) -> None:
    assert supersedes(_bullet(new, 2), _bullet(old, 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("セッション cookie の有効期限は 2 hours です", "セッションキャッシュの有効期限は 30 分です"),  # a compound
        ("Backend reviews are owned by Kimura", "Frontend reviews are owned by Sato"),  # Backend is no person
        ("Prod Redis is redis-p.ferry.lan", "staging redis: redis-s.ferry.lan"),
        ("The upload API caps files at 20MB", "avatar upload cap: 5MB"),
    ],
)
def test_another_thing_in_those_shapes_stays(old: str, new: str) -> None:
    assert not supersedes(_bullet(new, 2), _bullet(old, 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("快取過期時間 30 分鐘", "cache TTL 45 min"),  # Taiwan's 快取 is the mainland's 缓存: cache
        ("檔案上傳的大小上限是 10MB", "file upload size limit: 20MB"),
        ("金鑰每 30 天輪替一次", "key rotation is every 45 days"),
        ("日誌保留 14 天", "log retention is 30 days"),
        ("預設分支是 master", "默认分支换成 main 了"),
    ],
)
def test_traditional_chinese_against_simplified_or_english(old: str, new: str) -> None:
    assert supersedes(_bullet(new, 2), _bullet(old, 1))


def test_traditional_chinese_of_two_environments_stays() -> None:
    old, new = "正式環境的快取伺服器是 cache-p.ferry.lan", "測試環境快取伺服器：cache-t.ferry.lan"
    assert not supersedes(_bullet(new, 2), _bullet(old, 1))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a label that only calls what follows norms is no subject: a later rule about another thing
        # ("我们的规则是…") restates nothing of it (e2e-dev la-i1 lost its commit-message rule this way)
        (
            "先说好几条规矩：提交信息用中文写，开头加模块名",
            "我们的规则是发票编号每个租户单独计数，格式是 INV-{YYYYMM}-{4位序号}",
        ),
        (
            "House rules: commit messages start with the module name",
            "Our rule is that invoice numbers reset monthly, INV-0001",
        ),
    ],
)
def test_a_label_calling_its_text_norms_is_no_subject(old: str, new: str) -> None:
    assert not supersedes(new, old)


def test_a_head_naming_a_thing_beside_its_norm_noun_stays_the_subject() -> None:
    # "订单号规则" is the rule of order numbers: the order number is what the item is about
    assert ("cjk", "订单号") in subject_of("订单号规则：前缀 KS，加年月日，再加 6 位流水").words
