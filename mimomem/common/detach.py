"""Start a worker that outlives its caller, with nothing left for the caller to wait on.

Hooks must return at once, yet the work they hand off (promotion, consolidation passes) must
go on after they exit.  A plain ``subprocess.Popen`` left running makes its finalizer warn
("subprocess N is still running") and leaves a child that a long-lived caller (a test run, an
MCP server) never reaps.  ``spawn_detached`` starts the worker through ``/bin/sh -c '"$@" &'``
in a new session: the shell forks the worker into the background and exits at once, the caller
waits for the shell only (a few milliseconds), and the worker is re-parented to init.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from mimomem.common.nofollow import open_nofollow
from mimomem.common.private import private_dir


def spawn_detached(argv: Sequence[str], log: Path) -> None:
    """Run ``argv`` in the background, stdout and stderr appended to ``log`` (created 0600)."""
    private_dir(log.parent)
    fd = open_nofollow(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.fchmod(fd, 0o600)  # the log quotes the user's history: private even if it existed
        shell = subprocess.Popen(
            ["/bin/sh", "-c", '"$@" &', "mimomem-detach", *argv],
            stdin=subprocess.DEVNULL,
            stdout=fd,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # no terminal, no signal from the caller's process group
            close_fds=True,
        )
        shell.wait()
    finally:
        os.close(fd)
