"""Pure-Python reference of the bigram tokenizer (twin of ``_native.tokenize_bigram``).

Readable on purpose: this is the oracle the Cython version is tested against.
The per-character rules live in ``_chars``; this module only assembles tokens.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, overload

from mimomem.text._chars import CJK, MARK, SEP, VOICING_MARKS, WORD, char_class, compose_voicing, fold
from mimomem.text.tokens import MAX_WORD, Token


def tokenize_bigram(text: str) -> list[Token]:
    """Split ``text`` into CJK bigrams (lone CJK character: unigram) and folded words.

    Offsets are code-point indexes into ``text`` itself, so ``text[t.start:t.end]`` is
    the user's original spelling of token ``t``.
    """
    tokens: list[Token] = []
    word: list[str] = []  # folded characters of the word in progress
    word_start = word_end = 0
    run: list[str] = []  # folded characters of the CJK run in progress
    run_src: list[int] = []  # index in ``text`` where each run character starts
    run_end: list[int] = []  # index in ``text`` just past each run character

    def flush_word() -> None:
        if word:
            tokens.append(Token("".join(word), word_start, word_end))
            word.clear()

    def flush_run() -> None:
        if len(run) == 1:
            tokens.append(Token(run[0], run_src[0], run_end[0]))
        else:
            for k in range(len(run) - 1):
                tokens.append(Token(run[k] + run[k + 1], run_src[k], run_end[k + 1]))
        run.clear()
        run_src.clear()
        run_end.clear()

    for i, ch in enumerate(text):
        for out in fold(ch):
            cls = char_class(out)
            if cls == MARK:
                if word:
                    if len(word) >= MAX_WORD:  # the cut: the mark starts the next piece
                        flush_word()
                        word_start = i
                    word.append(out)
                    word_end = i + 1
                elif run and out in VOICING_MARKS:
                    composed = compose_voicing(run[-1], out)
                    if composed:
                        run[-1] = composed
                        run_end[-1] = i + 1
                continue
            if cls == WORD:
                if run:
                    flush_run()
                if len(word) >= MAX_WORD:
                    flush_word()
                if not word:
                    word_start = i
                word.append(out)
                word_end = i + 1
            elif cls == CJK:
                flush_word()
                run.append(out)
                run_src.append(i)
                run_end.append(i + 1)
            else:
                assert cls == SEP
                flush_word()
                if run:
                    flush_run()
    flush_word()
    if run:
        flush_run()
    return tokens


@overload
def tokenize_many(texts: Iterable[str], *, offsets: Literal[False] = False) -> list[tuple[str, ...]]: ...
@overload
def tokenize_many(
    texts: Iterable[str], *, offsets: Literal[True]
) -> list[tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]]: ...
@overload
def tokenize_many(texts: Iterable[str], *, offsets: bool) -> list[Any]: ...
def tokenize_many(texts: Iterable[str], *, offsets: bool = False) -> list[Any]:
    """The bigram tokens of each text as a tuple of strings (``tokenize_bigram`` without Token tuples).

    With ``offsets=True`` each text gives ``(tokens, starts, ends)``, three tuples.
    """
    out: list[Any] = []
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"tokenize_many() needs str items, got {type(text).__name__}; decode bytes first")
        tokens = tokenize_bigram(text)
        strings = tuple(t.text for t in tokens)
        out.append((strings, tuple(t.start for t in tokens), tuple(t.end for t in tokens)) if offsets else strings)
    return out
