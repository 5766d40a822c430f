"""The labelled command set tests/data/shell/dev.jsonl: every command that fetches content and runs
it is refused however it is spelled, as a tool call, typed in a sentence or spread over several
calls, and no safe look-alike is.  (tests/data/shell/heldout.jsonl, written at the same time, is
never tuned on: benchmarks/bench_unsafe_commands.py reports it.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mimomem.history.episode import Episode
from mimomem.history.provenance import TOOL_CALL
from mimomem.history.shell import text_runs_fetched_code
from mimomem.history.signals import is_unsafe_command
from mimomem.history.transcript import Part

DEV = Path(__file__).parents[1] / "data" / "shell" / "dev.jsonl"
CASES = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]


def refused(case: dict[str, Any]) -> bool:
    if case["where"] == "sentence":
        return text_runs_fetched_code(case["text"])
    if case["where"] == "command":
        return is_unsafe_command(case["text"])
    episode = Episode()
    for i, command in enumerate(case["calls"]):
        episode.add(Part(TOOL_CALL, "", "s", i, f"u{i}", tool="Bash", call_id=f"c{i}", input={"command": command}))
    return any(call.unsafe for call in episode.calls)


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
