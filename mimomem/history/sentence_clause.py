"""A statement followed, in the same sentence, by an order for now ("the PR is #5123, take a look",
"in this function the loop runs 3 times, change it to 5", "测试挂了，帮我看下"): the statement is the
order's context - what the speaker is working on - not a fact to keep.  Read clause by clause with
:mod:`mimomem.history.sentence`'s own grammar of orders.
"""

from __future__ import annotations

import re

from mimomem.history.sentence import is_imperative, is_standing

_CLAUSE = re.compile(r"\s*(?:[,，、;；]|\s[—–-]\s)\s*(?:and\s+|then\s+|so\s+|然后|再)?")


def ends_in_order(text: str) -> bool:
    """A later clause of ``text`` is an order that is not standing, after a first clause that is no
    order (a list of steps, "bump the version, tag it, push the tag", is a workflow described)."""
    if re.search(r"[:：]", text):
        return False  # "Release is: bump …, tag …, push the tag": steps introduced, a procedure described
    clauses = [c for c in _CLAUSE.split(text.strip().rstrip("。.!！")) if c]
    if not clauses or is_imperative(clauses[0]):
        return False
    return any(len(c) >= 4 and is_imperative(c) and not is_standing(c) for c in clauses[1:])
