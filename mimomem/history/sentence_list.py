"""A heading that names norms ("My rules for this repo:", "Ground rules, since you're new here:", "我们组的
约定", "うちのルールです", "팀 규칙") over the user's own list: each line after it is a rule, whatever its
form - an order ("Use conventional commits."), a plain statement ("we use pnpm, not npm", "feature flags
live in flags.json"), a memo's plain verb ("マージは squash で行う。").  The heading is read by its noun, a
closed class of words for a norm, and by its place: a short line of its own, before the list.
"""

from __future__ import annotations

import re

from mimomem.history.sentence_frame import one_off

_NORM_NOUN = re.compile(
    r"\b(?:rules?|conventions?|guidelines?|policy|policies|norms?|house style|ground rules)\b"
    r"|约定|約定|规定|規定|规范|規範|规矩|規矩|规则|規則|守则|守則|ルール|決まり|きまり|規約|約束|규칙|컨벤션|규약|원칙",
    re.I,
)


def names_a_norm(text: str) -> bool:
    """The sentence calls what it says a norm ("这是 team rule", "我们这边的规矩，…", "that's the convention")."""
    return bool(_NORM_NOUN.search(text)) and not one_off(text)


def norm_heading(parts: list[str], text: str) -> int:
    """The index of a short line naming norms that opens the user's own list of lines, or -1."""
    if "\n" not in text.strip():
        return -1
    for i, part in enumerate(parts[:-1]):
        head = part.strip()
        if len(head) <= 48 and _NORM_NOUN.search(head) and not one_off(head) and not re.search(r"[?？]\s*$", head):
            return i
    return -1
