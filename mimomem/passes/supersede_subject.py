"""What a memory item is about (its *subject*) and what it says of it (its *values*), in any of
Chinese, English, Japanese and Korean, so that a newer value of the same thing retires the older
whatever the wording, and a value of another thing that shares words never does.

A fact has the shape SUBJECT - (copula | change | preposition) - VALUE:

- *values* are found by their form, not by the words around them: a URL, a host (``a.b.c``,
  ``redis-prod-1``, ``host:port``), a path, a channel (``#ops``), a time of day, a version, a
  quantity with its unit (``30 天``, ``45초``, ``25 MB``: the unit's dimension is the kind), a bare
  number, a person where the item names an owner (``Ma Lin``, jieba's person names, ``田中さん``,
  ``김민수 님``), and a product or name word after the copula or change (``换成了 main``, ``is
  owned by``, ``live in LaunchDarkly``);
- the *subject* is what is left of the clause that holds the values: its content words
  (Latin words; Chinese words by jieba's part of speech, nouns kept; Japanese kanji and
  katakana, the hiragana being grammar; Korean words without particles and verb endings), and,
  for a Chinese word, its English translations (CC-CEDICT, ``data/xlang_zh_en.tsv``);
- two closed classes are mapped across the four languages (:mod:`~mimomem.passes.supersede_words`):
  the *attribute* a value is of and the *environment*; a katakana or hangul loanword is compared
  with English by its sound (:mod:`~mimomem.passes.loanword`); a quantity is read in the unit of
  its dimension, a change may name the value it replaces (:mod:`~mimomem.passes.supersede_value`).

How two subjects are compared is :mod:`~mimomem.passes.supersede_match`.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from mimomem.history.sentence_list import names_a_norm
from mimomem.passes.memory_doc import item_text
from mimomem.passes.supersede_script import kanji_as_chinese, simplified
from mimomem.passes.supersede_value import quantity, split_port
from mimomem.passes.supersede_words import ATTRIBUTES, CHANGE, COMPONENTS, CORRECTION, ENVIRONMENTS, LABEL

_OF_KIND = {
    "location": "location",
    "version": "version",
    "time": "schedule",
    "person": "owner",
    "channel": "channel",
    "port": "port",
}
"""Value kind -> the attribute a value of that form is of, when the item names none."""
COMPATIBLE = {"url": "location", "host": "location", "path": "location"}
"""Value kinds one thing may move between (a host, then a URL)."""
_FAMILY = {"port": "number", "person": "name"}
"""Value kinds compared as one: a port split from ``host:port`` and a bare number, a person and a name."""


class Subject(NamedTuple):
    """What an item is about and what it says of it."""

    env: frozenset[str]
    attrs: frozenset[str]
    words: frozenset[tuple[str, str]]  # (script, word)
    glosses: frozenset[str]  # English translations of its Chinese words
    values: frozenset[tuple[str, str]]  # (kind, value)
    head: frozenset[tuple[str, str]]  # the words before the copula or the value: the subject proper
    source: str = ""  # the file or command a value the agent found came from ("" for what was said)
    said: frozenset[str] = frozenset()  # the values as written (5분, 300s), before they were read


_VALUES = re.compile(
    r"(?P<url>\b[a-z][a-z0-9+.-]*://[^\s，。、()<>\"'`]+)"
    r"|(?P<path>(?<![\w.])(?:~|\.{1,2})?/[\w.@-]+(?:/[\w.@-]+)*/?|\b[\w.-]+/[\w./-]*[\w-]"
    r"|(?<![\w./-])[A-Za-z_][\w.-]+/(?![\w/.-]))"  # a directory said with its slash: dist/, build/
    r"|(?P<host>\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*(?::\d+)?\b"
    r"|(?-i:\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+[a-z]?\b))"  # redis-prod-1; BIL-517 is a ticket
    r"|(?P<channel>#[\w-]+)"
    r"|(?P<time>\b\d{1,2}:\d{2}\b)"
    r"|(?P<version>\bv?\d+\.\d+(?:\.\d+)*\b)"
    r"|(?P<qty>\d+(?:\.\d+)?\s*(?:(?P<t>ms|secs?|seconds?|mins?|minutes?|hours?|hrs?|days?|weeks?|h|s|d"
    r"|秒钟|秒|分钟|分間|分|小时|時間|时|天|日間|日|周|週間|초|분|시간|일|주)|(?P<b>[KMGT]i?B|[kmgt]b)"
    r"|(?P<c>个|台|条|次|件|개|명|대|%))(?![A-Za-z]))"
    r"|(?P<number>(?<![\w.])\d+(?![\w.]\d)(?:st|nd|rd|th)?)",
    re.I,
)
_SOURCE = re.compile(r"^(?:(\S+?):\d+:\s|`([^`]+)` printed\s|edited (\S+))")
"""Where a value the agent found came from: ``path:line:``, or a command and ``printed``."""
_AGENT = re.compile(r"\s\(read by the agent\)$")
LATELY = re.compile(
    r"\bnow\W*$|\bsince\b|\b(?:went|[a-z]{3,}ed)\s+(?:up\s+|down\s+|back\s+|over\s+)?to\b|になった|になりました", re.I
)
"""A value said to hold from some time on ("… is owned by Ma Lin now", "… is 50 since Friday"), or reached
by a verb in the past ("went up to 25 MB", "was raised to", "…になった"): a change."""
_CUT = "\x00"
"""What stands where a value was cut out of a clause."""
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:'[a-z]+)?")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_KANA = re.compile(r"[\u3040-\u30ff]")
_KATAKANA = re.compile(r"[\u30a0-\u30ffー]{2,}")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
_CLAUSE = re.compile(r"[，,；;。.!！?？]\s+|[，；。！？]")
_EN_STOP_WORDS = (
    "the a an is are was were be been being to of in on for and or we our us you it its this that these "
    "those with at by from as now use uses using used instead no longer not any more anymore changed "
    "change switched moved updated into than then so also just all only do does did will would should can "
    "must always never has have had since last week weeks month year ago today yesterday still these days "
    "there here new old went up down we're it's that's heads up fyi btw please note over off via through "
    "per every each after before set"
)
_EN_STOP = frozenset(_EN_STOP_WORDS.split())
_ZH_KEEP = re.compile(r"^(?:n[a-z]*|vn?|f|s|j|l|i|an|eng)$")
"""jieba's parts of speech of a word a Chinese item is about: nouns, verbs (告警, 支付: jieba calls many
nouns of this trade verbs; a one-character verb is left out), locatives, idioms."""
_ZH_PARTICLE = re.compile(r"[哈呀啊吧呢啦嘛哦喔噢哟]+(?=[\s\W]|$)")
"""Chinese modal particles at a clause's end (报表任务开 3 个线程哈): the speaker's tone, not the subject."""
_ZH_COUNT = frozenset(["数", "數", "数量", "數量", "个数", "個數"])
""""The number of" (线程数): what a bare number's kind says already."""
_KO_ENDING = re.compile(
    r"(?:이에요|예요|입니다|이다|이고|으로|에서|에는|이랑|님이|님은|님으로|님|씨|은|는|이|가|을|를|에|로|의|도|와|과|만)$"
)
_KO_VERB = re.compile(r"(?:어요|아요|었어요|였어요|했어요|해요|돼요|됐어요|습니다|니다|세요|다|요|고|서|며|면)$")
_OWNER_NAME = re.compile(r"(?<![A-Za-z])([A-Z][a-z]+(?: [A-Z][a-z]+)?)(?![A-Za-z])")
_JA_PERSON = re.compile(r"([\u3400-\u9fff]{1,4})(?:さん|様|氏|君)")
_KO_PERSON = re.compile(r"([\uac00-\ud7a3]{2,4})\s*(?:님|씨)")
_EN_MARKER = re.compile(r"\b(?:is|are|was|were|to|by|in|on|at|uses?|with|via|through|over|onto)\b", re.I)
_CJK_MARKER = re.compile(r"(?<=[\uac00-\ud7a3])(?:는|은|가|이|를|을)(?=\s|$)|[はをがへ]")
_ZH_COPULA = frozenset(["是", "用", "为", "成", "到", "走", "由", "归", "给", "在", "换成", "改成", "改为", "变成"])
_WORDS = {w.casefold(): name for name, words in ATTRIBUTES.items() for w in words}
_COMPONENT_NAMES = [
    (re.compile(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w), re.I), name)
    for name, names in COMPONENTS.items()
    for w in sorted(names, key=len, reverse=True)
] + [(re.compile(r"(?<=[测測试試开開发發预預产產线線主从從备備])库|(?<=本地)库"), "database")]
_ENVS = {w.casefold(): name for name, words in ENVIRONMENTS.items() for w in words}


