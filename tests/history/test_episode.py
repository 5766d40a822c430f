"""Failures paired with what actually fixed them; rejected tool uses are not failures."""

from __future__ import annotations

from typing import Any

from mimomem.history.episode import Episode
from mimomem.history.provenance import TOOL_CALL, TOOL_RESULT
from mimomem.history.transcript import Part


def _run(ep: Episode, n: int, tool: str, data: dict[str, Any], result: str, *, ok: bool = True) -> None:
    ep.add(Part(TOOL_CALL, "", "s", n, f"u{n}", tool=tool, call_id=f"c{n}", input=data))
    ep.add(Part(TOOL_RESULT, result, "s", n, f"r{n}", call_id=f"c{n}", is_error=not ok))


def test_the_fix_is_the_edit_in_between_not_the_retry() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "pnpm run deploy"}, "Error: ECONNREFUSED 127.0.0.1:5432", ok=False)
    _run(ep, 2, "Edit", {"file_path": "config/db.yml", "old_string": "port: 5432", "new_string": "port: 5433"}, "ok")
    _run(ep, 3, "Bash", {"command": "pnpm run deploy"}, "deployed")
    (fix,) = ep.finish()
    assert fix.error == "Error: ECONNREFUSED 127.0.0.1:5432"
    assert fix.fix == "edited config/db.yml (`port: 5432` -> `port: 5433`)"


def test_a_different_command_and_an_unchanged_retry() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "npm ci"}, "EUSAGE lockfile", ok=False)
    _run(ep, 2, "Bash", {"command": "npm install"}, "added 3 packages")
    _run(ep, 3, "Bash", {"command": "make test"}, "flaky timeout", ok=False)
    _run(ep, 4, "Bash", {"command": "make test"}, "ok")
    _run(ep, 5, "Bash", {"command": "git push"}, "The user doesn't want to proceed with this tool use.", ok=False)
    _run(ep, 6, "Bash", {"command": "cargo build"}, "error[E0425]", ok=False)
    fixes = ep.finish()
    assert [f.fix for f in fixes] == [
        "`npm install` instead",
        "it succeeded when run again, with nothing changed in between",
        "",
    ]
    assert ep.calls[4].status == "rejected"


def test_added_lines_and_a_retry_inside_a_compound_command() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "pnpm test"}, "ERR_REQUIRE_ESM", ok=False)
    _run(ep, 2, "Edit", {"file_path": "staging.env", "old_string": "A=1", "new_string": "A=1\nPGSSLMODE=require"}, "ok")
    _run(ep, 3, "Bash", {"command": "git mv a.js a.mts && pnpm test"}, "318 passed")
    (fix,) = ep.finish()
    assert fix.fix == "edited staging.env (added `PGSSLMODE=require`); `git mv a.js a.mts && pnpm test` instead"
