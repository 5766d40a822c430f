"""Tokenizer rules (``mimomem.text.tokens`` and both bigram twins).

Expected outputs are written by hand from the rules of Lucene's CJKBigramFilter with its
default options (all four scripts, no unigrams; reference/cjk-fts.md section 3), with the
offsets converted to code points: Lucene counts UTF-16 units, we count characters of the
Python string.  Deliberate differences from Lucene are tested as such (CJK glued to Latin
splits; NFKC folding instead of CJKWidthFilter's subset; no stop words).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mimomem
from mimomem import Token, tokenize
from mimomem.errors import UnknownModeError
from mimomem.text._chars import MARK, SEP, char_class, fold
from mimomem.text.tokens import MAX_WORD, MODES

FAILURE_DOCS = {
    "pnpm": "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容",
    "port": "我们决定使用端口5433，数据库是postgres",
}
FAILURE_ROWS = [  # failures.md: (document, query); the bigram tokenizer must find each
    ("pnpm", "部署"),
    ("pnpm", "部署脚本"),
    ("pnpm", "lockfile"),
    ("port", "端口"),
    ("port", "postgres"),
    ("port", "5433"),
    ("port", "数据库"),
    ("port", "我们决定使用端口5433"),
]


def triples(tokens: list[Token]) -> list[tuple[str, int, int]]:
    return [(t.text, t.start, t.end) for t in tokens]


def bigrams(run: str, offset: int = 0) -> list[tuple[str, int, int]]:
    """Overlapping bigrams of a CJK run whose characters are one code point each."""
    if len(run) == 1:
        return [(run, offset, offset + 1)]
    return [(run[i : i + 2], offset + i, offset + i + 2) for i in range(len(run) - 1)]


# -- Lucene CJKBigramFilter vectors (TestCJKAnalyzer / TestCJKBigramFilter) ----------

LUCENE_VECTORS = [
    # testJa1: one Han run -> n-1 bigrams, no unigrams
    ("一二三四五六七八九十", bigrams("一二三四五六七八九十")),
    # testJa2: any gap ends the run; a run of one is a unigram
    (
        "一 二三四 五六七八九 十",
        [("一", 0, 1), *bigrams("二三四", 2), *bigrams("五六七八九", 6), ("十", 12, 13)],
    ),
    # testC: Latin words pass through
    (
        "abc defgh ijklmn opqrstu vwxy z",
        [("abc", 0, 3), ("defgh", 4, 9), ("ijklmn", 10, 16), ("opqrstu", 17, 24), ("vwxy", 25, 29), ("z", 30, 31)],
    ),
    # testFinalOffset
    ("あい", [("あい", 0, 2)]),
    ("あい   ", [("あい", 0, 2)]),
    ("test", [("test", 0, 4)]),
    ("test   ", [("test", 0, 4)]),
    ("あいtest", [("あい", 0, 2), ("test", 2, 6)]),
    ("testあい    ", [("test", 0, 4), ("あい", 4, 6)]),
    # testMix / testMix2: non-CJK tokens pass through and break the run
    ("あいうえおabcかきくけこ", [*bigrams("あいうえお"), ("abc", 5, 8), *bigrams("かきくけこ", 8)]),
    (
        "あいうえおabんcかきくけこ",
        [*bigrams("あいうえお"), ("ab", 5, 7), ("ん", 7, 8), ("c", 8, 9), *bigrams("かきくけこ", 9)],
    ),
    # testNonIdeographic / testNonIdeographicNonLetter: Arabic words, with a combining damma
    ("一 روبرت موير", [("一", 0, 1), ("روبرت", 2, 7), ("موير", 8, 12)]),
    ("一 رُوبرت موير", [("一", 0, 1), ("رُوبرت", 2, 8), ("موير", 9, 13)]),
    # testSurrogates: a supplementary ideograph is ONE code point here (two UTF-16 units in Lucene)
    ("𩬅艱鍟䇹愯瀛", bigrams("𩬅艱鍟䇹愯瀛")),
    # testSingleChar / testTokenStream
    ("一", [("一", 0, 1)]),
    ("一丁丂", [("一丁", 0, 2), ("丁丂", 1, 3)]),
    # Hangul runs are bigrammed like Han
    ("안녕하세요 한국어", [*bigrams("안녕하세요"), *bigrams("한국어", 6)]),
    # all four scripts on: bigrams cross Han/Hiragana boundaries
    ("多くの学生が試験に落ちた", bigrams("多くの学生が試験に落ちた")),
    # Katakana with the prolonged sound mark
    ("コーヒー", bigrams("コーヒー")),
    # CJKWidthFilter: full-width ASCII and half-width katakana, voicing marks composed
    ("Ｔｅｓｔ １２３４", [("test", 0, 4), ("1234", 5, 9)]),
    ("ｶﾀｶﾅ", [("カタ", 0, 2), ("タカ", 1, 3), ("カナ", 2, 4)]),
    ("ｳﾞｨｯﾂ", [("ヴィ", 0, 3), ("ィッ", 2, 4), ("ッツ", 3, 5)]),
    ("ﾊﾟﾅｿﾆｯｸ", [("パナ", 0, 3), ("ナソ", 2, 4), ("ソニ", 3, 5), ("ニッ", 4, 6), ("ック", 5, 7)]),
    # StandardTokenizer splits digits from a following ideograph
    ("2024年", [("2024", 0, 4), ("年", 4, 5)]),
]


@pytest.mark.parametrize(("text", "expected"), LUCENE_VECTORS, ids=[v[0][:12] for v in LUCENE_VECTORS])
def test_lucene_cjk_bigram_vectors(implementation, text, expected):
    assert triples(implementation.tokenize_bigram(text)) == expected


def test_cjk_glued_to_latin_splits_unlike_lucene_alphanum(implementation):
    # Lucene's StandardTokenizer keeps 한국abc as one <ALPHANUM>; we split it like 部署pnpm.
    assert triples(implementation.tokenize_bigram("한국abc")) == [("한국", 0, 2), ("abc", 2, 5)]
    assert triples(implementation.tokenize_bigram("部署pnpm")) == [("部署", 0, 2), ("pnpm", 2, 6)]
    assert triples(implementation.tokenize_bigram("用pnpm")) == [("用", 0, 1), ("pnpm", 1, 5)]
    assert triples(implementation.tokenize_bigram("端口5433")) == [("端口", 0, 2), ("5433", 2, 6)]


def test_separators_end_a_cjk_run(implementation):
    tok = implementation.tokenize_bigram
    assert triples(tok("部署，脚本")) == [("部署", 0, 2), ("脚本", 3, 5)]
    assert triples(tok("部署\u3000脚本")) == [("部署", 0, 2), ("脚本", 3, 5)]
    assert triples(tok("部😀署")) == [("部", 0, 1), ("署", 2, 3)]
    assert triples(tok("部署🚀pnpm")) == [("部署", 0, 2), ("pnpm", 3, 7)]


def test_hiragana_with_combining_voicing_mark_composes(implementation):
    assert triples(implementation.tokenize_bigram("か\u3099き")) == [("がき", 0, 3)]


# -- folding ------------------------------------------------------------------------


def test_width_folding(implementation):
    assert triples(implementation.tokenize_bigram("ＡＰＩ５４３３")) == [("api5433", 0, 7)]
    assert triples(implementation.tokenize_bigram("ＡＢＣ＿ｄｅｆ")) == [("abc_def", 0, 7)]


def test_case_folding(implementation):
    tok = implementation.tokenize_bigram
    assert triples(tok("HELLO World")) == [("hello", 0, 5), ("world", 6, 11)]
    assert triples(tok("Straße")) == [("strasse", 0, 6)]  # full case folding, offsets unchanged
    assert triples(tok("Привет, МИР")) == [("привет", 0, 6), ("мир", 8, 11)]


def test_latin_diacritics_removed_like_unicode61(implementation):
    tok = implementation.tokenize_bigram
    assert triples(tok("café naïve")) == [("cafe", 0, 4), ("naive", 5, 10)]
    assert triples(tok("Crème Brûlée")) == [("creme", 0, 5), ("brulee", 6, 12)]
    # a decomposed accent continues the word and is dropped; its offset is kept
    assert triples(tok("e\u0301x y")) == [("ex", 0, 3), ("y", 4, 5)]


def test_compatibility_characters_fold_with_nfkc(implementation):
    tok = implementation.tokenize_bigram
    assert triples(tok("ﬁle")) == [("file", 0, 3)]
    assert triples(tok("x² ①②")) == [("x2", 0, 2), ("12", 3, 5)]


# -- identifiers, versions, paths (failures.md: no new misses for English) -----------


def test_underscore_identifiers_stay_one_token(implementation):
    tok = implementation.tokenize_bigram
    assert triples(tok("memory_fts_idx TASK_ID_RE")) == [("memory_fts_idx", 0, 14), ("task_id_re", 15, 25)]
    assert triples(tok("__init__.py")) == [("__init__", 0, 8), ("py", 9, 11)]
    assert triples(tok("用memory_fts_idx")) == [("用", 0, 1), ("memory_fts_idx", 1, 15)]


def test_versions_split_at_dots(implementation):
    # Documented rule: '.' separates, so v1.2.3 -> v1 2 3 and T5.3 -> t5 3; the query side
    # keeps them together as an adjacent phrase (see test_query.py).
    tok = implementation.tokenize_bigram
    assert triples(tok("v1.2.3")) == [("v1", 0, 2), ("2", 3, 4), ("3", 5, 6)]
    assert triples(tok("T5.3")) == [("t5", 0, 2), ("3", 3, 4)]
    assert triples(tok("Python 3.11")) == [("python", 0, 6), ("3", 7, 8), ("11", 9, 11)]


def test_paths_ports_and_urls(implementation):
    tok = implementation.tokenize_bigram
    assert [t.text for t in tok("src/memory/fts.ts")] == ["src", "memory", "fts", "ts"]
    assert [t.text for t in tok("localhost:8080")] == ["localhost", "8080"]
    assert [t.text for t in tok("pnpm-lock.yaml")] == ["pnpm", "lock", "yaml"]


# -- other scripts become words ------------------------------------------------------


def test_other_scripts_are_words(implementation):
    tok = implementation.tokenize_bigram
    assert triples(tok("مرحبا بالعالم")) == [("مرحبا", 0, 5), ("بالعالم", 6, 13)]
    assert triples(tok("สวัสดี ครับ")) == [("สวัสดี", 0, 6), ("ครับ", 7, 11)]
    assert triples(tok("Ελλάδα")) == [("ελλάδα", 0, 6)]  # non-Latin accents are kept


def test_empty_and_separator_only_text(implementation):
    tok = implementation.tokenize_bigram
    assert tok("") == []
    assert tok(" \t\n\u3000") == []
    assert tok("，。！？——「」…") == []
    assert tok("😀🚀✅") == []


def test_long_words_are_cut_at_max_word(implementation):
    tokens = triples(implementation.tokenize_bigram("a" * 300 + " b"))
    assert tokens == [("a" * MAX_WORD, 0, MAX_WORD), ("a" * (300 - MAX_WORD), MAX_WORD, 300), ("b", 301, 302)]


def test_no_token_longer_than_max_word(implementation):
    # A non-Latin combining mark is kept inside a word; the cut must still happen.
    text = "a" * MAX_WORD + "\u0e31" + "a" * 300
    tokens = implementation.tokenize_bigram(text)
    assert all(len(t.text) <= MAX_WORD for t in tokens)
    assert "".join(t.text for t in tokens) == "a" * MAX_WORD + "\u0e31" + "a" * 300


def test_tokens_are_token_namedtuples(implementation):
    (token,) = implementation.tokenize_bigram("部署")
    assert isinstance(token, Token)
    assert (token.text, token.start, token.end) == ("部署", 0, 2)


# -- offsets -------------------------------------------------------------------------

OFFSET_SAMPLES = [
    *FAILURE_DOCS.values(),
    "## 配置\n- **端口** `5433`，见 src/db.py 与 TASK_ID_RE（v1.2.3）",
    "ｶﾞｷﾞ ＡＰＩ５４３３ café",
    "多くの学生が試験に落ちた。안녕하세요 세계!",
    "𩬅艱 x𠀀y",
]


@pytest.mark.parametrize("text", OFFSET_SAMPLES)
def test_offsets_map_back_to_the_original_text(implementation, text):
    tok = implementation.tokenize_bigram
    for t in tok(text):
        original = text[t.start : t.end]
        # re-tokenizing the user's own spelling of a token yields exactly that token
        assert triples(tok(original)) == [(t.text, 0, t.end - t.start)], (t, original)


@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=80))  # type: ignore[arg-type]
@settings(max_examples=300, deadline=None)
def test_offsets_are_in_bounds_and_ordered(text):
    tokens = tokenize(text)
    previous_start = 0
    for t in tokens:
        assert 0 <= t.start < t.end <= len(text)
        assert t.start >= previous_start
        previous_start = t.start
        assert t.text
        assert all(char_class(ch) != SEP for ch in t.text)


SIMPLE_ALPHABET = st.characters(exclude_categories=("Cs",)).filter(  # type: ignore[arg-type]
    lambda ch: len(fold(ch)) == 1 and char_class(fold(ch)) != MARK
)


@given(st.text(SIMPLE_ALPHABET, max_size=60))
@settings(max_examples=300, deadline=None)
def test_simple_text_tokens_are_folds_of_their_span(text):
    # For characters that fold to exactly one character (no expansions, no marks), each
    # token is the fold of its span with nothing dropped.
    for t in tokenize(text):
        assert "".join(fold(ch) for ch in text[t.start : t.end]) == t.text


# -- failures.md at the token level ---------------------------------------------------


def contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


@pytest.mark.parametrize(("doc", "query"), FAILURE_ROWS)
def test_failures_md_rows_are_found_at_token_level(implementation, doc, query):
    doc_tokens = [t.text for t in implementation.tokenize_bigram(FAILURE_DOCS[doc])]
    query_tokens = [t.text for t in implementation.tokenize_bigram(query)]
    assert query_tokens
    assert contains_run(doc_tokens, query_tokens), (doc_tokens, query_tokens)


def test_failures_md_port_and_number_are_separate_tokens(implementation):
    doc_tokens = [t.text for t in implementation.tokenize_bigram(FAILURE_DOCS["port"])]
    assert "端口" in doc_tokens
    assert "5433" in doc_tokens
    assert "postgres" in doc_tokens
    assert not any("5433" in t and t != "5433" for t in doc_tokens)


def test_failures_md_deployment_bigram_is_a_document_token(implementation):
    doc_tokens = [t.text for t in implementation.tokenize_bigram(FAILURE_DOCS["pnpm"])]
    assert {"部署", "脚本", "pnpm", "npm", "lockfile", "兼容"} <= set(doc_tokens)


# -- the public entry point and its modes --------------------------------------------


def test_tokenize_uses_the_active_twin():
    from mimomem.text import _accel

    assert tokenize("部署pnpm") == _accel.tokenize_bigram("部署pnpm")
    assert mimomem.native_available() is _accel.NATIVE


def test_unknown_mode_is_a_clear_error():
    with pytest.raises(UnknownModeError, match="valid modes: bigram, jieba"):
        tokenize("部署", mode="trigram")
    assert issubclass(UnknownModeError, ValueError)
    assert MODES == ("bigram", "jieba")


def test_non_str_input_is_a_type_error():
    with pytest.raises(TypeError, match="decode bytes first"):
        tokenize(b"bytes")  # type: ignore[arg-type]


def test_jieba_mode_search_segmentation_with_offsets():
    text = "中华人民共和国的部署脚本"
    tokens = tokenize(text, mode="jieba")
    words = [t.text for t in tokens]
    # search mode: the dictionary's sub-words, then the whole word
    assert words[:6] == ["中华", "华人", "人民", "共和", "共和国", "中华人民共和国"]
    assert "部署" in words and "脚本" in words
    for t in tokens:
        assert text[t.start : t.end] == t.text


def test_jieba_mode_folds_and_drops_punctuation():
    text = "用 PNPM 部署，端口5433。"
    tokens = tokenize(text, mode="jieba")
    assert "pnpm" in [t.text for t in tokens]
    assert "5433" in [t.text for t in tokens]
    for t in tokens:
        assert t.text
        assert all(char_class(ch) != SEP for ch in t.text)
        kept = "".join(c for ch in text[t.start : t.end] for c in fold(ch) if char_class(c) != SEP)
        assert kept == t.text


def test_jieba_mode_width_folds_like_bigram():
    tokens = triples(tokenize("ＡＰＩ５４３３", mode="jieba"))
    assert tokens == [("api5433", 0, 7)]
