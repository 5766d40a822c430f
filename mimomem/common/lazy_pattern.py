"""Regular expressions compiled on first use, so importing a module of many costs nothing.

The secret scanner holds about 140 patterns; compiling them all took ~25-70 ms of every
process that imported it, although a read path scanning one text needs only the few whose
needles that text contains.  ``LazyPattern`` has the matching methods of ``re.Pattern``
the scanner uses and compiles itself the first time one is called (two threads racing
compile the same pattern twice, harmlessly).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator


class LazyPattern:
    """``re.compile(pattern, flags)``, done when first matched."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if not yet)."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self.flags)
        return compiled

    @property
    def is_compiled(self) -> bool:
        return self._compiled is not None

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """A pattern compiled when first used (see the module docstring)."""
    return LazyPattern(pattern, flags)


__all__ = ["LazyPattern", "lazy"]
