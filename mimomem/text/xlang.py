"""The per-prompt cross-language lookup: Chinese words for English ones and back, from the shipped file.

``data/xlang_zh_en.tsv`` holds ``中文<TAB>english<TAB>...`` rows (see
:mod:`mimomem.text.expansion`, which builds full :class:`~mimomem.text.expansion.Vocabulary`
objects from it).  A prompt hook needs only the rows its prompt touches, so this module reads
the file as text, lowers it once, and finds the rows by string search and one regular
expression pass: no dictionary of every word is built (that cost ~10-25 ms per process), and no
Python loop runs over the file's lines.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable

XLANG_FILE = "xlang_zh_en.tsv"


def data_text(name: str) -> str:
    """A shipped data file's text: read from the package directory, else through importlib.resources."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", name)
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError:  # a zipped or otherwise unusual installation
        from importlib import resources

        return (resources.files("mimomem") / "data" / name).read_text(encoding="utf-8")


_ROWS = r"(?m)^(?!#)([^\t\n]*)\t([^\n]*)$"
"""A row with translations: its head (up to the first tab) and the rest of the line."""


class _Table:
    """The file's text, lowered (one ``str.lower``), and its ``(head, rest)`` rows (one regex pass).

    Everything per line is found by C-level string search, never by a Python loop over the
    file's ~4,400 lines (that loop cost a prompt hook ~20M instructions, ~5 ms).  The lowered
    text has the original's offsets when lowering keeps its length (always, for the shipped
    file); otherwise each line is lowered on its own when it is looked at.
    """

    def __init__(self, text: str) -> None:
        import re  # the hook imports re anyway (json does); compiled once per process

        self.text = text
        lowered = text.lower()
        self.lowered = lowered if len(lowered) == len(text) else None
        self.rows: list[tuple[str, str]] = re.findall(_ROWS, text)

    def _lowered(self) -> str:
        return self.lowered if self.lowered is not None else "\n".join(ln.lower() for ln in self.text.split("\n"))

    def _line(self, i: int) -> str:
        """Line ``i`` of the original text (only when lowering changed the text's length)."""
        return self.text.split("\n")[i]

    def others(self, rest: str) -> list[str]:
        """A row's translations (the cells after its head), lowered, empty cells left out."""
        return [cell for cell in rest.lower().rstrip().split("\t") if cell]

    def heads_of(self, word: str, limit: int) -> list[str]:
        """The first ``limit`` heads of rows with ``word`` as a whole (lowered) translation cell, in file order."""
        out: list[str] = []
        low, needle = self._lowered(), "\t" + word
        pos = low.find(needle)
        while pos != -1 and len(out) < limit:
            start = low.rfind("\n", 0, pos) + 1
            line_end = low.find("\n", pos)
            line_end = len(low) if line_end == -1 else line_end
            end = pos + len(needle)
            whole = end == line_end or low[end] == "\t" or not low[end:line_end].strip()
            line = self.text[start:line_end] if self.lowered is not None else self._line(low.count("\n", 0, start))
            if whole and line and line[0] != "#":
                out.append(line.rstrip().split("\t", 1)[0])
            pos = low.find(needle, pos + 1)
        return out


@functools.lru_cache(maxsize=1)
def _table() -> _Table:
    return _Table(data_text(XLANG_FILE))


def translations_in(text: str, words: Iterable[str], *, per_word: int = 3) -> list[str]:
    """Cross-language terms for ``text``: Chinese for each of ``words`` (folded English), English for
    each Chinese vocabulary word that occurs in ``text``; at most ``per_word`` each, in order.

    A light lookup for the per-prompt path: no :class:`~mimomem.text.expansion.Vocabulary` is
    built (building one tokenizes the whole file, about 0.2 s), and the caller tokenizes only
    what it gets.
    """
    table = _table()
    out: list[str] = []
    for word in words:
        out += table.heads_of(word, per_word) if word else []
    out += [w for head, rest in table.rows if head in text for w in table.others(rest)[:per_word]]
    return list(dict.fromkeys(out))


__all__ = ["XLANG_FILE", "data_text", "translations_in"]
