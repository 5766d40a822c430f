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


TOOL_ERRORS = {
    # raised only by ``mimomem bench`` (exported by ``mimomem.bench``, which is not imported by ``mimomem``)
    "BackendUnavailableError",
    "BenchDependencyError",
    "CorporaNotFoundError",
    "DatasetError",
    "HostSessionError",
    "HostUnavailableError",
    "ResultFileError",
    "ScaleError",
    "TokenizerSpecError",
    # raised only by ``mimomem install`` (agent harness settings)
    "HookCommandError",
    "SettingsFileError",
}
KINDS = (errors.InputError, errors.RefusedError, errors.StoreError, errors.UnavailableError)


def _error_classes() -> set[str]:
    return {n for n, v in vars(errors).items() if inspect.isclass(v) and issubclass(v, Exception)}


def test_every_library_exception_class_is_public() -> None:
    assert _error_classes() - TOOL_ERRORS == set(mimomem.ERRORS)
    assert all(issubclass(getattr(mimomem, n), mimomem.MimomemError) for n in mimomem.ERRORS)


def test_bench_errors_are_exported_with_bench() -> None:
    import mimomem.bench

    bench_errors = {n for n in TOOL_ERRORS if n not in ("HookCommandError", "SettingsFileError")}
    assert bench_errors <= set(mimomem.bench.__all__)
    assert not TOOL_ERRORS & set(mimomem.__all__)


def test_every_specific_error_is_of_one_of_four_kinds() -> None:
    """Catching ``InputError``/``RefusedError``/``StoreError``/``UnavailableError`` covers every specific class."""
    groups = {"MimomemError", "CuratedError", "HistoryError", *(k.__name__ for k in KINDS)}
    for name in _error_classes() - groups:
        assert issubclass(getattr(errors, name), KINDS), name
    assert issubclass(errors.WriteDeniedError, errors.RefusedError)
    assert issubclass(errors.WriteDeniedError, PermissionError)  # the builtin stays for old except clauses


def test_public_names_come_in_tiers() -> None:
    tiers = [set(mimomem.ENGINE), set(mimomem.STORES), set(mimomem.MEMORY_FLOOR), set(mimomem.ERRORS)]
    assert sum(len(t) for t in tiers) == len(set().union(*tiers))  # no name in two tiers
    assert set(mimomem.__all__) == set().union(*tiers) | {"__version__", "native_available"}
    assert list(mimomem.__all__) == sorted(mimomem.__all__)


def test_return_types_are_public() -> None:
    for name in (
        "Memory",
        "Recalled",
        "InspectReport",
        "BulkResult",
        "ForgetResult",
        "Found",
        "DocumentHit",
        "Results",
        "IndexStats",
        "ReconcileReport",
        "Token",
        "Query",
        "Hit",
        "Context",
        "Where",
        "Writer",
        "HistoryStore",
    ):
        assert name in mimomem.__all__


def test_no_old_names() -> None:
    """The 0.1 spellings (``WriteDenied``...) are gone: an unknown name is a plain ``AttributeError``."""
    for name in ("WriteDenied", "SecretRefused", "NoSuchThing"):
        with pytest.raises(AttributeError, match=name):
            getattr(mimomem, name)
        with pytest.raises(AttributeError):
            getattr(errors, name)


def test_removed_result_types_name_the_one_to_use() -> None:
    """``MemoryHit`` and ``SearchResults`` became ``Found`` and ``Results``: the error says so."""
    for old, new in (("MemoryHit", "Found"), ("SearchResults", "Results")):
        with pytest.raises(AttributeError, match=f"mimomem.{old} was removed.*use mimomem.{new}"):
            getattr(mimomem, old)
        assert new in mimomem.__all__


def _package_classes() -> dict[str, set[str]]:
    """Class name -> the modules of the package that define a class of that name."""
    import importlib
    import pkgutil

    out: dict[str, set[str]] = {}
    for info in pkgutil.walk_packages(mimomem.__path__, "mimomem."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                out.setdefault(name, set()).add(module.__name__)
    return out


def test_no_public_class_shares_its_name() -> None:
    """One name, one class: no other module defines a class named like one ``mimomem`` exports."""
    classes = _package_classes()
    public = [n for n in mimomem.__all__ if inspect.isclass(getattr(mimomem, n))]
    assert {n: sorted(classes[n]) for n in public if len(classes.get(n, ())) > 1} == {}


def test_import_is_lazy() -> None:
    """``import mimomem`` must not load the engine, SQLite, YAML, jieba, its errors or typing (hooks run per prompt)."""
    prefixes = "('mimomem.', 'yaml', 'jieba', 'sqlite3', 'typing')"
    new = f"sorted(m for m in set(sys.modules) - b if m.startswith({prefixes}))"
    code = f"import sys; b = set(sys.modules); import mimomem; print({new})"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
