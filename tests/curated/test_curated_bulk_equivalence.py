"""``remember_many`` decides and writes exactly what ``remember`` one item at a time does.

A few hundred generated items - plain, YAML-awkward, near-duplicates, repeated summaries and
slugs, secrets in each field, invalid fields, supersedes links - go once through
``remember_many`` and once through ``remember`` (each error caught); the written ids, the
refusal messages and every file of both roots must be the same, byte for byte.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

from mimomem import CuratedMemory
from mimomem.errors import CuratedError, SecretRefusedError

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.timezone.utc)
WORDS = [
    "cache",
    "deploy",
    "redis",
    "port",
    "缓存",
    "部署",
    "端口",
    "服务",
    "index",
    "query",
    "token",
    "rule",
    "yes",
    "no",
    "null",
    "on",
]
AWKWARD = ["key: value", "a # b", " leading", "trailing ", "'quoted'", 'say "hi"', "yes", "- dash", "x:", "tab\there"]
SECRETS = [
    "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "password = Zk9#qLm2!vXw7",
    "AKIA" + "IOSFODNN7EXAMPL3",
    "postgres://admin:S3cr3tPassw0rd@db.example.com/app",
]
CATEGORIES = ["facts", "decisions", "pitfalls", "preferences", "rules", "bogus"]


def _item(rng: random.Random, n: int, earlier: list[dict[str, Any]]) -> dict[str, Any]:
    roll = rng.random()
    if earlier and roll < 0.1:  # the same summary again, or a slightly changed body
        old = rng.choice(earlier)
        return {**old, "body": old.get("body", "") + rng.choice(["", " cache"]), "slug": None}
    words = rng.choices(WORDS, k=rng.randint(3, 12))
    item: dict[str, Any] = {
        "category": rng.choice(CATEGORIES) if roll < 0.15 else rng.choice(CATEGORIES[:5]),
        "summary": " ".join(words[:4]) + (f" {n}" if rng.random() < 0.8 else ""),
        "body": " ".join(rng.choices(WORDS, k=rng.randint(0, 30))),
    }
    if rng.random() < 0.2:
        item["summary"] = rng.choice(AWKWARD) + " " + item["summary"]
    if rng.random() < 0.1:
        item["highlight"] = rng.choice(AWKWARD)
    if rng.random() < 0.15:
        item["load_when"] = rng.sample(["deploy", "debug", "部署", "yes", "a: b"], k=rng.randint(1, 2))
    if rng.random() < 0.05:
        item["pinned"] = True
    if rng.random() < 0.1:
        item["slug"] = f"s{rng.randint(0, 15)}"
    if rng.random() < 0.06:  # a secret in one of the fields
        field = rng.choice(["summary", "body", "highlight", "body"])
        item[field] = item.get(field, "") + " " + rng.choice(SECRETS)
    if rng.random() < 0.04:
        item["summary"] = rng.choice(["", "two\nlines", "   "])
    if rng.random() < 0.08 and earlier:
        old = rng.choice(earlier)
        item["supersedes"] = f"{old['category']}/{old.get('slug') or 'unknown'}"
    if rng.random() < 0.05:
        item["body"] = item["body"].replace(" ", "\r\n", 2)
    return item


def _items(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    items: list[dict[str, Any]] = []
    for n in range(count):
        items.append(_item(rng, n, items))
    return items


def _files(root: Path) -> dict[str, bytes]:
    skip = {".lock", ".generation", ".state.json"}
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name not in skip and "mimomem" not in p.parts[len(root.parts) :]
    }


def _one_by_one(store: CuratedMemory, items: list[dict[str, Any]], scope: str) -> tuple[list[str], list[str]]:
    written, refused = [], []
    for item in items:
        try:
            memory = store.remember(**item, author="user", scope=scope)
        except (CuratedError, SecretRefusedError, ValueError) as exc:
            refused.append(str(exc))
            continue
        written.append(memory.id)
    return written, refused


def test_remember_many_writes_what_remember_writes(tmp_path: Path) -> None:
    items = _items(20260501, 300)
    reasons: list[str] = []
    for scope in ("project", "global"):
        bulk = CuratedMemory(tmp_path / "a", tmp_path / "a-global", now=NOW)
        single = CuratedMemory(tmp_path / "b", tmp_path / "b-global", now=NOW)
        part = items[:200] if scope == "project" else items[200:]
        result = bulk.remember_many(part, author="user", scope=scope)
        written, refused = _one_by_one(single, part, scope)
        assert result.written == written
        assert [reason for _, reason in result.refused] == refused
        assert len(written) > len(part) // 2  # the mix exercises both outcomes
        reasons += refused
    for why in ("secret", "near-duplicate", "already exists", "cannot supersede", "category", "one non-empty line"):
        assert any(why in reason for reason in reasons), why
    for a, b in (("a/.memory", "b/.memory"), ("a-global", "b-global")):
        files_a, files_b = _files(tmp_path / a), _files(tmp_path / b)
        assert files_a.keys() == files_b.keys()
        for name, data in files_a.items():
            assert data == files_b[name], name


def test_remember_many_in_chunks_matches_one_batch(tmp_path: Path) -> None:
    items = _items(7, 240)
    whole = CuratedMemory(tmp_path / "a", tmp_path / "g1", now=NOW)
    chunked = CuratedMemory(tmp_path / "b", tmp_path / "g2", now=NOW)
    one = whole.remember_many(items, author="model")
    written: list[str] = []
    for start in range(0, len(items), 50):
        written += chunked.remember_many(items[start : start + 50], author="model").written
    assert one.written == written
    assert _files(tmp_path / "a" / ".memory") == _files(tmp_path / "b" / ".memory")
