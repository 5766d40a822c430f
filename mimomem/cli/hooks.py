"""``mimomem hook claude-code``: one agent-harness hook event in on stdin, the hook's JSON out."""

from __future__ import annotations

import argparse
import sys


def cmd_hook_claude_code(args: argparse.Namespace) -> int:
    """Handle one Claude Code hook call; always exit 0 (a hook must never block the agent)."""
    from mimomem.hooks import claude_code

    return claude_code.run(sys.stdin, sys.stdout, sys.stderr)
