"""The shell command a harness runs for mimomem's hooks, and where a project's settings belong.

Claude Code runs a hook's ``command`` with ``sh -c`` in an environment whose ``PATH`` need not
hold this installation (a virtual environment that is not activated), so the command names
this installation by absolute path (:func:`mimomem.common.launcher.launcher`).  ``check_runs``
runs the command once, with a minimal ``PATH`` and a payload no hook acts on, before anything
is written.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from mimomem.common.launcher import launcher
from mimomem.errors import HookCommandError

HOOK_ARGS = ("hook", "claude-code")
CHECK_PAYLOAD = '{"hook_event_name": "mimomem-install-check"}'
"""An event no hook handles: the hook reads it, prints nothing and exits 0, touching nothing."""

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def hook_command() -> str:
    """``<launcher> hook claude-code``, quoted for ``sh``."""
    return shlex.join([*launcher(), *HOOK_ARGS])


def is_mimomem_hook(command: object) -> bool:
    """True for a command that runs some installation's ``mimomem hook claude-code``.

    Recognised: ``mimomem ...`` or ``/any/path/mimomem ...``, ``python [flags] -m mimomem ...``,
    each possibly after ``VAR=value`` assignments (the plugin's commands).
    """
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if tuple(words[-2:]) != HOOK_ARGS:
        return False
    head = words[:-2]
    while head and _ASSIGNMENT.match(head[0]):
        head = head[1:]
    if len(head) == 1:
        return os.path.basename(head[0]) in ("mimomem", "mimomem.exe")
    return len(head) >= 3 and head[-2:] == ["-m", "mimomem"]


def check_runs(command: str, *, timeout: float = 60.0) -> None:
    """Run ``command`` as Claude Code would (``sh -c``, minimal ``PATH``); a ``HookCommandError`` if it fails."""
    shell = shutil.which("sh") or "/bin/sh"
    env = {**os.environ, "PATH": os.defpath}
    try:
        done = subprocess.run(
            [shell, "-c", command], input=CHECK_PAYLOAD, capture_output=True, text=True, env=env, timeout=timeout
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise HookCommandError(f"the hook command {command} could not be run ({exc}); nothing was written") from None
    if done.returncode != 0 or done.stdout.strip():
        said = " ".join((done.stderr or done.stdout).split())[-300:]
        raise HookCommandError(
            f"the hook command {command} exited {done.returncode} ({said or 'no output'}); nothing was written. "
            "Reinstall mimomem in this environment, or run install with the mimomem you want the hooks to use"
        )


def project_root(start: str | os.PathLike[str]) -> tuple[Path, bool]:
    """The top of the git repository around ``start`` and True; outside git, ``start`` and False."""
    from mimomem.tree.project import find_git

    found = find_git(start)
    if found is None:
        return Path(os.path.abspath(start)), False
    return found[0], True