@functools.lru_cache(maxsize=1)
def _glossary() -> dict[str, tuple[str, ...]]:
    """Chinese word -> its English words (the shipped CC-CEDICT extract); empty when unreadable."""
    from mimomem.text.xlang import XLANG_FILE, data_text

    try:
        text = data_text(XLANG_FILE)
    except OSError:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            head, *others = line.split("\t")
            out[head] = tuple(w.casefold() for o in others for w in o.split() if w.casefold() not in _EN_STOP)
    return out


def _lemma(word: str) -> str:
    word = re.sub(r"'s$", "", word.casefold())
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _concepts(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(environments, attributes) an item names, by its words in any of the four languages."""
    folded = text.casefold()
    latin = {_lemma(w) for w in _LATIN.findall(folded)} | {w.casefold() for w in _LATIN.findall(folded)}
    env = {name for word, name in _ENVS.items() if (word in latin if word.isascii() else word in folded)}
    attrs = {
        name
        for word, name in _WORDS.items()
        if (re.search(rf"\b{re.escape(word)}\b", folded) if word.isascii() else word in folded)
    }
    return frozenset(env), frozenset(attrs)


def _typed_values(text: str) -> tuple[list[tuple[str, str]], str]:
    """(kind, value) found by form in ``text``, and the text with them cut out."""
    found: list[tuple[str, str]] = []

    def cut(m: re.Match[str]) -> str:
        kind = next(k for k in ("url", "path", "host", "channel", "time", "version", "qty", "number") if m.group(k))
        value = re.sub(r"\s+", "", m.group(0)).casefold()
        if kind == "qty":
            kind = "qty:" + ("time" if m.group("t") else "bytes" if m.group("b") else "count")
            found.append(quantity(kind, m.group(0)))  # 5분 and 300s are one duration
        elif kind == "host" and (pair := split_port(value)):
            found.extend([("location", pair[0]), ("port", pair[1])])  # a host and its port: two values
        else:
            found.append((COMPATIBLE.get(kind, kind), value))
        return f" {_CUT} "

    return found, _VALUES.sub(cut, text)


def _persons(text: str, *, owner: bool = True) -> tuple[list[str], str]:
    """People an item names, and the text without them: a name with an honorific (``田中さん``,
    ``김민수 님``) in any item, a capitalised name (``Ma Lin``) or jieba's person name in an owner item."""
    names: list[str] = []
    for pattern in (_JA_PERSON, _KO_PERSON):
        names += pattern.findall(text)
        text = pattern.sub(" ", text)
    if not owner:
        return [n.casefold() for n in names], text
    capitals = [m for m in _OWNER_NAME.finditer(text) if m.group(1).casefold() not in _EN_STOP | _WORDS.keys()]
    for m in capitals:
        if m is capitals[0] and len(capitals) > 1 and not text[: m.start()].strip() and " " not in m.group(1):
            continue  # a capital opening the sentence, a name after it ("Backend reviews are owned by Kimura")
        names.append(m.group(1))
    text = _OWNER_NAME.sub(lambda m: " " if m.group(1) in names else m.group(0), text)
    if _HAN.search(text) and not _KANA.search(text):
        for piece in _posseg(text):
            if piece.flag == "nr":
                name = re.sub(r"^[归由给是]", "", piece.word)
                names.append(name)
                text = text.replace(piece.word, " ")
    return [n.casefold() for n in names], text


def _names_after_marker(text: str, *, attribute: bool = False) -> tuple[list[str], str]:
    """Latin words after the copula, change or preposition of a clause: its value, not its subject.
    With an ``attribute`` named ("the default branch is trunk"), one lower-case word alone after the
    copula is the value too."""
    english = not re.search(r"[^\x00-\x7f]", text)
    marker = _EN_MARKER.search(text) if english else _cjk_marker(text)
    if not marker:
        return [], text
    tail = text[marker.end() :]
    # a word right before a value is what the value is of ("on Elasticsearch 8.11", "Python 3.12")
    names = [m.group(0) for m in _LATIN.finditer(tail) if not tail[m.end() :].lstrip().startswith(_CUT)]
    names = [w for w in names if w.casefold() not in _EN_STOP and w.casefold() not in _WORDS]
    alone = attribute and english and len(names) == 1 and _CUT not in tail
    # in English a name is capitalised; an identifier (TIDEPOOL_API_BASE, API) is what a value is of
    names = [w for w in names if "_" not in w and (not english or alone or (w[0].isupper() and not w.isupper()))]
    names = [w for w in names if w.casefold() not in _ENVS]
    return [w.casefold() for w in names], text[: marker.end()] + _LATIN.sub(
        lambda m: " " if m.group(0).casefold() in {n.casefold() for n in names} else m.group(0), tail
    )


def _cjk_marker(text: str) -> re.Match[str] | None:
    """The copula, change or particle after which a Chinese, Japanese or Korean clause gives its value."""
    if _KANA.search(text) or _HANGUL_WORD.search(text):
        return _CJK_MARKER.search(text)
    at = 0
    for piece in _posseg(text):
        if piece.word in _ZH_COPULA or piece.flag == "p" or CHANGE.fullmatch(piece.word):
            return re.compile(re.escape(piece.word)).search(text, at)
        at += len(piece.word)
    return None


def _posseg(text: str) -> list[Any]:
    """jieba's words of ``text`` with their part of speech."""
    from mimomem.text.segment import _jieba

    _jieba()
    import jieba.posseg

    return list(jieba.posseg.lcut(text))


def _components(text: str) -> tuple[set[tuple[str, str]], str]:
    """The components ``text`` names (:data:`~mimomem.passes.supersede_words.COMPONENTS`), as
    ``("component", name)``, and the text without their names."""
    found = set()
    for pattern, name in _COMPONENT_NAMES:
        text, n = pattern.subn(" ", text)
        if n:
            found.add(("component", name))
    return found, text


def _words(text: str) -> set[tuple[str, str]]:
    """Content words of ``text`` as (script, word): Latin, Chinese (jieba nouns), Japanese, Korean;
    a component by any of its names is one word (:func:`_components`)."""
    named, text = _components(text)
    # a stop word is a lower-case word: US, IT, AS in capitals are names (the US cluster, not "us")
    out = {("latin", _lemma(w)) for w in _LATIN.findall(text) if w.casefold() not in _EN_STOP or w.isupper()}
    out = {(s, w) for s, w in out if len(w) > 1 and w not in _WORDS and w not in _ENVS}
    if _KANA.search(text):
        for run in _HAN.findall(text):  # a lone kanji is a verb's or an adjective's stem (見てます, 送って)
            out |= {("cjk", run[i : i + 2]) for i in range(len(run) - 1)}
        out |= {("kana", k) for k in _KATAKANA.findall(text)}
    elif _HAN.search(text):
        han = " ".join(_HAN.findall(_ZH_PARTICLE.sub(" ", text)))
        out |= {
            ("cjk", p.word)
            for p in _posseg(han)
            if _ZH_KEEP.match(p.flag)
            and p.word.strip()
            and (p.flag != "v" or len(p.word) > 1)
            and p.word not in _ZH_COUNT
        }
    for word in _HANGUL_WORD.findall(text):
        if _KO_VERB.search(word) and not _KO_ENDING.search(word):
            continue  # a verb: what is done, not what it is about
        stem = _KO_ENDING.sub("", word)
        if len(stem) >= 2 or (stem and len(word) == 1):
            out.add(("hangul", stem))
    return named | {(s, w) for s, w in out if w.casefold() not in _WORDS and w.casefold() not in _ENVS}


def _held(text: str) -> list[str]:
    """The clauses of ``text`` that hold a value."""
    parts = [p for p in _CLAUSE.split(text) if p.strip()]
    named = [p for p in parts if "owner" in _concepts(p)[1]]  # an owner's clause holds a person
    return [p for p in parts if _VALUES.search(p) or p in named] or parts[:1]


def _value_clauses(text: str) -> str:
    """``text`` up to the end of its first clause that holds a value: what comes before names the
    subject ("We changed the collab server's port, it's 4200"), what comes after is a reason or an aside."""
    first = _held(text)[0] if text.strip() else ""
    return text[: text.find(first) + len(first)] if first else text


def one_fact(item: str) -> bool:
    """``item`` states one value of one thing (one clause holds values): a newer one may retire it whole."""
    return len(_held(item_text(item))) <= 1


_HEAD = re.compile(r"^\s*([^:：\n]{1,24}?)\s*[:：]\s*(?=\S)")


def _unlabelled(text: str) -> str:
    """``text`` without the label before its colon: a notice's ("FYI:", "注意：") or one that only calls
    what follows norms ("先说好几条规矩：…", "House rules: …").  A norm noun of its own is no subject: kept,
    "规矩" would make any later statement calling itself a rule ("我们的规则是 …") seem to restate it.
    A head naming a thing besides the norm ("订单号规则：前缀 KS") is the subject and stays."""
    text = LABEL.sub("", text, count=1)
    head = _HEAD.match(text)
    if head and names_a_norm(head.group(1)) and not any(not names_a_norm(w) for _, w in _words(head.group(1))):
        return text[head.end() :]
    return text


@functools.lru_cache(maxsize=8192)
def subject_of(item: str) -> Subject:
    """What ``item`` (a memory bullet or its text) is about, and its values (see the module docstring)."""
    text = simplified(item_text(item))  # 快取 / 缓存 / cache: one word in either script, and in translation
    cited = _SOURCE.match(text)
    source = next((g for g in cited.groups() if g), "") if cited else ""
    text = _value_clauses(_AGENT.sub("", text[cited.end() :] if cited else _unlabelled(_repaired(text))))
    values, rest = _typed_values(text)
    terse, rest = _terse(rest)
    env, attrs = _concepts(rest)  # not inside a value: api.stg2.tidepool.dev names no environment
    persons, rest = _persons(rest, owner="owner" in attrs)
    names, rest = _names_after_marker(rest, attribute=bool(attrs))
    names += terse
    rest = CHANGE.sub(" ", rest)
    verbs = _verbs(text)
    words = frozenset(_words(rest)) - verbs
    head = frozenset(_words(CHANGE.sub(" ", _lead(text)))) - verbs - {("latin", _lemma(n)) for n in terse}
    glossary = _glossary()
    glosses = frozenset(g for s, w in words if s == "cjk" for g in glossary.get(w) or _kanji_gloss(w, text))
    kinds = {k for k, _ in values} | ({"person"} if persons else set())
    if not attrs:  # no attribute word: the form of the value says what it is of
        attrs = frozenset(_OF_KIND[k] for k in kinds if k in _OF_KIND)
        if "location" in attrs and _forms(text) & {"url", "host"} == set():
            attrs = attrs - {"location"} | {"path"}  # a path alone is what a "directory" / "路径" names
    attrs |= {"port"} if "port" in kinds else set()  # host:port holds a port whatever the words say
    found = values + [("person", p) for p in persons] + [("name", n) for n in names]
    said = frozenset(re.sub(r"\s+", "", m.group(0)).casefold() for m in _VALUES.finditer(text))
    return Subject(frozenset(env), frozenset(attrs), words, glosses, frozenset(found), head, source, said)


_TERSE = re.compile(r"^(?P<key>.*[^\W\d_].*?)\s*(?:[:=：]|->|→)\s*(?P<value>[^\s:=：\x00]+?)[\s.。]*$")
"""A value written as ``key: value`` / ``key = value`` (``mail provider: SES``, ``默认分支：trunk``)."""


def _terse(rest: str) -> tuple[list[str], str]:
    """The value of a ``key: value`` item that no form told (a name: ``SES``), and the key alone."""
    found = _TERSE.match(rest)
    if not found or _CUT in found.group("key"):
        return [], rest
    return [found.group("value").casefold()], found.group("key")


def _kanji_gloss(word: str, text: str) -> tuple[str, ...]:
    """The English words of a Japanese kanji word (間隔 / interval), read in Chinese characters."""
    return _glossary().get(kanji_as_chinese(word), ()) if _KANA.search(text) else ()


def _repaired(text: str) -> str:
    """``text`` without the self-repairs it opens with ("Actually, …", "不对，…"): no part of a subject."""
    previous = None
    while previous != text:
        previous, text = text, CORRECTION.sub("", text, count=1)
    return text or previous


def _forms(text: str) -> set[str]:
    """The forms of the values of ``text`` as written (``url``, ``path``, ``host``, ...)."""
    return {next(k for k, v in m.groupdict().items() if v and k not in ("t", "b", "c")) for m in _VALUES.finditer(text)}


_EN_PREPOSITION = re.compile(r"\s(?:to|in|on|at|via|through|by|with|into|onto|over|from|every)\b", re.I)
_PARTICIPLE = re.compile(r"\b(?:is|are|was|were|been|be)\s+(?:now\s+)?([a-z]+ed)\b", re.I)


def _verbs(text: str) -> frozenset[tuple[str, str]]:
    """The verb of an English clause, not what it is about: the word before its first preposition when
    words come before it ("The API *listens* on", "Logs now *go* to"), a participle after the copula
    ("are *handled* by")."""
    if re.search(r"[^\x00-\x7f]", text):
        return frozenset()
    out = {m.group(1) for m in _PARTICIPLE.finditer(text)}
    prep = _EN_PREPOSITION.search(text)
    said = _LATIN.findall(text[: prep.start()]) if prep else []
    lead = [w for w in said if w.casefold() not in _EN_STOP]
    by_someone = bool(said) and said[0].casefold() in ("we", "i", "they", "you", "someone")  # "We moved X to"
    verb_before = any(w.endswith("ed") for w in lead[:-1])
    if len(lead) >= 2 and lead[-1].isalpha() and lead[-1].islower() and not by_someone and not verb_before:
        out.add(lead[-1])
    return frozenset(("latin", _lemma(w)) for w in out)


def _lead(text: str) -> str:
    """``text`` before its copula, change or preposition, or its first value, whichever comes first."""
    english = not re.search(r"[^\x00-\x7f]", text)
    marker = _EN_MARKER.search(text) if english else _cjk_marker(text)
    value = _VALUES.search(text)
    cut = min([m.start() for m in (marker, value) if m is not None], default=len(text))
    return text[:cut]
