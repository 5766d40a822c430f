"""Query terms that say nothing about the subject (English function words, Chinese question words),
and the light English suffix fold both sides of per-prompt recall use.

Used by per-prompt recall (``mimomem.served.entry_recall``) so that "what is the ... of the
..." or "是多少" never matches a memory on its own.  The lists are ours, short on purpose:
a word that can carry meaning in a developer's question (``use``, ``run``, ``port``) is not
here.  Terms are compared after the tokenizer's folding (NFKC, lower case).

For Chinese the tokenizer makes overlapping bigrams, so a question like 端口是多少 yields
``口是`` ``是多`` ``多少``: a bigram is a stop term when it is a question or function word
itself or when either character is a particle or pronoun (:data:`STOP_CHARS`).
"""

from __future__ import annotations

from mimomem.text.query import QUERY_STOPWORDS

_EN = """
a an the this that these those it its is are was were be been being am do does did done doing
have has had having i me my we us our you your he she they them their what which who whom whose
when where why how whether if then than so to of in on at by for with from into onto about as
and or but not no nor any some all each every both either neither there here just also only
very too again once should would could can may might must shall will ever else other such same
own now ago yet still one ones thing things get got getting let lets make made please tell
know need want like okay ok hi hello thanks thank whats hows wheres whos dont doesnt didnt isnt
arent wasnt were werent cant couldnt wont wouldnt shouldnt im ive youre weve theyre
"""

STOP_WORDS = frozenset(_EN.split())
"""English function and question words."""

STOP_CHARS = frozenset("的了是吗呢吧啊么嘛呀哪什怎谁你我他她它们这那该")
"""Chinese particles, pronouns and question characters: a bigram holding one says nothing alone."""

_ZH = (
    "多少 几个 几点 一下 之前 之后 现在 当时 当初 时候 有没 没有 可以 应该 需要 能不 要不 还是 或者 "
    "一个 一些 哪些 为何 如何 怎样 是否 以及 因为 所以 但是 如果 然后 就是 还有 知道 告诉 看看"
)

STOP_BIGRAMS = frozenset(w for w in QUERY_STOPWORDS if len(w) == 2) | frozenset(_ZH.split())
"""Chinese function and question words as they appear among a query's bigrams."""


def is_stop(term: str) -> bool:
    """True when the folded query term ``term`` carries no subject on its own."""
    if not term:
        return True
    if term.isascii():
        return term in STOP_WORDS or (len(term) == 1 and not term.isdigit())
    if len(term) == 2 and (term in STOP_BIGRAMS or term[0] in STOP_CHARS or term[1] in STOP_CHARS):
        return True
    return len(term) == 1 and (term in STOP_CHARS or term in QUERY_STOPWORDS)


def negated_auxiliary(text: str, end: int) -> bool:
    """Whether the word of ``text`` ending at ``end`` carries an English negative contraction (isn't,
    don't, won't): such a word is always an auxiliary or a modal, grammar and not a subject."""
    return text[end : end + 2] in ("'t", "\u2019t") and not text[end + 2 : end + 3].isalnum()


def stem(token: str) -> str:
    """A light English suffix fold (``titles`` -> ``title``, ``fixed`` -> ``fix``); other tokens unchanged."""
    if not (token.isascii() and token.isalpha()) or len(token) < 5:
        return token
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            if suffix == "es" and not token.endswith(("ches", "shes", "xes", "sses")):
                continue
            if suffix == "s" and token.endswith("ss"):
                return token
            return token[: len(token) - len(suffix)] + keep
    return token
