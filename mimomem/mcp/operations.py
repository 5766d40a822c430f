"""What each ``memory_*`` tool does: one library call, its result as compact Markdown for a model.

Each function takes the connection's :class:`~mimomem.mcp.state.MemoryState`, the resolved
:class:`~mimomem.tree.where.Where` and the tool's validated arguments, and calls the same
library functions as the matching CLI command (``search`` is :mod:`mimomem.memory.search`, ``recall``, ``remember``,
``forget``, ``inspect``, ``note``, ``write``, ``context``); ``checkpoint`` is the checkpoint
writer's write (``mimomem write checkpoint --agent checkpoint-writer``), checked like a model's
answer.  Refusals are the library's
exceptions; :meth:`MemoryState.run` turns them into tool errors.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mimomem.search.hits import Found
from mimomem.tree.where import Where

if TYPE_CHECKING:
    from mimomem.mcp.state import MemoryState
    from mimomem.tree.writer import Writer

SNIPPET_CHARS = 300
"""A hit's snippet is cut to this many characters (the path is given to read the rest)."""

CLAUDE_CODE_HINT = "Claude Code memory is indexed only when the server runs as `mimomem mcp --claude-code`."


# -- search and recall -------------------------------------------------------------------------
SPELLING = {"scope": "scope={}", "type": "type={}", "all_projects": "all_projects=true"}
"""How this server's ``memory_search`` spells each filter, in the hints after an empty search."""


def search(
    state: MemoryState,
    where: Where,
    query: str,
    scope: str | None,
    type: str | None,
    limit: int,
    all_projects: bool,
) -> str:
    """The library's one memory search (:func:`mimomem.memory.search.search`), as ``mimomem search`` runs it."""
    from mimomem.memory.search import Filters, explain
    from mimomem.memory.search import search as search_memory

    filters = Filters(scope, type=type, all_projects=all_projects)
    results = search_memory(where, query, filters, limit=limit, index=state.index, store=state.curated())
    lines = [_hit(rank, hit) for rank, hit in enumerate(results, 1)]
    notes = [f"warning: {w}" for w in results.warnings]
    hints = explain(results, SPELLING)
    if not lines:
        if scope == "claude-code" and not state.options.claude_code:
            hints.insert(0, CLAUDE_CODE_HINT)
        return "\n".join([f"No matches for {query!r}.", *hints, *notes])
    where_text = "all projects" if all_projects else f"project {where.project_name}, its sessions and global"
    head = f"{len(lines)} match(es) for {query!r}, best first ({scope or 'memory files + curated'}; {where_text}):"
    return "\n".join([head, "", *lines, *hints, *notes]).rstrip("\n")


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SNIPPET_CHARS else flat[: SNIPPET_CHARS - 1] + "…"


def _hit(rank: int, hit: Found) -> str:
    return f"{rank}. {hit.label} · {hit.type}\n   {hit.path}\n   {_snippet(hit.snippet)}\n"


def recall(state: MemoryState, where: Where, query: str, limit: int) -> str:
    """``CuratedMemory.recall`` (hits counted, as ``mimomem recall``), each with why it matched."""
    results = state.curated().recall(query, limit=limit)
    if not results:
        return (
            f"No curated memory matched {query!r}. memory_inspect lists every id; "
            "memory_search also searches the memory files and notes."
        )
    out = []
    for r in results:
        out.append(f"## {r.id} ({r.memory.scope}): {r.memory.summary}\nwhy: {r.why()}")
        if r.memory.body.strip():
            out.append(r.memory.body.strip())
        out.append("")
    return "\n".join(out).rstrip("\n")


# -- curated writes ----------------------------------------------------------------------------
MODEL_AUTHOR = "model"
"""Who writes through this server: a model (``mimomem.curated.memory.AUTHORS``); its rules become proposals."""


