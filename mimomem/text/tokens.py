"""Tokens and the public ``tokenize`` entry point.

Two modes:

* ``bigram`` (default) - CJK runs become overlapping bigrams, a lone CJK character a
  unigram; letters, digits and ``_`` form words; NFKC + case folding.  Native when the
  extension is built, pure Python otherwise (see ``native_available``).
* ``jieba`` - jieba's search-mode segmentation, folded the same way, for comparison and
  for segmenting long natural-language queries.
"""

from __future__ import annotations

from collections.abc import Iterable

from mimomem.common.light_typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Any, Literal, overload


MAX_WORD = 255
"""Longest word token, in folded characters; longer runs are cut (as Lucene does)."""

MODES = ("bigram", "jieba")

TOKENIZER_VERSION = 2
"""Bumped whenever bigram tokens change for some text; stored indexes rebuild on a change."""


class Token(NamedTuple):
    """One token: folded ``text`` and its ``[start, end)`` code-point span in the input."""

    text: str
    start: int
    end: int


def tokenize(text: str, mode: str = "bigram") -> list[Token]:
    """Tokenize ``text``; every token keeps its offsets into ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"tokenize() needs str, got {type(text).__name__}; decode bytes first")
    if mode == "bigram":
        from mimomem.text._accel import tokenize_bigram

        return tokenize_bigram(text)
    if mode == "jieba":
        from mimomem.text.segment import tokenize_jieba

        return tokenize_jieba(text)
    from mimomem.errors import UnknownModeError

    raise UnknownModeError(f"unknown tokenizer mode {mode!r}; valid modes: {', '.join(MODES)}")


if TYPE_CHECKING:  # the overloads are for type checkers: a served prompt never imports typing

    @overload
    def tokenize_many(texts: Iterable[str], *, offsets: Literal[False] = False) -> list[tuple[str, ...]]: ...
    @overload
    def tokenize_many(
        texts: Iterable[str], *, offsets: Literal[True]
    ) -> list[tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]]: ...
    @overload
    def tokenize_many(texts: Iterable[str], *, offsets: bool) -> list[Any]: ...


def tokenize_many(texts: Iterable[str], *, offsets: bool = False) -> list[Any]:
    """Bigram tokens of many texts in one call: a tuple of token strings per text.

    The bulk path (indexing, shadow columns): no ``Token`` objects, and in the native build
    frequent short tokens (CJK bigrams, short ASCII words) are shared str objects rather
    than new ones.  With ``offsets=True`` each text gives ``(tokens, starts, ends)``, the
    code-point offsets ``tokenize`` would give.  Call it on batches (tens to hundreds of
    texts): every token of a batch is alive at once.
    """
    from mimomem.text._accel import tokenize_many as many

    return many(texts, offsets=offsets)
