"""How this installation of mimomem is run without relying on ``PATH``: the words of the hook
command, and the command the injected instructions tell the agent to type.

A harness runs a hook's command, and its agent runs shell commands, in environments whose
``PATH`` need not hold this installation (a virtual environment that is not activated: Claude
Code's Bash has ``mimomem: command not found`` there).  So both name it by absolute path: the
``mimomem`` entry point that is running, else this interpreter with ``-m mimomem``.  The
plugin's runner (``bin/mimomem``, which also keeps the caches in the plugin's data directory)
names itself in :data:`LAUNCHER_VARIABLE`, so an agent under the plugin runs mimomem the way
the plugin's hooks do.

Lean (``os`` and ``sys`` only): the hook's served paths render the agent's command.
"""

from __future__ import annotations

import os
import sys

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

LAUNCHER_VARIABLE = "MIMOMEM_LAUNCHER"
"""The absolute path of a script that runs this installation (the plugin's runner sets it to itself)."""

_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./-_")


def launcher() -> list[str]:
    """The words that run this installation's ``mimomem``, without relying on ``PATH``."""
    script = sys.argv[0] if sys.argv else ""
    if os.path.basename(script) in ("mimomem", "mimomem.exe") and os.path.isfile(script):
        return [os.path.abspath(script)]
    python = os.path.abspath(sys.executable)  # not resolved: a venv's python is a symlink that must stay one
    flags = ["-P"] if sys.version_info >= (3, 11) else []  # -P: a mimomem/ in the cwd cannot shadow this one
    return [python, *flags, "-m", "mimomem"]


def sh_quote(word: str) -> str:
    """``word`` as one ``sh`` word (as :func:`shlex.quote`, without importing it)."""
    if word and all(ch in _SAFE for ch in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def sh_join(words: list[str]) -> str:
    """``words`` as one ``sh`` command line."""
    return " ".join(sh_quote(w) for w in words)


_known: dict[tuple[str, str], str] = {}


def agent_command(env: Mapping[str, str] | None = None) -> str:
    """The command, quoted for ``sh``, an agent's shell runs this installation's mimomem with:
    :data:`LAUNCHER_VARIABLE` when it names an existing file by absolute path (``sh <it>`` when it
    is not executable), else :func:`launcher`'s words (the ``mimomem`` entry point beside this
    interpreter rather than ``python -P -m mimomem``, when there is one).  Worked out once per process."""
    env = os.environ if env is None else env
    named = env.get(LAUNCHER_VARIABLE) or ""
    key = (named, sys.argv[0] if sys.argv else "")
    if key not in _known:
        beside = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "mimomem")  # the env's entry point
        if os.path.isabs(named) and os.path.isfile(named):
            _known[key] = sh_quote(named) if os.access(named, os.X_OK) else f"sh {sh_quote(named)}"
        elif len(words := launcher()) > 1 and os.path.isfile(beside) and os.access(beside, os.X_OK):
            _known[key] = sh_quote(beside)  # shorter than `python -P -m mimomem`, the same installation
        else:
            _known[key] = sh_join(words)
    return _known[key]


def agent_run(subcommand: str) -> str:
    """``<agent_command()> <subcommand>``: a mimomem command as the agent's shell can run it."""
    return f"{agent_command()} {subcommand}"
