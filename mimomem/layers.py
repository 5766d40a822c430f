"""The floors of the package, ground first: a module imports its own folder or a lower floor, never a higher one.

This table is the one place the layering is written down.  ``tests/test_layers.py`` reads every
import of the package (lazy ones and ``TYPE_CHECKING`` ones too) and fails on an arrow that runs
up or sideways (two folders on one floor import neither each other), unless it is listed in
``KNOWN_DEBTS`` with its reason; a debt that is paid must leave the list.  docs/architecture.md's
architecture table lists the folders in this order (the same test checks it).

Nothing of the package imports this module: it is the plan, read by the test.
"""

from __future__ import annotations

FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "layers"),
    ("common",),
    ("text", "tree"),
    ("curated",),
    ("search",),
    ("context",),
    ("history", "sqlite"),
    ("passes",),
    ("memory",),
    ("__init__",),
    ("mcp", "hooks"),
    ("integrations",),
    ("bench",),
    ("cli",),
    ("__main__",),
)
"""Each floor's parts: a folder of ``mimomem/``, or a top-level module (``errors`` is ``errors.py``,
``layers`` this file, ``__init__`` the package's public face).
``memory`` is the memory floor: what the front ends (``mcp``, ``hooks``, ``cli``) call."""

TWINS: dict[str, str] = {"_native": "text"}
"""A compiled module -> the part whose pure twin it is; the two are one part on one floor.
``mimomem._native`` (built from ``_native/_native.pyx`` and its ``.pxi`` includes) takes
``text``'s character tables and ``Token``, and ``text._accel`` picks it or the pure twin:
they import each other, as one folder's modules may."""

KNOWN_DEBTS: dict[tuple[str, str], str] = {}
"""(importer, imported) -> why the upward arrow stands for now."""


def floor_of(module: str) -> int:
    """The floor (0 = ground) of a ``mimomem...`` module, from the part it belongs to."""
    part = part_of(module)
    for number, floor in enumerate(FLOORS):
        if part in floor:
            return number
    raise KeyError(f"{module} is on no floor: add its folder to mimomem.layers.FLOORS")


def part_of(module: str) -> str:
    """The folder or top-level module of ``mimomem`` that ``module`` belongs to."""
    parts = module.split(".")
    part = parts[1] if len(parts) > 1 else "__init__"
    return TWINS.get(part, part)
