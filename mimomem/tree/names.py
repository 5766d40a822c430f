"""File names as the disk holds them: which ones mimomem can write, and showing any of them safely.

On POSIX a file name is bytes.  Python decodes a name that is not UTF-8 with
``surrogateescape`` (byte ``0xff`` becomes ``'\\udcff'``); such a string cannot be stored
in SQLite, printed to a UTF-8 terminal or put in JSON.  :func:`printable` shows any name
with backslash escapes instead (``\\xff`` for an undecodable byte, ``\\ud800`` for a lone
surrogate that came from elsewhere), so a message can always name the file.
"""

from __future__ import annotations

NAME_MAX = 255
"""The longest file name, in bytes, on the filesystems mimomem supports (ext4, APFS, btrfs, xfs)."""

MAX_NAME_BYTES = 200
"""The longest name (UTF-8 bytes) mimomem writes.

``mimomem.common.files.atomic_write`` first writes ``.<name>.<pid>.<random>.tmp`` beside
the file (about 30 bytes more than the name), so a name near ``NAME_MAX`` would fail with
``ENAMETOOLONG`` about the temp file; 200 leaves that room with a margin.
"""

NOT_UTF8 = "name is not valid UTF-8 (shown with backslash escapes); rename it to UTF-8 to have it indexed"


def is_utf8(text: str) -> bool:
    """True when ``text`` encodes to UTF-8 (it holds no lone surrogates)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every lone surrogate written as a backslash escape (always valid UTF-8)."""
    if is_utf8(text):
        return text
    return "".join(_escape(ch) if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


__all__ = ["MAX_NAME_BYTES", "NAME_MAX", "NOT_UTF8", "is_utf8", "printable"]
