"""Building the prompt hook's plan: everything the per-prompt context depends on but the prompt.

See :mod:`mimomem.served.plans` for what a plan is and how the hook serves from it.  This
side runs in the library (the hook's slow path and ``prompt_context``): it opens the tree, the
curated store and the entry cache, and records the stamp of every path the context is read
from *before* reading it, so a change made while the plan is built shows as a changed stamp
at the next prompt, never as a stale answer.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mimomem.common.stamp import Stamp, stamp, stamped, tree_stamps

if TYPE_CHECKING:
    from mimomem.curated.ranking import RecallIndex
    from mimomem.curated.store import CuratedMemory
    from mimomem.tree.where import Where


def prompt_plan(
    where: Where, *, cwd: str | None = None, also: Sequence[str] = ()
) -> tuple[list[tuple[str, Stamp | None]], dict[str, Any]]:
    """``(stamps, data)``: the inputs' stamps (with ``cwd``, the directory the project was found
    from; none without it), ``also`` stamped too (what the caller's own state depends on), and the
    plan's data for :func:`mimomem.served.prompt.answer`."""
    from mimomem.served.instructions import recall_reminder

    stamps = [*inputs(where, cwd), *stamped(also)] if cwd is not None else []
    data = {"curated": curated_part(where), "entries": entries_part(where, cwd), "reminder": recall_reminder(where)}
    return stamps, data


def inputs(where: Where, cwd: str) -> list[tuple[str, Stamp | None]]:
    """The stamp of every path the per-prompt context of ``where`` depends on (see the module docstring).

    - the memory files in scope: every file and directory under the project's memory, global
      memory and each session of the project (:func:`~mimomem.context.entry_scope.recall_dirs`),
      and the session registry that says which sessions those are;
    - both curated roots, whole (memories, outlines, recall counts);
    - the project's identity: a ``.git`` in ``cwd`` or any directory above it, and the id files;
    - the session's and the project's registration (``locate`` writes them when missing);
    - the installed package (an upgrade changes what a plan means);
    - the hosts' own memory of ``cwd``'s project (:func:`mimomem.context.host_memory.stamp_paths`).
    """
    from mimomem.context.entry_scope import recall_dirs
    from mimomem.context.host_memory import stamp_paths
    from mimomem.context.relevant import curated_roots
    from mimomem.tree.where import STATE

    out: list[tuple[str, Stamp | None]] = stamp_paths(cwd)
    for top in recall_dirs(where):
        out += tree_stamps(top)
    for top in curated_roots(where):
        out += tree_stamps(top)
    data = str(where.tree.data_dir)
    out.append((os.path.join(data, STATE, "sessions"), stamp(os.path.join(data, STATE, "sessions"))))
    out += identity_inputs(where, cwd)
    if where.session_id is not None:
        registered = os.path.join(data, STATE, "sessions", where.session_id)
        out.append((registered, stamp(registered)))
    return out + package_inputs()


def package_inputs() -> list[tuple[str, Stamp | None]]:
    """Stamps of the installed package and the modules that build plans: an upgrade changes what a plan means."""
    context = os.path.dirname(os.path.abspath(__file__))
    package = os.path.dirname(context)
    return stamped((package, os.path.join(package, "__init__.py"), __file__, os.path.join(context, "session_plan.py")))


def identity_inputs(where: Where, cwd: str) -> list[tuple[str, Stamp | None]]:
    """Stamps of what names the project of ``cwd``: a ``.git`` in ``cwd`` or any directory above it,
    the id files, and the project's registration (``locate`` writes it when missing)."""
    from mimomem.tree.where import STATE

    out: list[tuple[str, Stamp | None]] = []
    here = os.path.realpath(cwd)
    while True:
        out.append((os.path.join(here, ".git"), stamp(os.path.join(here, ".git"))))
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    identity = where.tree.project_id(where.worktree) if where.worktree is not None else None
    if identity is not None and identity.git_dir is not None:
        out += stamped(os.path.join(identity.git_dir, name) for name in where.tree.id_files)
    registered = os.path.join(where.tree.data_dir, STATE, "projects", where.project_id)
    return [*out, (registered, stamp(registered))]


def entries_part(where: Where, cwd: str | None = None) -> dict[str, Any]:
    """The entries in scope (the hosts' memory of ``cwd``'s project too) with their words and postings
    (:class:`~mimomem.served.entry_index.EntryIndex`), the template's words and the cross-language
    vocabulary (:class:`~mimomem.text.xlang.Lookup`)."""
    from mimomem.context.entry_scope import load_entries
    from mimomem.served.entries import template_terms
    from mimomem.text.xlang import current

    return {"index": load_entries(where, cwd).state, "template": template_terms(), "xlang": current().data}


def curated_part(where: Where) -> dict[str, Any] | None:
    """The curated store as curated recall and ``load_when`` routing see it; ``None`` without a store.

    - ``routes``: the routable memories' keys (``<scope>:<id>``) in routing order, and their
      scenarios inverted: each scenario's route and number of terms, each term's scenarios;
    - ``index``: the recall index's documents in insertion order (:meth:`~mimomem.text.bm25.BM25Index.parts`),
      so the served index ranks and breaks ties as the store's;
    - ``updated``, ``pinned``, ``bounds``, ``half_life``, ``hits``, ``max_hits``: what the score's
      multipliers need (:func:`mimomem.curated.scoring.info_of`);
    - ``show``: summary and body of every memory either can choose, one marshal blob each.
    """
    from mimomem.context.relevant import open_store
    from mimomem.tree.where import header_cache

    with header_cache(where):
        store = open_store(where)
        if store is None:
            return None
        return store._using(store._refresh(), lambda ranking: _curated_data(store, ranking))


def _curated_data(store: CuratedMemory, ranking: RecallIndex) -> dict[str, Any]:
    import marshal

    from mimomem.text.bm25 import BM25Index
    from mimomem.text.tokens import tokenize_many

    show: dict[str, bytes] = {}
    routes = _routes(store, show)
    doc_keys = ranking.index.doc_ids()
    indexed = [ranking.memory(key) for key in doc_keys]
    index = BM25Index()
    for key, memory, tokens in zip(doc_keys, indexed, tokenize_many([m.text for m in indexed]), strict=True):
        show[str(key)] = marshal.dumps((memory.summary, memory.body))
        index.add(key, tokens)
    return {
        "routes": routes,
        "index": index.parts(),
        "updated": {key: info[3] for key, info in ranking.info.items()},
        "pinned": frozenset(key for key, info in ranking.info.items() if info[4]),
        "bounds": {scope: tuple(bound) for scope, bound in ranking.bounds.items()},
        "half_life": store.half_life_days,
        "hits": {scope: root.read_hits() for scope, root in store._roots.items()},
        "max_hits": {scope: root.max_hits for scope, root in store._roots.items()},
        "show": show,
    }


def _routes(store: CuratedMemory, show: dict[str, bytes]) -> dict[str, Any]:
    """The routable memories and their scenarios, inverted (see :func:`curated_part`); adds their ``show``."""
    import marshal
    from array import array

    from mimomem.curated.ranking import memory_key
    from mimomem.curated.routing import routable
    from mimomem.text.tokens import tokenize

    keys: list[str] = []
    owner, size = array("I"), array("I")
    scenarios_of: dict[str, Any] = {}
    for root in store._roots.values():
        memories = root.memories
        for memory in (memories[k] for k in sorted(memories)):
            if routable(memory.kind, memory.load_when, memory.superseded_by):
                key = memory_key(memory)
                show[key] = marshal.dumps((memory.summary, memory.body))
                for scenario in memory.load_when:
                    terms = {t.text for t in tokenize(scenario)}
                    for term in terms:
                        scenarios_of.setdefault(term, array("I")).append(len(owner))
                    owner.append(len(keys))
                    size.append(len(terms))
                keys.append(key)
    return {
        "keys": tuple(keys),
        "owner": owner.tobytes(),
        "size": size.tobytes(),
        "terms": {term: found.tobytes() for term, found in scenarios_of.items()},
    }
