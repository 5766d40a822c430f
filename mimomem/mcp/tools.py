"""The ``memory_*`` tools: typed input schemas, descriptions that teach when to use each, and their calls.

Arguments are validated by the SDK against a strict model (unknown arguments are refused, not
ignored); string sizes are bounded so a runaway argument is refused before any work.  Each
tool hands its arguments to :mod:`mimomem.mcp.operations` through :meth:`MemoryState.run`.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import ToolAnnotations
from pydantic import ConfigDict, Field

from mimomem.curated.memory import DEFAULT_CATEGORIES
from mimomem.mcp import operations as ops
from mimomem.mcp.state import MemoryState
from mimomem.search.params import SEARCH_TYPES
from mimomem.served.estimate import estimate_tokens
from mimomem.tree.vocabulary import SCOPES

MAX_QUERY = 1000
MAX_SUMMARY = 300
MAX_BODY = 20_000
MAX_NOTE = 20_000
MAX_WRITE = 64_000
"""Characters of a whole-file write: above the largest file budget (checkpoint, ~15,000 tokens)."""
MAX_ID = 200
MAX_SEARCH_LIMIT = 50

if TYPE_CHECKING:  # a type checker sees strings; the schema's enums are the library's value sets, below
    Scope = str
    MemoryType = str
    Category = str
else:
    Scope = Literal[SCOPES]
    MemoryType = Literal[SEARCH_TYPES]  # the type filter of mimomem search --type and Filters.type
    Category = Literal[DEFAULT_CATEGORIES]

QueryArg = Annotated[
    str,
    Field(min_length=1, max_length=MAX_QUERY, description="1-3 distinctive words (ids, names, flags); any language"),
]
ScopeArg = Annotated[Scope | None, Field(description="only this layer (this project's, unless all_projects)")]
TypeArg = Annotated[MemoryType | None, Field(description="only this memory type or curated category")]
LimitArg = Annotated[int, Field(ge=1, le=MAX_SEARCH_LIMIT, description="most hits to return")]
AllArg = Annotated[bool, Field(strict=True, description="include other projects' memory")]
RecallLimitArg = Annotated[int, Field(ge=1, le=20, description="most memories to return")]
CategoryArg = Annotated[Category, Field(description="kind of lesson; rules become proposals for the user")]
SummaryArg = Annotated[str, Field(min_length=1, max_length=MAX_SUMMARY, description="one line, self-contained")]
BodyArg = Annotated[str, Field(max_length=MAX_BODY, description="Markdown details: why, how, examples")]
WhenArg = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=200)]],
    Field(max_length=10, description="scenarios that should load this memory, e.g. 'deploy to production'"),
]
PinnedArg = Annotated[bool, Field(strict=True, description="never fades with age")]
SupersedesArg = Annotated[str | None, Field(max_length=MAX_ID, description="id of the memory this one replaces")]
IdArg = Annotated[str, Field(min_length=1, max_length=MAX_ID, description="<category>/<slug>, from recall or inspect")]
NoteArg = Annotated[str, Field(min_length=1, max_length=MAX_NOTE, description="the note; quote the user verbatim")]
TargetArg = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4096,
        description="project (MEMORY.md), notes, progress:<TID>, or a path",
    ),
]
TextArg = Annotated[str, Field(min_length=1, max_length=MAX_WRITE, description="the new content (Markdown)")]
AppendArg = Annotated[bool, Field(strict=True, description="append instead of replacing the file")]
PromptArg = Annotated[str | None, Field(max_length=MAX_NOTE, description="a user prompt: its per-turn context instead")]
BudgetArg = Annotated[int | None, Field(ge=100, le=50_000, description="token budget (default 4000, prompt 1200)")]

DESCRIPTIONS = {
    "memory_search": (
        "Search this project's memory (memory files, session notes, checkpoints, curated memories, global memory). "
        "Use before asking the user or re-deriving anything that may have been recorded: decisions, rules, past "
        "errors, where things are. Terms are OR-joined; a hit is authoritative, zero hits is not proof of absence."
    ),
    "memory_recall": (
        "Recall curated memories (rules, preferences, decisions, pitfalls, facts) best matching a topic, each with "
        "why it matched. Use before starting a task to get the stored guidance for it."
    ),
    "memory_remember": (
        "Store one durable lesson for this project: a user preference, a decision and its reason, a pitfall, a fact "
        "that will still hold next month. One idea per memory. Secrets and near-duplicates are refused (pass "
        "supersedes to replace an old memory); a 'rules' entry becomes a proposal the user must accept."
    ),
    "memory_forget": "Delete a curated memory that is wrong or obsolete (prefer memory_remember with supersedes).",
    "memory_inspect": "List every curated memory with its id, status and hit count, and any problems in the store.",
    "memory_note": (
        "Append a note to this session's scratchpad: a user quote, an open question, a finding for later. Cheap; "
        "use freely. The checkpoint sorts notes into lasting memory."
    ),
    "memory_write": (
        "Replace (or append to) a memory file through the write gate. Read it first (resources memory://...) and "
        "keep its headings. A refusal names the files you may write."
    ),
    "memory_checkpoint": (
        "Replace this session's checkpoint.md as the checkpoint writer (after the prompt `checkpoint`): the whole "
        "file with its ## §N headings; refused if it drops or empties a section that had content."
    ),
    "memory_context": (
        "Show the memory context mimomem injects now (at session start, or for a prompt), with token counts per block."
    ),
}

READ_ONLY = ToolAnnotations(read_only_hint=True)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True)


def _meta(ctx: Context) -> dict[str, Any] | None:
    meta = ctx.request_context.meta
    return dict(meta) if meta else None


def _functions(state: MemoryState) -> list[tuple[Callable[..., Any], ToolAnnotations]]:
    """The tool functions, bound to ``state`` (names and docstrings come from ``DESCRIPTIONS``)."""

    async def memory_search(
        ctx: Context,
        query: QueryArg,
        scope: ScopeArg = None,
        type: TypeArg = None,
        limit: LimitArg = 8,
        all_projects: AllArg = False,
    ) -> str:
        return await state.run(ops.search, query, scope, type, limit, all_projects, meta=_meta(ctx))

    async def memory_recall(ctx: Context, query: QueryArg, limit: RecallLimitArg = 4) -> str:
        return await state.run(ops.recall, query, limit, meta=_meta(ctx))

    async def memory_remember(
        ctx: Context,
        category: CategoryArg,
        summary: SummaryArg,
        body: BodyArg = "",
        load_when: WhenArg | None = None,
        pinned: PinnedArg = False,
        supersedes: SupersedesArg = None,
    ) -> str:
        return await state.run(
            ops.remember, category, summary, body, load_when or [], pinned, supersedes, meta=_meta(ctx)
        )

    async def memory_forget(ctx: Context, id: IdArg) -> str:
        return await state.run(ops.forget, id, meta=_meta(ctx))

    async def memory_inspect(ctx: Context) -> str:
        return await state.run(ops.inspect, meta=_meta(ctx))

    async def memory_note(ctx: Context, text: NoteArg) -> str:
        return await state.run(ops.note, text, meta=_meta(ctx))

    async def memory_write(ctx: Context, target: TargetArg, text: TextArg, append: AppendArg = False) -> str:
        return await state.run(ops.write, target, text, append, meta=_meta(ctx))

    async def memory_checkpoint(ctx: Context, text: TextArg) -> str:
        return await state.run(ops.checkpoint, text, meta=_meta(ctx))

    async def memory_context(ctx: Context, prompt: PromptArg = None, budget: BudgetArg = None) -> str:
        return await state.run(ops.context, prompt, budget, meta=_meta(ctx))

    return [
        (memory_search, READ_ONLY),
        (memory_recall, READ_ONLY),
        (memory_remember, ADDITIVE),
        (memory_forget, DESTRUCTIVE),
        (memory_inspect, READ_ONLY),
        (memory_note, ADDITIVE),
        (memory_write, DESTRUCTIVE),
        (memory_checkpoint, DESTRUCTIVE),
        (memory_context, READ_ONLY),
    ]


def build_tools(state: MemoryState) -> list[Tool]:
    """The nine ``memory_*`` tools, with strict argument models (unknown arguments are errors)."""
    tools = []
    for fn, hints in _functions(state):
        tool = Tool.from_function(
            fn,
            name=fn.__name__,
            description=DESCRIPTIONS[fn.__name__],
            annotations=hints,
            structured_output=False,
        )
        _forbid_extra(tool)
        tools.append(tool)
    return tools


def _forbid_extra(tool: Tool) -> None:
    """Make the tool's argument model refuse unknown arguments (the SDK's default ignores them)."""
    base = tool.fn_metadata.arg_model
    config = ConfigDict(**{**base.model_config, "extra": "forbid"})
    namespace = {"model_config": config, "__module__": base.__module__}
    strict = cast(
        "type[ArgModelBase]", types.new_class(base.__name__, (base,), exec_body=lambda ns: ns.update(namespace))
    )
    tool.fn_metadata.arg_model = strict
    tool.parameters = compact_schema(strict.model_json_schema(by_alias=True))


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The advertised schema without what costs tokens and teaches nothing: titles, and ``null`` alternatives.

    An optional argument (``X | None = None``) is advertised as plain ``X``, not required; the
    server still accepts an explicit ``null``.  Validation always uses the full model.
    """
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        prop = {k: v for k, v in prop.items() if k != "title"}
        alternatives = prop.get("anyOf")
        if isinstance(alternatives, list) and prop.get("default", 0) is None:
            kept = [alt for alt in alternatives if alt != {"type": "null"}]
            if len(kept) == 1:
                prop = {**kept[0], **{k: v for k, v in prop.items() if k not in ("anyOf", "default")}}
        if isinstance(prop.get("items"), dict):
            prop["items"] = {k: v for k, v in prop["items"].items() if k != "title"}
        properties[name] = prop
    out = {k: v for k, v in schema.items() if k != "title"}
    out["properties"] = properties
    return out


def tool_list_json(tools: list[Tool]) -> list[dict[str, Any]]:
    """The tools as ``tools/list`` sends them (name, description, input schema, annotations)."""
    out = []
    for tool in tools:
        entry: dict[str, Any] = {"name": tool.name, "description": tool.description, "inputSchema": tool.parameters}
        if tool.annotations is not None:
            entry["annotations"] = tool.annotations.model_dump(by_alias=True, exclude_none=True)
        out.append(entry)
    return out


def token_costs(tools: list[Tool]) -> dict[str, int]:
    """Estimated tokens of each tool's ``tools/list`` entry, and ``total`` for the whole list."""
    listed = tool_list_json(tools)
    costs = {entry["name"]: estimate_tokens(json.dumps(entry, ensure_ascii=False)) for entry in listed}
    costs["total"] = estimate_tokens(json.dumps(listed, ensure_ascii=False))
    return costs
