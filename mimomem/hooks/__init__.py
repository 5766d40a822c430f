"""Agent-harness adapters: Claude Code hooks (in, out and install) and transcript digests.

Each adapter is a thin layer over ``mimomem.context`` and the tree's write gate.
"""
