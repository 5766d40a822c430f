"""The memory files as readable resources with stable URIs.

``memory://global`` and ``memory://project`` are the two ``MEMORY.md`` layers;
``memory://session/checkpoint`` and ``memory://session/notes`` belong to the connection's
current session; ``memory://curated/root`` is the project's compiled curated outline
(``.memory/ROOT.md``).  A file that does not exist yet reads as one line saying so and where
it will be.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from mcp.server.mcpserver.resources import FunctionResource

from mimomem.context.rebuild import read_memory_file
from mimomem.mcp.state import MemoryState
from mimomem.tree.where import Where

MARKDOWN = "text/markdown"

RESOURCES: dict[str, tuple[str, str]] = {
    "memory://global": ("global-memory", "The user's global MEMORY.md, shared by every project."),
    "memory://project": ("project-memory", "This project's MEMORY.md: context, rules, decisions, durable facts."),
    "memory://session/checkpoint": ("session-checkpoint", "The current session's checkpoint (sections §1-§11)."),
    "memory://session/notes": ("session-notes", "The current session's notes inbox."),
    "memory://curated/root": ("curated-root", "The project's curated-memory outline (.memory/ROOT.md), if any."),
}
"""URI -> (name, description)."""


def resource_path(uri: str, where: Where) -> Path | None:
    """The file behind ``uri`` for this project and session (None: no such file can exist here)."""
    tree = where.tree
    sid = where.session_id
    if uri == "memory://global":
        return tree.global_memory()
    if uri == "memory://project":
        return tree.project_memory(where.project_id)
    if uri == "memory://session/checkpoint" and sid is not None:
        return tree.checkpoint(sid)
    if uri == "memory://session/notes" and sid is not None:
        return tree.notes(sid)
    if uri == "memory://curated/root" and where.worktree is not None:
        return where.worktree / ".memory" / "ROOT.md"
    return None


def read_resource(state: MemoryState, where: Where, uri: str) -> str:
    """The file's text, or one line saying that it does not exist yet (and where it would be)."""
    path = resource_path(uri, where)
    if path is None:
        return f"(nothing here: {uri} needs a git repository around the project directory)\n"
    text = read_memory_file(path)
    return text if text else f"(empty: {path} does not exist yet or has no text)\n"


def _reader(state: MemoryState, uri: str) -> Callable[[], Awaitable[str]]:
    async def read() -> str:
        return await state.run(read_resource, uri)

    read.__name__ = RESOURCES[uri][0].replace("-", "_")
    return read


def build_resources(state: MemoryState) -> list[FunctionResource]:
    """One resource per entry of ``RESOURCES``, read through ``state`` (one call at a time)."""
    return [
        FunctionResource.from_function(
            fn=_reader(state, uri), uri=uri, name=name, description=description, mime_type=MARKDOWN
        )
        for uri, (name, description) in RESOURCES.items()
    ]
