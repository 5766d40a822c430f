"""Whether two memory items are about the same thing and one gives a newer value of it, read from
their subjects (:func:`~mimomem.passes.supersede_subject.subject_of`).

Two items are about the same thing when their environments and attributes agree, they share a
subject word (or, in one language, a word's translation), and neither names a subject word of
the other's script that the other lacks (``订单模块`` / ``库存模块``, ``connect`` / ``read``
timeout): then a value of the same kind that differs is a newer value.
"""

from __future__ import annotations

from mimomem.passes.loanword import compound_of, part_of, sounds_like
from mimomem.passes.memory_doc import item_text
from mimomem.passes.supersede_subject import (
    _AGENT,
    _EN_STOP,
    _FAMILY,
    _KATAKANA,
    _WORDS,
    LATELY,
    Subject,
    _glossary,
    _lemma,
    _typed_values,
    one_fact,
    subject_of,
)
from mimomem.passes.supersede_value import replaced_values
from mimomem.passes.supersede_words import CHANGE


def different_subjects(new: Subject, old: Subject) -> bool:
    """True when the two are surely about two things: two environments, two attributes, or each
    naming a subject word of one script that the other lacks, or two sources (a value read from
    ``Dockerfile`` is not one read from ``.python-version``; what was said is not what a tool showed)."""
    if new.source != old.source:
        return True
    if new.env and old.env and new.env != old.env:
        return True  # staging and prod: two things
    if new.attrs and old.attrs and not new.attrs & old.attrs:
        return True
    only_new, only_old = _unmatched(new, old, new.head), _unmatched(old, new, old.head)
    return bool(_scripts(only_new) & _scripts(only_old))


def _scripts(words: set[tuple[str, str]]) -> set[str]:
    """The scripts ``words`` can be compared in: their own, and English for a Chinese word the
    dictionary translates (订单 against payment: two things)."""
    glossary = _glossary()
    scripts = {s for s, _ in words} | ({"latin"} if any(s == "cjk" and glossary.get(w) for s, w in words) else set())
    return scripts | ({"latin"} if "kana" in scripts else set())  # katakana spells a loanword: compared by sound


def _unmatched(one: Subject, other: Subject, words: frozenset[tuple[str, str]] | None = None) -> set[tuple[str, str]]:
    """Subject ``words`` of ``one`` (all by default) that ``other`` lacks, in itself or in translation."""
    theirs = {w for _, w in other.words} | other.glosses
    glossary = _glossary()
    return {
        (s, w)
        for s, w in (one.words if words is None else words)
        if not _matched(w, theirs) and not (s == "cjk" and any(_matched(g, theirs) for g in glossary.get(w, ())))
    }


def _matched(word: str, theirs: set[str]) -> bool:
    """``word`` is among ``theirs``: itself, a form of it (``conn`` / ``connection``), or every
    part of an identifier (``max_client_conn``: max is an attribute word, client and conn shared)."""
    if word in theirs:
        return True
    if word.isascii() and any(
        len(t) >= 4 and len(word) >= 4 and (t.startswith(word) or word.startswith(t)) for t in theirs
    ):
        return True
    if _KATAKANA.fullmatch(word) and any(
        _KATAKANA.fullmatch(t) and t[:3] == word[:3] and abs(len(t) - len(word)) <= 2 for t in theirs
    ):
        return True  # one loanword's forms (デザイン / デザイナー), not a compound it starts (セッションキャッシュ)
    if _loanword_matched(word, theirs):
        return True  # アップロード / upload, 크론 / cron: a loanword and its English word
    parts = [p for p in word.split("_") if p and p not in _WORDS and p not in _EN_STOP]
    return "_" in word and bool(parts) and all(_matched(p, theirs) for p in parts)


def _loanword_matched(word: str, theirs: set[str]) -> bool:
    """``word`` is a katakana or hangul loanword of an English word among ``theirs``, or the reverse;
    a compound loanword written as one run (``ビルドキャッシュ``) is two English words of ``theirs``,
    and an English word is matched by the compound it starts or ends."""
    if word.isascii():
        return word.isalpha() and any(not t.isascii() and (sounds_like(t, word) or part_of(word, t)) for t in theirs)
    english = [t for t in theirs if t.isascii() and t.isalpha()]
    if any(sounds_like(word, t) for t in english):
        return True
    return _KATAKANA.fullmatch(word) is not None and any(
        compound_of(word, a, b) for a in english for b in english if a != b
    )


def _shares_a_word(one: Subject, other: Subject) -> bool:
    """A subject word (or its translation, or the loanword of it) of ``one`` that ``other`` has too."""
    return len(_unmatched(one, other)) < len(one.words)


