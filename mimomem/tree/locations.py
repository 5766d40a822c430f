"""Where mimomem keeps its data: the data directory and the memory root inside it.

``MIMOMEM_HOME`` (an absolute path) puts everything under ``$MIMOMEM_HOME/data``;
otherwise the XDG data directory is used (``$XDG_DATA_HOME/mimomem``, by default
``~/.local/share/mimomem``).  The memory tree lives at ``<data>/memory``.

MiMo-Code keeps the same layout under ``$MIMOCODE_HOME/data`` or
``$XDG_DATA_HOME/mimocode``; :func:`mimocode_data_dir` finds it so that a
``MemoryTree`` can open that tree in place (see ``MemoryTree.from_mimocode``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mimomem.errors import LocationError, MemoryRootNotFoundError

HOME_ENV = "MIMOMEM_HOME"
MIMOCODE_HOME_ENV = "MIMOCODE_HOME"
MEMORY_DIRNAME = "memory"


def _xdg_data_home(env: Mapping[str, str]) -> Path:
    # The XDG spec says relative values are invalid and must be ignored.
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "share"


def _data_dir(env: Mapping[str, str] | None, home_var: str, app: str) -> Path:
    env = os.environ if env is None else env
    home = env.get(home_var)
    if home:
        if not os.path.isabs(home):
            raise LocationError(
                f"{home_var} must be an absolute path, got {home!r}; "
                f"set it to an absolute directory or unset it to use the XDG data directory"
            )
        return Path(os.path.normpath(home)) / "data"
    return _xdg_data_home(env) / app


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """mimomem's data directory: ``$MIMOMEM_HOME/data`` or ``$XDG_DATA_HOME/mimomem``.

    ``env`` defaults to ``os.environ``; tests pass a dict.  Nothing is created.
    """
    return _data_dir(env, HOME_ENV, "mimomem")


def memory_root(data: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None) -> Path:
    """The memory tree root, ``<data>/memory`` (``data`` defaults to :func:`data_dir`)."""
    base = data_dir(env) if data is None else Path(data)
    return base / MEMORY_DIRNAME


def mimocode_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """MiMo-Code's data directory: ``$MIMOCODE_HOME/data`` or ``$XDG_DATA_HOME/mimocode``."""
    return _data_dir(env, MIMOCODE_HOME_ENV, "mimocode")


def mimocode_memory_root(data: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None) -> Path:
    """The memory root of an existing MiMo-Code data directory; it must already exist.

    Raises ``LocationError`` when there is no ``memory`` directory there, because opening
    a MiMo-Code tree is meant to reuse one, not to create a new tree by accident.
    """
    base = mimocode_data_dir(env) if data is None else Path(data)
    root = base / MEMORY_DIRNAME
    if not root.is_dir():
        raise LocationError(
            f"no MiMo-Code memory tree at {root}; pass the MiMo-Code data directory "
            f"(the one holding memory/ and mimocode.db) or set {MIMOCODE_HOME_ENV}"
        )
    return root


def existing_memory_root(root: str | os.PathLike[str]) -> Path:
    """``root`` (``~`` expanded, made absolute) if it is an existing directory.

    Raises ``MemoryRootNotFoundError`` otherwise: a root someone typed must not quietly
    get an empty index (and a database beside it) for a tree that is not there.
    """
    path = Path(os.path.abspath(os.path.expanduser(os.fspath(root))))
    if not path.is_dir():
        what = "is not a directory" if path.exists() else "does not exist"
        raise MemoryRootNotFoundError(
            f"memory root {path} {what}; fix the path, or create the directory first "
            f"(mkdir -p {path}); nothing was created"
        )
    return path
