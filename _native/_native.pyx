# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Native twin of mimomem's hot path: ``tokenize_bigram``, ``tokenize_many`` and ``BM25Core``.

Same names, signatures and results as ``mimomem.text._tokenizer_py`` and ``mimomem.text._bm25_py``
(the readable references); ``mimomem.text._accel`` picks one.  Per-character rules come from
``mimomem.text._chars`` through lookup tables built on first use, so only token assembly and
the index are written twice.
"""

include "_tables.pxi"
include "_tokenizer.pxi"
include "_mvec.pxi"
include "_bm25.pxi"
