"""mimomem's bigram tokenizer inside SQLite: the loadable FTS5 extension shipped in the wheel.

``load(conn)`` registers, on that connection, the FTS5 tokenizer ``mimomem`` (exactly the
tokens of ``mimomem.tokenize``, with byte offsets into the original text, so ``highlight()``
and ``snippet()`` mark the user's own text) and the SQL functions ``mimomem_query(text)``,
``mimomem_version()``, ``mimomem_tokens(text)`` and ``mimomem_highlight(table, column, open,
close)``.  ``loadable_path()`` is the file to give any other SQLite (the ``sqlite3`` CLI's
``.load``, bun:sqlite, better-sqlite3, Go drivers).

``stamp`` / ``check`` record and compare the tokenizer version an FTS5 table was indexed
with, so an upgrade whose tokens differ is noticed and the table rebuilt.
"""

from __future__ import annotations

from mimomem.sqlite.loading import ENTRY_POINT, load, loadable_path
from mimomem.sqlite.versions import VERSION_TABLE, check, stamp, tokenizer_version

__all__ = ["ENTRY_POINT", "VERSION_TABLE", "check", "load", "loadable_path", "stamp", "tokenizer_version"]
