"""How ``main`` turns errors into exit statuses.

Library and usage errors are one line on stderr and status 2; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import io
import sys

import pytest

import mimomem.text.tokens
from mimomem.cli import checks, exits, main
from mimomem.errors import MimomemError, UsageError, WriteDeniedError


def _raising(exc: BaseException):
    def fail(*args, **kwargs):
        raise exc

    return fail


def _one_error_line(err: str, command: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mimomem {command}: error: "), err
    return lines[0]


@pytest.mark.parametrize("bug", [ValueError("a bug"), TypeError("a bug"), KeyError("a bug")])
def test_plain_exceptions_are_bugs_and_keep_their_traceback(monkeypatch, bug):
    monkeypatch.setattr(mimomem.text.tokens, "tokenize", _raising(bug))
    with pytest.raises(type(bug)):
        main(["tokenize", "x"])


@pytest.mark.parametrize(
    "error", [MimomemError("boom; do this"), UsageError("--x: bad; pass y"), WriteDeniedError("no")]
)
def test_mimomem_errors_are_one_line_and_status_2(monkeypatch, capsys, error):
    monkeypatch.setattr(mimomem.text.tokens, "tokenize", _raising(error))
    assert main(["tokenize", "x"]) == exits.USAGE == 2
    assert _one_error_line(capsys.readouterr().err, "tokenize").endswith(str(error))


def test_status_of_uses_the_nearest_class(monkeypatch):
    class Special(UsageError):
        pass

    monkeypatch.setitem(exits.STATUS_OF, UsageError, 3)
    assert exits.status_of(Special("x")) == 3
    assert exits.status_of(MimomemError("x")) == exits.USAGE


def test_usage_error_is_a_mimomem_error_and_a_value_error():
    assert issubclass(UsageError, MimomemError) and issubclass(UsageError, ValueError)


def test_argument_checks_raise_usage_error(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    cases = [
        (checks.existing_dir, (str(tmp_path / "nope"), "--root"), "no such directory"),
        (checks.existing_dir, (str(f), "--root"), "not a directory"),
        (checks.output_dir, (str(f), "--report"), "is a file"),
        (checks.not_a_file, (str(f), "--root"), "not a directory"),
        (checks.file_path, (str(tmp_path), "--save", "base.json"), "base.json"),
        (checks.in_range, (-1, "--budget", 0), "--budget must be >= 0"),
        (checks.in_range, (0, "--limit", 1, 200), "1..200"),
        (checks.utf8, ("a\udcff", "the summary"), "not valid UTF-8"),
    ]
    for check, args, expected in cases:
        with pytest.raises(UsageError, match=expected):
            check(*args)  # type: ignore[operator]
    assert checks.existing_dir(None, "--root") is None
    assert checks.existing_dir(str(tmp_path), "--root") == str(tmp_path)


def test_undecodable_stdin_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"deploy \xff\n"), encoding="utf-8", errors="strict"))
    assert main(["inject", "-", "--project", str(tmp_path), "--global-root", str(tmp_path / "g")]) == 2
    assert "the context (standard input) is not valid UTF-8" in _one_error_line(capsys.readouterr().err, "inject")


def test_output_the_terminal_cannot_encode_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict"))
    assert main(["tokenize", "部署"]) == 2
    assert "PYTHONIOENCODING" in _one_error_line(capsys.readouterr().err, "tokenize")
