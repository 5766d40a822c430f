"""Statements of how things stand that name no identifier, for promotion's test of a fact: who holds
a role, where a kind of thing is kept.  An identifier (a host, a port, a path, a version) already
makes a statement a fact; these shapes carry their value in a name or a place written in ordinary
words, so they are read by the clause's structure:

- a proper name as the subject of a verb of holding or a role ("Mei owns the payments repo", "Alice
  is the tech lead for search", "Redis is only used for sessions"): the first word capitalised, not a
  function word, and the verb in the present;
- a Chinese familiar name (老张 / 小王 / 阿明) before 负责 / 管 / 维护 ("老张负责运维");
- a location: Chinese 在 … 上 / 里 at the end with a subject that is not a person ("文档都在语雀上"),
  Japanese …は…にあります, Korean …는 …에 있어요 ("문서는 노션에 있어요").

None of them holds for the moment ("today", "now", "again"): a fact is how things stand, not what
just happened.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_EN_FUNCTION = _words("""
    a all an and any as at but by each every for from he her here his how i if in it its my no not of on
    once or our she so some that the their there these they this those to we what when where which who
    why with you your yes ok okay thanks please also just then now well sure
    """)
_EN_HOLDER = re.compile(
    r"^([A-Z][a-z]+)(?:\s+[A-Z][a-z]*\.?)?\s+"
    r"(?:owns|leads|handles|maintains|manages|runs|hosts|stores|serves|covers|approves|reviews"
    r"|is (?:only |just |mainly |mostly )?used (?:for|by|in|only)"
    r"|is (?:the|our) (?:\w+ ){0,2}(?:lead|owner|pm|manager|maintainer|contact|admin|expert|person|point)\b"
    r"|is in charge of|is responsible for)\b"
)
_MOMENT = re.compile(r"\b(?:now|today|tonight|again|still|yet|anymore|right now|at the moment|this week)\b", re.I)
_ZH_HOLDER = re.compile(r"^(?:老|小|阿)[\u4e00-\u9fff](?:在)?(?:负责|負責|管|维护|維護|对接|對接)")
_ZH_PLACE = re.compile(
    r"^(?!我|你|他|她|咱|大家|谁|誰)[^，,。！？]{1,16}?(?:都|也|一般|一直|统一|統一)?在(?!这|那|這)"
    r"[^，,。！？]{1,14}(?:上|里|裡|中|下面|下)\s*[。.]?$"
)
_JA_PLACE = re.compile(
    r"^[^、。]{1,20}は[^、。]{1,20}に(?:あります|ある|置いてあります|置いてます|入っています|入ってます)\s*[。.]?$"
)
_KO_PLACE = re.compile(r"^(?!제|저는|나는|내가|저희)\S+(?:은|는)\s+\S+에\s*(?:있어요|있습니다|있어|있다|있음)\s*[.]?$")


def holds_a_role_or_place(text: str) -> bool:
    """A named holder of a role, or where a kind of thing is kept, said of how things stand."""
    flat = text.strip()
    if _MOMENT.search(flat):
        return False
    found = _EN_HOLDER.match(flat)
    if found and found.group(1).casefold() not in _EN_FUNCTION:
        return True
    return bool(_ZH_HOLDER.match(flat) or _ZH_PLACE.match(flat) or _JA_PLACE.match(flat) or _KO_PLACE.match(flat))
