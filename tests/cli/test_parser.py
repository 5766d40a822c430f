"""The parser: ``--version``, and choices taken from the library's constants."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import mimomem
from mimomem.cli import main
from mimomem.cli.parser import build_parser
from mimomem.search.backends import SEARCH_BACKENDS
from mimomem.search.index import SCOPES
from mimomem.text.tokens import MODES

ROOT = Path(__file__).resolve().parents[2]


def _option(prog: str, dest: str):
    parser = build_parser()
    for name in prog.split()[1:]:
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        parser = sub.choices[name]  # type: ignore[index]
    return next(a for a in parser._actions if a.dest == dest)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_names_the_engine(flag, capsys):
    with pytest.raises(SystemExit) as exc:
        main([flag])
    assert exc.value.code == 0
    if mimomem.native_available():
        engine = "native"
    elif os.environ.get("MIMOMEM_PURE", "") not in ("", "0"):  # the suite's pure pass: the reason is named
        engine = "pure Python: MIMOMEM_PURE is set"
    else:
        engine = "pure Python"
    assert capsys.readouterr().out == f"mimomem {mimomem.__version__} ({engine})\n"


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **env}
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, *args], check=False, capture_output=True, text=True, env=full_env, timeout=120
    )


def test_version_of_the_pure_python_engine():
    result = _run("-m", "mimomem", "--version", MIMOMEM_PURE="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"mimomem {mimomem.__version__} (pure Python: MIMOMEM_PURE is set)\n"


def test_python_dash_m_mimomem_cli_runs_too():
    result = _run("-m", "mimomem.cli", "tokenize", "部署")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["部署\t0\t2\t部署"]


def test_choices_come_from_the_library():
    assert tuple(_option("mimomem search", "scope").choices) == tuple(SCOPES)
    assert tuple(_option("mimomem search", "backend").choices) == tuple(SEARCH_BACKENDS)
    assert tuple(_option("mimomem tokenize", "mode").choices) == tuple(MODES)
    assert _option("mimomem index stats", "no_reconcile").default is False


def test_every_command_has_a_function():
    parser = build_parser()
    for argv in (
        ["tokenize", "x"],
        ["recall", "x"],
        ["remember", "facts", "s"],
        ["forget", "facts/x"],
        ["inspect"],
        ["rules", "accept", "rules/x"],
        ["rules", "reject", "rules/x"],
        ["import", "d"],
        ["inject", "x"],
        ["search", "x"],
        ["reconcile"],
        ["index", "stats"],
        ["paths"],
        ["bench"],
    ):
        assert callable(parser.parse_args(argv).func), argv
