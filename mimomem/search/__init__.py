"""SQLite search cache over the memory tree: schema, the walk of the files, reconcile, backends, ``MemoryIndex``.

Everything here is derived from the Markdown files and may be deleted at any time.
"""
