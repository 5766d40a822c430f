"""Find and load the SQLite extension (``lib/libmimomem.so``, built by setup.py from ``_native/``).

The shape is sqlite-vec's: ``loadable_path()`` for any SQLite, ``load(conn)`` for Python
connections.  The file sits in ``lib/``, a directory that is not a Python package, so no
import machinery ever mistakes the shared library for a Python module.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

from mimomem.errors import ExtensionNotBuiltError, LoadExtensionUnsupportedError, SqliteExtensionError

ENTRY_POINT = "sqlite3_mimomem_init"
"""The extension's entry point (SQLite also derives it from the file name ``libmimomem``)."""

_SUFFIX = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")

ALTERNATIVES = (
    "use apsw (pip install apsw; apsw.Connection can load extensions), a Python whose sqlite3 module "
    "was built with --enable-loadable-sqlite-extensions (python-build-standalone / uv, Debian's python3, "
    "python.org's Windows builds), or mimomem's own pre-tokenized column (mimomem.MemoryIndex / DocumentIndex "
    "index CJK text through the stdlib sqlite3 without loading anything)"
)


def loadable_path() -> str:
    """The path of the loadable extension file, for any SQLite's ``load_extension``."""
    path = Path(__file__).resolve().parent / "lib" / f"libmimomem{_SUFFIX}"
    if not path.is_file():
        raise ExtensionNotBuiltError(
            f"this mimomem install has no SQLite extension ({path} is missing): {_why_missing()}"
        )
    return str(path)


REINSTALL = (
    "reinstall mimomem (pip install --force-reinstall --no-cache-dir --no-binary mimomem mimomem, "
    "or pip install . in a checkout)"
)


def _why_missing() -> str:
    """What the build said about the extension (``mimomem/_build.json``), and what to do about it."""
    from mimomem.common.build import not_built

    why = not_built("sqlite")
    if why is None:  # no record (a source tree never built, an old install): the usual cause
        return (
            "it was not built, most often for want of SQLite's headers. Install them (Debian/Ubuntu: apt-get "
            f"install libsqlite3-dev) and a C++ compiler, then {REINSTALL}"
        )
    if "sqlite3ext.h" in why:
        return (
            f"when mimomem was installed, {why} (SQLite's headers). Install them (Debian/Ubuntu: apt-get install "
            f"libsqlite3-dev) or set MIMOMEM_SQLITE_INCLUDE=<dir>, then {REINSTALL}"
        )
    if "compiling it failed" in why:
        return f"when mimomem was installed, {why}. Install a C++ compiler (C++17), then {REINSTALL}"
    return f"when mimomem was installed, it was not built: {why}; {REINSTALL}"


def load(conn: Any) -> None:
    """Load the extension into ``conn``: a stdlib ``sqlite3.Connection`` or an ``apsw.Connection``.

    Loading twice is harmless (the second load registers the same names again).  Raises
    ``LoadExtensionUnsupportedError`` when the connection cannot load extensions at all, with
    the alternatives, and ``SqliteExtensionError`` when SQLite refuses this file.
    """
    path = loadable_path()
    enable = getattr(conn, "enable_load_extension", None) or getattr(conn, "enableloadextension", None)
    loader = getattr(conn, "load_extension", None) or getattr(conn, "loadextension", None)
    if enable is None or loader is None:
        kind = "this Python's sqlite3 module" if isinstance(conn, sqlite3.Connection) else type(conn).__name__
        raise LoadExtensionUnsupportedError(
            f"{kind} cannot load SQLite extensions (no enable_load_extension): {ALTERNATIVES}"
        )
    try:
        enable(True)
        try:
            if isinstance(conn, sqlite3.Connection):
                loader(path)  # the entry point comes from the file name (3.10 and 3.11 take no argument)
            else:
                loader(path, ENTRY_POINT)
        finally:
            enable(False)
    except Exception as exc:
        if isinstance(exc, SqliteExtensionError):
            raise
        raise SqliteExtensionError(
            f"SQLite refused to load {path} ({exc}); {'it needs FTS5. ' if 'FTS5' in str(exc) else ''}"
            f"if this SQLite forbids extensions, {ALTERNATIVES}"
        ) from exc
