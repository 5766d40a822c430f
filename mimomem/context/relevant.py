"""What is relevant right now: curated rules and memories, and ``load_when`` routing.

The curated store is opened on the project's ``.memory/`` (and the global curated root);
its scenarios (``load_when``) are matched against the prompt with the same bigram
tokenizer as search, so "部署到生产环境" routes to a memory whose scenario is "部署 生产".
Nothing here loads jieba: the per-prompt path must stay fast.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from mimomem.tree.where import Where, header_cache

if TYPE_CHECKING:
    from mimomem.curated.memory import Memory
    from mimomem.curated.store import CuratedMemory

MAX_BODY_CHARS = 600
"""Longer curated bodies are cut (with a pointer to the file) in per-prompt context."""


def _store(where: Where) -> CuratedMemory | None:
    from mimomem.curated.store import CuratedMemory

    if where.worktree is None and not os.path.isdir(_global_root()):
        return None
    return CuratedMemory(project_root=where.worktree)


def _global_root() -> str:
    from mimomem.curated.roots import default_global_root

    return str(default_global_root())


def curated_session_text(where: Where) -> str:
    """Hard rules (always) and the outline of curated memory; ``""`` when there is none."""
    with header_cache(where):
        store = _store(where)
        if store is None:
            return ""
        rules = store.hard_rules()
        outline = store.outline()
    if not rules and not outline:
        return ""
    out = ["## Curated memory"]
    if rules:
        out.append("Hard rules (always apply):")
        out += [f"- {r.summary}" + (f" — {_one_line(r.body)}" if r.body.strip() else "") for r in rules]
    if outline:
        out += ["", "Outline (read any with `mimomem recall QUERY`):", *outline]
    return "\n".join(out) + "\n"


def curated_prompt_text(where: Where, prompt: str, *, limit: int = 4) -> str:
    """Curated memories for ``prompt``: scenario matches first, then recall; ``""`` if none."""
    if not prompt.strip():
        return ""
    with header_cache(where):
        store = _store(where)
        if store is None:
            return ""
        chosen: dict[tuple[str, str], tuple[Memory, str]] = {}
        for memory in routed(store, prompt):
            chosen[(memory.scope, memory.id)] = (memory, "scenario")
        for item in store.recall(prompt, limit=limit, count_hits=False):
            chosen.setdefault((item.memory.scope, item.memory.id), (item.memory, "recall"))
    if not chosen:
        return ""
    out = ["## Relevant curated memory"]
    for memory, reason in list(chosen.values())[:limit]:
        body = memory.body.strip()
        if len(body) > MAX_BODY_CHARS:
            body = body[:MAX_BODY_CHARS] + f"… (full text: mimomem recall {memory.id})"
        out.append(f"### {memory.summary} ({memory.scope}:{memory.id}, by {reason})")
        if body:
            out.append(body)
    return "\n".join(out) + "\n"


def routed(store: CuratedMemory, prompt: str) -> list[Memory]:
    """Live memories whose ``load_when`` scenario matches ``prompt`` (``curated.routing``: bigram term
    overlap, no superseded memory, never a ``rule-proposal``)."""
    from mimomem.curated.routing import routed as scenario_routed

    return scenario_routed(store, prompt)


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
