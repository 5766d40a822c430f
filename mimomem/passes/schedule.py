"""When the consolidation passes run by themselves: per project, opt-in, never while writing is off.

MiMo-Code schedules dream (7 days) and distill (30 days) globally: the last run of *any*
project decides.  Here each project keeps its own last-run time in
``<data>/state/passes/<project id>.json``, and a pass is due when

- it is switched on (``MIMOMEM_AUTO_DREAM=1`` / ``MIMOMEM_AUTO_DISTILL=1``; off by default),
- memory writing is on,
- the project was first seen at least one interval ago (a new project has nothing to
  consolidate), and
- its last run is at least one interval old (``MIMOMEM_DREAM_INTERVAL_DAYS``,
  ``MIMOMEM_DISTILL_INTERVAL_DAYS``; defaults 7 and 30).

The Claude Code ``SessionEnd`` hook calls :func:`start_due_passes`, which records the run
*before* starting it (two sessions ending together start it once) and runs it in a detached
background process that runs ``python -m mimomem history import --claude-code``, then
``python -m mimomem <pass> --no-model`` (processes: the library never imports the CLI).  Their
output goes to ``<data>/state/passes/<project id>.<pass>.log``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from mimomem.common.detach import spawn_detached
from mimomem.tree.where import STATE, Where

PASSES = ("dream", "distill")
DEFAULT_INTERVAL_DAYS = {"dream": 7.0, "distill": 30.0}
DAY = 86_400.0


def _switch(kind: str) -> str:
    return f"MIMOMEM_AUTO_{kind.upper()}"


def interval_days(kind: str, env: Mapping[str, str]) -> float:
    """The pass's interval in days (its environment variable, else the default)."""
    raw = env.get(f"MIMOMEM_{kind.upper()}_INTERVAL_DAYS", "")
    try:
        value = float(raw) if raw else DEFAULT_INTERVAL_DAYS[kind]
    except ValueError:
        value = DEFAULT_INTERVAL_DAYS[kind]
    return max(0.0, value)


def _state_file(where: Where) -> Path:
    return where.tree.data_dir / STATE / "passes" / f"{where.project_id}.json"


def last_runs(where: Where) -> dict[str, float]:
    """Pass name -> when it last started for this project (seconds since the epoch)."""
    try:
        data = json.loads(_state_file(where).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return (
        {k: float(v) for k, v in data.items() if k in PASSES and isinstance(v, (int, float))}
        if isinstance(data, dict)
        else {}
    )


def record_run(where: Where, kind: str, when: float) -> None:
    """Remember that ``kind`` started for this project at ``when``."""
    from mimomem.common.files import atomic_write

    runs = last_runs(where)
    runs[kind] = when
    path = _state_file(where)
    from mimomem.common.private import private_dir

    private_dir(path.parent)
    atomic_write(path, json.dumps(runs, sort_keys=True))


def first_seen(where: Where) -> float | None:
    """When mimomem first saw this project (the mtime of its ``state/projects`` record)."""
    try:
        return (where.tree.data_dir / STATE / "projects" / where.project_id).stat().st_mtime
    except OSError:
        return None


def due(where: Where, kind: str, *, now: float, env: Mapping[str, str]) -> bool:
    """True when ``kind`` should start now for this project (see the module docstring)."""
    if env.get(_switch(kind), "") not in ("1", "true", "yes", "on") or not where.tree.write_enabled:
        return False
    if where.worktree is None:  # no project outside git: nothing to consolidate per project
        return False
    interval = interval_days(kind, env) * DAY
    born = first_seen(where)
    if born is None or now - born < interval:
        return False
    last = last_runs(where).get(kind)
    return last is None or now - last >= interval


def start_due_passes(where: Where, *, env: Mapping[str, str] | None = None, now: float | None = None) -> list[str]:
    """Start every due pass in the background; returns the names started."""
    env = os.environ if env is None else env
    now = time.time() if now is None else now
    started = []
    for kind in PASSES:
        if due(where, kind, now=now, env=env):
            record_run(where, kind, now)
            _spawn(where, kind)
            started.append(kind)
    return started


def _spawn(where: Where, kind: str) -> None:
    # the log is 0600: the pass's report quotes the user's history (secrets redacted, the rest is private)
    log = _state_file(where).with_name(f"{where.project_id}.{kind}.log")
    spawn_detached([sys.executable, "-m", "mimomem.passes.schedule", kind, str(where.worktree)], log)


def _command(*args: str) -> list[str]:
    """``python -m mimomem ARGS``: the pass runs the CLI as a process; the library never imports it."""
    return [sys.executable, "-m", "mimomem", *args]


def run(kind: str, project: str, argv_extra: Sequence[str] = ()) -> int:
    """What the background job does: import Claude Code history, then the deterministic pass.

    Each step is its own ``python -m mimomem`` process writing to this job's output (the log);
    the pass runs whether or not the import succeeded, and its exit status is the job's.
    """
    print(f"--- {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} automatic {kind} for {project}", flush=True)
    subprocess.run(_command("history", "import", "--claude-code"), stdin=subprocess.DEVNULL, check=False)
    done = subprocess.run(
        _command(kind, "--project", project, "--no-model", *argv_extra), stdin=subprocess.DEVNULL, check=False
    )
    return done.returncode


if __name__ == "__main__":  # pragma: no cover - run by _spawn in a detached process
    sys.exit(run(sys.argv[1], sys.argv[2]))
