"""``NamedTuple`` and ``TYPE_CHECKING`` for the hook's hot path, without importing ``typing``.

A prompt hook is a new process on every prompt, and ``import typing`` costs it ~16M instructions
(~3 ms), a third of an empty interpreter's start.  Every module a served prompt imports
(:mod:`mimomem.hooks.entry`) defines its records as ``class X(NamedTuple)`` with this
``NamedTuple``: type checkers see :class:`typing.NamedTuple`; at run time the class body's
field names, defaults, methods and docstring become a :func:`collections.namedtuple`, as
``typing.NamedTuple`` does.  Annotations are never evaluated (so ``from __future__ import
annotations`` is fine: no ``ForwardRef`` is built either).
"""

from __future__ import annotations

import collections

TYPE_CHECKING = False
"""``typing.TYPE_CHECKING`` without ``typing`` (type checkers take any ``TYPE_CHECKING`` as true)."""
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    _SPECIAL = frozenset({"__module__", "__qualname__", "__annotations__", "__orig_bases__", "__static_attributes__"})

    class _RecordMeta(type):
        def __new__(mcls, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(mcls, name, bases, namespace)
            fields = list(namespace.get("__annotations__", {}))
            defaults = [namespace[f] for f in fields if f in namespace]
            if defaults and any(f not in namespace for f in fields[len(fields) - len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            record = collections.namedtuple(name, fields, defaults=defaults or None, module=namespace["__module__"])
            record.__qualname__ = namespace.get("__qualname__", name)
            record.__annotations__ = dict(namespace.get("__annotations__", {}))
            for key, value in namespace.items():
                if key not in _SPECIAL and key not in record._fields:
                    setattr(record, key, value)
            return record

    class NamedTuple(metaclass=_RecordMeta):
        """Base of a record class: ``class Point(NamedTuple): x: int; y: int = 0``."""


__all__ = ["TYPE_CHECKING", "NamedTuple"]
