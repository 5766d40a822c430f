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
from collections.abc import Mapping
from typing import Literal

from mimomem.errors import InvalidAgentNameError

CHECKPOINT_WRITER = "checkpoint-writer"
"""The background agent that writes checkpoints and project memory."""

SANDBOXED_AGENTS = frozenset({"dream", "distill"})
"""Consolidation agents: they may write only the memory tree and ``<worktree>/<dotdir>/``."""

RESTRICTED_AGENTS = frozenset({CHECKPOINT_WRITER, *SANDBOXED_AGENTS})
"""Agents with narrower rights than the main agent; look-alike spellings of them are refused."""

USER = "user"
"""The person: the one caller (with dream and distill, which act for them) that writes global memory.

Only a front end that knows a person is typing may claim it (``mimomem write --agent user``
outside an agent's shell); the MCP server and the hooks always serve an agent."""

Role = Literal["user", "main agent", "subagent", "checkpoint writer", "pass"]
"""Who is writing, as the write gate sees it (see :func:`role_of`)."""


AGENT_SHELL_VARIABLES = ("CLAUDECODE", "OPENCODE", "MIMOCODE")
"""Set by agent harnesses in the shell their model runs commands in: a ``user`` claim there is an agent's."""


def claim(agent: str, front_end: Literal["cli", "mcp", "hook"], env: Mapping[str, str]) -> str:
    """The agent name a front end may act as: ``agent`` checked, ``user`` only from a person's CLI.

    The MCP server and the hooks always serve an agent; the CLI refuses ``--agent user`` inside
    an agent's shell (one of :data:`AGENT_SHELL_VARIABLES` set), where the model types the command."""
    name = check_agent(agent)
    if name != USER:
        return name
    if front_end != "cli":
        raise InvalidAgentNameError(
            f"the {front_end} front end serves an agent and never writes as {USER!r}; "
            "start it with --agent main (the default), and let the user edit global memory themselves"
        )
    shell = [var for var in AGENT_SHELL_VARIABLES if env.get(var)]
    if shell:
        raise InvalidAgentNameError(
            f"--agent {USER} is for the person at the terminal, and this shell belongs to an agent "
            f"({shell[0]} is set): ask the user to run the command, or write project memory instead"
        )
    return name


def delegated(agent: str, front_end: Literal["cli", "mcp", "hook"], env: Mapping[str, str]) -> bool:
    """Whether ``agent`` is a pass or the checkpoint writer claimed from an agent's shell: the host
    agent's model words it (``--emit-prompt``), so the gate treats its text as the agent's."""
    in_shell = front_end != "cli" or any(env.get(var) for var in AGENT_SHELL_VARIABLES)
    return agent in RESTRICTED_AGENTS and in_shell


def role_of(agent: str, task_id: str | None = None) -> Role:
    """The role of ``agent``: the user, a pass (dream, distill), the checkpoint writer, a subagent
    (bound to a task) or else the main agent.  The gate decides by role, never by the front end."""
    if agent == USER:
        return "user"
    if agent in SANDBOXED_AGENTS:
        return "pass"
    if agent == CHECKPOINT_WRITER:
        return "checkpoint writer"
    return "main agent" if task_id is None else "subagent"


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


__all__ = [
    "CHECKPOINT_WRITER",
    "RESTRICTED_AGENTS",
    "SANDBOXED_AGENTS",
    "USER",
    "Role",
    "check_agent",
    "claim",
    "delegated",
    "role_of",
    "skeleton",
]