def same_subject(new: Subject, old: Subject, *, change: bool = False) -> bool:
    """A shared subject word (or its translation) - or, when ``new`` states a change and names
    nothing but the attribute ("端口改成 6543"), the same attribute in the same environment."""
    if different_subjects(new, old):
        return False
    mine = {w for _, w in new.words} | new.glosses
    theirs = {w for _, w in old.words} | old.glosses
    comparable = _scripts(set(new.words))
    if {s for s, _ in _unmatched(old, new)} & comparable and not new.attrs & old.attrs:
        return False  # the old item is about something narrower ("CI cache key" against "CI")
    if mine & theirs:
        return True
    if _shares_a_word(new, old):  # a loanword and its English word (キャッシュ / cache), nothing else shared:
        return not (_unmatched(new, old) and _unmatched(old, new))  # 결제 서비스 / search service: unknown

    # "The prod port is 5432" names no thing but its environment: it is not about the broker's port
    return change and not new.words and new.env == old.env and bool(new.attrs & old.attrs)


def newer_value(new: Subject, old: Subject, *, change: bool = False) -> bool:
    """``new`` holds another value of a kind ``old`` holds too, and ``old`` a value of it ``new`` lacks
    - or, when ``new`` states a change ("from A to B", "A から B に"), names the old value beside the new."""
    for kind in _kinds(new) & _kinds(old):
        mine, theirs = _of_kind(new, kind), _of_kind(old, kind)
        if mine - theirs and (theirs - mine or change):
            return True
    return False


def _kinds(s: Subject) -> set[str]:
    return {_FAMILY.get(k, k) for k, _ in s.values}


def _of_kind(s: Subject, kind: str) -> set[str]:
    return {v for k, v in s.values if _FAMILY.get(k, k) == kind}


def restated(new: Subject, old: Subject) -> bool:
    """``new`` gives the same value of every kind the two share, and ``old`` says nothing more of them:
    the same thing said again in another unit or another language (5분 / 300s); the same words
    and values again are a duplicate, which promotion drops, not a restatement."""
    shared = _kinds(new) & _kinds(old)
    if not shared or any(_of_kind(new, k) != _of_kind(old, k) for k in shared):
        return False
    return new.said != old.said or {s for s, _ in new.words} != {s for s, _ in old.words}  # else a duplicate


def supersedes_by_subject(new: str, old: str) -> bool | None:
    """True: ``new`` is a newer value of what ``old`` is about; False: they are about two things;
    None: this reading cannot tell (the caller's other rules decide)."""
    sn, so = subject_of(new), subject_of(old)
    if named_as_replaced(new, sn, so) and one_fact(old):
        return True
    if different_subjects(sn, so):
        return False
    change = bool(CHANGE.search(item_text(new)) or LATELY.search(item_text(new)))
    if not change and (sn.env != so.env or (_unmatched(sn, so, sn.head) and _unmatched(so, sn, so.head))):
        # one environment and none said ("The API server listens on 8080"), or each naming a word the
        # other cannot be compared with (库存模块 / payment module): only a stated change retires
        return False
    if disjoint(sn, so):
        return False  # "Postgres 포트를 5433 으로" / "브로커 포트가 6001": no word in common, each names its own
    same = one_fact(old) and same_subject(sn, so, change=change)
    return True if same and (newer_value(sn, so, change=change) or restated(sn, so)) else None


def disjoint(new: Subject, old: Subject) -> bool:
    """Each names a thing (a word before its value) and no word of one is the other's, in any script."""
    mine = {w for _, w in new.words} | new.glosses
    theirs = {w for _, w in old.words} | old.glosses
    if mine & theirs or _shares_a_word(new, old) or _shares_a_word(old, new):
        return False
    return bool(_unmatched(new, old, new.head) and _unmatched(old, new, old.head))


def named_as_replaced(new: str, sn: Subject, so: Subject) -> bool:
    """``new`` names a value of ``old`` as the one a change replaced ("from yarn to pnpm", "Jenkins is
    no longer used", "不再用 X", "X から Y に"), and nothing says they are two things: one source, no two
    environments or attributes, no subject word on each side the other lacks in one script (a word
    and its translation are not compared here: the named value is the stronger sign)."""
    gone = replaced_values(_AGENT.sub("", item_text(new)))
    if not gone or sn.source != so.source or not sn.head:
        return False  # naming nothing but the value ("8443 は閉じています"): the whole memory says which item
    if (sn.env and so.env and sn.env != so.env) or (sn.attrs and so.attrs and not sn.attrs & so.attrs):
        return False
    named = {v for g in gone for _, v in _typed_values(g)[0]} | {_lemma(g) for g in gone}
    held = {v for _, v in so.values} | {w for _, w in so.words}
    if not named & held:
        return False
    only_new = {(s, w) for s, w in _unmatched(sn, so, sn.head) if w not in named}
    only_old = {(s, w) for s, w in _unmatched(so, sn, so.head) if w not in named}
    return not {s for s, _ in only_new} & {s for s, _ in only_old}
