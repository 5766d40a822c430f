"""The memory tree on disk: locations, project ids, layers, templates and the write gate.

The Markdown files under the memory root are the truth; this package decides which file
a caller may write and writes it atomically.
"""
