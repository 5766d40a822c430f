"""Agent names: the restricted agents, and refusing names that only look like one of them.

The write gate gives ``checkpoint-writer``, ``dream`` and ``distill`` narrower rights than
any other agent.  A caller that spells one of them *almost* right (``checkpoint‐writer``
with U+2010, ``checkpoint writer``, ``checkpointwriter``, ``dгeam`` with a Cyrillic ``г``,
``DISTILL``) must not silently run as an unrestricted agent: the mistake (or the trick)
is refused with :class:`~mimomem.errors.InvalidAgentNameError`.

Two names look alike when their *skeletons* are equal: compatibility-decomposed (NFKD),
case folded, with every character that is not a letter or digit removed (separators,
dashes, the minus sign, punctuation, accents, zero-width and control characters), then
with common look-alike letters (Cyrillic and Greek homoglyphs, ``1``/``I``/``l``, ``0``/``o``,
``rn``/``m``, ``vv``/``w``) mapped to one letter.  Only names whose skeleton equals a
restricted agent's are refused, so unrelated names (``main``, ``dream-helper``, ``审阅``)
are unaffected.  Control characters are refused in every name.
"""

from __future__ import annotations

import unicodedata

from mimomem.errors import InvalidAgentNameError

CHECKPOINT_WRITER = "checkpoint-writer"
"""The background agent that writes checkpoints and project memory."""

SANDBOXED_AGENTS = frozenset({"dream", "distill"})
"""Consolidation agents: they may write only the memory tree and ``<worktree>/<dotdir>/``."""

RESTRICTED_AGENTS = frozenset({CHECKPOINT_WRITER, *SANDBOXED_AGENTS})
"""Agents with narrower rights than the main agent; look-alike spellings of them are refused."""

_LOOKALIKES = {
    "l": "1iıɩιіӏǀ",
    "o": "0οоօσ",
    "a": "аɑα",
    "b": "ьƅ",
    "c": "сϲ",
    "d": "ԁ",
    "e": "еҽ",
    "g": "ɡ",
    "h": "һ",
    "j": "ј",
    "k": "кκ",
    "m": "м",
    "n": "пη",
    "p": "рρ",
    "r": "г",
    "s": "ѕ",
    "t": "тτ",
    "u": "υ",
    "v": "νѵ",
    "w": "ԝωш",
    "x": "хχ",
    "y": "уγ",
}
_FOLD_LOOKALIKES = str.maketrans({ch: letter for letter, chars in _LOOKALIKES.items() for ch in chars})
_DIGRAPHS = (("rn", "m"), ("vv", "w"))


def skeleton(name: str) -> str:
    """The letters and digits a reader sees in ``name``, look-alikes folded together (see the module doc)."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", name).casefold())
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] in "LN").translate(_FOLD_LOOKALIKES)
    for pair, single in _DIGRAPHS:
        kept = kept.replace(pair, single)
    return kept


_RESTRICTED_SKELETONS = {skeleton(name): name for name in RESTRICTED_AGENTS}


def check_agent(agent: object) -> str:
    """Return ``agent`` if it is usable as an agent name, else raise ``InvalidAgentNameError``."""
    if not isinstance(agent, str) or not agent.strip():
        raise InvalidAgentNameError(
            f"agent must be a non-empty name such as 'main', {CHECKPOINT_WRITER!r} or 'dream', got {agent!r}"
        )
    if any(unicodedata.category(ch) == "Cc" for ch in agent):
        raise InvalidAgentNameError(f"agent name {agent!r} holds control characters; use a plain name such as 'main'")
    if agent in RESTRICTED_AGENTS:
        return agent
    near = _RESTRICTED_SKELETONS.get(skeleton(agent))
    if near is not None:
        raise InvalidAgentNameError(
            f"agent {agent!r} looks like {near!r}; spell a restricted agent exactly as {near!r} "
            f"(ASCII letters and '-'), or pick a name that does not resemble it"
        )
    return agent


__all__ = ["CHECKPOINT_WRITER", "RESTRICTED_AGENTS", "SANDBOXED_AGENTS", "check_agent", "skeleton"]
