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


def test_mimomems_own_calls_are_never_a_failure_a_fix_or_a_workflow_step() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "/home/u/.venv/bin/mimomem note hi"}, "Exit code 2\nno session", ok=False)
    _run(ep, 2, "Bash", {"command": "mimomem search 'port'"}, "Found 1 match")
    _run(ep, 3, "Bash", {"command": "python -m mimomem search x"}, "Exit code 1\nNo matches", ok=False)
    _run(ep, 4, "Edit", {"file_path": "/h/.local/share/mimomem/memory/sessions/s/notes.md", "old_string": "a"}, "ok")
    _run(ep, 5, "Bash", {"command": "pnpm test"}, "ok")
    assert ep.finish() == [] and [c.summary for c in ep.calls] == ["pnpm test"]


def test_a_failures_error_is_the_line_that_names_it_not_the_exit_code() -> None:
    from mimomem.history.episode import failure_text

    traceback = (
        'Exit code 1\nTraceback (most recent call last):\n  File "x.py", line 3\nIndexError: list index out of range'
    )
    assert failure_text(traceback) == "IndexError: list index out of range (exit 1)"
    assert failure_text("Exit code 127\n/bin/bash: line 1: pnpx: command not found") == (
        "/bin/bash: line 1: pnpx: command not found (exit 127)"
    )
    assert failure_text("Exit code 3") == "exit code 3, no output"
    assert failure_text("String to replace not found in file.") == "String to replace not found in file."


def test_an_unchanged_rerun_is_flaky_not_a_fix() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "make check"}, "FAILED test_poll - TimeoutError", ok=False)
    _run(ep, 2, "Bash", {"command": "ls"}, "Makefile")  # a look around changes nothing
    _run(ep, 3, "Bash", {"command": "make check"}, "312 passed")
    _run(ep, 4, "Bash", {"command": "poetry install"}, "Read timed out.", ok=False)
    _run(ep, 5, "Edit", {"file_path": "pyproject.toml", "old_string": "a", "new_string": "b"}, "ok")
    _run(ep, 6, "Bash", {"command": "poetry install"}, "Installing")
    flaky, fixed = ep.finish()
    assert flaky.flaky and not fixed.flaky


def test_a_download_run_by_a_later_call_marks_both_calls() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "curl -fsSL -o install.sh https://get.example.io/i"}, "")
    _run(ep, 2, "Bash", {"command": "make build"}, "ok")
    _run(ep, 3, "Bash", {"command": "chmod +x install.sh"}, "")
    _run(ep, 4, "Bash", {"command": "bash install.sh --prefix ~/.local"}, "installed")
    _run(ep, 5, "Bash", {"command": "wget https://dl.example.cn/setup.py"}, "saved")
    _run(ep, 6, "Bash", {"command": "python3 ./setup.py"}, "done")
    _run(ep, 7, "Bash", {"command": "curl -o notes.txt https://example.org/n"}, "")  # fetched, never run
    _run(ep, 8, "Bash", {"command": "bash scripts/test.sh"}, "ok")
    assert [c.unsafe for c in ep.calls] == [True, False, True, True, True, True, False, False]


def test_another_command_of_the_program_is_the_fix_only_when_the_failed_one_is_not_run_again() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "terraform -chdir=infra apply"}, "Error acquiring the state lock", ok=False)
    _run(ep, 2, "Bash", {"command": "terraform -chdir=infra force-unlock -force 6f1d"}, "unlocked")
    _run(ep, 3, "Bash", {"command": "terraform -chdir=infra apply"}, "Apply complete!")
    _run(ep, 4, "Bash", {"command": "pytest tests/e2e"}, "Timeout >120.0s", ok=False)
    _run(ep, 5, "Bash", {"command": "MAIL_BACKEND=console python -m pytest tests/e2e"}, "23 passed")
    apply, e2e = ep.finish()
    assert apply.fix == "ran `terraform -chdir=infra force-unlock -force 6f1d`"
    assert e2e.fix.startswith("`MAIL_BACKEND=console python -m pytest tests/e2e` instead")


def test_a_retry_inside_a_compound_led_by_a_trivial_command_is_a_retry() -> None:
    ep = Episode()
    _run(ep, 1, "Bash", {"command": "python manage.py collectstatic"}, "PermissionError: [Errno 13]", ok=False)
    _run(ep, 2, "Bash", {"command": "mkdir -p static && STATIC_ROOT=./static python manage.py collectstatic"}, "ok")
    (fix,) = ep.finish()
    assert "STATIC_ROOT=./static" in fix.fix
