"""The fact a statement updates, found over the whole memory: a correction that names no subject, a
change that names the old value one item holds (and not two), through the promotion plan."""

from __future__ import annotations

import pytest

from mimomem.passes.promote import plan
from mimomem.passes.promote_items import FACTS, Item
from mimomem.passes.supersede import supersedes
from mimomem.passes.supersede_memory import corrected, holder_of_named

SESSION = "0f5927c1-0000"
T = 1765000000000


def _facts(*lines: str) -> str:
    return "# Project memory\n\n## Discovered durable knowledge\n\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("first", "correction", "now"),
    [
        ("订单导出的批大小是 500", "不对，是 1000，刚才说错了", "订单导出的批大小是 1000"),
        ("預發環境的 Nginx 逾時設的是 60 秒", "不對，是 90 秒，我記錯了", "預發環境的 Nginx 逾時設的是 90 秒"),
        ("The export job runs at 02:30", "No wait, it's 03:30", "The export job runs at 03:30"),
        ("検索のポートは 9200 です", "いや、9201 でした", "検索のポートは 9201 です"),
    ],
)
def test_a_correction_naming_no_subject_becomes_the_item_it_corrects(first: str, correction: str, now: str) -> None:
    items = [Item(FACTS, first, "user", SESSION, T), Item(FACTS, correction, "user", SESSION, T + 1000)]
    planned, history = plan(None, items, {}, today="2026-12-07")
    assert now in planned.text and first not in planned.text
    assert len(history) == 1 and first in history[0]


def test_a_correction_reaches_only_its_own_session_and_a_value_of_its_kind() -> None:
    other = "- 订单导出的批大小是 500 (user, 2026-12-01, s:99999999)"
    assert corrected("不对，是 1000", SESSION, [other]) is None  # said in another session
    mine = "- 订单导出的批大小是 500 (user, 2026-12-07, s:0f5927c1)"
    assert corrected("不对，是 db-2.internal", SESSION, [mine]) is None  # a host does not correct a count
    assert corrected("订单导出的批大小是 1000", SESSION, [mine]) is None  # no self-repair: the wording rules
    assert corrected("Actually, the import batch is 1000", SESSION, [mine]) is None  # it names its subject


def test_an_old_value_named_gone_retires_the_one_item_holding_it_whatever_it_is_called() -> None:
    live = _facts(
        "- The event bus runs on port 4222 (user, 2026-12-01, s:aaaaaaaa)",
        "- Jaeger traces are sampled at 10 % (user, 2026-12-01, s:aaaaaaaa)",
    )
    notice = Item(FACTS, "NATS moved from 4222 to 4223", "user", SESSION, T)
    planned, history = plan(live, [notice], {}, today="2026-12-07")
    assert "runs on port 4222" not in planned.text and "4223" in planned.text and "Jaeger" in planned.text
    assert len(history) == 1 and "event bus" in history[0]


def test_a_value_named_gone_that_two_items_hold_retires_neither() -> None:
    api = "- The staging gateway now listens on 8443 (user, 2026-12-01, s:aaaaaaaa)"
    admin = "- The admin UI is served on 8443 (user, 2026-12-01, s:bbbbbbbb)"
    assert holder_of_named("8443 is closed now", [api, admin]) == []
    assert holder_of_named("8443 is closed now", [api]) == [api]
    assert not supersedes("8443 は閉じています", api)  # the pair alone cannot say it is this one
    planned, history = plan(_facts(api, admin), [Item(FACTS, "8443 is closed now", "user", SESSION, T)], {}, today="x")
    assert api in planned.text and admin in planned.text and history == []


def test_a_named_value_of_another_environment_or_a_short_number_is_not_linked() -> None:
    prod = "- Production Postgres listens on 5432 (user, 2026-12-01, s:aaaaaaaa)"
    assert holder_of_named("staging Postgres moved from 5432 to 6432", [prod]) == []
    count = "- The ingest queue has 4 consumers (user, 2026-12-01, s:aaaaaaaa)"
    assert holder_of_named("We went from 4 to 8 shards", [count]) == []


def test_a_restatement_matching_several_items_retires_the_one_it_names_or_none() -> None:
    reviews = [
        "- フロントエンドのレビュー担当は佐藤さんです (user, 2026-12-01, s:00000001)",
        "- Backend reviews are now owned by Kimura (user, 2026-12-02, s:00000002)",
        "- 請求サービスのレビューは高橋さんが見てます (user, 2026-12-03, s:00000003)",
    ]
    item = Item(FACTS, "請求まわりのレビュアーは伊藤さんです", "user", SESSION, T)
    planned, history = plan(_facts(*reviews), [item], {}, today="2026-12-07")
    assert len(history) == 1 and "高橋さん" in history[0]
    assert "佐藤さん" in planned.text and "Kimura" in planned.text and "伊藤さん" in planned.text
    vague = Item(FACTS, "レビュアーは伊藤さんです", "user", SESSION, T)
    planned, history = plan(_facts(*reviews[:2]), [vague], {}, today="2026-12-07")
    assert history == [] and "佐藤さん" in planned.text and "Kimura" in planned.text
    said_twice = [
        "- The API port is 8080 (user, 2026-12-01, s:00000001)",
        "- API 端口是 8080 (user, 2026-12-02, s:00000002)",
    ]
    planned, history = plan(
        _facts(*said_twice), [Item(FACTS, "The API port is 9090 now", "user", SESSION, T)], {}, today="2026-12-07"
    )
    assert len(history) == 2 and "8080" not in planned.text
