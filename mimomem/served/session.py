"""The session-start context from its parts: the rebuild blocks' shares and cuts, then the whole fitted.

:func:`mimomem.context.assemble.session_context` reads the parts from the memory tree (the
instructions, the curated rules and outline, the rebuild blocks' full texts:
:func:`mimomem.context.session_plan.session_parts`) and hands them to :func:`session_answer`; the
``SessionStart`` hook's served path (:mod:`mimomem.hooks.entry_session`) hands it the same parts
from a saved plan.  One implementation of the budget and the cuts, so both give the same text.
This module imports neither the tree nor the curated store.
"""

from __future__ import annotations

import os

from mimomem.common.launcher import agent_run
from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.served.budgeted import Budgeted, read_budgeted, read_section_aware
from mimomem.served.estimate import estimate_joined, estimate_tokens
from mimomem.served.fitting import LEFT_OUT_RESERVE, Block, Context, enforce, make_block

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

CAPS: dict[str, int] = {
    "tasks": 500,
    "checkpoint": 11000,
    "recent": 16000,
    "project": 10000,
    "sessions": 4000,
    "global": 6000,
    "notes": 6000,
    "keys": 500,
}
"""MiMo-Code's per-block caps in tokens (its ``push_caps``); used as relative shares."""

TITLES = {
    "tasks": "Tasks ledger",
    "checkpoint": "Session checkpoint",
    "recent": "Recent user input (verbatim)",
    "project": "Project memory",
    "sessions": "Recent sessions of this project",
    "global": "Global memory",
    "notes": "Session notes",
    "keys": "Memory keys index",
}
"""Each rebuild block's heading."""

if TYPE_CHECKING:
    Raw = Sequence[tuple[str, str, str, bool]]
    """The rebuild blocks before fitting, in order: ``(name, full text, where to read it, section-aware?)``."""


def session_answer(
    instructions: str, curated: str, raw: Raw, *, budget: int, char_cap: int | None, host: str = ""
) -> Context:
    """The session-start context: ``instructions``, ``curated`` (``""``: none), ``host`` (the host's
    memory index past its cap, :func:`mimomem.context.host_memory.cap_text`; ``""``: none) and the
    rebuild blocks cut to the room left, within ``budget`` tokens and ``char_cap`` UTF-16 units."""
    ctx = Context(budget, char_cap=char_cap)
    first = make_block("instructions", instructions, agent_run("context"))
    extra = [make_block("curated", curated, agent_run("inspect"))] if curated else []
    if host:
        extra.append(make_block("host", host, agent_run("paths")))
    reserve = first.tokens + sum(b.tokens for b in extra) + LEFT_OUT_RESERVE
    rebuilt = fit_blocks(raw, max(0, budget - reserve))
    if any(b.text or b.full_tokens for b in rebuilt) or extra:  # a block cut to nothing is named as left out
        ctx.blocks = [first, *extra, *rebuilt]  # hard rules first (the instructions say what follows)
    else:
        ctx.blocks = [first]
    for b in ctx.blocks:
        if not b.text and b.full_tokens:
            ctx.left_out.append(f"{b.name} (~{b.full_tokens} tokens, {b.source})")
    return enforce(ctx)


def new_session_answer(part: Mapping[str, Any], session_id: str, *, budget: int, char_cap: int | None) -> Context:
    """The context of a new session ``session_id`` (no directory yet) from the project's plan part
    (:func:`mimomem.context.session_plan.start_plan`): its instructions rendered with the session's
    directory, then :func:`session_answer`."""
    from mimomem.served.instructions import render_instructions

    fields = part["instructions"]
    instructions = render_instructions(
        fields["project_memory"],
        fields["global_memory"],
        os.path.join(fields["sessions"], session_id),
        write_enabled=fields["write_enabled"],
        global_project=fields["global_project"],
    )
    return session_answer(
        instructions, part["curated"], part["raw"], budget=budget, char_cap=char_cap, host=part.get("host", "")
    )


def fit_blocks(raw: Raw, budget: int) -> list[Block]:
    """The rebuild blocks within ``budget`` tokens in total ([] when there are none): each gets its
    share (:func:`allocate`) and is cut to it, saying what was left out."""
    if not raw:
        return []
    sizes = {name: estimate_joined(f"## {TITLES[name]}\n", text) for name, text, _, _ in raw}  # text's counts kept
    shares = allocate(sizes, budget)
    out: list[Block] = []
    for name, text, source, sectioned in raw:
        cut = _fit(name, text, shares[name], source, sectioned)
        if cut.text.strip():
            out.append(Block(name, cut.text, cut.tokens, cut.total_tokens, cut.truncated, source))
        else:
            out.append(Block(name, "", 0, cut.total_tokens, True, source))
    return out


def allocate(sizes: dict[str, int], budget: int) -> dict[str, int]:
    """Split ``budget`` over blocks: small blocks get all they need, big ones share the rest.

    Water-filling weighted by ``CAPS``: a block never gets more than its size, and the
    shares add up to at most ``budget``.
    """
    shares = dict.fromkeys(sizes, 0)
    left = dict(sizes)
    room = max(0, budget)
    while left and room > 0:
        weight = sum(CAPS.get(name, 1000) for name in left)
        fair = {name: room * CAPS.get(name, 1000) // weight for name in left}
        small = [name for name in left if left[name] <= fair[name]]
        if not small:
            for name in left:
                shares[name] += fair[name]
            break
        for name in small:
            shares[name] += left[name]
            room -= left[name]
            del left[name]
    return shares


def _fit(name: str, text: str, budget: int, source: str, sectioned: bool) -> Budgeted:
    heading = f"## {TITLES[name]}\n"
    if estimate_joined(heading, text) <= budget:  # its share is its size: whole (the parts apart count a token more)
        nested = nest_headings(text)
        return Budgeted(heading + nested, estimate_joined(heading, nested), estimate_tokens(text), False)
    room = budget - estimate_tokens(heading)
    if room <= 0:
        return Budgeted("", 0, estimate_tokens(text), True)
    reader = read_section_aware if sectioned else read_budgeted
    cut = reader(text, room, source=source)
    if not cut.text.strip():
        return Budgeted("", 0, cut.total_tokens, True)
    nested = nest_headings(cut.text)
    return Budgeted(heading + nested, estimate_joined(heading, nested), cut.total_tokens, cut.truncated)


def nest_headings(text: str) -> str:
    """The file's text under a block heading: its own ``# Title`` dropped, other headings one level down.

    Keeps the injected context a well-formed outline (``## Project memory`` then ``### Rules``)
    instead of repeating the title and restarting at ``##`` inside every block.
    """
    lines = text.split("\n")
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
        while lines and not lines[0].strip():
            lines = lines[1:]
    return "\n".join(
        "#" + line if line.startswith("#") and line.lstrip("#").startswith(" ") else line for line in lines
    )
