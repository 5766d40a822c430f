"""Tiered injection of curated memory into a model's context.

Tiers, in order: every hard rule (always), the outline (always), then at most
``max_bodies`` memory bodies for the context text - those whose ``load_when`` scenario it
matches first (as the per-prompt hook routes them), then recall's - as long as they fit
in ``budget_chars``.  Nothing is cut silently: memories that matched but did not fit, or
were beyond ``max_bodies``, are named at the end with the way to read them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mimomem.curated.memory import Memory
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
    recalled = _relevant(store, context_text, max_bodies * 2 + 4, {(r.scope, r.id) for r in rules})
    shown: list[str] = []
    over_budget: list[str] = []
    over_count: list[str] = []
    used = 0
    for m in recalled:
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


def _relevant(store: CuratedMemory, context_text: str, limit: int, rule_ids: set[tuple[str, str]]) -> list[Memory]:
    """The memories whose ``load_when`` scenario matches (as the per-prompt hook routes them), then the
    recalled ones; hard rules, shown above, are left out."""
    from mimomem.curated.routing import routed

    if not context_text.strip():
        return []
    recalled = (r.memory for r in store.recall(context_text, limit=limit, count_hits=False))
    seen = set(rule_ids)
    out = []
    for m in (*routed(store, context_text), *recalled):
        if (m.scope, m.id) not in seen:
            seen.add((m.scope, m.id))
            out.append(m)
    return out
