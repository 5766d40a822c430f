"""Agent-harness adapters: Claude Code hooks (in, out and install).

Each adapter is a thin layer over ``mimomem.context`` and the memory floor (``mimomem.memory``).
"""
