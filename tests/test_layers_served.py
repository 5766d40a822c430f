"""What a served hook may import (``mimomem.layers.SERVED``), read from the files.

A positive rule: each module the served path may load imports, at module level, only other
such modules and the light standard-library modules of ``SERVED_STDLIB`` (the pure twins also
``SERVED_PURE_STDLIB``).  Imports under ``TYPE_CHECKING`` never run; a function's import runs
only when that function does, so it may reach the slow side (the hook tests run a served prompt
and a served start in a fresh interpreter and check every module it loaded).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from mimomem import layers

PACKAGE = Path(__file__).resolve().parent.parent / "mimomem"


def _path(module: str) -> Path | None:
    """The source file of a ``mimomem`` module (``None`` for the compiled ``mimomem._native``)."""
    if module == "mimomem._native":
        return None
    base = PACKAGE.parent.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_at_import(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements among ``body`` that run when the module is imported."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            yield from _run_at_import(node.body)
            yield from _run_at_import(node.orelse)
        elif isinstance(node, ast.Try):  # not its handlers: a fallback (an interpreter without ``_blake2``)
            for part in (node.body, node.orelse, node.finalbody):
                yield from _run_at_import(part)
        elif isinstance(node, ast.If):  # TYPE_CHECKING: only its else runs
            yield from _run_at_import(node.orelse)


def _is_module(name: str) -> bool:
    path = _path(name)
    return path is None or path.exists()


def _imported(node: ast.Import | ast.ImportFrom, module: str) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        path = _path(module)
        package = module if path is not None and path.name == "__init__.py" else module.rpartition(".")[0]
        anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*anchor, *([base] if base else [])])
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if base.startswith("mimomem") and _is_module(sub) else base


def imports_at_load(module: str) -> list[str]:
    """What ``module`` imports when it is loaded, as module names (the package ones whole, others by their top)."""
    path = _path(module)
    if path is None:
        return []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in _run_at_import(tree.body):
        for name in _imported(node, module):
            out.append(name if name == "mimomem" or name.startswith("mimomem.") else name.partition(".")[0])
    return out


def test_every_served_module_exists() -> None:
    missing = [m for m in sorted(layers.SERVED) if not _is_module(m)]
    assert missing == []


@pytest.mark.parametrize("module", sorted(layers.SERVED))
def test_a_served_module_loads_only_served_modules(module: str) -> None:
    allowed = layers.SERVED | layers.SERVED_STDLIB
    if module in ("mimomem.text._tokenizer_py", "mimomem.text._bm25_py"):  # the pure twins
        allowed |= layers.SERVED_PURE_STDLIB
    assert [name for name in imports_at_load(module) if name not in allowed] == []


def test_the_rule_reads_what_it_should() -> None:
    """The reader sees a module-level import, skips a TYPE_CHECKING one and a function's."""
    assert "mimomem.common.stamp" in imports_at_load("mimomem.served.plans")
    assert "typing" not in imports_at_load("mimomem.served.plans")  # under TYPE_CHECKING
    assert "mimomem.common.files" not in imports_at_load("mimomem.served.plans")  # inside save_plan
    assert "typing" in imports_at_load("mimomem.text._tokenizer_py")


def test_the_served_room_is_on_the_served_path_and_the_slow_side_is_not() -> None:
    """Every module of ``mimomem/served/`` may be loaded by a served hook (so each obeys the rule above);
    no module of ``mimomem/context/``, which builds the plans, is ever loaded by one."""
    room = {"mimomem.served", *(f"mimomem.served.{p.stem}" for p in (PACKAGE / "served").glob("[!_]*.py"))}
    assert sorted(room - layers.SERVED) == []
    assert sorted(m for m in layers.SERVED if m == "mimomem.context" or m.startswith("mimomem.context.")) == []
