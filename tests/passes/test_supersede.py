"""Same key, newer value: the statement shapes and the qualifiers that keep two facts apart."""

from __future__ import annotations

import pytest

from mimomem.passes.supersede import supersedes


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("staging 数据库端口改成 6543", "注意 staging 数据库端口是 5433"),
        ("staging 数据库端口是 6543", "staging 数据库端口是 5433"),
        ("以后都用 bun，不再用 pnpm", "以后都用 pnpm"),
        ("Use bun instead of pnpm for installs", "Always use pnpm for installs"),
        ("Redis runs on port 6380 now", "Redis runs on port 6379"),
        ("The API base URL is https://api.acme.dev/v2", "The API base URL is https://api.acme.dev/v1"),
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
        ("staging 数据库端口是 5433", "staging 数据库端口是 5433 (user, 2026-11-27, s:aaaaaaaa)"),
        ("", "anything"),
    ],
)
def test_other_keys_and_the_same_value_do_not(new: str, old: str) -> None:
    assert not supersedes(new, old)
