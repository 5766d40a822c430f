"""Whether a new memory line is a newer value of an old one (same key, other value), without a model.

An item has a *key* (what it is about: "staging DB port", "package manager") and a *value*
(5433, pnpm).  Two items have the same key when they share most of their content terms
(words, identifiers, CJK bigrams, numbers left out) and neither names a qualifier the
other lacks (``staging`` against ``prod``) - or, when the new one has the shape of a
change ("X 改成 Y", "use Y instead of X", "不再用 X", "now 6543"), when they share a fair
part of their terms.  The same value again is a duplicate, not a newer value.
"""

from __future__ import annotations

import functools
import re

from mimomem.passes.memory_doc import item_text
from mimomem.passes.supersede_match import _unmatched as unmatched
from mimomem.passes.supersede_match import (
    different_subjects,
    disjoint,
    newer_value,
    same_subject,
    supersedes_by_subject,
)
from mimomem.passes.supersede_script import simplified
from mimomem.passes.supersede_subject import LATELY, one_fact, subject_of
from mimomem.passes.supersede_words import CHANGE
from mimomem.text._accel import tokenize_bigram

RETRACT = re.compile(
    r"\b(?:is|are|was|were|has been|have been)\s+(?:gone|removed|dropped|retired|decommissioned|deprecated"
    r"|closed|shut down|turned off|switched off)\b"
    r"|\b(?:dropped|removed|retired|decommissioned)\s+\S+|\bno longer\b"
    r"|不再|下线|废弃|停用|弃用|转岗|离职|撤了|没了|不用了|关掉了|关闭了|关了|停掉了|不能用了|廃止|やめ|使わない|使っていない|使いません"
    r"|使えません|使えなくな|閉じ(?:ました|ています|た)|더\s*이상|폐기|사용\s*중단|내려갔|안\s*(?:써|쓰)|쓰지\s*않|닫(?:았|혔)",
    re.I,
)
"""A statement that a value is gone ("Capistrano is gone", "陈晨转岗了", "不再用 X"): an older item
holding that value is no longer current."""
SHORT = 100
"""Characters of an item that states one thing (the subject rules apply only to such an item)."""
SAME_KEY = 0.5
SAME_KEY_CHANGED = 0.3
"""Share of content terms two items need for the same key (without / with a change shape)."""

_STOP_WORDS = (
    "the a an is are was were be been to of in on for and or we our us you it its this that these those with at by "
    "from as now use uses using used instead no longer not any more anymore changed change switched moved updated "
    "into than then so also just all only do does did will would should can must always never"
)
_STOP = frozenset(_STOP_WORDS.split())
_NUMBER = re.compile(r"^\d+(?:[.:]\d+)*$")
_NUMBERS = re.compile(r"\bv?\d+(?:\.\d+)*\b|`[^`]+`")
_VALUE = re.compile(
    r"`[^`]+`|\bv?\d+(?:\.\d+)*\b|[A-Za-z][\w-]*(?:[.:/][\w-]+)+|\b[A-Za-z]+(?:-[A-Za-z0-9]+)+\b"
    r"|(?:(?<=[a-z,;:]\s)|(?<=[^\W\d_A-Za-z]\s)|(?<=[^\W\d_A-Za-z]))[A-Z][a-z]+[A-Za-z]*|(?:是|归|由|找|给)\s*[^\W\d_A-Za-z]{2,3}(?=[在负管维处对。，,；;]|$)"
    r"|[^\W\d_A-Za-z]{2,3}(?=转岗|离职|さん)|[^\W\d_A-Za-z]{1,4}(?=さん)"
)
_NAME_LEAD = re.compile(r"^(?:是|归|由|找|给)\s*")
_QUALIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{2,}")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


_KO_PARTICLE = re.compile(
    r"(?<=[\uac00-\ud7a3\w])(?:이에요|예요|입니다|이다|이고|으로|에서|에는|은|는|이|가|을|를|에|로|의|도|와|과)(?=\s|$|[,.，。])"
)
"""Korean particles and the copula after a word (세션 만료 시간은 / 시간을): grammar, not what an item
is about, so 시간은 and 시간을 are one key term."""


