"""A loanword and the English word it comes from, compared by sound: ``アップロード`` is ``upload``,
``크론`` is ``cron``, ``ログ`` is ``log``.

Japanese writes a borrowed word in katakana and Korean in hangul, both by its sound, so the word
an item is about can be read across the two scripts without a dictionary: each word is spelled in
Latin letters (Hepburn for kana; the Revised Romanization for hangul, syllable by syllable) and
reduced to its consonant *skeleton* - the consonants by place (p b f v / t d / k g c q / s z j ch
sh th / l r / m / n / h / w), vowels dropped, a doubled class once.  English spelling is read
the same way, with the few rules by which it differs from its sound as a Japanese or Korean
speaker borrows it: a soft ``c`` (cache, service), ``-tion``, an ``r`` after a vowel that is not
pronounced (port -> ポート, server -> 서버), ``x`` as ``ks``.  Two words sound alike when their
skeletons are equal and hold at least two consonants.
"""

from __future__ import annotations

import functools
import re

_KANA_ROWS = (
    ("アイウエオ", ("a", "i", "u", "e", "o")),
    ("カキクケコ", ("ka", "ki", "ku", "ke", "ko")),
    ("ガギグゲゴ", ("ga", "gi", "gu", "ge", "go")),
    ("サシスセソ", ("sa", "shi", "su", "se", "so")),
    ("ザジズゼゾ", ("za", "ji", "zu", "ze", "zo")),
    ("タチツテト", ("ta", "chi", "tsu", "te", "to")),
    ("ダヂヅデド", ("da", "ji", "zu", "de", "do")),
    ("ナニヌネノ", ("na", "ni", "nu", "ne", "no")),
    ("ハヒフヘホ", ("ha", "hi", "fu", "he", "ho")),
    ("バビブベボ", ("ba", "bi", "bu", "be", "bo")),
    ("パピプペポ", ("pa", "pi", "pu", "pe", "po")),
    ("マミムメモ", ("ma", "mi", "mu", "me", "mo")),
    ("ヤユヨ", ("ya", "yu", "yo")),
    ("ラリルレロ", ("ra", "ri", "ru", "re", "ro")),
    ("ワヲ", ("wa", "o")),
    ("ァィゥェォャュョ", ("a", "i", "u", "e", "o", "ya", "yu", "yo")),
    ("ヴ", ("vu",)),
)
_KANA = {k: r for kana, romaji in _KANA_ROWS for k, r in zip(kana, romaji, strict=True)}
_KANA |= {"ン": "n", "ー": "", "ッ": ""}

_HANGUL_INITIAL = ("g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h")
_HANGUL_VOWEL = (
    "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu", "eu",
    "ui", "i",
)  # fmt: skip
_HANGUL_FINAL = (
    "", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng",
    "t", "t", "k", "t", "p", "t",
)  # fmt: skip
_CLASSES = {
    **dict.fromkeys("pbfv", "P"),
    **dict.fromkeys("td", "T"),
    **dict.fromkeys("kgcq", "K"),
    **dict.fromkeys("szj", "S"),
    **dict.fromkeys("lr", "R"),
    "m": "M",
    "n": "N",
    "h": "H",
    "w": "W",
}
_ENGLISH = (
    (re.compile(r"ti(?=[aou])|sh|ch|th|c(?=[eiy])"), "s"),  # -tion, sh, ch, th, a soft c: one sibilant
    (re.compile(r"d?g(?=e[sd]?$)"), "j"),  # image, stage, message: a soft g
    (re.compile(r"ph"), "f"),
    (re.compile(r"x"), "ks"),
    (re.compile(r"ck"), "k"),
    (re.compile(r"wh"), "w"),
    (re.compile(r"(?<=[aeiou])r(?![aeiouy])"), ""),  # port, server, worker: the r is not said
    (re.compile(r"(?<=[aeiou])h(?![aeiou])|(?<=[^aeiou])h"), ""),
    (re.compile(r"(?<=[aeiou])w(?![aeiou])"), ""),  # flow, new: a vowel
)
_LATIN_WORD = re.compile(r"[a-z]+")
_KATAKANA_WORD = re.compile(r"[\u30a1-\u30fc]+")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")


def romanize(word: str) -> str:
    """A katakana or hangul word in Latin letters (other characters are dropped)."""
    out: list[str] = []
    for ch in word:
        if ch in "ャュョ" and out and out[-1].endswith("i") and len(out[-1]) > 1:
            out[-1] = out[-1][:-1]  # キャ kya, シュ shu: the small kana joins the syllable before it
        if ch in _KANA:
            out.append(_KANA[ch])
        elif "\uac00" <= ch <= "\ud7a3":
            n = ord(ch) - 0xAC00
            out.append(_HANGUL_INITIAL[n // 588] + _HANGUL_VOWEL[n % 588 // 28] + _HANGUL_FINAL[n % 28])
    return "".join(out)


def _reduce(spelled: str) -> str:
    classes = [_CLASSES.get(ch, "") for ch in spelled]
    out: list[str] = []
    for c in classes:
        if c and (not out or out[-1] != c):
            out.append(c)
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def skeleton(word: str) -> str:
    """The consonant skeleton of an English, katakana or hangul word ("" for anything else)."""
    spelled = romanize(word) if _KATAKANA_WORD.fullmatch(word) or _HANGUL_WORD.fullmatch(word) else word.casefold()
    if not _LATIN_WORD.fullmatch(spelled):
        return ""
    for pattern, sound in _ENGLISH:
        spelled = pattern.sub(sound, spelled)
    return _reduce(spelled)


def sounds_like(borrowed: str, english: str) -> bool:
    """``borrowed`` (katakana or hangul) is the English word ``english`` said as a loanword."""
    theirs = skeleton(english)
    return len(theirs) >= 2 and skeleton(borrowed) == theirs


def compound_of(borrowed: str, first: str, second: str) -> bool:
    """``borrowed`` (one katakana or hangul run, ``ビルドキャッシュ``) is the two English words
    ``first`` ``second`` said as one loanword (build cache): Japanese writes a compound without a space."""
    theirs = skeleton(first + second)
    return len(skeleton(first)) >= 2 and len(skeleton(second)) >= 2 and skeleton(borrowed) == theirs


def part_of(english: str, borrowed: str) -> bool:
    """``english`` is the first or the last word of the compound loanword ``borrowed`` (build in
    ``ビルドキャッシュ``): its skeleton starts or ends that of ``borrowed`` and leaves another word's
    worth (two consonants at least) beside it."""
    mine, theirs = skeleton(english), skeleton(borrowed)
    if len(mine) < 2 or len(theirs) < len(mine) + 2:
        return False
    return theirs.startswith(mine) or theirs.endswith(mine)
