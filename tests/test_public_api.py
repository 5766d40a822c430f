"""The public API: a short list of names that resolve, every error in ``mimomem.errors``, and a cheap import."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import mimomem
from mimomem import errors

KINDS = (errors.InputError, errors.RefusedError, errors.StoreError, errors.UnavailableError)
GROUPS = {"MimomemError", "CuratedError", "HistoryError", *(k.__name__ for k in KINDS)}


@pytest.mark.parametrize("name", mimomem.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(mimomem, name) is not None


def test_the_list_is_short_and_written_alike_three_times() -> None:
    """``__all__``, ``PUBLIC`` and the ``TYPE_CHECKING`` imports (what a type checker sees) name the same things."""
    assert len(mimomem.__all__) <= 30, "a deliberate small list: put a new name in its module, not at the top"
    assert set(mimomem.__all__) == set(mimomem.PUBLIC) | {"__version__", "native_available"}
    assert list(mimomem.__all__) == sorted(mimomem.__all__)
    checked: dict[str, tuple[str, str]] = {}
    tree = ast.parse(Path(mimomem.__file__).read_text(encoding="utf-8"))
    (block,) = [n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]
    for node in block.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mimomem"):
            for alias in node.names:
                module = f"{node.module}.{alias.name}" if alias.name == "errors" else node.module
                checked[alias.asname or alias.name] = (module, "" if alias.name == "errors" else alias.name)
    assert checked == mimomem.PUBLIC


def test_public_names_are_the_objects_of_their_modules() -> None:
    for public, (module, name) in mimomem.PUBLIC.items():
        defined = importlib.import_module(module)
        assert getattr(mimomem, public) is (getattr(defined, name) if name else defined), public


def test_the_floor_the_front_ends_call_is_public() -> None:
    """The CLI, the MCP server and the hooks search and write through ``mimomem.memory``: so does the library's user."""
    from mimomem.memory import search, writes

    assert mimomem.search_memory is search.search
    for name in ("note", "write", "remember", "forget"):
        assert getattr(mimomem, name) is getattr(writes, name)


def test_no_public_name_is_shadowed_by_a_subpackage() -> None:
    """``import mimomem.x`` sets ``mimomem.x`` to the module: a public function named like a module would vanish."""
    modules = {info.name for info in pkgutil.iter_modules(mimomem.__path__)}
    assert set(mimomem.__all__) & modules == {"errors"}  # the errors module is public as itself


def _package_modules() -> list[ModuleType]:
    found = []
    for info in pkgutil.walk_packages(mimomem.__path__, "mimomem."):
        if not info.name.endswith("__main__"):
            found.append(importlib.import_module(info.name))
    return found


def _defined(module: ModuleType, kind: type) -> dict[str, type]:
    return {
        name: value
        for name, value in vars(module).items()
        if inspect.isclass(value) and issubclass(value, kind) and value.__module__ == module.__name__
    }


def test_every_exception_class_lives_in_errors() -> None:
    outside = {f"{m.__name__}.{n}" for m in _package_modules() if m is not errors for n in _defined(m, BaseException)}
    assert outside == set()


def test_every_error_is_exported_from_errors() -> None:
    assert set(errors.__all__) == set(_defined(errors, BaseException))
    assert list(errors.__all__) == sorted(errors.__all__)


def test_the_error_kinds_are_at_the_top() -> None:
    for kind in (errors.MimomemError, *KINDS):
        assert getattr(mimomem, kind.__name__) is kind
    assert mimomem.errors is errors


def test_every_specific_error_is_of_one_of_four_kinds() -> None:
    """Catching ``InputError``/``RefusedError``/``StoreError``/``UnavailableError`` covers every specific class."""
    for name in set(errors.__all__) - GROUPS:
        assert issubclass(getattr(errors, name), KINDS), name
    assert issubclass(errors.WriteDeniedError, errors.RefusedError)
    assert issubclass(errors.WriteDeniedError, PermissionError)  # the builtin stays for old except clauses


def test_a_name_that_left_the_top_says_where_it_lives() -> None:
    with pytest.raises(AttributeError, match=r"from mimomem\.errors import WriteDeniedError"):
        mimomem.WriteDeniedError  # noqa: B018
    with pytest.raises(AttributeError, match=r"from mimomem\.memory\.search import search"):
        mimomem.search_everything  # noqa: B018
    for name, module in mimomem.MOVED.items():
        assert name not in mimomem.__all__
        assert hasattr(importlib.import_module(module), "search" if name == "search_everything" else name), name
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchThing'"):
        mimomem.NoSuchThing  # noqa: B018


def test_no_old_names() -> None:
    """The 0.1 spellings (``WriteDenied``...) are gone: an unknown name is a plain ``AttributeError``."""
    for name in ("WriteDenied", "SecretRefused"):
        with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
            getattr(mimomem, name)
        with pytest.raises(AttributeError):
            getattr(errors, name)


def test_no_public_class_shares_its_name() -> None:
    """One name, one class: no other module defines a class named like one ``mimomem`` or ``mimomem.errors`` exports."""
    classes: dict[str, set[str]] = {}
    for module in _package_modules():
        for name in _defined(module, object):
            classes.setdefault(name, set()).add(module.__name__)
    public = [n for n in mimomem.__all__ if inspect.isclass(getattr(mimomem, n))] + list(errors.__all__)
    assert {n: sorted(classes[n]) for n in public if len(classes.get(n, ())) > 1} == {}


def test_import_is_lazy() -> None:
    """``import mimomem`` must not load the engine, SQLite, YAML, jieba, its errors or typing (hooks run per prompt)."""
    prefixes = "('mimomem.', 'yaml', 'jieba', 'sqlite3', 'typing')"
    new = f"sorted(m for m in set(sys.modules) - b if m.startswith({prefixes}))"
    code = f"import sys; b = set(sys.modules); import mimomem; print({new})"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
