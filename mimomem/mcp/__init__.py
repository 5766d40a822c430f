"""``mimomem mcp``: mimomem's memory as MCP tools, resources and prompts, for any agent harness.

A stdio server built on the official SDK (the ``mcp`` extra).  ``state`` resolves the project
and session and holds the warm search index and curated store; ``tools`` exposes the library
operations as ``memory_*`` tools; ``resources`` the memory files; ``prompts`` the
checkpoint, dream and distill instructions with their evidence; ``server`` assembles them.
The server adds no memory logic of its own: every tool calls what the CLI calls.
"""
