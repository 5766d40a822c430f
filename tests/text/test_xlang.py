"""The per-prompt cross-language lookup finds exactly what a dictionary of the whole file would."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from mimomem.text.xlang import XLANG_FILE, data_text, translations_in


@functools.cache
def maps() -> tuple[dict[str, list[str]], list[tuple[str, tuple[str, ...]]]]:
    """English word -> Chinese heads and (head, translations) rows, as the lookup was first written."""
    english: dict[str, list[str]] = {}
    chinese = []
    for line in data_text(XLANG_FILE).split("\n"):
        if not line or line[0] == "#":
            continue
        row = line.rstrip().split("\t")
        head, others = row[0], tuple(o.lower() for o in row[1:] if o)
        chinese.append((head, others))
        for word in others:
            english.setdefault(word, []).append(head)
    return english, chinese


def reference(text: str, words: list[str], per_word: int) -> list[str]:
    """The lookup as it was written before (a dictionary of every word): the behaviour to keep."""
    english, chinese = maps()
    out: list[str] = []
    for word in words:
        out += english.get(word, [])[:per_word]
    out += [w for head, others in chinese if head in text for w in others[:per_word]]
    return list(dict.fromkeys(out))


def vocabulary() -> tuple[list[str], list[str]]:
    rows = [ln.rstrip().split("\t") for ln in data_text(XLANG_FILE).split("\n") if ln and ln[0] != "#"]
    heads = [r[0] for r in rows]
    english = sorted({c.lower() for r in rows for c in r[1:] if c})
    return heads, english


def test_every_english_word_gets_the_same_chinese_words() -> None:
    _, english = vocabulary()
    for per_word, step in ((3, 2), (1, 11), (50, 11)):
        for word in english[::step]:
            assert translations_in("", [word], per_word=per_word) == reference("", [word], per_word), word


def test_prompts_made_of_vocabulary_words_get_the_same_terms() -> None:
    heads, english = vocabulary()
    rng = random.Random(5)
    near = [w[:-1] for w in english[:200]] + [w + "s" for w in english[:200]] + ["", "port", "zzzz"]
    for _ in range(300):
        text = "，".join(rng.sample(heads, 3)) + "的" + " ".join(rng.sample(english, 2))
        words = rng.sample(english, 2) + rng.sample(near, 2)
        for per_word in (1, 3):
            assert translations_in(text, words, per_word=per_word) == reference(text, words, per_word), (text, words)


def test_the_lookup_is_cached_and_a_damaged_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mimomem.text import xlang

    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path))
    fresh = xlang.Lookup.build(data_text(XLANG_FILE))
    for damage in (None, b"", b"\x00not marshal", b"\xe9\x00"):
        xlang.shipped.cache_clear()
        cached = list(tmp_path.glob("xlang-*.lookup"))
        if damage is not None:
            cached[0].write_bytes(damage)
        lookup = xlang.shipped()
        assert [bytes(lookup.data["words"][i]) for i in range(xlang.BUCKETS)] == list(fresh.data["words"])
        assert len(list(tmp_path.glob("xlang-*.lookup"))) == 1
        assert translations_in("部署数据库", ["deploy"], lookup=lookup) == translations_in(
            "部署数据库", ["deploy"], lookup=fresh
        )
    xlang.shipped.cache_clear()


def test_the_mapped_lookup_file_answers_as_the_built_lookup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mimomem.text import xlang

    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path))
    xlang.shipped.cache_clear()
    mapped = xlang.shipped()  # built, written to the cache directory, mapped from it
    built = xlang.Lookup.build(data_text(XLANG_FILE))
    try:
        assert mapped.data["file"] == xlang.lookup_path()
        assert [bytes(b) for b in (mapped.data["words"][i] for i in range(xlang.BUCKETS))] == list(built.data["words"])
        assert {c: bytes(mapped.data["heads"].get(c)) for c in built.data["heads"]} == built.data["heads"]
        for text, words in (("部署数据库", ["deploy"]), ("缓存失效", ["cache", "port"])):
            assert translations_in(text, words, lookup=mapped) == translations_in(text, words, lookup=built)
    finally:
        xlang.shipped.cache_clear()
