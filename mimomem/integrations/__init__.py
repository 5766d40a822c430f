"""In-process integrations: mimomem inside a harness's own Python process, no hook command, no server process.

``claude_agent_sdk``: :func:`~mimomem.integrations.claude_agent_sdk.memory_options` gives a
Claude Agent SDK harness the hooks' context, digest and promotion as in-process callbacks and
the MCP tools as an in-process server (the ``host`` extra).
"""
