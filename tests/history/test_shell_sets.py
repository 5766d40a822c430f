"""The labelled command set tests/data/shell/dev.jsonl: every command that fetches content and runs
it is refused however it is spelled, as a tool call, typed in a sentence or spread over several
calls, and no safe look-alike is.  (tests/data/shell/heldout.jsonl, written at the same time, is
never tuned on: benchmarks/bench_unsafe_commands.py reports it.)"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest


def _bench() -> Any:
    """benchmarks/bench_unsafe_commands.py: the test asks its ``refused``, so the test and the benchmark judge alike."""
    path = Path(__file__).parents[2] / "benchmarks" / "bench_unsafe_commands.py"
    spec = importlib.util.spec_from_file_location("bench_unsafe_commands", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
CASES: list[dict[str, Any]] = BENCH.load(BENCH.DATA / "dev.jsonl")
refused = BENCH.refused


def _id(case: dict[str, Any]) -> str:
    return str(case.get("text") or " ;; ".join(case["calls"]))[:70]


@pytest.mark.parametrize("case", [c for c in CASES if c["unsafe"]], ids=_id)
def test_fetched_content_reaching_code_is_refused(case: dict[str, Any]) -> None:
    assert refused(case)


@pytest.mark.parametrize("case", [c for c in CASES if not c["unsafe"]], ids=_id)
def test_safe_look_alikes_are_kept(case: dict[str, Any]) -> None:
    assert not refused(case)


def test_the_set_is_adversarial() -> None:
    kinds = {c["kind"] for c in CASES if c["unsafe"]}
    assert {"pipe-abs", "procsub", "cmdsub", "file", "tee", "xargs", "busybox", "stdin", "powershell"} <= kinds
    assert {"command", "sentence", "calls"} <= {c["where"] for c in CASES}
    assert sum(not c["unsafe"] for c in CASES) >= 30
