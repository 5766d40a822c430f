"""jieba word segmentation, imported lazily and kept quiet.

jieba attaches a DEBUG stream handler at import and caches its dictionary in the system
temp directory; we silence the logger and keep the cache in mimomem's cache directory
(``mimomem.common.cache``).  The one module of the engine that touches the disk: jieba
reads its dictionary and writes that cache on first use.
"""

from __future__ import annotations

import functools
import os
import warnings
from typing import Any

from mimomem.common.cache import cache_dir
from mimomem.text._chars import SEP, char_class, fold
from mimomem.text.tokens import Token


@functools.lru_cache(maxsize=1)
def _jieba() -> Any:
    with warnings.catch_warnings():
        # jieba's sources have invalid escape sequences: compiling them warns (an error
        # under -W error) on interpreters where no bytecode was cached at install time
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", SyntaxWarning)
        import jieba
    import logging

    jieba.default_logger.setLevel(logging.WARNING)
    jieba.default_logger.removeHandler(jieba.log_console)
    jieba.default_logger.addHandler(logging.NullHandler())
    directory = cache_dir()
    try:
        from mimomem.common.private import private_dir

        private_dir(directory)
        jieba.dt.tmp_dir = str(directory)
    except OSError:  # read-only home: jieba still works, it just cannot cache
        jieba.dt.tmp_dir = None
        jieba.dt.cache_file = os.devnull
    jieba.dt.initialize()
    return jieba


def segment(text: str) -> list[str]:
    """jieba's precise-mode words of ``text`` (no offsets), used to split long CJK queries."""
    words: list[str] = _jieba().lcut(text, HMM=True)
    return words


def tokenize_jieba(text: str) -> list[Token]:
    """jieba search-mode tokens with offsets, folded like the bigram tokenizer.

    Search mode emits the dictionary's 2- and 3-character sub-words of a long word before
    the word itself.  Pure punctuation and whitespace pieces are dropped.
    """
    out: list[Token] = []
    # jieba does not know full-width forms: give it the width-folded text wherever folding
    # keeps one code point per code point, so its offsets stay offsets into ``text``.
    one_to_one = "".join(f if len(f) == 1 else ch for ch, f in ((ch, fold(ch)) for ch in text))
    for word, start, end in _jieba().tokenize(one_to_one, mode="search"):
        folded = "".join(fold(ch) for ch in word)
        if folded and any(char_class(ch) != SEP for ch in folded):
            kept = "".join(ch for ch in folded if char_class(ch) != SEP)
            out.append(Token(kept, start, end))
    return out
