"""Whether a new memory line is a newer value of an old one (same key, other value), without a model.

An item has a *key* (what it is about: "staging DB port", "package manager") and a *value*
(5433, pnpm).  Two items have the same key when they share most of their content terms
(words, identifiers, CJK bigrams, numbers left out) and neither names a qualifier the
other lacks (``staging`` against ``prod``) - or, when the new one has the shape of a
change ("X 改成 Y", "use Y instead of X", "不再用 X", "now 6543"), when they share a fair
part of their terms.  The same value again is a duplicate, not a newer value.
"""

from __future__ import annotations

import re

from mimomem.passes.memory_doc import item_text
from mimomem.text._accel import tokenize_bigram

CHANGE = re.compile(
    r"改成|改为|换成|改用|换到|不再|不用了|别再|现在是|现在用|现在改|已经改|升级到|升到|迁移到|搬到|挪到|替换"
    r"|\b(?:instead of|no longer|not any ?more|anymore|changed? to|switched to|moved to|updated to|replaced|"
    r"bumped to|migrated to|upgraded to|now (?:is|uses?|on|at|lives|runs)?|from now on)\b",
    re.I,
)
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
_VALUE = re.compile(r"\bv?\d+(?:\.\d+)*\b|`[^`]+`")
_QUALIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{2,}")


def key_terms(text: str) -> set[str]:
    """Content terms of an item: tokens without numbers, stop words and change words."""
    body = CHANGE.sub(" ", item_text(text))
    return {
        t.text
        for t in tokenize_bigram(body)
        if t.text not in _STOP and not _NUMBER.match(t.text) and (len(t.text) > 1 or not t.text.isascii())
    }


def values(text: str) -> set[str]:
    """Numbers, versions and backticked names of an item: what changes when the value does."""
    return {v.strip("`").casefold() for v in _VALUE.findall(item_text(text))}


def qualifiers(text: str) -> set[str]:
    """Latin words and identifiers of an item (``staging``, ``DATABASE_URL``), stop words out."""
    return {w.casefold() for w in _QUALIFIER.findall(item_text(text)) if w.casefold() not in _STOP}


def supersedes(new: str, old: str) -> bool:
    """True when ``new`` states a newer value of what ``old`` says (see the module docstring)."""
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
    if not CHANGE.search(item_text(new)) or not qualifiers(new) & qualifiers(old):
        return []
    old_parts = clauses(old)
    hit: list[int] = []
    for part in clauses(new):
        vn, kn = values(part), key_terms(part)
        if not CHANGE.search(part) or not vn or not kn:
            continue
        for n, other in enumerate(old_parts):
            vo = values(other)
            if vo and not vo & vn and len(kn & key_terms(other)) / len(kn) >= SAME_KEY and n not in hit:
                hit.append(n)
                hit += [n + 1] if n + 1 < len(old_parts) and _QUALIFYING.match(old_parts[n + 1]) else []
    return sorted(set(hit))


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
