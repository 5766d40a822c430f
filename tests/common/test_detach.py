"""spawn_detached: the worker runs after the caller returns, logs to a 0600 file, and no child is left to warn."""

from __future__ import annotations

import gc
import os
import sys
import time
import warnings
from pathlib import Path

from mimomem.common.detach import spawn_detached


def _wait_for(path: Path, timeout: float = 30.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and path.read_text(encoding="utf-8").endswith("\n"):
            return path.read_text(encoding="utf-8")
        time.sleep(0.05)
    raise AssertionError(f"{path} never written")


def test_worker_runs_detached_and_logs_privately(tmp_path: Path) -> None:
    done = tmp_path / "done.txt"
    log = tmp_path / "logs" / "worker.log"
    script = f"import os,sys; print('hello from the worker'); open({str(done)!r}, 'w').write(f'{{os.getsid(0)}}\\n')"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a Popen left running warns when collected
        spawn_detached([sys.executable, "-c", script], log)
        gc.collect()
    assert int(_wait_for(done)) != os.getsid(0)  # another session: no signal from the caller's group
    end = time.monotonic() + 30
    while "hello" not in log.read_text(encoding="utf-8") and time.monotonic() < end:
        time.sleep(0.05)
    assert "hello from the worker" in log.read_text(encoding="utf-8")
    assert log.stat().st_mode & 0o777 == 0o600


def test_existing_log_is_made_private(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    log.write_text("old\n", encoding="utf-8")
    log.chmod(0o644)
    spawn_detached([sys.executable, "-c", "pass"], log)
    assert log.stat().st_mode & 0o777 == 0o600
    assert log.read_text(encoding="utf-8").startswith("old\n")  # appended, never truncated
