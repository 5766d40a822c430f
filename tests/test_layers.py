"""No module imports from a higher floor than its own (the floors: ``mimomem/layers.py``).

Every import statement of the package counts, wherever it stands (module level, inside a
function, under ``TYPE_CHECKING``): a lazy import is still an arrow.  ``python tests/test_layers.py``
prints the measurement: the import circles that span two parts, and every arrow that runs up.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from mimomem import layers

PACKAGE = Path(__file__).resolve().parent.parent / "mimomem"
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"
NATIVE = PACKAGE.parent / "_native" / "_native.pyx"
"""The source of the compiled ``mimomem._native``: its ``include`` lines pull in the ``.pxi`` files."""

_CYTHON_INCLUDE = re.compile(r'^include[ \t]+"([^"]+)"', re.M)
_CYTHON_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]|import[ \t]).*$", re.M)
"""A Python import line of a Cython file (``cimport`` lines are C declarations, not module imports)."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package, and the compiled ``mimomem._native`` by its ``.pyx``."""
    found = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    return {**found, "mimomem._native": NATIVE}


def _known(name: str) -> str:
    """The module ``name`` lives in: itself, or its nearest parent that is a module."""
    found = modules()
    while name not in found:
        name = name.rpartition(".")[0]
    return name


def _cython_imports(path: Path) -> ast.Module:
    """The Python imports of a Cython file and of the files it includes, as one parsed module."""
    text = path.read_text(encoding="utf-8")
    lines = [line.strip() for line in _CYTHON_IMPORT.findall(text)]
    for included in _CYTHON_INCLUDE.findall(text):
        lines.extend(ast.unparse(node) for node in _cython_imports(path.parent / included).body)
    return ast.parse("\n".join(lines))


def _parsed(path: Path) -> ast.Module:
    return _cython_imports(path) if path.suffix == ".pyx" else ast.parse(path.read_text(encoding="utf-8"))


def _targets(node: ast.Import | ast.ImportFrom, package: str) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*anchor, *([base] if base else [])])
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if sub in modules() else base


@cache
def arrows() -> frozenset[tuple[str, str]]:
    """(importer, imported) for every import of one ``mimomem`` module by another."""
    found = set()
    for name, path in modules().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(_parsed(path)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(node, package):
                    if target == "mimomem" or target.startswith("mimomem."):
                        imported = _known(target)
                        if imported != name:
                            found.add((name, imported))
    return frozenset(found)


def wrong_way() -> list[tuple[str, str]]:
    """Arrows into another part that is not on a strictly lower floor."""
    return sorted(
        (a, b)
        for a, b in arrows()
        if layers.part_of(a) != layers.part_of(b) and layers.floor_of(a) <= layers.floor_of(b)
    )


def circles_across_parts() -> list[list[str]]:
    """Strongly connected sets of modules (Tarjan) that span two parts or more."""
    return [group for group in circles() if len({layers.part_of(m) for m in group}) > 1]


def circles() -> list[list[str]]:
    """Strongly connected sets of two modules or more (Tarjan): modules that import each other in a loop."""
    graph: dict[str, list[str]] = {}
    for a, b in sorted(arrows()):
        graph.setdefault(a, []).append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = stack[stack.index(v) :]
            del stack[stack.index(v) :]
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_is_on_a_floor() -> None:
    for name in modules():
        layers.floor_of(name)


def test_no_arrow_runs_up_but_the_known_debts() -> None:
    new = [f"{a} -> {b}" for a, b in wrong_way() if (a, b) not in layers.KNOWN_DEBTS]
    assert not new, "imports from a higher (or the same) floor; move the code down a floor instead: " + ", ".join(new)


def test_every_known_debt_still_stands() -> None:
    paid = [f"{a} -> {b}" for a, b in layers.KNOWN_DEBTS if (a, b) not in wrong_way()]
    assert not paid, "paid debts: remove them from mimomem.layers.KNOWN_DEBTS: " + ", ".join(paid)


def test_no_circle_spans_two_parts_but_through_a_debt() -> None:
    for group in circles_across_parts():
        assert any(a in group and b in group for a, b in layers.KNOWN_DEBTS), group


CIRCLES_INSIDE_A_PART = {
    frozenset({"mimomem.bench.candidate_run", "mimomem.bench.runner", "mimomem.bench.scale"}),
    frozenset({"mimomem.cli.bench", "mimomem.cli.install", "mimomem.cli.parser"}),
    frozenset({"mimomem.common.secret_clauses", "mimomem.common.secret_labels"}),
    frozenset({"mimomem.curated.injection", "mimomem.curated.routing", "mimomem.curated.store"}),
    frozenset({"mimomem.hooks.claude_code", "mimomem.hooks.entry", "mimomem.hooks.entry_session"})
    | {"mimomem.hooks.session_start"},
    frozenset({"mimomem.passes.promote_found", "mimomem.passes.promote_items"}),
    frozenset({"mimomem.search.document_index", "mimomem.search.rerank"}),
    frozenset({"mimomem._native", "mimomem.text._accel", "mimomem.text._bm25_py", "mimomem.text._tokenizer_py"})
    | {"mimomem.text.segment", "mimomem.text.tokens"},
    frozenset({"mimomem.text.bm25", "mimomem.text.bm25_file"}),
}
"""The import circles inside one part that stand today (each through a lazy or a ``TYPE_CHECKING`` import).
A new one fails ``test_no_new_circle_inside_a_part`` (a known one that grows does not); one broken must be
struck from this list."""


def test_no_new_circle_inside_a_part() -> None:
    """A circle that shares no module with a known one is new; a known one that no circle touches is broken."""
    found = [frozenset(group) for group in circles() if len({layers.part_of(m) for m in group}) == 1]
    new = [sorted(group) for group in found if not any(group & known for known in CIRCLES_INSIDE_A_PART)]
    assert not new, f"a new import circle: {new}"
    broken = [sorted(known) for known in CIRCLES_INSIDE_A_PART if not any(group & known for group in found)]
    assert not broken, f"broken, strike it from CIRCLES_INSIDE_A_PART: {broken}"


def test_the_checker_sees_lazy_and_relative_imports() -> None:
    source = "def f():\n    from ..cli import main\n    import mimomem.hooks.claude_code\n"
    tree = ast.parse(source)
    found = [
        t
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom | ast.Import)
        for t in _targets(node, "mimomem.passes")
    ]
    assert found == ["mimomem.cli", "mimomem.hooks.claude_code"]
    assert _known("mimomem.cli.main") == "mimomem.cli"


