"""The value sets of the memory tree, each spelled once: its folders, the scope names callers use, the types.

The tree keeps MiMo-Code's folder names on disk (``global/``, ``projects/``, ``sessions/``;
Claude Code memory is ``cc``, as in MiMo-Code's ``memory_fts`` table), while every caller -
the search filters, hits, the CLI and the MCP server - names a scope in the singular
(``project``, ``session``, ``claude-code``).  ``SCOPE_DIRS`` is the one translation.
This module imports nothing, so the search path can use it without loading YAML.
"""

from __future__ import annotations

LAYER_DIRS: tuple[str, ...] = ("global", "projects", "sessions")
"""The top-level folders of the memory tree (the layers a memory path starts with)."""

CC_DIR = "cc"
"""What the search cache stores as the scope of a Claude Code memory file (it lives outside the tree)."""

SCOPES: tuple[str, ...] = ("global", "project", "session", "claude-code", "host")
"""The scope names callers use: search filters, ``Found.scope``, ``--scope``, the MCP tools.  ``host``: the
hosts' own memory files of this project, read where they are (``mimomem.search.host_hits``), never indexed."""

SCOPE_DIRS: dict[str, str] = {
    "global": "global",
    "project": "projects",
    "session": "sessions",
    "claude-code": CC_DIR,
    "host": "host",
}
"""Scope name -> the folder (or stored value) that holds it."""

TREE_TYPES: tuple[str, ...] = ("memory", "checkpoint", "progress", "notes", "free")
"""The types of the tree's own files (``mimomem.tree.layout.infer_type``)."""

CC_TYPES: tuple[str, ...] = ("feedback", "project", "reference", "user")
"""The types a Claude Code memory file declares in its frontmatter."""

TYPES: tuple[str, ...] = TREE_TYPES + CC_TYPES
"""Every type a file the index holds can have: the index's type filter (``MemoryIndex.search``).
The memory search's filter also takes a curated category (``mimomem.search.params.SEARCH_TYPES``)."""

DEFAULT_CATEGORIES: tuple[str, ...] = ("rules", "preferences", "decisions", "pitfalls", "facts")
"""The curated store's categories (a curated root's folders, ``mimomem.curated``), and so the types of its memories."""

__all__ = ["CC_DIR", "CC_TYPES", "DEFAULT_CATEGORIES", "LAYER_DIRS", "SCOPES", "SCOPE_DIRS", "TREE_TYPES", "TYPES"]
