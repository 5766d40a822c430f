"""The curated store of a project, and what of it a new session receives (hard rules, the outline).

The curated store is opened on the project's ``.memory/`` (and the global curated root).  What a
prompt receives of it (scenario matches, then recall) is answered from the plan:
:func:`mimomem.context.plan.curated_part` builds the store's part, :func:`mimomem.served.prompt.curated_text`
answers from it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from mimomem.tree.where import Where, header_cache

if TYPE_CHECKING:
    from mimomem.curated.store import CuratedMemory


def open_store(where: Where) -> CuratedMemory | None:
    """The curated store of ``where`` (its project's ``.memory/`` and global memory); ``None`` when
    there is neither a project nor a global root."""
    from mimomem.curated.store import CuratedMemory

    if where.worktree is None and not os.path.isdir(_global_root()):
        return None
    return CuratedMemory(project_root=where.worktree)


def curated_roots(where: Where) -> list[str]:
    """The directories ``open_store`` reads: the project's ``.memory/`` (inside git) and the global root."""
    roots = [os.path.join(where.worktree, ".memory")] if where.worktree is not None else []
    return [*roots, _global_root()]


def _global_root() -> str:
    from mimomem.curated.roots import default_global_root

    return str(default_global_root())


def curated_session_text(where: Where) -> str:
    """Hard rules (always) and the outline of curated memory; ``""`` when there is none."""
    with header_cache(where):
        store = open_store(where)
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
        from mimomem.common.launcher import agent_run

        out += ["", f"Outline (read any with `{agent_run('recall QUERY')}`):", *outline]
    return "\n".join(out) + "\n"


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
