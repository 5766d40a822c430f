"""Checks on command-line arguments, run before any command touches the disk.

Each raises ``UsageError`` naming the option and what to pass instead, so a typo never creates
a tree or a database somewhere else.
"""

from __future__ import annotations

import argparse
import os
import sys

from mimomem.errors import UsageError


def existing_dir(value: str | None, option: str) -> str | None:
    """``value`` with ``~`` expanded; refuse a path that is missing or not a directory."""
    if value is None:
        return None
    path = os.path.expanduser(value)
    if not os.path.exists(path):
        raise UsageError(f"{option} {value}: no such directory; create it first or fix the path")
    if not os.path.isdir(path):
        raise UsageError(f"{option} {value}: not a directory; pass a directory")
    return path


def output_dir(value: str | None, option: str) -> None:
    """Refuse an output directory option that names an existing file (it is created if missing)."""
    if value is not None and os.path.exists(value) and not os.path.isdir(value):
        raise UsageError(f"{option} {value}: is a file, not a directory; pass a directory (created if missing)")


def new_dir(value: str | None, option: str) -> None:
    """Refuse an output directory that is a file or whose parent is missing (only the last part is created)."""
    output_dir(value, option)
    if value is None:
        return
    parent = os.path.dirname(os.path.abspath(os.path.expanduser(value)))
    if not os.path.isdir(parent):
        raise UsageError(
            f"{option} {value}: its parent directory {parent} does not exist; create it first or fix the path"
        )


def not_a_file(value: str | None, option: str) -> None:
    """Refuse a directory option (such as ``--root``) that names an existing file."""
    if value is not None and os.path.exists(value) and not os.path.isdir(value):
        raise UsageError(f"{option} {value}: not a directory; pass the memory root directory")


def file_path(value: str, option: str, example: str) -> None:
    """Refuse a file option that names a directory; ``example`` is the file name suggested inside it."""
    if os.path.isdir(value):
        raise UsageError(f"{option} {value}: is a directory; pass a file path such as {os.path.join(value, example)}")


def in_range(value: float, option: str, low: float, high: float | None = None) -> None:
    """Refuse a number below ``low``, or outside the integer range ``low..high`` when ``high`` is given."""
    if high is None and not value >= low:  # also refuses NaN
        raise UsageError(f"{option} must be >= {low}, got {value}")
    if high is not None and not low <= value <= high:
        raise UsageError(f"{option} must be an integer {low}..{high}, got {value}")


def scope_name(value: str) -> str:
    """An argparse ``type`` for ``--scope``: a folder name of the tree (``projects``) is refused naming the scope."""
    from mimomem.search.params import public_scope

    if public_scope(value) != value:
        raise argparse.ArgumentTypeError(f"{value!r} is the tree's folder name; use --scope {public_scope(value)}")
    return value


def utf8(value: str, what: str) -> str:
    """``value`` unchanged; refuse text that came from invalid UTF-8 (undecodable bytes in argv/stdin)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UsageError(
            f"{what} is not valid UTF-8 (undecodable byte at character {exc.start}); convert it to UTF-8 and retry"
        ) from None
    return value


def text_or_stdin(value: str, what: str) -> str:
    """``value``, or all of standard input when it is ``-``; undecodable input is a ``UsageError``."""
    if value != "-":
        return value
    try:
        return sys.stdin.read()
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{what} (standard input) is not valid UTF-8 (byte {exc.start}); convert it to UTF-8 and retry"
        ) from None
