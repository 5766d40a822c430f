"""Recorded benchmark results: what every figure in README.md and benchmarks/README.md comes from.

A benchmark run with ``--record`` writes ``benchmarks/results/<name>.json``: the raw samples of
every run (never only a best run), the command, the commit, the machine and the date.
``benchmarks/figures.py render`` turns them into the marked figures of the two READMEs, and
``tests/test_figures.py`` fails when the text and the recorded results disagree.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def commit() -> str:
    """The commit measured, with ``-dirty`` when tracked files under mimomem/ or _native/ differ from it."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
        return done.stdout.strip()

    head = git("rev-parse", "--short=12", "HEAD") or "unknown"
    return head + ("-dirty" if git("status", "--porcelain", "--", "mimomem", "_native") else "")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """What the figures depend on: CPU, cores, load, Python, SQLite, which twin ran."""
    import mimomem

    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "load_1min": round(load[0], 2),
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "native": mimomem.native_available(),
    }


def save(name: str, command: Sequence[str], data: dict[str, Any], folder: Path = RESULTS) -> Path:
    """Write ``folder/<name>.json`` with the metadata every figure needs; returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "name": name,
        "command": " ".join(["python", *command]),
        "commit": commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine(),
        **data,
    }
    path = folder / f"{name}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, ensure_ascii=False, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    print(f"recorded {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", file=sys.stderr)
    return path


def load(name: str, folder: Path = RESULTS) -> dict[str, Any]:
    """The recorded results ``folder/<name>.json``, or a results file elsewhere in the repository
    when ``name`` is a path (``docs/bench/e2e-before.json``, written by ``mimomem bench --e2e``)."""
    path = ROOT / name if "/" in name else folder / f"{name}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def median(samples: Sequence[float]) -> float:
    return float(statistics.median(samples))


def spread(samples: Sequence[float]) -> tuple[float, float]:
    """The lowest and highest of the runs: what a reader can expect between two runs."""
    return float(min(samples)), float(max(samples))
