"""The per-prompt cross-language lookup: Chinese words for English ones and back, from the shipped file.

``data/xlang_zh_en.tsv`` holds ``中文<TAB>english<TAB>...`` rows (see
:mod:`mimomem.text.expansion`, which builds full :class:`~mimomem.text.expansion.Vocabulary`
objects from it).  A prompt hook needs only the rows its prompt touches, so this module reads
the file as text, lowers it once, and finds the rows by string search: no dictionary of every
word is built (that cost ~10-25 ms per process) and nothing heavier than ``os`` is imported.
"""

from __future__ import annotations

import functools
import os
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate

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


class _Table:
    """The file's lines, the same lines lowered (one ``str.lower``), their start offsets, the heads."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.lowered = text.lower()
        low_lines = self.lowered.split("\n")
        self.low_lines = low_lines if len(low_lines) == len(self.lines) else [ln.lower() for ln in self.lines]
        if self.low_lines is not low_lines:  # never for real text; keeps the offsets honest if it happened
            self.lowered = "\n".join(self.low_lines)
        self.starts = list(accumulate((len(ln) + 1 for ln in self.low_lines), initial=0))
        self.rows = [i for i, ln in enumerate(self.lines) if ln and ln[0] != "#"]
        self.heads = [self.lines[i].rstrip().split("\t", 1)[0] for i in self.rows]

    def others(self, i: int) -> list[str]:
        """Line ``i``'s translations, lowered, empty cells left out."""
        return [cell for cell in self.low_lines[i].rstrip().split("\t")[1:] if cell]

    def heads_of(self, word: str, limit: int) -> list[str]:
        """The first ``limit`` heads of rows with ``word`` as a whole (lowered) translation cell, in file order."""
        out: list[str] = []
        low, needle = self.lowered, "\t" + word
        pos = low.find(needle)
        while pos != -1 and len(out) < limit:
            i = bisect_right(self.starts, pos) - 1
            end = pos + len(needle)
            line_end = self.starts[i] + len(self.low_lines[i])
            whole = end == line_end or low[end] == "\t" or not low[end:line_end].strip()
            if whole and self.lines[i] and self.lines[i][0] != "#":
                out.append(self.lines[i].rstrip().split("\t", 1)[0])
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
    out += [
        w for i, head in zip(table.rows, table.heads, strict=True) if head in text for w in table.others(i)[:per_word]
    ]
    return list(dict.fromkeys(out))


__all__ = ["XLANG_FILE", "data_text", "translations_in"]
