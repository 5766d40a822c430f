"""Tiered injection of curated memory into a model's context.

Tiers, in order: every hard rule (always), the outline (always), then at most
``max_bodies`` memory bodies picked by recall for the context text, as long as they fit
in ``budget_chars``.  Nothing is cut silently: memories that matched but did not fit, or
were beyond ``max_bodies``, are named at the end with the way to read them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mimomem.curated.store import CuratedMemory


def render_injection(store: CuratedMemory, context_text: str, *, max_bodies: int = 4, budget_chars: int = 1200) -> str:
    """Render the injection text for ``context_text`` (see the module docstring).

    ``budget_chars`` bounds the bodies tier only; hard rules and the outline are always
    included whole.  Recall here does not count as a hit (automatic injection must not
    feed the rehearsal bonus on its own).
    """
    if max_bodies < 0 or budget_chars < 0:
        raise ValueError("max_bodies and budget_chars must be >= 0")
    parts: list[str] = ["# Memory", ""]
    rules = store.hard_rules()
    parts.append("## Hard rules")
    if rules:
        for rule in rules:
            parts.append(f"- {rule.summary} ({rule.scope}:{rule.id})")
            if rule.body.strip():
                parts.extend(f"  {line}" if line else "" for line in rule.body.strip().split("\n"))
    else:
        parts.append("(none)")
    parts += ["", "## Outline"]
    parts.extend(store.outline() or ["(no curated memories yet)"])
    recalled = store.recall(context_text, limit=max_bodies * 2 + 4, count_hits=False) if context_text.strip() else []
    rule_ids = {(r.scope, r.id) for r in rules}
    recalled = [r for r in recalled if (r.memory.scope, r.memory.id) not in rule_ids]
    shown: list[str] = []
    over_budget: list[str] = []
    over_count: list[str] = []
    used = 0
    for item in recalled:
        m = item.memory
        block = f"### {m.id} ({m.scope}): {m.summary}\n{m.body.strip()}".rstrip()
        if len(shown) >= max_bodies:
            over_count.append(m.id)
        elif used + len(block) > budget_chars:
            over_budget.append(f"{m.id} ({len(block)} chars)")
        else:
            shown.append(block)
            used += len(block)
    parts += ["", f"## Relevant memories ({used}/{budget_chars} characters)"]
    parts.extend(shown or ["(none matched)" if not recalled else "(none fit the budget)"])
    if over_budget:
        parts += ["", "Left out, over the character budget: " + ", ".join(over_budget) + "."]
    if over_count:
        parts += ["", f"Also matched, beyond the {max_bodies}-body limit: " + ", ".join(over_count) + "."]
    if over_budget or over_count:
        parts.append("Read any of them with recall (`mimomem recall QUERY`).")
    return "\n".join(parts) + "\n"
