"""LazyPattern matches as ``re.compile`` does, and importing the secret scanner compiles nothing."""

from __future__ import annotations

import re
import subprocess
import sys

from mimomem.common.lazy_pattern import LazyPattern, lazy


def test_lazy_pattern_matches_like_the_compiled_one() -> None:
    source = r"(?i)(?P<word>key|token)\s*=\s*(?P<value>\w+)"
    pattern, compiled = lazy(source), re.compile(source)
    assert not pattern.is_compiled
    text = "x KEY = abc; token=def and key=  g"
    assert [m.span("value") for m in pattern.finditer(text)] == [m.span("value") for m in compiled.finditer(text)]
    assert pattern.is_compiled
    for method in ("search", "match", "fullmatch"):
        for pos in (0, 2, 15):
            got, want = getattr(pattern, method)(text, pos), getattr(compiled, method)(text, pos)
            assert (got and got.span()) == (want and want.span())
    assert pattern.search(text, 0, 5) is None
    assert repr(pattern).startswith("LazyPattern(")


def test_importing_the_scanner_compiles_no_pattern() -> None:
    code = """
import re, sys
from mimomem.common import lazy_pattern
import mimomem.common.secrets
found = [v for name, mod in list(sys.modules.items()) if name.startswith("mimomem.common.secret")
         for v in vars(mod).values() if isinstance(v, lazy_pattern.LazyPattern)]
from mimomem.common.secret_shapes import SHAPE_RULES
from mimomem.common.secret_context import _CLI_PATTERNS
from mimomem.common.secret_phrases import _patterns
found += [r[1] for r in SHAPE_RULES] + _CLI_PATTERNS + list(_patterns().values())
assert len(found) > 90, len(found)
compiled = [p.pattern for p in found if p.is_compiled]
assert not compiled, compiled
from mimomem.common.secrets import redact_secrets
assert redact_secrets("部署前数据库端口要改成多少") == "部署前数据库端口要改成多少"
print(sum(p.is_compiled for p in found))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(out) < 10  # a Chinese sentence needs few rules


def test_a_secret_is_found_on_the_first_scan_of_a_process() -> None:
    code = """
from mimomem.common.secrets import redact_secrets
print(redact_secrets("export GITHUB_TOKEN=ghp_Xk9mQ2vL7pZ4wR8tY1uI3oP6aS5dF0gH2jK4 now"))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "ghp_" not in out and "[redacted github-token]" in out
    assert isinstance(lazy("x"), LazyPattern)
