"""Suite-wide switches and the ``implementation`` fixture (twin-sensitive tests run against py and native).

Native is the default.  A test that needs ``mimomem._native`` (the ``native`` param of
``implementation``, ``native_implementation``, anything marked ``native``) FAILS when the extension
cannot be imported, so a green run always covered the compiled twin.  Opt out explicitly:
``pytest --no-native`` or ``MIMOMEM_PURE=1`` force the pure-Python twins for the whole run and
skip the native tests.  ``MIMOMEM_REQUIRE_NATIVE=1`` keeps meaning "must be native": the extension
must then be built and loadable even in a pure run (``tests/text/test_native_loaded.py``), and
``--no-native`` is a usage error.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

NO_NATIVE_OPTION = "--no-native"
PURE_RUN = f"pure-Python run (MIMOMEM_PURE=1 or {NO_NATIVE_OPTION}): the native twin is not tested"


def forced_pure() -> bool:
    """True when this run tests pure Python only (``MIMOMEM_PURE=1`` or ``--no-native``)."""
    return os.environ.get("MIMOMEM_PURE", "") not in ("", "0")


def native_required() -> bool:
    """True when ``MIMOMEM_REQUIRE_NATIVE=1``: the extension must exist, even in a pure run."""
    return os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        NO_NATIVE_OPTION,
        action="store_true",
        help="test pure Python only (like MIMOMEM_PURE=1): skip, instead of failing, the tests that need "
        "the compiled extension mimomem._native",
    )


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("no_native", default=False):
        return
    if native_required():
        raise pytest.UsageError(f"{NO_NATIVE_OPTION} contradicts MIMOMEM_REQUIRE_NATIVE=1: drop one of them")
    if "mimomem" in sys.modules and not forced_pure():
        raise pytest.UsageError(
            f"mimomem was imported before {NO_NATIVE_OPTION} could take effect (by a plugin?): "
            "set MIMOMEM_PURE=1 in the environment instead"
        )
    os.environ["MIMOMEM_PURE"] = "1"  # read by mimomem.text._accel at import, and by subprocesses


@pytest.fixture(autouse=True, scope="session")
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test (and every process it starts) keeps mimomem's caches (the jieba dictionary,
    curated snapshots and recall indexes) in a temporary directory, never in ~/.cache/mimomem;
    a test that needs a cache of its own sets MIMOMEM_CACHE_DIR itself.

    The hosts' own memory (``~/.claude/projects/...``, ``~/.codex``, ``~/.gemini``) is switched off, so
    that a developer's real host memory never reaches a test's recall; the tests of host memory
    (tests/context/test_host_memory*.py) switch it on with a sandboxed HOME."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path_factory.mktemp("mimomem-cache")))
        patch.setenv("MIMOMEM_HOST_MEMORY", "0")
        for variable in ("MIMOMEM_SESSION", "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID", "MIMOMEM_LAUNCHER"):
            patch.delenv(variable, raising=False)  # the suite run from an agent's shell sees no session of its own
        yield


def pytest_report_header(config: pytest.Config) -> str:
    spec = importlib.util.find_spec("mimomem")
    where = list(spec.submodule_search_locations or []) if spec else []
    if forced_pure():
        twin = "pure Python (MIMOMEM_PURE=1 or --no-native)"
    else:
        module, error = native_module()
        twin = "native" if module is not None else f"NO native extension ({error})"
    return f"mimomem: {twin}; package {where[0] if where else 'not found'}"


@functools.cache
def native_module() -> tuple[Any | None, str]:
    """(``mimomem._native``, "") if it imports, else (None, why), whatever ``MIMOMEM_PURE`` says."""
    try:
        return importlib.import_module("mimomem._native"), ""
    except ImportError as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _installed_extension() -> Path | None:
    """The extension file of an installed (non-editable) mimomem distribution, if there is one."""
    for dist in importlib.metadata.distributions(name="mimomem"):  # a checkout's egg-info comes first
        for file in dist.files or []:
            if file.parts[:1] == ("mimomem",) and file.name.startswith("_native."):
                return Path(str(file.locate())).resolve()
    return None


def missing_native_message(error: str) -> str:
    """Why a native test fails, and the three ways out."""
    spec = importlib.util.find_spec("mimomem")
    package = Path(next(iter(spec.submodule_search_locations or [""]))).resolve() if spec else None
    lines = [f"mimomem._native cannot be imported ({error}); mimomem is imported from {package}."]
    installed = _installed_extension()
    if installed is not None and package is not None and installed.parent != package:
        lines.append(f"An installed mimomem with the extension is at {installed.parent}, but {package} shadows it.")
    lines += [
        "Native tests fail instead of skipping, so that a green run always tested the compiled twin. Either:",
        "  - build the extension in place: pip install -e '.[test]' (needs a C++ compiler);",
        "  - or test the installed package: run the venv's pytest (.venv/bin/pytest), not `python -m pytest`,"
        " which puts the current directory (the source tree) first on sys.path (`python -P -m pytest` on 3.11+);",
        f"  - or test pure Python only: pytest {NO_NATIVE_OPTION} (or MIMOMEM_PURE=1).",
    ]
    return "\n".join(lines)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("native") is not None and forced_pure():
        pytest.skip(PURE_RUN)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """A ``native`` test FAILS (in its call phase, before its body runs) when the extension is missing."""
    if item.get_closest_marker("native") is not None:
        _, error = native_module()
        if error:
            pytest.fail(missing_native_message(error), pytrace=False)


@dataclass(frozen=True)
class Implementation:
    """One twin of the hot path: its bigram tokenizer and its BM25 index core."""

    name: str
    tokenize_bigram: Callable[[str], list[Any]]
    BM25Core: type


def _pure() -> Implementation:
    from mimomem.text import _bm25_py, _tokenizer_py

    return Implementation("py", _tokenizer_py.tokenize_bigram, _bm25_py.BM25Core)


def _native() -> Implementation:
    """The native twin; a stand-in that fails every use with the reason when it cannot be imported."""
    if forced_pure():
        pytest.skip(PURE_RUN)
    native, error = native_module()
    if native is not None:
        return Implementation("native", native.tokenize_bigram, native.BM25Core)

    def missing(*args: object, **kwargs: object) -> Any:
        pytest.fail(missing_native_message(error), pytrace=False)

    # ``native`` tests fail in pytest_runtest_call before using it; any other user fails on first use
    return Implementation("native (missing)", missing, type("MissingBM25Core", (), {"__init__": missing}))


@pytest.fixture(
    scope="session",
    params=[pytest.param("py", id="py"), pytest.param("native", id="native", marks=pytest.mark.native)],
)
def implementation(request: pytest.FixtureRequest) -> Implementation:
    """The pure twin, then the native one (skipped in a pure run, failed when it is missing)."""
    return _pure() if request.param == "py" else _native()


@pytest.fixture(scope="session")
def pure_implementation() -> Implementation:
    """The pure-Python reference twin (the oracle in parity tests)."""
    return _pure()


@pytest.fixture(scope="session")
def native_implementation() -> Implementation:
    """The native twin; skipped in a pure run, failed when it is missing."""
    return _native()


@pytest.fixture
def without_blocking() -> Callable[[Path, Callable[[], object]], object]:
    """Run ``call`` (which opens ``fifo``) in a thread: its result or the exception it raised.

    A call still blocked after 10 s fails the test; the FIFO is opened for writing first so
    that the blocked reader (and its thread) ends.
    """
    import threading

    def run_it(fifo: Path, call: Callable[[], object]) -> object:
        outcome: list[object] = []

        def run() -> None:
            try:
                outcome.append(call())
            except Exception as exc:
                outcome.append(exc)

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        worker.join(10)
        if worker.is_alive():  # unblock the reader so the thread ends, then fail
            os.close(os.open(fifo, os.O_WRONLY))
            worker.join(10)
            pytest.fail(f"a call blocked on the FIFO {fifo}")
        assert len(outcome) == 1
        return outcome[0]

    return run_it
