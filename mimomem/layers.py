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
    ("search", "served"),
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
``served`` is what a hook answers with from a saved plan (:data:`SERVED`); ``context`` builds the plans.
``memory`` is the memory floor: what the front ends (``mcp``, ``hooks``, ``cli``) call."""

TWINS: dict[str, str] = {"_native": "text"}
"""A compiled module -> the part whose pure twin it is; the two are one part on one floor.
``mimomem._native`` (built from ``_native/_native.pyx`` and its ``.pxi`` includes) takes
``text``'s character tables and ``Token``, and ``text._accel`` picks it or the pure twin:
they import each other, as one folder's modules may."""

KNOWN_DEBTS: dict[tuple[str, str], str] = {}
"""(importer, imported) -> why the upward arrow stands for now."""


SERVED: frozenset[str] = frozenset(
    {
        *("mimomem", "mimomem._native", "mimomem.hooks", "mimomem.hooks.entry", "mimomem.hooks.entry_session"),
        *("mimomem.common", "mimomem.common.cache", "mimomem.common.hashing", "mimomem.common.launcher"),
        *("mimomem.common.lazy_pattern", "mimomem.common.light_typing", "mimomem.common.nofollow"),
        *("mimomem.common.secrets", "mimomem.common.secret_commands", "mimomem.common.secret_context"),
        *("mimomem.common.secret_connect", "mimomem.common.secret_labels", "mimomem.common.secret_markup"),
        *("mimomem.common.secret_label_values", "mimomem.common.secret_needles", "mimomem.common.secret_phrases"),
        *("mimomem.common.secret_printed", "mimomem.common.secret_slots"),
        *("mimomem.common.secret_records", "mimomem.common.secret_shapes", "mimomem.common.secret_values"),
        *("mimomem.common.span_file", "mimomem.common.stamp"),
        *("mimomem.served", "mimomem.served.budgeted", "mimomem.served.entries", "mimomem.served.entry_index"),
        *("mimomem.served.entry_recall", "mimomem.served.entry_gate", "mimomem.served.prompt_terms"),
        *("mimomem.served.estimate", "mimomem.served.fitting", "mimomem.served.hosts"),
        *("mimomem.served.instructions", "mimomem.served.plans", "mimomem.served.prompt", "mimomem.served.session"),
        *("mimomem.curated", "mimomem.curated.scoring"),
        *("mimomem.text", "mimomem.text._accel", "mimomem.text._bm25_py", "mimomem.text._chars"),
        *("mimomem.text._tokenizer_py", "mimomem.text.bm25", "mimomem.text.query", "mimomem.text.stopwords"),
        *("mimomem.text.tokens", "mimomem.text.xlang"),
        *("mimomem.tree", "mimomem.tree.boilerplate", "mimomem.tree.safe_ids"),
    }
)
"""The modules a served hook may import: a prompt or a new session answered from its saved plan
(:mod:`mimomem.hooks.entry`), a new process on every prompt, where every import is paid each time.
``tests/test_layers_served.py`` reads the module-level imports of each of them (not those under
``TYPE_CHECKING``, nor a function's, which may reach the slow side the served path never calls)
and fails on one outside this set and ``SERVED_STDLIB``; the hook tests run a served prompt and a
served start in a fresh interpreter and fail on any module loaded outside them."""

SERVED_STDLIB: frozenset[str] = frozenset(
    {
        *("__future__", "collections", "json", "os", "re", "sys", "contextlib", "marshal", "math", "mmap"),
        *("struct", "_struct", "bisect", "_bisect", "heapq", "_heapq", "binascii", "unicodedata", "shlex"),
        *("encodings", "_blake2", "_sha256", "_cython", "cython_runtime", "functools", "itertools", "stat"),
    }
)
"""The standard-library modules (top-level names) a served hook may import: light ones only; never
``typing``, ``dataclasses``, ``pathlib``, ``hashlib`` (each costs a hook process milliseconds).
``_cython`` is the Cython runtime's shared module (``_cython_3_x_y``) the native twin brings."""

SERVED_PURE_STDLIB: frozenset[str] = frozenset(
    {"typing", "_typing", "warnings", "regex", "locale", "_locale", "string", "_string", "threading", "_weakrefset"}
)
"""What the pure-Python twins of the text engine bring besides (``MIMOMEM_PURE=1``; never the default);
``typing`` brings ``warnings`` (an editable install has loaded it at start-up, a wheel has not)."""


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
