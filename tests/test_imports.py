"""Every module of the package imports FIRST, in a fresh interpreter: no import cycle hides behind an order.

Importing ``mimomem.x.y`` normally runs ``mimomem/__init__.py`` first, which imports most of the
package in one fixed order, and that order can hide a cycle that bites as soon as ``__init__``
changes.  So for each module a fresh process registers the top-level package without running its
``__init__``, imports the module (its subpackages' ``__init__`` do run), then runs the real
``mimomem/__init__.py`` on top: the module is the first of the package to execute, and the
package must still come together afterwards.

Fast: one child interpreter imports the third-party and standard modules the package uses, then
forks one process per module (no interpreter start-up, no third-party import repeated).
"""

from __future__ import annotations

import compileall
import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest


def _is_main(name: str) -> bool:
    return name.rsplit(".", 1)[-1] == "__main__"  # ``python -m ...`` entry points run the CLI when imported


def _unimportable(name: str) -> None:
    raise ImportError(f"pkgutil cannot import {name} to list its modules")


def package_init() -> str:
    spec = importlib.util.find_spec("mimomem")
    assert spec is not None and spec.origin is not None
    return spec.origin


def modules() -> list[str]:
    """``mimomem`` and every module under it, from a pkgutil walk of the package this process imports."""
    locations = [str(Path(package_init()).parent)]
    found = pkgutil.walk_packages(locations, "mimomem.", onerror=_unimportable)
    return sorted({"mimomem", *(info.name for info in found if not _is_main(info.name))})


# -- the child: these functions run in the fresh interpreter, sent there as source (``CHILD``) ---------------


def _fork(task: Callable[[str], object], arg: str, report: Path) -> int:  # pragma: no cover - child side
    """Run ``task(arg)`` in a forked process; its traceback, if any, goes to ``report``."""
    pid = os.fork()
    if pid == 0:
        status = 0
        try:
            task(arg)
        except BaseException:
            report.write_text(traceback.format_exc(), encoding="utf-8")
            status = 1
        os._exit(status)
    return pid


def _dependencies(names: list[str], out: Path) -> list[str]:  # pragma: no cover - child side
    """The non-mimomem modules that importing every module loads, found in a throwaway fork."""

    def import_all(report: str) -> None:
        for name in names:
            importlib.import_module(name)
        deps = [m for m in sys.modules if m != "mimomem" and not m.startswith("mimomem.")]
        Path(report).write_text(json.dumps(deps), encoding="utf-8")

    _, status = os.waitpid(_fork(import_all, str(out / "deps"), out / "deps.error"), 0)
    return json.loads((out / "deps").read_text(encoding="utf-8")) if status == 0 else []


def _import_first(name: str) -> None:  # pragma: no cover - child side
    """Import ``name`` with the top-level package registered but its ``__init__`` not run yet; then run it."""
    spec = importlib.util.find_spec("mimomem")
    assert spec is not None and spec.loader is not None and spec.origin == sys.argv[2], (spec, sys.argv[2])
    package = importlib.util.module_from_spec(spec)
    sys.modules["mimomem"] = package
    importlib.import_module(name)
    spec.loader.exec_module(package)


def _serve() -> None:  # pragma: no cover - child side
    """Preload the package's dependencies once, then fork one first import per module; print the results."""
    names, origin = json.loads(sys.argv[1]), sys.argv[2]
    out = Path(tempfile.mkdtemp(prefix="mimomem-import-first-"))
    # compile the package once, into a private cache every fork reads (even under PYTHONDONTWRITEBYTECODE)
    sys.dont_write_bytecode, sys.pycache_prefix = False, str(out / "pycache")
    compileall.compile_dir(str(Path(origin).parent), quiet=1)
    for dep in _dependencies(names, out):
        with contextlib.suppress(BaseException):  # one that fails on its own is left to its importer
            importlib.import_module(dep)
    results: dict[str, list[object]] = {}
    running: dict[int, tuple[int, str]] = {}
    pending = list(enumerate(names))
    while pending or running:
        while pending and len(running) < max(2, (os.cpu_count() or 1) * 2):
            i, name = pending.pop()
            running[_fork(_import_first, name, out / f"{i}.error")] = (i, name)
        pid, status = os.wait()
        i, name = running.pop(pid)
        error = out / f"{i}.error"
        results[name] = [os.waitstatus_to_exitcode(status), error.read_text(encoding="utf-8") if error.exists() else ""]
    shutil.rmtree(out)
    print(json.dumps(results))


CHILD_IMPORTS = """
from __future__ import annotations
import compileall, contextlib, importlib, importlib.util, json, os, shutil, sys, tempfile, traceback
from collections.abc import Callable
from pathlib import Path
"""


def child_code() -> str:
    functions = (_fork, _dependencies, _import_first, _serve)
    return CHILD_IMPORTS + "\n".join(inspect.getsource(f) for f in functions) + "\n_serve()\n"


@cache
def results() -> dict[str, tuple[int, str]]:
    """Every module's first import: (exit code, traceback), run once for the whole session."""
    init = package_init()
    code = child_code()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    proc = subprocess.run(
        [sys.executable, "-c", code, json.dumps(modules()), init],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=Path(init).parents[1],  # ``-c`` finds the package this process imported, installed or a checkout
    )
    assert proc.returncode == 0, proc.stderr
    return {name: (status, error) for name, (status, error) in json.loads(proc.stdout).items()}


def test_the_walk_finds_the_subpackages() -> None:
    names = modules()
    for expected in ("mimomem", "mimomem.errors", "mimomem.text._accel", "mimomem.search", "mimomem.tree.memory_tree"):
        assert expected in names
    assert not [name for name in names if _is_main(name)]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks one process per module")
@pytest.mark.parametrize("module", modules())
def test_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    status, error = results()[module]
    assert status == 0, f"`import {module}` as the first module of the package failed (exit code {status}):\n{error}"
