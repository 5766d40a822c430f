"""The two ways a test calls the Claude Code hook: read from memory, or served from a plan."""

from __future__ import annotations


def hook_reading_memory(raw: bytes) -> str:
    """The hook's answer read from the memory files (``hooks.claude_code``, which saves a plan)."""
    import io

    from mimomem.hooks import claude_code

    out = io.StringIO()
    claude_code.run(io.TextIOWrapper(io.BytesIO(raw)), out, io.StringIO())
    return out.getvalue()


def hook_served(raw: bytes) -> str | None:
    """The hook's answer served from a current plan (``hooks.entry.served``), ``None`` when none is."""
    import os

    from mimomem.hooks import entry

    return entry.served(raw, os.environ)
