"""Same key, newer value: the statement shapes and the qualifiers that keep two facts apart."""

from __future__ import annotations

import pytest

from mimomem.passes.promote import plan
from mimomem.passes.promote_items import FACTS, Item
from mimomem.passes.supersede import replaced_clauses, supersedes, without_clauses


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("staging 数据库端口改成 6543", "注意 staging 数据库端口是 5433"),
        ("staging 数据库端口是 6543", "staging 数据库端口是 5433"),
        ("以后都用 bun，不再用 pnpm", "以后都用 pnpm"),
        ("Use bun instead of pnpm for installs", "Always use pnpm for installs"),
        ("Redis runs on port 6380 now", "Redis runs on port 6379"),
        ("The API base URL is https://api.acme.dev/v2", "The API base URL is https://api.acme.dev/v1"),
        ("세션 만료 시간을 60분으로 바꿨어요", "세션 만료 시간은 30분이에요"),  # particles differ, the key is one
        ("캐시 TTL을 900초로 늘렸어요", "캐시 TTL은 600초예요"),
    ],
)
def test_newer_values_supersede(new: str, old: str) -> None:
    assert supersedes(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("prod 数据库端口是 5432", "staging 数据库端口是 5433"),
        ("Always run ruff before committing", "Always run the tests before pushing"),
        ("Postgres runs on port 5432", "Redis runs on port 6379"),
        ("세션 만료 시간을 60분으로 바꿨어요", "캐시 TTL은 600초예요"),
        ("staging 数据库端口是 5433", "staging 数据库端口是 5433 (user, 2026-11-27, s:aaaaaaaa)"),
        ("", "anything"),
    ],
)
def test_other_keys_and_the_same_value_do_not(new: str, old: str) -> None:
    assert not supersedes(new, old)


OLD_PORT = (
    "- staging 数据库端口是 5433，不是默认的 5432，主机是 pg-staging.acme.internal，要先走跳板机 jump.acme.internal"
    " (user, 2026-10-06, s:0b5ab4f2)"
)


def test_a_newer_value_replaces_only_its_clause() -> None:
    new = "- 韩梅说 staging 迁到新集群了，端口改成 6543，主机还是 pg-staging.acme.internal (user, 2026-10-10, s:1e88)"
    assert not supersedes(new, OLD_PORT)  # one long item with several facts: not wholly replaced
    rest = without_clauses(new, OLD_PORT)
    assert rest == (
        "- 主机是 pg-staging.acme.internal，要先走跳板机 jump.acme.internal (user, 2026-10-06, s:0b5ab4f2, s:1e88)"
    )


def test_english_clauses_too() -> None:
    old = "- The staging API lives at api.acme.dev, port 8080, behind the VPN (user, 2026-10-06, s:aaaaaaaa)"
    new = "- staging port changed to 8443 (user, 2026-10-09, s:bbbbbbbb)"
    assert (
        without_clauses(new, old)
        == "- The staging API lives at api.acme.dev, behind the VPN (user, 2026-10-06, s:aaaaaaaa, s:bbbbbbbb)"
    )


@pytest.mark.parametrize(
    "new",
    [
        "- prod 数据库端口改成 6543 (user, 2026-10-10, s:1e882d63)",  # another thing: no shared identifier
        "- staging 的 cron 改成 03:15 (user, 2026-10-10, s:1e882d63)",  # a clause about something else
        "- staging 数据库端口改成 5433 (user, 2026-10-10, s:1e882d63)",  # the same value again
    ],
)
def test_no_clause_is_replaced_without_the_same_thing_and_another_value(new: str) -> None:
    assert replaced_clauses(new, OLD_PORT) == [] and without_clauses(new, OLD_PORT) is None


def test_the_promotion_plan_keeps_the_rest_and_records_the_old_item() -> None:
    live = f"# Project memory\n\n## Discovered durable knowledge\n\n{OLD_PORT}\n"
    item = Item(FACTS, "staging 数据库迁到新集群了，端口改成 6543", "user", "1e882d63-0000", 1760054400000)
    planned, history = plan(live, [item], {}, today="2026-10-10")
    assert "5433" not in planned.text and "jump.acme.internal" in planned.text and "6543" in planned.text
    assert len(history) == 1 and "5433" in history[0] and "superseded" in history[0]


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("预发 MySQL 换端口了，现在 3316", "预发的 MySQL 端口是 3307"),
        ("陈晨转岗了，账单服务以后归周涛管", "账单服务的 owner 是陈晨"),
        ("Capistrano is gone since last week", "We deploy the web app with Capistrano"),
        ("レート制限を 1 分あたり 1200 リクエストに引き上げました", "API のレート制限は 1 分あたり 600 リクエストです"),
        (
            "After the upgrade the primary's pgbouncer allows 350 client connections",
            "pgbouncer max_client_conn is 200 on the primary",
        ),
        ("Heads up, search moved to search-2.internal", "Staging search runs on search-1.internal:7700"),
    ],
)
def test_a_newer_value_of_the_same_subject_in_other_words(new: str, old: str) -> None:
    assert supersedes(f"- {new} (user, 2026-12-02, s:aaaaaaaa)", f"- {old} (user, 2026-12-01, s:bbbbbbbb)")


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("CI moved to Buildkite", "CI cache key is pnpm-store-v2"),
        ("预发 MySQL 换端口了，现在 3316", "预发 Redis 在 10.2.3.14"),
        ("Capistrano is gone since last week", "Kamal deploys the web app"),
    ],
)
def test_another_subject_is_not_superseded(new: str, old: str) -> None:
    assert not supersedes(f"- {new} (user, 2026-12-02, s:aaaaaaaa)", f"- {old} (user, 2026-12-01, s:bbbbbbbb)")


