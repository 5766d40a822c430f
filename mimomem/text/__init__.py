"""Text engine: character rules, the bigram tokenizer twins, queries and in-memory BM25.

Computation over strings; two modules touch the disk, each for one named reason:
``bm25_file`` saves a ``BM25Index`` to the file its caller names and maps it back
(``BM25Index.save``/``load``), and ``segment`` lets jieba read its dictionary and cache it
in ``mimomem.common.cache``'s directory.  The engine owns no location.  ``_accel`` picks
the native or the pure-Python twin of the hot path; everything else here imports from it.
Deliberately empty: importing the package must not import the extension
(``mimomem._native`` imports ``text._chars`` while it loads).
"""
