"""The fact a new statement updates, found over the whole project memory rather than by reading two
items side by side: what a pair of wordings cannot tell, the memory as a whole can.

- A *correction that names no subject* ("不对，是 1000，刚才说错了", "No wait, it's 8081", "いや、9201
  でした") corrects the latest value of the same kind said in the same session; it is kept as that
  item with the corrected value (:func:`corrected`), so the old one retires and the new one says
  what it is about.
- A change that *names the value it replaces* ("NATS moved from 4222 to 4223", "5672 is closed
  now") retires the item that holds that value when exactly one live item does, however the two
  name the thing (the event bus / NATS, 메시지 큐 / the broker): only two environments, two
  attributes or two sources keep it (:func:`holder_of_named`).  Two items holding it leave the
  choice to the wording rules.
"""

from __future__ import annotations

import re

from mimomem.passes.memory_doc import item_text
from mimomem.passes.supersede_match import _kinds, _of_kind, _unmatched
from mimomem.passes.supersede_subject import _FAMILY, _VALUES, _typed_values, subject_of
from mimomem.passes.supersede_value import replaced_values
from mimomem.passes.supersede_words import CORRECTION

_PROVENANCE_SESSION = re.compile(r", s:([0-9a-f][0-9a-f-]*)\)\s*$")
_NAMED_MIN = 3
"""Characters of a named old value that can stand for one item of the whole memory (a port, a host:
``from 2 to 3`` is too common to say which item it replaces)."""


def _bare(text: str) -> str:
    """``text`` without its leading self-repairs ("不对，是 1000" -> "是 1000")."""
    previous = None
    while previous != text:
        previous, text = text, CORRECTION.sub("", text, count=1)
    return text


def corrected(text: str, session: str, olds: list[str]) -> str | None:
    """``text`` (a new item) as the item of ``olds`` it corrects, with the corrected value: when it
    opens with a self-repair, names no subject and gives a value of a kind that an item said in the
    same ``session`` (the latest one) holds.  None otherwise."""
    rest = _bare(text)
    if rest == text or not rest.strip():
        return None
    said = subject_of(rest)
    if said.head or not said.values:
        return None  # "Actually, the default branch is trunk" names what it corrects: the wording rules
    for old in reversed(olds):
        cited = _PROVENANCE_SESSION.search(old)
        if not cited or not session or not (session.startswith(cited.group(1)) or cited.group(1).startswith(session)):
            continue
        kinds = _kinds(said) & _kinds(subject_of(old))
        if not kinds:
            continue
        return _with_value(item_text(old), rest, kinds)
    return None


def _with_value(old: str, new: str, kinds: set[str]) -> str | None:
    """``old`` with its one value of ``kinds`` written as ``new`` writes it; None when it holds
    several (which one was corrected is not said)."""
    spans = [m for m in _VALUES.finditer(old) if _families(m.group(0)) & kinds]
    mine = [m for m in _VALUES.finditer(new) if _families(m.group(0)) & kinds]
    if len(spans) != 1 or not mine:
        return None
    at = spans[0]
    return old[: at.start()] + mine[0].group(0) + old[at.end() :]


def _families(value: str) -> set[str]:
    return {_FAMILY.get(k, k) for k, _ in _typed_values(value)[0]}


def holder_of_named(new: str, olds: list[str]) -> list[str]:
    """The items of ``olds`` that hold a value ``new`` names as replaced ("from 4222 to 4223", "5672 is
    closed now"), one per value that exactly one of them holds, and none of another environment,
    attribute or source."""
    gone = {v for g in replaced_values(item_text(new)) if len(g) >= _NAMED_MIN for v in _typed_values(g)[0]}
    if not gone:
        return []
    sn = subject_of(new)
    out = []
    for kind, said in gone:
        family = _FAMILY.get(kind, kind)
        holders = [o for o in olds if said in _of_kind(subject_of(o), family)]
        if len(holders) != 1:
            continue
        so = subject_of(holders[0])
        if sn.source != so.source or (sn.env and so.env and sn.env != so.env):
            continue
        if sn.attrs and so.attrs and not sn.attrs & so.attrs:
            continue
        out.append(holders[0])
    return out


def among_several(new: str, olds: list[str]) -> list[str]:
    """Of the items ``new`` would retire, those it is about: all when they hold the same values (one fact
    said twice), else those whose every subject word ``new`` names too, else the one sharing most of
    them - and none when two tie.  "請求まわりのレビュアーは伊藤さんです" retires the 請求 reviewer, not the
    frontend's and the backend's beside it."""
    if len(olds) <= 1:
        return olds
    sn = subject_of(new)
    kinds = _kinds(sn)
    held = {frozenset(v for k in kinds for v in _of_kind(subject_of(o), k)) for o in olds}
    if len(held) == 1:
        return olds
    subjects = {o: subject_of(o) for o in olds}
    named = [o for o in olds if not _unmatched(subjects[o], sn)]
    if named:
        return named
    shared = {o: len(subjects[o].words) - len(_unmatched(subjects[o], sn)) for o in olds}
    best = max(shared.values())
    top = [o for o in olds if shared[o] == best]
    return top if len(top) == 1 else []
