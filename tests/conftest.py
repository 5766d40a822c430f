"""The ``implementation`` fixture: every twin-sensitive test runs against py and native.

The native param is skipped (not failed) when ``mimomem._native`` cannot be imported or
``MIMOMEM_PURE=1`` forces pure Python; ``tests/test_native_loaded.py`` is the test that
fails when a built extension silently does not load.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

import pytest

FORCED_PURE = os.environ.get("MIMOMEM_PURE", "") not in ("", "0")


@dataclass(frozen=True)
class Implementation:
    """One twin of the hot path: its bigram tokenizer and its BM25 index core."""

    name: str
    tokenize_bigram: Callable[[str], list[Any]]
    BM25Core: type


def load_native() -> ModuleType | None:
    """``mimomem._native`` if it imports and pure Python is not forced, else None."""
    if FORCED_PURE:
        return None
    try:
        return importlib.import_module("mimomem._native")
    except ImportError:
        return None


def _pure() -> Implementation:
    from mimomem.text import _bm25_py
    from mimomem.text import _tokenizer_py

    return Implementation("py", _tokenizer_py.tokenize_bigram, _bm25_py.BM25Core)


def _native() -> Implementation:
    native = load_native()
    if native is None:
        reason = "MIMOMEM_PURE=1" if FORCED_PURE else "mimomem._native is not built"
        pytest.skip(f"native twin unavailable ({reason})")
    return Implementation("native", native.tokenize_bigram, native.BM25Core)


@pytest.fixture(
    scope="session",
    params=[pytest.param("py", id="py"), pytest.param("native", id="native", marks=pytest.mark.native)],
)
def implementation(request: pytest.FixtureRequest) -> Implementation:
    """The pure twin, then the native one (skipped when it is not available)."""
    return _pure() if request.param == "py" else _native()


@pytest.fixture(scope="session")
def pure_implementation() -> Implementation:
    """The pure-Python reference twin (the oracle in parity tests)."""
    return _pure()


@pytest.fixture(scope="session")
def native_implementation() -> Implementation:
    """The native twin; skips the test when it is not available."""
    return _native()
