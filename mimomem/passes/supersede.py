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
