"""What the install built: the native twin and the SQLite extension, or why not.

``setup.py`` writes ``mimomem/_build.json`` (``{"native": ..., "sqlite": ...}``, each ``"built"`` or
``"not built: <why>"``) because ``pip install -q`` hides every line the build prints: a build that
fell back to pure Python, or left the SQLite extension out, would otherwise say so nowhere a user
looks.  A source tree that was never built has no such file, and then nothing is claimed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

STATUS_FILE = Path(__file__).resolve().parents[1] / "_build.json"

PARTS = {"native": "native extension", "sqlite": "SQLite extension"}


def status() -> dict[str, str]:
    """The build's record (``{}`` when there is none or it cannot be read)."""
    try:
        data = json.loads(STATUS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return (
        {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else {}
    )


def not_built(part: str) -> str | None:
    """Why the install has no ``part`` (``native`` or ``sqlite``), as the build said; None if built or unknown."""
    said = status().get(part, "built")
    return None if said == "built" else said.removeprefix("not built: ")


def source_tree() -> Path | None:
    """The checkout this package was imported from, when it is one that was never built (else None).

    A checkout's ``mimomem/`` beside its ``setup.py`` and ``_native/``, with no build record: what
    ``PYTHONPATH=.`` or ``python -m mimomem`` in the repository root imports instead of the installed
    package.  (``pip install -e`` builds in place and leaves a record: that is not a shadow.)
    """
    package = STATUS_FILE.parent
    root = package.parent
    if STATUS_FILE.is_file() or not (root / "setup.py").is_file() or not (root / "_native").is_dir():
        return None
    return package


def shadow_notice(native: bool) -> str | None:
    """A loud line when a measurement would run an unbuilt source tree instead of the installed package.

    Said by ``mimomem bench`` and ``tokenize --diff``, whose numbers it changes; not by every command
    (the test suite runs the CLI from the checkout on purpose).
    """
    if native or os.environ.get("MIMOMEM_PURE", "") not in ("", "0"):
        return None
    shadow = source_tree()
    if shadow is None:
        return None
    return (
        f"mimomem: WARNING: running the source tree {shadow} (pure Python: it has no compiled extension), not "
        "the installed mimomem: PYTHONPATH=. or the working directory put the checkout first; run from another "
        "directory without PYTHONPATH (a candidate tokenizer module is found in the working directory without "
        "it), or set MIMOMEM_PURE=1 if pure Python is what you want"
    )


def pure_python_notice(native: bool) -> str | None:
    """One line for a user running pure Python because the build failed (None when native, chosen or unknown)."""
    if native or os.environ.get("MIMOMEM_PURE", "") not in ("", "0"):
        return None
    why = not_built("native")
    if why is None:
        return None
    return (
        f"mimomem: running pure Python (correct, slower): the native extension was not built when mimomem was "
        f"installed ({why}); reinstall with a C++ compiler present (pip install --force-reinstall --no-cache-dir "
        "mimomem, or pip install . in a checkout), or set MIMOMEM_PURE=1 to choose pure Python and silence this"
    )