def test_a_changed_name_replaces_only_the_clause_holding_a_name() -> None:
    old = "- 这边 CI 跑在 Jenkins 上，地址 ci.kestrel.internal (user, 2026-12-01, s:bbbbbbbb)"
    assert without_clauses("- CI moved to Buildkite (user, 2026-12-02, s:aaaaaaaa)", old) == (
        "- 地址 ci.kestrel.internal (user, 2026-12-01, s:bbbbbbbb, s:aaaaaaaa)"
    )


def test_a_changed_clause_replaces_the_clause_about_the_same_thing_without_a_shared_identifier() -> None:
    from mimomem.passes.supersede import without_clauses

    old = "- 对账任务每天 02:30 跑，cron 配在 deploy/cron/reconcile.cron (user, 2026-10-06, s:0b5ab4f2)"
    new = "- 对账任务改到每天 03:15 跑，因为 02:30 跟数据库备份撞了 (user, 2026-10-16, s:1522b1d1)"
    rest = without_clauses(new, old)
    assert rest is not None and "02:30" not in rest and "deploy/cron/reconcile.cron" in rest
    # the same attribute of another thing named in another clause stays (a local test DB, the staging DB)
    local = "- 本地测试库用 docker compose up -d db-test 起，端口是 55432 (user, 2026-10-05, s:ab851561)"
    staging = (
        "- 韩子墨说 staging 数据库迁到新集群了，端口改成 6543，主机还是 pg-staging.lanhai.internal"
        " (user, 2026-10-10, s:1e882d63)"
    )
    assert without_clauses(staging, local) is None


@pytest.mark.parametrize(
    "text",
    [
        "We bumped the worker count to 8",
        "이제 배포 담당은 박지훈 님으로 바뀌었어요",
        "The upload limit went up to 25 MB",
    ],
)
def test_a_statement_that_a_value_changed_is_a_fact(text: str) -> None:
    from mimomem.passes.promote_items import is_fact
    from mimomem.passes.supersede import states_change

    assert states_change(text) and is_fact(text)


@pytest.mark.parametrize("text", ["We changed our minds", "换了个思路", "Please change the port to 8080"])
def test_a_change_without_a_value_or_a_request_is_not(text: str) -> None:
    from mimomem.passes.promote_items import is_fact

    assert not is_fact(text)


def test_a_workflow_or_fix_that_used_a_value_the_user_retired_stays() -> None:
    from mimomem.passes.supersede import obsoletes

    switch = "- 我们决定从 poetry 换成 uv，因为 CI 上太慢 (user, 2026-10-10, s:1e882d63)"
    # "how was that fixed?" is still answered by what happened
    assert not obsoletes(switch, "- `poetry install` failed - fixed: `poetry env use 3.11` (tool, 2026-10-05)")


def test_an_edit_of_the_file_a_value_was_read_from_retires_the_value() -> None:
    from mimomem.passes.supersede import obsoletes

    read = "- .github/workflows/ci.yml:4: `key: pnpm-store-v2-${{ hashFiles('x') }}` (read by the agent)"
    edit = (
        "- CI is red on TP-1108 - fixed: edited .github/workflows/ci.yml (`key: pnpm-store-v2-${{ hashFiles('x') }}`"
        " -> `key: pnpm-store-v3-${{ hashFiles('x') }}`) (user, 2026-10-09, s:c910b7a7)"
    )
    assert obsoletes(edit, read)
    assert not obsoletes(edit.replace(".github/workflows/ci.yml", "deploy/other.yml"), read)  # another file


def test_the_plan_moves_a_value_read_from_a_file_since_edited_to_history() -> None:
    from mimomem.passes.promote_found import FOUND
    from mimomem.passes.promote_items import FAILURES

    read = "- deploy/app.env:3: `WORKERS=4` (read by the agent) (tool, 2026-12-01, s:00000001)"
    live = f"# Project memory\n\n## {FOUND}\n\n{read}\n"
    fix = "`make up` failed - fixed: edited deploy/app.env (`WORKERS=4` -> `WORKERS=8`)"
    planned, history = plan(live, [Item(FAILURES, fix, "tool", "00000002-0000", 1765000000000)], {}, today="2026-12-06")
    assert "`WORKERS=4` (read" not in planned.text and len(history) == 1 and "WORKERS=4" in history[0]


def test_a_short_restatement_with_no_change_word_replaces_one_clause_of_a_longer_item() -> None:
    from mimomem.passes.supersede import replaced_clauses

    def b(text: str, day: int) -> str:
        return f"- {text} (user, 2026-12-0{day}, s:0000000{day})"

    consumer = b("For the order consumer: backoff is 2s, max retries is 5, dead letters go to orders.dlq", 1)
    assert replaced_clauses(b("order consumer max retries 8", 2), consumer) == [1]
    assert replaced_clauses(b("max retries for the export job is 8", 2), consumer) == []  # another thing's
    assert replaced_clauses(b("Node 22", 2), b("前端用 pnpm，Node 20，预设分支 main", 1)) == [1]
    # the same slot restated with no change word: its clause goes, and the one qualifying its old value
    assert replaced_clauses("- staging 数据库端口是 6543 (user, 2026-10-10, s:1e882d63)", OLD_PORT) == [0, 1]
    assert replaced_clauses(b("后端的 Node 版本 22", 2), b("前端用 pnpm，Node 20，预设分支 main", 1)) == []
