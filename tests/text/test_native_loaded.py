"""The compiled extension is built and is the one in use (never silently skipped).

Runs in fresh interpreters so the answer does not depend on this process's environment.  An
extension that was never built fails the run too, unless the run is pure on purpose
(``MIMOMEM_PURE=1`` or ``--no-native``, see conftest.py); with ``MIMOMEM_REQUIRE_NATIVE=1`` it must
exist even then.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

PROBE = (
    "import mimomem, mimomem.text._accel as a; "
    "print(mimomem.native_available(), a.BM25Core.__module__, a.tokenize_bigram.__module__)"
)


def package_dir() -> Path:
    spec = importlib.util.find_spec("mimomem")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


def probe(**env_changes: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("MIMOMEM_PURE", None)
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    root = str(package_dir().parent)
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    # cwd = the package's parent, so ``-c`` cannot pick up a source checkout from the cwd
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120, cwd=root)


def test_built_extension_is_loaded():
    # only files this interpreter could load (a stale build for another Python does not count)
    built = [package_dir() / f"_native{suffix}" for suffix in EXTENSION_SUFFIXES]
    built = [path for path in built if path.exists()]
    if not built:
        missing = f"no mimomem._native built for this interpreter in {package_dir()}"
        if os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1":
            pytest.fail(f"MIMOMEM_REQUIRE_NATIVE=1 but {missing}: the install fell back to pure Python")
        if os.environ.get("MIMOMEM_PURE", "") not in ("", "0"):
            pytest.skip(f"{missing} (pure-Python run)")
        pytest.fail(f"{missing}: pip install -e . builds it in place; pytest --no-native tests pure Python only")
    result = probe()
    assert result.returncode == 0, result.stderr
    if result.stdout.split()[0] != "True":
        why = (
            subprocess.run(
                [sys.executable, "-c", "import mimomem._native"],
                capture_output=True,
                text=True,
                timeout=120,
                env={**os.environ, "PYTHONPATH": str(package_dir().parent)},
                cwd=str(package_dir().parent),
            )
            .stderr.strip()
            .splitlines()
        )
        pytest.fail(f"{built[0].name} exists but native_available() is False: {why[-1] if why else 'no error'}")
    assert result.stdout.split() == ["True", "mimomem._native", "mimomem._native"]


def test_mimomem_pure_forces_the_reference():
    result = probe(MIMOMEM_PURE="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "mimomem.text._bm25_py", "mimomem.text._tokenizer_py"]
