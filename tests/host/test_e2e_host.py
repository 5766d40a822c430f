"""A smoke run of ``mimomem bench --e2e --host claude-code``: one dev-set session through the real host.

The whole dev set through the host takes minutes (``mimomem bench --e2e --host claude-code``,
numbers in benchmarks/README.md); here one session is played and three of its questions asked,
so CI sees that the scenarios run (the recorded outputs shown, the edits made) and are scored
on what the model received.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from host_sandbox import pure_pass

from mimomem.bench.host import Host
from mimomem.bench.host.e2e import run_host_e2e
from mimomem.cli import main

DEVSET = Path(__file__).resolve().parents[2] / "corpora" / "e2e-dev"
ASKED = ("la-i2", "la-f4", "la-x1")  # alembic rule, the local test DB port, poetry env use 3.11 (all from a1-setup)


def test_one_session_through_the_host_is_scored_on_what_the_model_received(host: Host, tmp_path: Path) -> None:
    if pure_pass():
        pytest.skip("pure pass: the scenario player does not depend on the tokenizer twin")
    result = run_host_e2e(DEVSET, sessions=["a1-setup"], question_ids=ASKED, workdir=tmp_path)
    info = result["runs"]["mimomem (host)"]
    assert info["session_errors"] == [] and info["bash_calls"] == 6
    assert info["bash_output_differs"] == 0  # every scripted command showed what the recording did
    rows = {row["id"]: row["mimomem (host)"] for row in result["questions"]}
    assert set(rows) == set(ASKED)
    assert rows["la-f4"]["hit"]  # 55432, a fact the user stated in the session, reached the next session
    assert result["systems"]["mimomem (host)"]["all"]["over_cap"] == 0


def test_host_needs_e2e(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--host", "claude-code"]) == 2
    assert "add --e2e" in capsys.readouterr().err
