"""The token estimate counts its features without regular expressions: the same numbers as before.

``reference_features`` is :func:`mimomem.served.estimate.features` as it was (one regex pass per kind
of run, on the class letters as a str), kept here as the reference: every input must give the same
counts, so every estimate, cut and budget stays what it was.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem.served import estimate as est

_CJK_CLASSES = "hHTkKgGJqQ"
_WORD_RUN = re.compile(r"[aA]+")
_DIGIT_GROUP = re.compile(r"d{1,3}")
_PUNCT_RUN = re.compile(r"p+")
_NEWLINE_RUN = re.compile(r"n+")
_SPACE_RUN = re.compile(r"s{2,}")
_SPACE_BEFORE_CJK = re.compile(rf"s(?=[{_CJK_CLASSES}])")


def reference_class_table() -> str:
    """``estimate._class_table`` as it was: a slice per block of 64 code points."""
    table = bytearray(b"p" * 0x80 + b"o" * (0x800 - 0x80) + b"O" * (0x10000 - 0x800))
    for cp in range(0x80):
        ch = chr(cp)
        if "a" <= ch <= "z":
            table[cp] = ord("a")
        elif "A" <= ch <= "Z":
            table[cp] = ord("A")
        elif "0" <= ch <= "9":
            table[cp] = ord("d")
        elif ch in "\n\r":
            table[cp] = ord("n")
        elif ch in " \t\x0b\x0c":
            table[cp] = ord("s")

    def fill(codepoints: range, letter: str) -> None:
        table[codepoints.start : codepoints.stop] = letter.encode("ascii") * len(codepoints)

    def fill_blocks(start: int, stop: int, costs: str, two: str, three: str) -> None:
        for block in range(start, stop, 64):
            end = min(block + 64, stop)
            table[block:end] = (three if costs[(block - start) >> 6] == "3" else two).encode("ascii") * (end - block)

    fill_blocks(0x4E00, 0xA000, est._HAN_BLOCK_COST, "H", "T")
    fill(range(0x3400, 0x4DC0), "T")
    fill(range(0xF900, 0xFB00), "H")
    for kana in (range(0x3040, 0x3100), range(0x31F0, 0x3200), range(0xFF66, 0xFFA0)):
        fill(kana, "K")
    fill_blocks(0xAC00, 0xD7A4, est._HANGUL_BLOCK_COST, "G", "J")
    for jamo in (range(0x1100, 0x1200), range(0x3130, 0x3190)):
        fill(jamo, "G")
    for punct in (range(0x3000, 0x3040), range(0xFF00, 0xFF66), range(0xFFA0, 0xFFF0)):
        fill(punct, "Q")
    for chars, letter in (
        (est._HAN_ONE_TOKEN, "h"),
        (est._KANA_ONE_TOKEN, "k"),
        (est._HANGUL_ONE_TOKEN, "g"),
        (est._CJK_PUNCT_ONE_TOKEN, "q"),
    ):
        for ch in chars:
            table[ord(ch)] = ord(letter)
    return table.decode("ascii")


REFERENCE_TABLE = reference_class_table()


def test_the_class_table_is_the_same():
    assert est._class_table() == REFERENCE_TABLE
    assert est._ASCII_CLASSES[:0x80].decode("ascii") == REFERENCE_TABLE[:0x80]


def reference_features(text: str) -> tuple[int, ...]:
    classes = text.translate(REFERENCE_TABLE)
    count = classes.count
    word_lengths = list(map(len, _WORD_RUN.findall(classes)))
    punct_lengths = list(map(len, _PUNCT_RUN.findall(classes)))
    punct_excess = sum([n - 3 for n in punct_lengths if n > 3])
    astral = 0 if classes.isascii() else len(classes) - len(classes.encode("ascii", "ignore"))
    return (
        *(count(c) for c in _CJK_CLASSES),
        len(_SPACE_BEFORE_CJK.findall(classes)),
        len(word_lengths),
        sum([n - 6 for n in word_lengths if n > 6]),
        count("aA"),
        len(_DIGIT_GROUP.findall(classes)),
        count("p") - punct_excess,
        punct_excess,
        len(punct_lengths),
        len(_NEWLINE_RUN.findall(classes)),
        len(_SPACE_RUN.findall(classes)),
        count("o"),
        count("O"),
        astral,
    )


def reference_estimate(text: str) -> int:
    if not text:
        return 0
    total = 0.0
    for weight, value in zip(est.WEIGHTS, reference_features(text), strict=True):
        total += weight * value
    return max(1, int(total + 0.5))


def same(text: str) -> None:
    got = est.features(text)
    assert got == reference_features(text), text
    assert all(type(v) is int for v in got)
    assert est.estimate_tokens(text) == reference_estimate(text)


# One character of every class, a few of each, so runs of every length and every neighbour occur.
CLASS_SAMPLES = "aZ09.-\n\r \t\x0b\x0cé€一丂㐀豈あゔ가갂ᄀ。〇！ｦ😀𠀀\U000e0001\ud800"


@settings(max_examples=1500, deadline=None)
@given(st.text(st.sampled_from(CLASS_SAMPLES), max_size=120))
def test_the_same_counts_on_runs_of_every_class(text):
    same(text)


@settings(max_examples=500, deadline=None)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=300))
def test_the_same_counts_on_arbitrary_unicode(text):
    same(text)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(max_codepoint=0x7F), max_size=400))
def test_the_same_counts_on_ascii(text):
    same(text)


def test_the_same_counts_on_long_runs():
    for letter in "a1.\n 一😀":
        for n in range(0, 40):
            same(letter * n)
            same("x" + letter * n + "\u4e00")


def test_the_same_estimates_on_the_shipped_corpora():
    corpora = Path(__file__).resolve().parents[2] / "corpora"
    texts = []
    for path in sorted(corpora.glob("*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            texts.append(str(doc.get("title", "")) + "\n" + str(doc.get("text", "")))
    assert len(texts) > 500
    for text in texts:
        same(text)
    same("\n".join(texts))


def test_the_memo_of_short_texts_gives_the_same_estimates(monkeypatch):
    monkeypatch.setattr(est, "_MEMO", {})
    monkeypatch.setattr(est, "_MEMO_SIZE", 3)
    texts = ["ab\n", "cd\n", "部署\n", "x" * 200, "12 34\n", "ab\n", "AbC\n", "部署\n", "日志\n", "x" * 200]
    for _ in range(2):
        assert [est.estimate_tokens(t) for t in texts] == [reference_estimate(t) for t in texts]
    assert 0 < len(est._MEMO) <= 3


def joined_counts(parts: list[str]) -> tuple[int, ...]:
    classes, counts = b"", (0,) * len(est.FEATURES)
    for part in parts:
        if part:
            classes, counts = est._join(classes, counts, *est._counted(part))
    return counts


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.text(st.sampled_from(CLASS_SAMPLES), max_size=40), max_size=5))
def test_joined_counts_are_the_counts_of_the_joined_text(parts):
    whole = "".join(parts)
    assert joined_counts(parts) == reference_features(whole)
    assert est.estimate_joined(*parts) == reference_estimate(whole)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.characters(codec=None, exclude_categories=()), max_size=300), max_size=4))
def test_joined_estimates_on_arbitrary_unicode(parts):
    assert est.estimate_joined(*parts) == reference_estimate("".join(parts))


def test_long_texts_are_remembered_and_joined_runs_counted_once(monkeypatch):
    monkeypatch.setattr(est, "_LONG", {})
    monkeypatch.setattr(est, "_LONG_SIZE", 2)
    long_runs = ["x" * 200, "Yy" * 150, "1" * 250, "." * 170 + "\n", "\n" * 200, " " * 181, "abcd" * 41, "12" * 81]
    for left in long_runs:
        for right in long_runs:
            assert joined_counts([left, right]) == reference_features(left + right)
            assert est.estimate_joined(left, right) == reference_estimate(left + right)
            assert est.estimate_tokens(left) == reference_estimate(left)
    assert len(est._LONG) <= 2


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.text(st.sampled_from(CLASS_SAMPLES + "\n\n\n"), max_size=400), max_size=4),
    st.lists(st.text(max_size=20), max_size=2),
)
def test_a_contexts_tokens_are_the_estimate_of_its_text(texts, left_out):
    from mimomem.served.fitting import Block, Context

    ctx = Context(1000, [Block(f"b{i}", t, 0, 0, False, "") for i, t in enumerate(texts)], list(left_out))
    assert ctx.tokens == reference_estimate(ctx.text)
    assert ctx.tokens == reference_estimate(ctx.text)  # again, from remembered counts


def test_a_text_without_its_trailing_newlines_is_remembered_with_its_own_counts(monkeypatch):
    monkeypatch.setattr(est, "_LONG", {})
    for body in ("x" * 200, "x" * 200 + "\r", "\n" * 180 + "y", "日" * 170 + " "):
        for text in (body + "\n", body + "\n\n\n"):
            est.estimate_tokens(text)
            assert est._LONG[body] == (est._classes(body), reference_features(body))
