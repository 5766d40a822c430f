"""A prompt's context from its saved plan: the curated memories and the memory entries it asks for.

One piece of code whichever process runs it: the prompt hook answers from the plan it loaded
(:mod:`mimomem.served.plans`), and the library builds the same plan and answers through the same
:func:`answer` (``prompt_context`` is ``answer(prompt_plan(where), prompt)``).
"""

from __future__ import annotations

from collections.abc import Mapping

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def answer(
    plan: Mapping[str, Any],
    prompt: str,
    *,
    budget: int,
    search_limit: int = 3,
    char_cap: int | None = None,
    now: float | None = None,
) -> Any:
    """The per-prompt context (a :class:`~mimomem.served.fitting.Context`) for ``prompt`` from ``plan``.

    ``now``: the clock for curated recall's decay (default: the time now)."""
    import time

    from mimomem.common.launcher import agent_run
    from mimomem.served.entry_index import EntryIndex
    from mimomem.served.entry_recall import entries_text
    from mimomem.served.fitting import Context, enforce, make_block
    from mimomem.text.xlang import Lookup

    ctx = Context(budget, char_cap=char_cap)
    blocks = []
    curated = curated_text(plan["curated"], prompt, time.time() if now is None else now)
    if curated:
        blocks.append(make_block("curated", curated, agent_run("recall")))
    entries = plan["entries"]
    found = entries_text(
        EntryIndex(*entries["index"]),
        prompt,
        limit=max(search_limit, 1) + 1,
        template=entries["template"],
        lookup=Lookup(entries["xlang"]),
    )
    if found:
        blocks.append(make_block("entries", found, agent_run("search")))
    if blocks and plan["reminder"]:
        blocks.append(make_block("reminder", plan["reminder"], ""))
    ctx.blocks = blocks
    return enforce(ctx)


MAX_BODY_CHARS = 600
"""Longer curated bodies are cut (with a pointer to the file) in per-prompt context."""


def curated_text(part: Mapping[str, Any] | None, prompt: str, now_ts: float, *, limit: int = 4) -> str:
    """Curated memories for ``prompt``: scenario matches first, then recall; ``""`` if none.

    ``part``: the plan's curated part (:func:`mimomem.context.plan.curated_part`), ``None``
    when there is no curated store."""
    if part is None or not prompt.strip():
        return ""
    from mimomem.curated.scoring import max_multiplier, scenario_share, top_scored
    from mimomem.text.bm25 import BM25Index
    from mimomem.text.query import parse_query
    from mimomem.text.tokens import tokenize

    chosen: dict[str, str] = {}  # key -> why
    routes = part["routes"]
    overlap: dict[int, int] = {}  # scenario -> its terms in the prompt
    for term in {t.text for t in tokenize(prompt)}:
        found = routes["terms"].get(term)
        if found:
            for scenario in memoryview(found).cast("I"):
                overlap[scenario] = overlap.get(scenario, 0) + 1
    owner, size = memoryview(routes["owner"]).cast("I"), memoryview(routes["size"]).cast("I")
    for route in sorted({owner[s] for s, n in overlap.items() if scenario_share(n, size[s])}):
        chosen[routes["keys"][route]] = "scenario"
    parsed = parse_query(prompt)
    if parsed and part["index"][4]:
        index = BM25Index.from_parts(part["index"])
        updated, pinned, half_life = part["updated"], part["pinned"], part["half_life"]
        info = _Infos(updated, pinned)
        mult = max_multiplier(part["bounds"], now_ts, half_life, part["max_hits"])
        best = top_scored(lambda k: index.search(parsed, k), info, limit, now_ts, half_life, part["hits"], mult)
        for *_, key in best:
            chosen.setdefault(str(key), "recall")
    if not chosen:
        return ""
    import marshal

    out = ["## Relevant curated memory"]
    for key, reason in list(chosen.items())[:limit]:
        scope, _, memory_id = key.partition(":")
        summary, body = marshal.loads(part["show"][key])
        body = body.strip()
        if len(body) > MAX_BODY_CHARS:
            body = body[:MAX_BODY_CHARS] + f"… (full text: mimomem recall {memory_id})"
        out.append(f"### {summary} ({scope}:{memory_id}, by {reason})")
        if body:
            out.append(body)
    return "\n".join(out) + "\n"


class _Infos(dict):  # type: ignore[type-arg]
    """:func:`~mimomem.curated.scoring.info_of` of each key, made when first asked for (a prompt
    scores a few dozen of the memories, not all)."""

    def __init__(self, updated: Mapping[str, float], pinned: frozenset[str]) -> None:
        super().__init__()
        self._updated, self._pinned = updated, pinned

    def __missing__(self, key: str) -> Any:
        from mimomem.curated.scoring import info_of

        value = self[key] = info_of(key, self._updated[key], key in self._pinned)
        return value
