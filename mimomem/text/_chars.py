"""Per-code-point rules shared by the pure and native tokenizers.

Both tokenizers read text one code point at a time.  Each code point is first *folded*
(``fold``: NFKC, case folding, and removal of diacritics from Latin letters) into zero or
more output characters; each output character then has a *class* (``char_class``):

* ``SEP``  - separates tokens (space, punctuation, symbols, anything unassigned)
* ``WORD`` - part of a word token (letters, digits and ``_`` outside CJK scripts)
* ``CJK``  - Han, Hiragana, Katakana (with the prolonged sound mark) and Hangul
  letters; runs of these become bigrams
* ``MARK`` - a combining mark: continues the token in progress, separates otherwise

The native extension builds lookup tables from these two functions, so both
implementations agree by construction on the per-character rules; only the token
assembly is written twice (and tested for equality).
"""

from __future__ import annotations

import functools
import unicodedata

TYPE_CHECKING = False  # not from mimomem: _native/gen_tables.py loads this file on its own at build time

if TYPE_CHECKING:
    from typing import Any

SEP = 0
WORD = 1
CJK = 2
MARK = 3

_CJK_SCRIPT_PATTERN = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\u30fc]"
# Combining marks that FTS5's unicode61 (remove_diacritics) drops from Latin words.
_DIACRITICS = range(0x300, 0x370)


@functools.lru_cache(maxsize=None)
def fold(ch: str) -> str:
    """Fold one code point: NFKC (full width -> ASCII), case fold, strip Latin diacritics."""
    if ch.isascii():
        return ch.lower()
    out = unicodedata.normalize("NFKC", ch).casefold()
    if not out:
        return out
    if len(out) == 1 and ord(out) in _DIACRITICS:
        return ""
    stripped = "".join(c for c in unicodedata.normalize("NFD", out) if not unicodedata.combining(c))
    if stripped and stripped.isascii():
        return stripped
    return out


@functools.lru_cache(maxsize=None)
def char_class(ch: str) -> int:
    """Class of one (already folded) code point: SEP, WORD, CJK or MARK."""
    if ch == "_":
        return WORD
    cat = unicodedata.category(ch)
    major = cat[0]
    if major == "M":
        return MARK
    if major not in "LN" and cat != "Co":
        return SEP
    if _cjk_script().match(ch):
        return CJK
    return WORD


@functools.lru_cache(maxsize=1)
def _cjk_script() -> Any:
    """The CJK script class (the ``regex`` module, compiled once, on the first letter classified:
    the native tokenizer's tables are prebuilt, so a hook that only tokenizes never loads it)."""
    import regex

    return regex.compile(_CJK_SCRIPT_PATTERN)


# Half-width katakana voicing marks fold to these combining marks; like Lucene's
# CJKWidthFilter we compose them into the preceding kana (ｶﾞ -> ガ) when possible.
VOICING_MARKS = ("\u3099", "\u309a")


def compose_voicing(prev: str, mark: str) -> str:
    """The kana that ``prev`` followed by a voicing ``mark`` composes to, or ``""``."""
    composed = unicodedata.normalize("NFC", prev + mark)
    return composed if len(composed) == 1 else ""