def test_the_native_twins_imports_are_read() -> None:
    """The ``.pxi`` files included by ``_native.pyx`` import ``text``: arrows of ``text``'s own part."""
    found = arrows()
    assert ("mimomem._native", "mimomem.text.tokens") in found
    assert ("mimomem._native", "mimomem.text._chars") in found
    assert ("mimomem.text._accel", "mimomem._native") in found
    assert layers.part_of("mimomem._native") == layers.part_of("mimomem.text.tokens") == "text"


def test_a_cython_import_line_is_read_and_a_cimport_is_not(tmp_path: Path) -> None:
    (tmp_path / "m.pyx").write_text('include "a.pxi"\nfrom libc.math cimport log\ncimport cython\n', encoding="utf-8")
    (tmp_path / "a.pxi").write_text("    from mimomem.text import _chars\nimport mimomem.tree\n", encoding="utf-8")
    found = [t for node in ast.walk(_parsed(tmp_path / "m.pyx")) for t in _targets_of(node)]
    assert found == ["mimomem.text._chars", "mimomem.tree"]


def _targets_of(node: ast.AST) -> list[str]:
    return list(_targets(node, "mimomem")) if isinstance(node, ast.Import | ast.ImportFrom) else []


def _readme_parts() -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text[text.index("## Architecture") :].split("\n\n")[2]
    return re.findall(r"^\| [^|]*?`mimomem/([\w.]+?)(?:/|\.py)`", table, flags=re.M)


def test_the_readme_architecture_table_lists_the_folders_ground_first() -> None:
    listed = _readme_parts()
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    assert sorted(set(listed) & set(folders)) == folders, "every folder has a row"
    floors = [layers.floor_of(f"mimomem.{part}") for part in listed]
    assert floors == sorted(floors), f"rows in the floors' order (mimomem/layers.py): {listed}"


def test_the_pass_scheduler_never_imports_the_cli() -> None:
    assert not [b for a, b in arrows() if a == "mimomem.passes.schedule" and layers.part_of(b) == "cli"]


if __name__ == "__main__":  # the measurement (see the module docstring)
    print(f"{len(modules())} modules, {len(arrows())} arrows")
    print(f"circles across parts: {len(circles_across_parts())}")
    for group in circles_across_parts():
        print("  ", " ".join(group))
    inside = [group for group in circles() if group not in circles_across_parts()]
    print(f"circles inside one part: {len(inside)}")
    for group in inside:
        print("  ", " ".join(group))
    print(f"arrows up or sideways: {len(wrong_way())}")
    for a, b in wrong_way():
        print("  ", a, "->", b, "(known debt)" if (a, b) in layers.KNOWN_DEBTS else "")
