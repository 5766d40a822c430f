"""Where the real Claude Code CLI is, and why it cannot run when it cannot.

The CLI ships inside the PyPI wheel ``claude-agent-sdk`` (the ``host`` extra pins the version):
``claude_agent_sdk/_bundled/claude``.  ``MIMOMEM_CLAUDE_BIN`` names another binary instead.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from mimomem.errors import HostUnavailableError

BIN_ENV = "MIMOMEM_CLAUDE_BIN"
PINNED = "2.1.337"
"""The CLI version the ``host`` extra's ``claude-agent-sdk`` bundles, and the one §0 of the
integration notes describes; another version runs, and ``Host.version`` says which."""

INSTALL_HINT = "pip install 'mimomem[host]' (the claude-agent-sdk wheel bundles the CLI)"


@dataclass(frozen=True)
class Host:
    """A runnable Claude Code CLI: its path and the version it reports."""

    path: Path
    version: str


def bundled_path() -> Path:
    """``claude_agent_sdk/_bundled/claude`` of the installed ``claude-agent-sdk``, without importing it."""
    spec = importlib.util.find_spec("claude_agent_sdk")
    if spec is None or not spec.submodule_search_locations:
        raise HostUnavailableError(f"the claude-agent-sdk package is not installed; {INSTALL_HINT}")
    return Path(next(iter(spec.submodule_search_locations))) / "_bundled" / "claude"


@functools.lru_cache(maxsize=4)
def _probe(path: str) -> str:
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60, check=False)
    except OSError as exc:
        raise HostUnavailableError(f"{path} cannot be started ({exc.strerror or exc}); {INSTALL_HINT}") from None
    except subprocess.TimeoutExpired:
        raise HostUnavailableError(f"{path} --version did not answer within 60 s") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise HostUnavailableError(f"{path} --version exited {done.returncode}: {tail[0]}")
    return done.stdout.strip().split(" ", 1)[0]


def find_host() -> Host:
    """The CLI to drive: ``$MIMOMEM_CLAUDE_BIN``, else the bundled one; raises with the reason it cannot run."""
    named = os.environ.get(BIN_ENV)
    path = Path(named) if named else bundled_path()
    if not path.is_file():
        where = f"${BIN_ENV}" if named else "the claude-agent-sdk wheel"
        raise HostUnavailableError(f"no Claude Code binary at {path} (from {where}); {INSTALL_HINT}")
    if not os.access(path, os.X_OK):
        raise HostUnavailableError(f"{path} is not executable; chmod +x it or reinstall claude-agent-sdk")
    return Host(path, _probe(str(path)))


def unavailable_reason() -> str | None:
    """Why the real host cannot run here, or ``None`` when it can."""
    try:
        find_host()
    except HostUnavailableError as exc:
        return str(exc)
    return None
