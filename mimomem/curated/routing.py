"""Which curated memories a prompt routes to by their ``load_when`` scenarios, without building them all.

A scenario applies when at least ``MIN_SCENARIO_OVERLAP`` of its bigram terms are in the
prompt ("部署到生产环境" routes to a memory whose scenario is "部署 生产").  The per-prompt hook
asks this in a new process every time; building every memory of the roots (decoding 500
snapshot entries into ``Memory`` objects) and tokenizing every scenario cost more than the
rest of curated recall.  So a root not read whole yet is routed from its snapshot's
table (kind, scenarios, superseded-by per file: no payload decoded, no ``Memory`` built), each distinct scenario is
tokenized once, and only the memories routed to are built.  A file the snapshot does not
hold, or one changed since the scan, sends the whole root down the usual path (every memory
read), so the answer is always the one ``CuratedMemory.memories`` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mimomem.curated.scoring import MIN_SCENARIO_OVERLAP, scenario_applies
from mimomem.errors import StaleListingError

if TYPE_CHECKING:
    from mimomem.curated.memory import Memory
    from mimomem.curated.roots import CuratedRoot
    from mimomem.curated.store import CuratedMemory

Applies = Callable[[Sequence[str]], bool]


def routed(store: CuratedMemory, prompt: str) -> list[Memory]:
    """Live memories whose ``load_when`` scenario matches ``prompt``, project root first, each in id order.

    A superseded memory or a ``rule-proposal`` is never routed: nobody accepted a proposal, so
    it must not reach the model beside the rules (recall leaves it out for the same reason)."""
    from mimomem.text.tokens import tokenize

    store._refresh()
    have = {t.text for t in tokenize(prompt)}
    terms_of: dict[str, set[str]] = {}

    def applies(scenarios: Sequence[str]) -> bool:
        for scenario in scenarios:
            terms = terms_of.get(scenario)
            if terms is None:
                terms = terms_of[scenario] = {t.text for t in tokenize(scenario)}
            if scenario_applies(terms, have):
                return True
        return False

    out: list[Memory] = []
    for root in store._roots.values():
        out.extend(_routed_in(root, applies))
    return out


def routable(kind: str, load_when: Sequence[str], superseded_by: str | None) -> bool:
    """Whether a memory can be routed to at all: it has a scenario, is live and is no ``rule-proposal``."""
    return bool(load_when) and not superseded_by and kind != "rule-proposal"


def _routed_in(root: CuratedRoot, applies: Applies) -> list[Memory]:
    candidates = _candidates(root)
    if candidates is not None:
        try:
            chosen = [
                root.read_listed(memory_id)
                for memory_id, kind, when, superseded_by in candidates
                if routable(kind, when, superseded_by) and applies(when)
            ]
            return [m for m in chosen if m is not None]
        except StaleListingError:
            pass  # a file changed since the scan: read the root whole, as below
    memories = root.memories
    return [
        m
        for m in (memories[k] for k in sorted(memories))
        if routable(m.kind, m.load_when, m.superseded_by) and applies(m.load_when)
    ]


def _candidates(root: CuratedRoot) -> list[tuple[str, str, tuple[str, ...], str | None]] | None:
    """``(id, kind, load_when, superseded_by)`` of every memory of the last scan, in id order, from
    the root's snapshot; ``None`` when the root is read already or a file is not in the snapshot."""
    if root.materialized or root.listing is None:
        return None
    snapshot = root.saved_snapshot()
    found = []
    for category, files in root.listing.items():
        for name, key in files:
            if key is None:
                continue  # not a regular file: never a memory
            fields = snapshot.route(f"{category}/{name}", key)
            if fields is False:
                return None
            if isinstance(fields, tuple):
                found.append((f"{category}/{name[:-3]}", *fields))
    return sorted(found)


__all__ = ["MIN_SCENARIO_OVERLAP", "routable", "routed"]
