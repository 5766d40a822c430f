"""Text engine: character rules, the bigram tokenizer twins, queries and in-memory BM25.

Pure computation, no I/O.  ``_accel`` picks the native or the pure-Python twin of the hot
path; everything else here imports from it.  Deliberately empty: importing the package
must not import the extension (``mimomem._native`` imports ``text._chars`` while it loads).
"""
