"""The public API: ``mimomem.__all__`` resolves, covers every error, and stays cheap to import."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import mimomem
from mimomem import errors


@pytest.mark.parametrize("name", mimomem.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(mimomem, name) is not None


def test_every_exception_class_is_public() -> None:
    classes = {n for n, v in vars(errors).items() if inspect.isclass(v) and issubclass(v, Exception)}
    assert classes <= set(mimomem.__all__)
    assert all(issubclass(getattr(mimomem, n), mimomem.MimomemError) for n in classes)


def test_return_types_are_public() -> None:
    for name in (
        "Memory",
        "Recalled",
        "InspectReport",
        "BulkResult",
        "ForgetResult",
        "MemoryHit",
        "DocumentHit",
        "SearchResults",
        "IndexStats",
        "ReconcileReport",
        "Token",
        "Query",
        "Hit",
        "Context",
        "Where",
    ):
        assert name in mimomem.__all__


def test_old_exception_names_warn() -> None:
    with pytest.warns(DeprecationWarning, match="WriteDeniedError"):
        assert mimomem.WriteDenied is mimomem.WriteDeniedError  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        mimomem.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018


def test_import_is_lazy() -> None:
    """``import mimomem`` must not load the engine, SQLite, YAML or jieba (hooks run per prompt)."""
    prefixes = "('mimomem.', 'yaml', 'jieba', 'sqlite3')"
    code = f"import sys, mimomem; print(sorted(m for m in sys.modules if m.startswith({prefixes})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['mimomem.errors']"
