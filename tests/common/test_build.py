"""What the install built, as setup.py recorded it: read back where a user looks (issue 35).

``pip install -q`` hides the build's own lines, so a fallback to pure Python or a SQLite extension
left out must show in ``mimomem --version``, on the CLI's stderr and in ``mimomem.sqlite``'s error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mimomem.sqlite
from mimomem.cli import main
from mimomem.common import build
from mimomem.errors import ExtensionNotBuiltError
from mimomem.sqlite import loading

NO_COMPILER = "not built: compiling it failed (command 'g++' failed: No such file or directory)"


@pytest.fixture
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Point the build record at a file of the test's own; returns a function that writes it."""
    path = tmp_path / "_build.json"
    monkeypatch.setattr(build, "STATUS_FILE", path)
    monkeypatch.delenv("MIMOMEM_PURE", raising=False)

    def write(**parts: str) -> None:
        path.write_text(json.dumps(parts), encoding="utf-8")

    return write


def test_no_record_claims_nothing(recorded) -> None:
    assert build.status() == {} and build.not_built("native") is None
    assert build.pure_python_notice(False) is None


def test_a_broken_record_claims_nothing(recorded) -> None:
    build.STATUS_FILE.write_text("{not json", encoding="utf-8")
    assert build.status() == {}
    build.STATUS_FILE.write_text('["built"]', encoding="utf-8")
    assert build.status() == {}


def test_the_failed_compile_is_named(recorded) -> None:
    recorded(native=NO_COMPILER, sqlite="built")
    assert build.not_built("native") == "compiling it failed (command 'g++' failed: No such file or directory)"
    assert build.not_built("sqlite") is None
    notice = build.pure_python_notice(False)
    assert notice is not None and "g++" in notice and "MIMOMEM_PURE=1" in notice
    assert build.pure_python_notice(True) is None  # the extension is in use after all


def test_pure_python_chosen_on_purpose_is_not_nagged(recorded, monkeypatch: pytest.MonkeyPatch) -> None:
    recorded(native=NO_COMPILER)
    monkeypatch.setenv("MIMOMEM_PURE", "1")
    assert build.pure_python_notice(False) is None


def test_the_cli_says_so_on_stderr_and_in_version(recorded, monkeypatch, capsys, tmp_path: Path) -> None:
    recorded(native=NO_COMPILER, sqlite=NO_COMPILER)
    monkeypatch.setattr("mimomem.native_available", lambda: False)
    assert main(["tokenize", "部署"]) == 0
    captured = capsys.readouterr()
    assert "部署" in captured.out and "native extension was not built" in captured.err and "g++" in captured.err
    with pytest.raises(SystemExit):
        main(["--version"])
    out = capsys.readouterr().out
    assert "pure Python: the native extension was not built at install: compiling it failed" in out


def test_the_sqlite_error_names_the_failed_compile_not_the_headers(recorded, monkeypatch) -> None:
    monkeypatch.setattr(loading, "_SUFFIX", ".not-built")
    recorded(native="built", sqlite=NO_COMPILER)
    with pytest.raises(ExtensionNotBuiltError) as failed:
        mimomem.sqlite.loadable_path()
    assert "compiling it failed" in str(failed.value) and "C++ compiler" in str(failed.value)
    assert "libsqlite3-dev" not in str(failed.value)
    recorded(native="built", sqlite="not built: sqlite3ext.h not found")
    with pytest.raises(ExtensionNotBuiltError, match="libsqlite3-dev"):
        mimomem.sqlite.loadable_path()


def test_a_source_tree_that_shadows_the_install_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PYTHONPATH=. in a checkout ran the candidate on pure Python with no warning -> a loud line naming the tree."""
    checkout = tmp_path / "checkout"
    (checkout / "mimomem").mkdir(parents=True)
    (checkout / "_native").mkdir()
    (checkout / "setup.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(build, "STATUS_FILE", checkout / "mimomem" / "_build.json")
    monkeypatch.delenv("MIMOMEM_PURE", raising=False)
    notice = build.shadow_notice(False)
    assert notice is not None and "WARNING" in notice and str(checkout / "mimomem") in notice
    assert build.shadow_notice(True) is None  # an editable install built in place: native, no shadow
    monkeypatch.setenv("MIMOMEM_PURE", "1")
    assert build.shadow_notice(False) is None
    monkeypatch.delenv("MIMOMEM_PURE")
    (checkout / "mimomem" / "_build.json").write_text('{"native": "built", "sqlite": "built"}', encoding="utf-8")
    assert build.source_tree() is None and build.shadow_notice(False) is None
    (checkout / "mimomem" / "_build.json").unlink()
    (checkout / "setup.py").unlink()  # an installed package: no setup.py beside it
    assert build.source_tree() is None


def test_bench_says_when_it_measures_a_source_tree(monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path) -> None:
    monkeypatch.setattr(build, "shadow_notice", lambda native: "mimomem: WARNING: running the source tree X")
    monkeypatch.setattr(build, "pure_python_notice", lambda native: None)
    assert main(["tokenize", "部署"]) == 0
    assert "WARNING" not in capsys.readouterr().err  # not every command: only what measures or compares
    assert main(["bench", "--dataset", str(tmp_path / "none")]) == 2
    assert "WARNING: running the source tree X" in capsys.readouterr().err
