"""What kind of query a text is, from its shape alone: the switch of the retrieval options.

The retrieval options (feedback, cross-language expansion, proximity; see
``mimomem.search.rerank``) help some kinds of query and hurt others, so each is switched on
per kind.  The kinds are decided from the text, never from a label, with general rules
(scripts, question words and marks), not from any benchmark query:

* ``ko`` / ``ja`` - any Hangul / any kana;
* ``zh-question`` / ``en-question`` - a question (:func:`is_question`);
* ``cjk-short`` - one Han word of at most three characters and nothing else (部署, 幂等);
* ``cjk-term`` - Han only, longer (数据库迁移, 缓存击穿);
* ``mixed`` - Han with Latin letters or digits (端口5433, Redis缓存);
* ``identifier`` - no Han; digits, ``_``, connector punctuation or an inner capital
  (``memory_fts_idx``, ``v1.2.3``, ``.nvmrc``, ``ERR_X``);
* ``en-words`` - plain words (deploy, connection pool).

Full-width forms are folded first (ＡＰＩ版本 is ``mixed``), like the tokenizer does.
"""

from __future__ import annotations

import re
import unicodedata

QUERY_KINDS = ("cjk-short", "cjk-term", "mixed", "zh-question", "identifier", "en-words", "en-question", "ja", "ko")
"""Every kind :func:`query_kind` returns."""

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff]")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9]")
_WORD = re.compile(r"[A-Za-z0-9_]+")

ZH_QUESTION_WORDS = (
    "什么",
    "怎么",
    "怎样",
    "如何",
    "为什么",
    "为何",
    "哪",
    "多久",
    "多少",
    "多大",
    "多长",
    "几",
    "是否",
    "能否",
    "可否",
    "能不能",
    "可不可以",
    "是不是",
    "有没有",
    "还是",
)
"""Chinese interrogative words; a query holding one (or ending in 吗/呢/？) is a question."""

ZH_QUESTION_FINALS = ("吗", "呢", "么")

_EN_QUESTION_TEXT = (
    "how what which where when why who whom whose is are was were do does did can could should would will shall "
    "may might must"
)
EN_QUESTION_STARTS = frozenset(_EN_QUESTION_TEXT.split())
"""English words that open a question (checked on the first word)."""


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def is_question(text: str) -> bool:
    """Whether ``text`` reads as a question (Chinese or English).

    A question mark, a Chinese interrogative word or final particle, or an English
    question word as the first word.  Japanese and Korean are not judged (their own kinds).
    """
    folded = _fold(text)
    if not folded:
        return False
    if folded.endswith("?"):
        return True
    if _HAN.search(folded):
        han = "".join(ch for ch in folded if _HAN.match(ch))
        return any(w in han for w in ZH_QUESTION_WORDS) or han.endswith(ZH_QUESTION_FINALS)
    words = _WORD.findall(folded)
    return len(words) >= 3 and words[0].lower() in EN_QUESTION_STARTS


def query_kind(text: str) -> str:
    """The kind of ``text``, one of ``QUERY_KINDS`` (see the module docstring)."""
    folded = _fold(text)
    if _HANGUL.search(folded):
        return "ko"
    if _KANA.search(folded):
        return "ja"
    han = _HAN.search(folded) is not None
    if is_question(folded):
        return "zh-question" if han else "en-question"
    if han:
        if _LATIN_OR_DIGIT.search(folded):
            return "mixed"
        runs = [r for r in re.split(r"[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+", folded) if r]
        return "cjk-short" if len(runs) == 1 and len(runs[0]) <= 3 else "cjk-term"
    if _is_identifier(folded):
        return "identifier"
    return "en-words"


def _is_identifier(text: str) -> bool:
    words = text.split()
    for word in words:
        if any(ch.isdigit() for ch in word) or "_" in word:
            return True
        if any(ch in ".-/:@#~\\" for ch in word.strip(".,;!?")):
            return True
        letters = [ch for ch in word if ch.isalpha()]
        if len(letters) > 1 and any(ch.isupper() for ch in letters[1:]) and not word.isupper():
            return True  # camelCase
        if len(words) == 1 and word.isupper() and len(word) > 1:
            return True  # one upper-case word: a constant or an acronym
    return False


__all__ = ["EN_QUESTION_STARTS", "QUERY_KINDS", "ZH_QUESTION_WORDS", "is_question", "query_kind"]
