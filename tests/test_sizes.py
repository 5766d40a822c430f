"""Size limits that keep the package readable: modules <= 500 lines, functions <= 60.

Exceptions are listed here with their reason, and in docs/architecture.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mimomem"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
ALLOWED = {
    # The pure-Python reference tokenizer is one state machine read top to bottom, step for
    # step beside the native scanner (_native/_tokenizer.pxi); split up, the twins stop lining up.
    "text/_tokenizer_py.py:tokenize_bigram",
}


def _functions() -> list[tuple[str, int]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{path.relative_to(PACKAGE).as_posix()}:{node.name}"
                out.append((name, (node.end_lineno or node.lineno) - node.lineno + 1))
    return out


def test_modules_are_small() -> None:
    big = {
        p.relative_to(PACKAGE).as_posix(): n
        for p in PACKAGE.rglob("*.py")
        if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_MODULE_LINES
    }
    assert big == {}


def test_functions_are_short() -> None:
    long = {name: n for name, n in _functions() if n > MAX_FUNCTION_LINES and name not in ALLOWED}
    assert long == {}