def remember(
    state: MemoryState,
    where: Where,
    category: str,
    summary: str,
    body: str,
    load_when: Sequence[str],
    pinned: bool,
    supersedes: str | None,
) -> str:
    """One curated memory in the project root, written as a model (secrets and near-duplicates refused)."""
    from mimomem.memory import writes

    memory = writes.remember(
        _writer(state, where),
        category,
        summary,
        body,
        load_when=load_when,
        pinned=pinned,
        supersedes=supersedes,
        store=state.curated(),
    )
    text = f"remembered {memory.id} in {memory.path}"
    if memory.kind == "rule-proposal":
        text += " as a rule-proposal: a person must run `mimomem rules accept` before it becomes a hard rule"
    return text


def forget(state: MemoryState, where: Where, memory_id: str) -> str:
    """One curated memory removed; memories still linking to the removed one are named."""
    from mimomem.memory import writes

    result = writes.forget(_writer(state, where), memory_id, store=state.curated())
    lines = [f"forgot {result.id} ({result.scope})"]
    lines += [f"note: {other} still links to {result.id} (supersedes chain)" for other in result.dangling]
    return "\n".join(lines)


def inspect(state: MemoryState, where: Where) -> str:
    """``CuratedMemory.inspect``: every memory with status, id and summary, then the problems."""
    report = state.curated().inspect()
    lines = [f"{scope} root: {path}" for scope, path in report.roots.items()]
    lines += [f"{m.status:10} {m.scope:7} {m.id}  hits={m.hits}  {m.summary}" for m in report.memories]
    lines += [f"problem: {p}" for p in report.problems]
    lines.append(f"{len(report.memories)} memories, {len(report.problems)} problems")
    return "\n".join(lines)


# -- tree writes -------------------------------------------------------------------------------
def note(state: MemoryState, where: Where, text: str) -> str:
    """One entry appended to the session's ``notes.md``, exactly as ``mimomem note`` does."""
    from mimomem.memory import writes

    sid = _session(where)
    noted = writes.note(where, _writer(state, where), text)
    return f"noted as turn {noted.turn} in {noted.path} (session {sid})"


def write(state: MemoryState, where: Where, target: str, text: str, append: bool) -> str:
    """TARGET (``mimomem write``'s shortcuts) replaced or appended to, through the gate, as ``mimomem write`` does."""
    from mimomem.memory import writes

    written = writes.write(where, _writer(state, where), target, text, append=append)
    return f"{'appended to' if append else 'wrote'} {written.path} ({len(text)} characters)"


def _writer(state: MemoryState, where: Where) -> Writer:
    """This server's writer: its agent role, worded by the host's model (``delegated``), a model as author."""
    from mimomem.tree.agents import delegated

    agent = state.options.agent
    return where.writer(agent, delegated=delegated(agent, "mcp", {}), author=MODEL_AUTHOR)


def checkpoint(state: MemoryState, where: Where, text: str) -> str:
    """The checkpoint writer's one write (:func:`mimomem.passes.checkpoint.write_checkpoint`).

    ``memory_write`` refuses the checkpoint (the gate keeps it for the checkpoint writer); this
    tool writes a whole checkpoint that drops or empties no filled section, keeping an undo copy."""
    from mimomem.passes.checkpoint import write_checkpoint

    written, undo = write_checkpoint(where, _session(where), text, delegated=True)
    if written is None:
        return "the checkpoint already holds this text; nothing changed"
    return f"wrote the checkpoint {written}" + (f"; the previous one is kept as {undo}" if undo else "")


def context(state: MemoryState, where: Where, prompt: str | None, budget: int | None) -> str:
    """``session_context`` or ``prompt_context``: token counts per block (JSON), then the text itself."""
    from mimomem.context.assemble import PROMPT_BUDGET, SESSION_BUDGET, prompt_context, session_context

    if prompt is not None and prompt.strip():
        ctx = prompt_context(where, prompt, budget=budget or PROMPT_BUDGET)
    else:
        ctx = session_context(where, budget=budget or SESSION_BUDGET)
    info = ctx.as_dict()
    text = info.pop("text")
    for block in info["blocks"]:
        block.pop("text")
    head = json.dumps(info, ensure_ascii=False)
    return f"{head}\n\n{text}" if text else f"{head}\n\n(nothing would be injected now)"


def _session(where: Where) -> str:
    assert where.session_id is not None  # the server always has a session
    return where.session_id


def _usage(message: str) -> Exception:
    from mimomem.errors import UsageError

    return UsageError(message)