@functools.lru_cache(maxsize=8192)
def key_terms(text: str) -> frozenset[str]:
    """Content terms of an item: tokens without numbers, stop words, change words and Korean particles."""
    body = _KO_PARTICLE.sub(" ", CHANGE.sub(" ", simplified(item_text(text))))
    return frozenset(
        {
            t.text
            for t in tokenize_bigram(body)
            if t.text not in _STOP and not _NUMBER.match(t.text) and (len(t.text) > 1 or not t.text.isascii())
        }
    )


@functools.lru_cache(maxsize=8192)
def values(text: str) -> frozenset[str]:
    """Numbers, versions and backticked names of an item: what changes when the value does."""
    return frozenset(v.strip("`").casefold() for v in _NUMBERS.findall(item_text(text)))


@functools.lru_cache(maxsize=8192)
def values_of(text: str) -> frozenset[str]:
    """What changes when an item's value does: numbers, versions, backticked text, hosts and
    identifiers, names (a capitalised word inside a sentence, a person after 是 / 归 / 由)."""
    return frozenset(_NAME_LEAD.sub("", v.strip("`")).casefold() for v in _VALUE.findall(_body(text)))


@functools.lru_cache(maxsize=8192)
def _body(text: str) -> str:
    """The item's own words: provenance and the agent's citations (``path:line``) left out."""
    body = _CITE.sub("", item_text(text))
    body = _LINE_NUMBER.sub(r"\1:", body)  # a line number is where, not what
    return _PAIR.sub(r"\1 \2 \3", body)  # `key = value`: the key is what it is about, the value what changes


_CITE = re.compile(r"\s\((?:read by the agent|[a-z]+, \d{4}-\d{2}-\d{2}[^)]*)\)$")
_LINE_NUMBER = re.compile(r"^(\S+?):\d+:")
_PAIR = re.compile(r"`([^`=:]{1,60}?)\s*([=:])\s*([^`]{1,80})`")


def _without_values(text: str) -> str:
    """The item's words with its values cut out (a host's parts are not what the item is about)."""
    return _VALUE.sub(" ", _body(text))


def _kind(value: str) -> str:
    if re.fullmatch(r"v?\d+(?:\.\d+)*", value):
        return "number"
    if re.search(r"[.:/_-]", value):
        return "identifier"
    return "name"


def states_change(text: str) -> bool:
    """``text`` says a value changed ("We bumped the worker count to 8", "담당은 박지훈 님으로 바뀌었어요"):
    a change or a past verb to a value, and a value found by its form or a person it names."""
    if not CHANGE.search(text) and not LATELY.search(text):
        return False
    return bool(subject_of(text).values)


def retracted(new: str, old: str) -> bool:
    """``new`` says a value of ``old`` is gone ("Capistrano is gone since last week", "陈晨转岗了")."""
    body = _body(new)
    found = RETRACT.search(body)
    if not found:
        return False
    clause = next(c for c in re.split(r"[，,；;。]", body) if found.group(0) in c or c in found.group(0))
    gone = values_of(clause) | {w.casefold() for w in re.findall(r"[A-Za-z][\w.-]+", clause)}
    return bool(gone & values_of(old) - values_of(re.sub(re.escape(clause), "", body)))


@functools.lru_cache(maxsize=8192)
def _latin(text: str) -> frozenset[str]:
    """Latin words and identifiers of an item of any length (``CI``, ``staging``), stop words out."""
    return frozenset(w.casefold() for w in _LATIN.findall(item_text(text)) if w.casefold() not in _STOP)


@functools.lru_cache(maxsize=8192)
def qualifiers(text: str) -> frozenset[str]:
    """Latin words and identifiers of an item (``staging``, ``DATABASE_URL``), stop words out."""
    return frozenset(w.casefold() for w in _QUALIFIER.findall(item_text(text)) if w.casefold() not in _STOP)


