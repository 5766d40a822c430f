"""Curated memory ids: slugs made from text, and the ids and slugs refused."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.curated.ids import slugify
from mimomem.errors import InvalidCuratedIdError

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def test_slugs_are_unique_and_safe() -> None:
    assert "hello-world" == slugify("Hello, World!")
    assert "端口-5433" == slugify("端口 5433")
    assert "memory" == slugify("!!!")
    assert len(slugify("word " * 50)) <= 60


@pytest.mark.parametrize(
    "bad",
    [
        "../etc/passwd",
        "facts/../../x",
        "facts/..",
        "/etc/passwd",
        "facts/a/b",
        "facts/",
        "nope/x",
        "facts/index",
        "facts/.hidden",
    ],
)
def test_bad_ids_are_refused(store: CuratedMemory, bad: str) -> None:
    with pytest.raises(InvalidCuratedIdError):
        store.forget(bad)
    with pytest.raises(InvalidCuratedIdError):
        store.get(bad)


@pytest.mark.parametrize("slug", ["..", "../x", "a/b", "", ".hidden", "index", "x\x00y", "-lead"])
def test_bad_slugs_are_refused(store: CuratedMemory, tmp_path: Path, slug: str) -> None:
    with pytest.raises(InvalidCuratedIdError):
        store.remember("facts", f"summary for {slug!r}", "", author="user", slug=slug)
    assert not list(tmp_path.rglob("*summary*"))
