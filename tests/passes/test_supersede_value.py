"""A value read whatever its form: a quantity in its dimension's unit, a host's port, the value a
change names as the one it replaces."""

from __future__ import annotations

import pytest

from mimomem.passes.supersede_value import quantity, replaced_values, split_port


def test_a_quantity_is_its_amount_in_the_unit_of_its_dimension() -> None:
    assert quantity("qty:time", "5분") == quantity("qty:time", "300s") == quantity("qty:time", "5 minutes")
    assert quantity("qty:time", "1 hour") == quantity("qty:time", "60分") != quantity("qty:time", "30분")
    assert quantity("qty:bytes", "1 MB") == quantity("qty:bytes", "1024KB")
    assert quantity("qty:count", "4개") == ("number", "4") and quantity("qty:count", "5%")[0] == "qty:percent"
    assert quantity("qty:time", "3 fortnights") == ("qty:time", "3 fortnights")  # an unknown unit: as written


def test_a_host_and_its_port() -> None:
    assert split_port("api.example.internal:8080") == ("api.example.internal", "8080")
    assert split_port("api.example.internal") is None and split_port("a:b") is None


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("We moved the build cache from Memcached to Redis", "memcached"),
        ("包管理已经从 npm 换成 bun 了", "npm"),
        ("Travis is no longer used, everything runs on Drone", "travis"),
        ("No more Heroku, the app lives on Fly now", "heroku"),
        ("不再用 Capistrano 部署", "capistrano"),
        ("監視は Nagios から Prometheus に移行しました", "nagios"),
        ("타임아웃을 30초에서 60초로 바꿨어요", "30초"),
        ("Redmine 은 더 이상 안 써요", "redmine"),
        ("PORT=5433 -> PORT=6543", "5433"),
        ("the security team no longer allows 1.0.2k", "1.0.2k"),
    ],
)
def test_the_value_a_change_names_as_replaced(text: str, old: str) -> None:
    assert old in replaced_values(text)


@pytest.mark.parametrize(
    "text",
    ["The old staging host is no longer in use", "Deploys no longer need a ticket", "我们用 Redis 做缓存"],
)
def test_no_value_is_named_as_replaced(text: str) -> None:
    assert not replaced_values(text)