@functools.lru_cache(maxsize=8192)
def supersedes(new: str, old: str) -> bool:
    """True when ``new`` states a newer value of what ``old`` says (see the module docstring).

    The same key: most content terms shared, or - when ``new`` has the shape of a change - two
    shared terms, or its one term, with a value of the same kind (a number for a number, a name
    for a name).  A newer value: each side holds a value the other lacks.  Or ``new`` says that
    a value of ``old`` is gone (:func:`retracted`).
    """
    shared_terms = bool(key_terms(new) & key_terms(old))
    # a value said gone and nothing else in common ("6000 은 이제 안 써요") is linked over the whole
    # memory, to the one item that holds it (passes.supersede_memory.holder_of_named), not here
    if shared_terms and len(_body(new)) <= SHORT and retracted(new, old):
        return True
    by_subject = supersedes_by_subject(new, old)  # what each value is about, in any language
    if by_subject is not None:
        return by_subject
    if not shared_terms:
        return False  # nothing in common: every rule below needs a shared term
    if _same_terms_newer(new, old):
        return True
    if len(_body(new)) > SHORT:
        return False  # a long item holds several things: the clause rules (without_clauses) decide
    vn, vo = values_of(new), values_of(old)
    kn, ko = key_terms(_without_values(new)), key_terms(_without_values(old))
    if not kn or not ko:
        return False
    shared = kn & ko
    overlap = len(shared) / len(kn | ko)
    differs = bool(vn - vo) and bool(vo - vn)
    if CHANGE.search(_body(new)):
        newer, older = {_kind(v) for v in vn - vo}, {_kind(v) for v in vo - vn}
        close = overlap >= SAME_KEY_CHANGED or len(shared) >= 2 or (len(kn) == 1 and shared)
        return bool(close) and bool(newer) and older <= newer  # every value of old has its newer one
    if qualifiers(new) - qualifiers(old) - vn and qualifiers(old) - qualifiers(new) - vo:
        return False
    return overlap >= SAME_KEY and differs


def _same_terms_newer(new: str, old: str) -> bool:
    """Most content terms shared and other numbers, or a change shape and a fair share of terms."""
    kn, ko = key_terms(new), key_terms(old)
    if not kn or not ko:
        return False
    vn, vo = values(new), values(old)
    overlap = len(kn & ko) / len(kn | ko)
    if CHANGE.search(item_text(new)):
        return overlap >= SAME_KEY_CHANGED and (not vn or vn != vo)
    if qualifiers(new) - qualifiers(old) and qualifiers(old) - qualifiers(new):
        return False
    return overlap >= SAME_KEY and bool(vo) and bool(vn) and not vn & vo


_CLAUSE = re.compile(r"\s*[，,；;]\s*")
_QUALIFYING = re.compile(r"^(?:不是|而不是|并非|not |rather than )", re.I)
_CITED = re.compile(r"^(- )?(.*?)( \([a-z]+, \d{4}-\d{2}-\d{2}(?:, s:[0-9a-f]+)+\))?$", re.S)


def clauses(text: str) -> list[str]:
    """The clauses of an item (split at commas and semicolons), provenance left out."""
    return [c for c in _CLAUSE.split(item_text(text)) if c]


def replaced_clauses(new: str, old: str) -> list[int]:
    """Indices of the clauses of ``old`` that a changed clause of ``new`` gives a newer value of.

    Only when ``new`` has a change shape and both items name a common identifier (the same
    thing); a clause of ``old`` is replaced when it holds another value and most of the
    changed clause's content terms ("端口" in "端口改成 6543").  A clause right after it that
    only qualifies the old value ("不是默认的 5432", "not 5432") goes with it.
    """
    if not CHANGE.search(item_text(new)) and not LATELY.search(item_text(new)):
        return _restated_clause(new, old)
    old_parts = clauses(old)
    whole_new, whole_old = subject_of(new), subject_of(old)
    if different_subjects(whole_new, whole_old) or disjoint(whole_new, whole_old):
        hit = []  # the items are about two things (staging DB / 本地测试库): no clause of one is the other's
    else:
        hit = [n for n, other in enumerate(old_parts) if any(_clause_newer(part, other) for part in clauses(new))]
    if not _latin(new) & _latin(old):
        return _with_qualifiers(hit, old_parts)
    for part in clauses(new):
        vn, kn = values(part) or values_of(part), key_terms(part)
        if not CHANGE.search(part) or not vn or not kn:
            continue
        for n, other in enumerate(old_parts):
            vo = values(other) or values_of(other)
            if not {_kind(v) for v in vo} & {_kind(v) for v in vn}:
                continue  # a number replaces a number, a name a name
            if vo and not vo & vn and len(kn & key_terms(other)) / len(kn) >= SAME_KEY and n not in hit:
                hit.append(n)
    return _with_qualifiers(hit, old_parts)


