"""Which of the shape rules' needles a text contains, found in one regex pass instead of one search per needle.

A shape rule runs only when the lower-cased text contains one of its needles
(``secret_shapes.NEEDLES``).  Over many texts, asking ``needle in text`` for each of the
hundred-odd needles costs more than the rules themselves; ``NeedleFinder`` compiles the
needles into one trie-shaped regex (once a process has scanned a few texts: compiling it
costs ~2 ms, a hundred ``in`` scans of a short text) and answers with the exact set present:

* the regex matches at position ``q`` exactly when some needle starts at ``q``, and (greedy,
  longest branch first) it returns the longest needle starting there; every other needle
  starting at ``q`` is a prefix of that one;
* ``finditer`` skips no occurrence: a needle starting at ``p`` lies inside some reported
  match (otherwise the scan would have reached ``p`` and matched there), so trying every
  position inside each reported match finds every occurrence.

The result equals ``{n for n in needles if n in text}`` (a hypothesis test checks it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mimomem.common.lazy_pattern import LazyPattern


def trie_pattern(words: Iterable[str]) -> str:
    """A regex matching exactly the given words, preferring the longest one at any position."""
    trie: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}  # a word ends here

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        alternatives = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not alternatives:
            return ""
        body = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(trie)


class NeedleFinder:
    """The exact set of needles (non-empty strings) that occur in a text.

    The first ``trie_after`` texts are answered with one ``in`` test per needle (as fast on one
    text as the trie, and nothing to compile: a hook scans a few texts); after that the trie
    is compiled, for processes that scan many.  Both give the same answer.
    """

    def __init__(self, needles: Iterable[str], *, trie_after: int = 32) -> None:
        self.words = tuple(sorted({n for n in needles if n}))
        self.trie_after = trie_after
        self._trie: re.Pattern[str] | None = None
        self._prefixes: dict[str, frozenset[str]] | None = None

    @property
    def prefixes(self) -> dict[str, frozenset[str]]:
        """Per needle, the needles it starts with (itself included): every needle that starts
        where a longer one starts is a prefix of it."""
        if self._prefixes is None:
            words = self.words
            self._prefixes = {n: frozenset(m for m in words if n.startswith(m)) for n in words}
        return self._prefixes

    def present(self, text: str) -> frozenset[str]:
        """``frozenset(n for n in needles if n in text)``."""
        if not self.words:
            return frozenset()
        pattern = self._trie
        if pattern is None:
            if self.trie_after > 0:
                self.trie_after -= 1
                return frozenset(n for n in self.words if n in text)
            pattern = self._trie = re.compile(trie_pattern(self.words))
        prefixes = self.prefixes
        found: set[str] = set()
        match_at = pattern.match
        for m in pattern.finditer(text):
            for q in range(m.start(), m.end()):
                at = match_at(text, q)
                if at is not None:
                    found.update(prefixes[at.group()])
        return frozenset(found)


_FOLD_LOOKALIKES = str.maketrans({"\u017f": "s", "\u0131": "i", "\u0307": None})
"""Letters a case-insensitive pattern matches as ASCII but ``str.lower`` does not make ASCII:
long s, dotless i, and the combining dot ``"İ".lower()`` leaves after its ``i``."""


def needle_text(text: str) -> str:
    """``text`` as the needle checks read it: lower-cased, look-alike letters folded to ASCII.

    The rules' patterns are case-insensitive, so they match ``Baſic`` as ``basic``; the
    needle check that decides whether a rule runs must see the same word.
    """
    global _last
    last = _last  # one tuple: another thread replacing it cannot mix two texts
    if text is last[0]:  # the rules of one scan ask for the same text in turn
        return last[1]
    low = text.lower()
    if not low.isascii() and ("\u017f" in low or "\u0131" in low or "\u0307" in low):
        low = low.translate(_FOLD_LOOKALIKES)  # slow on non-ASCII text: only when there is something to fold
    _last = (text, low)
    return low


def needle_lines(text: str, needles: tuple[str, ...], after: int = 0) -> list[tuple[int, int]]:
    """The ``(start, end)`` spans of the lines of ``text`` holding one of ``needles`` (lower case), each
    with the ``after`` lines that follow it, merged and in order: where a rule whose match holds one of
    the needles can match.  A rule reads only those spans (``pattern.finditer(text, start, end)``), not
    the whole text: most lines of a source file hold no credential's name."""
    low = needle_text(text)
    if len(low) != len(text):  # folding changed the length: positions would not line up
        return [(0, len(text))]
    starts: set[int] = set()
    find, rfind = low.find, low.rfind
    for needle in needles:
        at = find(needle)
        while at != -1:
            line = rfind("\n", 0, at) + 1
            starts.add(line)
            stop = find("\n", at)
            if stop == -1:
                break
            at = find(needle, stop)  # the rest of this line is in the span already
    spans: list[tuple[int, int]] = []
    for start in sorted(starts):
        end = start
        for _ in range(after + 1):
            end = text.find("\n", end) + 1 or len(text) + 1
            if end > len(text):
                break
        end = min(end, len(text))
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def needle_matches(
    pattern: LazyPattern, text: str, needles: tuple[str, ...], after: int = 0
) -> Iterator[re.Match[str]]:
    """``pattern``'s matches on the lines holding one of ``needles`` and the ``after`` lines after each:
    the same matches as over the whole text for a pattern each of whose matches holds a needle and
    reaches at most ``after`` lines past it, for a fraction of the cost."""
    for start, end in needle_lines(text, needles, after):
        yield from pattern.finditer(text, max(start - 1, 0), end)  # from the line break: a leading \s


_last = ("", "")
"""The last text ``needle_text`` was asked for (compared by identity) and its answer."""


__all__ = ["NeedleFinder", "needle_lines", "needle_matches", "needle_text", "trie_pattern"]
