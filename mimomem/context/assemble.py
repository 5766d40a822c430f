"""Context assembly: the text mimomem puts in front of the model, within one token budget.

Two moments, as in the design's pyramid:

- **session start** (``session_context``): the memory instructions, the curated hard rules
  and outline, then the rebuild context (tasks, checkpoint, recent input, project memory,
  the project's recent sessions, global memory, notes, keys index) - the L1 layer, injected
  every session, most useful first: a cut for the host's character cap drops from the end;
- **each prompt** (``prompt_context``): curated memories that match the prompt (by recall
  and by their ``load_when`` scenarios), whole memory entries that pass the relevance gate
  (``entry_recall``), and
  the recall reminder - or nothing at all when nothing is relevant.

Every block carries its estimated token count; the total never exceeds the budget, and
anything cut or left out is named with the path or command that shows it.
"""

from __future__ import annotations

from collections.abc import Sequence

from mimomem.served.fitting import PROMPT_BUDGET, Block, Context, make_block
from mimomem.served.session import session_answer
from mimomem.tree.where import Where

SESSION_BUDGET = 4000
"""Default tokens for the session-start context (Claude Code shows ~10,000 characters whole)."""


def session_context(
    where: Where,
    *,
    budget: int = SESSION_BUDGET,
    recent_user: Sequence[str] = (),
    curated: bool = True,
    char_cap: int | None = None,
    cwd: str | None = None,
) -> Context:
    """Instructions + rebuild context + curated rules and outline (+ the host's memory index past its
    cap, for a session in ``cwd``: default the worktree), within ``budget`` tokens and ``char_cap``
    UTF-16 units (the host's cap on one hook output, :mod:`mimomem.served.hosts`)."""
    from mimomem.context.session_plan import session_parts

    parts = session_parts(where, recent_user, curated=curated, cwd=cwd)
    return session_answer(
        parts["instructions"], parts["curated"], parts["raw"], budget=budget, char_cap=char_cap, host=parts["host"]
    )


def prompt_context(
    where: Where, prompt: str, *, budget: int = PROMPT_BUDGET, search_limit: int = 3, char_cap: int | None = None
) -> Context:
    """What is relevant to ``prompt`` right now; an empty context when nothing is.

    The plan of ``where`` answered for ``prompt`` (:mod:`mimomem.served.plans`): the prompt hook
    serves the same answer from a saved plan while nothing it was built from changed."""
    from mimomem.context.plan import prompt_plan
    from mimomem.served.prompt import answer

    _, plan = prompt_plan(where)
    context: Context = answer(plan, prompt, budget=budget, search_limit=search_limit, char_cap=char_cap)
    return context


__all__ = [
    "PROMPT_BUDGET",
    "SESSION_BUDGET",
    "Block",
    "Context",
    "make_block",
    "prompt_context",
    "session_context",
]
