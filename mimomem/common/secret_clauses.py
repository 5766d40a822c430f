"""Where a credential label's value is not right after it: later in its clause, in the next sentence.

The label rule (:mod:`mimomem.common.secret_labels`) takes the first token after a head and
its bridge.  People also put words between the two, or give the value a sentence later:

* an aside or a relative clause: "the password we use for staging, which Bob set, is X",
  "Admin password (the one Priya rotated on Monday) = X", 那个数据库密码，就是上周小王改的那个，是 X;
* a particle other than the usual ones: トークンなら X, パスワード、X になってます, 비번이라면 X,
  토큰으로 X;
* the next sentence or line: "Got the vault root token. It's X.", 密码如下：⏎X, "the key is on
  the next line⏎⏎X", or the next turn ("What's the admin password?" then "it's X");
* inside a file name: ``vault-token-X.json``.

Each is the label's span followed, within its clause, by a bridge the label rule knows and a
value; the farther the value is from its label, the stronger its shape must be (a value a clause
later mixes upper case, lower case and digits, as a chosen password or a random key does).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from mimomem.common.secret_label_values import _value_ok, _word
from mimomem.common.secret_labels import (
    Span,
    _after_link,
    _more,
    _value_at,
)
from mimomem.common.secret_values import char_classes, shannon_entropy

CLAUSE_CHARS = 120
"""How far after a head its clause is searched for a bridge and a value."""
_CLAUSE_ENDS = "\n。！？;；"
_SENTENCE_ENDS = ".!?"
_FOLLOWERS = frozenset(
    (
        *("that", "which", "who", "whom", "whose", "we", "i", "you", "they", "he", "she", "our", "my", "your"),
        *("their", "his", "her", "the", "a", "an", "this", "someone", "everyone", "ops", "for", "of", "on", "in"),
        *("from", "to", "at", "is", "was", "are", "has", "have", "had", "will", "would", "should", "can", "now"),
    )
)
"""Words that may follow a head when its value comes later in the clause: a relative pronoun, a
pronoun or article starting a reduced relative clause, a preposition or a link.  Any other word
makes the head a modifier ("token *refresh*", "password *policy*"), which names no value."""
_LEADS = frozenset(("it", "it's", "it’s", "its", "is", "here", "here's", "here’s", "this", "that", "one", "use"))
"""Words that may open the sentence holding a value given a sentence after its label ("It's X")."""
_JA_KO_PARTICLE_MAX = 3


def _is_kana_or_hangul(c: str) -> bool:
    return "\u3040" <= c <= "\u309f" or "\uac00" <= c <= "\ud7a3"


def _clause_end(text: str, start: int) -> int:
    """Where the clause that goes on at ``start`` ends (a line, a full stop, a semicolon)."""
    limit = min(len(text), start + CLAUSE_CHARS)
    for k in range(start, limit):
        c = text[k]
        if c in _CLAUSE_ENDS:
            return k
        if c in _SENTENCE_ENDS and (k + 1 == len(text) or text[k + 1] in " \t\n"):
            return k
    return limit


def _strong(value: str, password: bool, quoted: bool, after: str = "") -> bool:
    """A value far from its label: chosen or random, never a word, a number or a version."""
    if len(value) < 8 or value.isdigit() or char_classes(value) < 3 or _version(value):
        return False
    if "=" in value.rstrip("=") or value[-1:] in ")]}":
        return False  # an assignment or a call of its own (force_zip64=False), not a value
    words = value.replace("_", "")
    if "_" in value and words.isalnum() and value in (value.upper(), value.lower()):
        return False  # a constant's or a variable's name: _314_MARKERS, max_retries_3
    parts = value.split("/")
    if len(parts) > 1 and all(0 < len(p) <= 8 and p.isalnum() for p in parts):
        return False  # a list of names: x448/x25519, amd64/arm64v8
    return _value_ok(value, quoted, password, "secret", after) and shannon_entropy(value) >= 2.5


def _version(value: str) -> bool:
    """``v1.2.3-rc.4+build.5``, ``2.31.0``: numbers joined by dots at the start."""
    head = value[1:] if value[:1] in "vV" else value
    parts = head.split(".")
    return len(parts) >= 2 and parts[0].isdigit() and parts[1][:1].isdigit()


def _may_follow(text: str, end: int) -> bool:
    """Does what follows the head leave room for a value later in its clause (not a modifier's noun)?"""
    k = end
    while k < len(text) and text[k] in " \t":
        k += 1
    if k >= len(text):
        return False
    c = text[k]
    if not c.isascii():
        return True  # Chinese, Japanese, Korean: a verb, a particle, a comma; the value's shape decides
    if c in ",(—–:=?.!\n":
        return True
    return _word(text, k).lower() in _FOLLOWERS


def _values_from(text: str, v: int, password: bool, strong: bool) -> Iterator[tuple[int, int]]:
    """The value starting at ``v`` and those listed after it ("A 和 B", "A / B"), when they pass: a list
    far from its label passes when each is a value and one of them is strong (a key id, then its secret)."""
    found: list[tuple[int, int]] = []
    any_strong = False
    while v != -1:
        start, stop, quoted, resume = _value_at(text, v)
        value = text[start:stop]
        if not value or " " in value or not _value_ok(value, quoted, password, "secret", text[stop : stop + 600]):
            break
        found.append((start, stop))
        any_strong = any_strong or _strong(value, password, quoted, text[stop : stop + 600])
        v = _more(text, resume)
    if found and (any_strong or not strong):
        yield from found


def in_clause(text: str, end: int, password: bool) -> Iterator[tuple[int, int]]:
    """A value later in the head's clause, after a bridge the label rule knows (or a ja / ko particle)."""
    if not _may_follow(text, end):
        return
    stop = _clause_end(text, end)
    depth = 0
    for p in range(end, stop):
        c = text[p]
        depth += (c in "([{（") - (c in ")]}）")
        if depth > 0 or c in "\"'`%":
            if c in "[{\"'`%":
                return  # code or a format string ("token at %r" % data[a:b]), not a sentence
            continue  # inside an aside's brackets: the value comes after them
        v = -1
        if c in "、，" or (c == "," and text[p + 1 : p + 2] in (" ", "\t")):
            q = p + 1
            while q < len(text) and text[q] in " \t":
                q += 1
            v = q
        elif _is_kana_or_hangul(c) and (p == end or not _is_kana_or_hangul(text[p - 1])):
            q = p
            while q < len(text) and _is_kana_or_hangul(text[q]) and q - p < _JA_KO_PARTICLE_MAX + 1:
                q += 1
            if q - p <= _JA_KO_PARTICLE_MAX and q < len(text) and text[q] in " \t":
                v = q + 1  # トークンなら X, 비번이라면 X, 토큰으로 X
        if v == -1 and (c in " \t:=：＝→" or not c.isascii()):
            v = _after_link(text, p)
        if v != -1 and v < len(text) and text[v].isascii():
            found = list(_values_from(text, v, password, strong=True))
            if found:
                yield from found
                return


def next_sentence(text: str, end: int, password: bool) -> Iterator[tuple[int, int]]:
    """The value opening the sentence or line after the head's ("It's X.", 密码如下：⏎X)."""
    if not _may_follow(text, end):
        return
    stop = _clause_end(text, end)
    if stop >= len(text) or stop - end >= CLAUSE_CHARS:
        return
    q = stop + 1
    breaks = 0
    while q < len(text) and text[q] in " \t\n\r":
        breaks += text[q] == "\n"
        q += 1
    if breaks > 2:
        return
    opening = q
    word = _word(text, q)
    while word and word.lower() in _LEADS:  # "It's X", "here it is: X"
        q += len(word)
        while q < len(text) and text[q] in " \t:：":
            q += 1
        word = _word(text, q)
    for v in (q, *_after_reply(text, opening), *_after_lead(text, q)):
        if v < len(text) and text[v].isascii():
            start, vstop, quoted, _ = _value_at(text, v)
            after = text[vstop : vstop + 1]
            if after and after not in " \t\n\r." and after.isascii():
                continue  # the value must end its word: followed by a space, the end, or a particle (X だよ)
            if _strong(text[start:vstop], password, quoted, text[vstop : vstop + 600]):
                yield start, vstop
                return


_LEAD_CHARS = 12
"""How long a lead before the value's bridge may be ("New:", 新的是, 新しいのは, 새 거는, 이걸로 쓰세요:)."""


def _after_lead(text: str, q: int) -> Iterator[int]:
    """Where a value starts after a short lead of words and its bridge, at ``q``: "New: X", 新的：X,
    新しいのは X, 새 거는 X.  The lead holds letters and spaces only (no digit, no sign, no line break)."""
    for p in range(q, min(len(text), q + _LEAD_CHARS)):
        c = text[p]
        if not (c.isalpha() or c in " \t" or (p > q and c in ":：")):
            return
        if p > q and (c in ":：" or text[p - 1] in " \t" or not c.isascii()):
            v = _after_link(text, p)
            if v > p:
                yield v
                return


def _after_reply(text: str, q: int) -> Iterator[int]:
    """After a reply of one to three words closing its own sentence ("Here.", "Sure!"): the next line."""
    k, words = q, 0
    while k < len(text) and words < 3:
        w = _word(text, k)
        if not w:
            break
        words += 1
        k += len(w)
        if k < len(text) and text[k] in ".!" and text[k + 1 : k + 2] == "\n":
            k += 2
            while k < len(text) and text[k] in " \t":
                k += 1
            yield k
            return
        while k < len(text) and text[k] in " \t":
            k += 1


def in_file_name(text: str, end: int) -> Iterator[tuple[int, int]]:
    """A random run joined to the head inside one name: ``vault-token-X.json``."""
    if end >= len(text) or text[end] not in "-_":
        return
    k = end + 1
    while k < len(text) and text[k].isascii() and text[k].isalnum():
        k += 1
    value = text[end + 1 : k]
    if len(value) >= 20 and _strong(value, False, False) and shannon_entropy(value) >= 3.5:
        yield end + 1, k


def _in_prose(text: str, at: int) -> bool:
    """Is the head at ``at`` a word of a sentence (not a part of an identifier or an argument of a call)?"""
    return at == 0 or text[at - 1] in " \t\n/\"'“「『（" or not text[at - 1].isascii()


_BEFORE_BRIDGES = ("就是", "是", "为", "為", "が", "は", "가", "이", "는", "은")
_NEGATIONS = ("not", "n't", "never", "no ", "不", "没", "沒", "じゃ", "ではな", "아니", "아닌")


def before_head(text: str, at: int, end: int, password: bool) -> Iterator[tuple[int, int]]:
    """A value opening the head's clause, then a copula or a particle and the label ("X is the admin
    password", X 就是跳板机的密码, X が管理画面のパスワードです, X 가 관리자 비밀번호예요, "here: X — that's
    the API key"): the label a complete noun phrase (nothing modifies it after), the value strong."""
    if not _may_follow(text, end) and end < len(text):
        return
    start = max(text.rfind(c, max(at - CLAUSE_CHARS, 0), at) for c in "\n。！？;；") + 1
    for stop in (text.rfind(". ", start, at), text.rfind("? ", start, at), text.rfind("! ", start, at)):
        start = max(start, stop + 2 if stop != -1 else start)
    k = start
    while k < at and text[k] in " \t":
        k += 1
    lead = _word(text, k)
    if lead and text.startswith(":", k + len(lead)):  # "here: X", "this: X"
        k += len(lead) + 1
        while k < at and text[k] in " \t":
            k += 1
    v = k + 1 if text[k : k + 1] in "`'\"" else k
    stop = v
    while stop < at and "!" <= text[stop] <= "~" and text[stop] not in "`'\",":
        stop += 1
    value, bridge = text[v:stop], text[stop:at].lstrip("`'\"").strip()
    if not value or not bridge or text[stop : stop + 1] not in " \t`'\"" or len(bridge) > 48:
        return  # the value is a word of its own, a bridge stands between it and the label
    if any(n in bridge.lower() for n in _NEGATIONS):
        return
    word = _word(bridge, 0).lower()
    linked = word in ("is", "was", "are") or bridge[:1] in "=—–-" or bridge.startswith(_BEFORE_BRIDGES)
    if linked and _strong(value, password, False, text[stop : stop + 600]):
        yield v, stop


def after_head(text: str, at: int, end: int, password: bool) -> Iterator[tuple[int, int]]:
    """Where the value of the head at ``at``..``end`` is when it is not right after it: joined to it in a
    name, or (a head that is a word of a sentence) later in the clause or in the next sentence."""
    rules = [in_file_name(text, end)]
    if _in_prose(text, at):
        rules += [
            in_clause(text, end, password),
            next_sentence(text, end, password),
            before_head(text, at, end, password),
        ]
    for rule in rules:
        found = list(rule)
        if found:
            yield from found
            return


@lru_cache(maxsize=256)
def _names_a_credential(tail: str) -> bool:
    """Does the last clause of ``tail`` hold a credential head (cheap: most turns hold none)?"""
    from mimomem.common.secret_labels import _candidates, _head_at

    last = max(tail.rfind(c) for c in ".!?\n。！？") + 1
    clause = tail[last:] if last < len(tail) else tail[: last - 1]
    low, starts = _candidates(clause, True)
    return any(_head_at(clause, low, at) is not None for at in starts)


def continued(before: str, text: str) -> Iterator[Span]:
    """Values in ``text`` given for a label the turn ``before`` ended on ("What's the admin password?",
    then "it's X"): the label's last sentence and ``text`` are read as one."""
    from mimomem.common.secret_labels import label_values

    tail = before.rstrip()[-CLAUSE_CHARS:]
    if not tail or not _names_a_credential(tail):
        return
    joined = tail + "\n" + text
    for kind, start, stop in label_values(joined):
        if start > len(tail):
            yield kind, start - len(tail) - 1, stop - len(tail) - 1


__all__ = ["CLAUSE_CHARS", "after_head", "continued", "in_clause", "in_file_name", "next_sentence"]
