"""Decisions worded without a choice verb, for :func:`mimomem.history.sentence.is_choice`.

A decision says what is used and why not the alternative.  Without "went with" / "选了" / "に決め" the
same shape shows in the clauses:

- an outcome after deliberation - 最后 / 最终 ("finally") before what is used - with a reason after it:
  "配置中心最后是 Nacos，Apollo 部署太重了", "日志采集最后定的 Loki —— ES 集群太烧钱了";
- a value kept as it is (for now, keeps, stays, still, holding, frozen, pinned) and, after a
  semicolon, colon or dash, the consequence of changing it: "Node is frozen at 18.20 for now - 20
  breaks the sharp build", "The gateway keeps running on gw-1: moving it would break the allowlist";
- a change someone made to something (a verb of change with its object: drop X for Y, move search
  to Y, replace X with Y; not "CI moved to Buildkite", a change of state) followed by a clause of
  its own, the reason: "we're dropping Celery for RQ, the broker setup was more than we need".

The words are closed classes (aspect adverbs, modals of consequence, verbs of change), not topics.
"""

from __future__ import annotations

import re

_OUTCOME = re.compile(r"(?:最后|最终|最後|最終)(?!一)")
_ZH_REASON_AFTER = re.compile(r"太|因为|因為|由于|由於|不然|否则|否則|不够|不夠|扛不住|跟不上|成本|麻烦|麻煩")
_KEPT = re.compile(r"\b(?:for now|keeps?|stays?|remains?|still|holding|held|frozen|pinned|pinning|sticking)\b", re.I)
_SPLIT = re.compile(r"\s*(?:;|:|\s[—–-]{1,2})\s+")
_CONSEQUENCE = re.compile(
    r"\b(?:would|'d|breaks?|broke|breaking|can'?t|cannot|won'?t|isn'?t worth|too|overkill|doubles?|costs?)\b", re.I
)
_VALUE = re.compile(r"\d|[A-Za-z][\w-]*[.-][\w.-]+|\b[A-Z][A-Za-z0-9]+\b")
_CHANGE = re.compile(
    r"\b(?:switch(?:ed|ing)?|mov(?:e|ed|ing)|migrat(?:e|ed|ing)|dropp(?:ed|ing)|drop|replac(?:e|ed|ing)"
    r"|swapp(?:ed|ing)|swap|ditch(?:ed|ing)?)\s+(?!(?:to|for|with|from|off|over|back)\b)(?:[\w.-]+\s+){1,3}?"
    r"(?:to|for|with|from|over)\s+\S+[^,;]*[,;]\s*(\S.*)$",
    re.I,
)
_EN_FINITE = re.compile(r"\b(?:is|are|was|were|has|had|have|does|did|can'?t|won'?t|would|needs?|\w+(?:ed|es))\b", re.I)


def weighs_alternative(text: str) -> bool:
    """A decision without a choice verb: an outcome with a reason (最后是 X，Y 太…), a value kept with the
    consequence of changing it, or a change followed by its reason."""
    flat = text.strip()
    outcome = _OUTCOME.search(flat)
    if outcome and _ZH_REASON_AFTER.search(flat[outcome.end() :]):
        return True
    if not flat.isascii():
        return False
    parts = _SPLIT.split(flat, maxsplit=1)
    if len(parts) == 2:
        head, tail = parts
        if _KEPT.search(head) and _VALUE.search(head) and _CONSEQUENCE.search(tail):
            return True
    change = _CHANGE.search(flat)
    return bool(change and _EN_FINITE.search(change.group(1)) and len(change.group(1).split()) >= 3)
