"""Choose the native (Cython) or the pure-Python twin of the hot path.

``MIMOMEM_PURE=1`` forces pure Python.  Otherwise the extension is used when it
imports; call sites import ``tokenize_bigram`` and ``BM25Core`` from here only.
"""

from __future__ import annotations

import os

from mimomem.common.light_typing import TYPE_CHECKING

FORCED_PURE = os.environ.get("MIMOMEM_PURE", "") not in ("", "0")

if TYPE_CHECKING or FORCED_PURE:
    from mimomem.text._bm25_py import BM25Core
    from mimomem.text._tokenizer_py import tokenize_bigram, tokenize_many

    NATIVE = False
else:
    try:
        from mimomem._native import BM25Core, tokenize_bigram, tokenize_many

        NATIVE = True
    except ImportError:  # pragma: no cover - depends on how the package was built
        from mimomem.text._bm25_py import BM25Core
        from mimomem.text._tokenizer_py import tokenize_bigram, tokenize_many

        NATIVE = False

__all__ = ["NATIVE", "BM25Core", "tokenize_bigram", "tokenize_many"]
