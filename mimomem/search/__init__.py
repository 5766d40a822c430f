"""SQLite search cache over the memory tree: schema, reconcile, backends, ``MemoryIndex``.

Everything here is derived from the Markdown files and may be deleted at any time.
"""