def _restated_clause(new: str, old: str) -> list[int]:
    """The one clause of ``old`` that ``new`` - one short fact, no change word ("결제 워커 6개로 늘림") -
    gives another value of, naming every subject word the clause names ("메모: 결제 워커는 2개, 큐 이름은
    pay-q"); none when two clauses would be."""
    if len(_body(new)) > SHORT or not one_fact(new):
        return []
    sn = subject_of(new)
    if not sn.values or not sn.words:
        return []
    parts = clauses(old)
    said = [subject_of(p) for p in parts]
    whole = said[0]._replace(
        words=frozenset().union(*(s.words for s in said)), glosses=frozenset().union(*(s.glosses for s in said))
    )
    hit = []
    for n, so in enumerate(said):
        if not so.values or not so.words or different_subjects(sn, so) or unmatched(so, sn):
            continue
        if unmatched(sn, whole, frozenset(unmatched(sn, so))):
            continue  # the new one names what the old item does not: another thing's (the import worker's)
        if same_subject(sn, so) and newer_value(sn, so):
            hit.append(n)
    return _with_qualifiers(hit, parts) if len(hit) == 1 else []


def _with_qualifiers(hit: list[int], parts: list[str]) -> list[int]:
    """``hit`` and each clause right after one that only qualifies its value ("不是默认的 5432")."""
    return sorted(set(hit) | {n + 1 for n in hit if n + 1 < len(parts) and _QUALIFYING.match(parts[n + 1])})


def _clause_newer(part: str, other: str) -> bool:
    """A changed clause of a new item ("对账任务改到每天 03:15 跑") gives a newer value of what a clause of
    an old one says ("对账任务每天 02:30 跑"), read by subject: the same thing, a value of the same kind."""
    if not CHANGE.search(part) and not LATELY.search(part):
        return False
    sp, so = subject_of(part), subject_of(other)
    if not so.values or different_subjects(sp, so) or disjoint(sp, so):
        return False
    return same_subject(sp, so, change=True) and newer_value(sp, so, change=True)


def without_clauses(new: str, old: str) -> str | None:
    """``old`` (a memory bullet) without the clauses ``new`` replaces; None when none or all are.

    The rest keeps the old provenance, and cites the newer session too.
    """
    gone = replaced_clauses(new, old)
    parts = clauses(old)
    if not gone or len(gone) >= len(parts):
        return None
    found = _CITED.match(old.strip())
    cite_old = (found.group(3) or "") if found else ""
    cite_new = re.search(r", (s:[0-9a-f]+)\)$", new.strip())
    if cite_old and cite_new and cite_new.group(1) not in cite_old:
        cite_old = f"{cite_old[:-1]}, {cite_new.group(1)})"
    sep = "，" if re.search(r"[\u3000-\u9fff]", old) else ", "
    return "- " + sep.join(p for n, p in enumerate(parts) if n not in gone) + cite_old


_EDIT = re.compile(r"\bedited (?P<path>\S+) \(`(?P<before>[^`]+)` -> `(?P<after>[^`]+)`\)")
_READ = re.compile(r"^(?:- )?(?P<path>\S+?):\d+: `(?P<shown>[^`]+)`")


def obsoletes(new: str, old: str) -> bool:
    """``new`` records an edit of a file whose old text holds the value ``old`` read from that file
    (``ci.yml:4: `key: pnpm-store-v2``` after ``edited ci.yml (`…v2…` -> `…v3…`)``): the value read is
    no longer the file's.  A workflow or a failure's fix that used a value the user later retired
    stays: it is what happened ("how was that fixed?" is still answered by it)."""
    edit, read = _EDIT.search(new), _READ.match(item_text(old))
    if not (edit and read and _same_file(edit.group("path"), read.group("path"))):
        return False
    shown = read.group("shown").strip()
    return shown in edit.group("before") and shown not in edit.group("after")


def _same_file(one: str, other: str) -> bool:
    a, b = one.lstrip("./"), other.lstrip("./")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)
