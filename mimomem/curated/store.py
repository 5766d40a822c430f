"""Curated memory: small Markdown files with frontmatter, compiled outlines, scored recall.

Two roots of one shape, global (``<XDG config>/mimomem/memory/``) and project (``<project>/.memory/``):
``<category>/<slug>.md`` files, compiled ``<category>/index.md`` and ``ROOT.md``, hit counts in a
git-ignored ``.state.json``.  The files are the truth: the BM25 index and the duplicate filter are
rebuilt from them when another process changes them.  The package's other modules each do one job.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mimomem.common.secrets import redact_secrets
from mimomem.curated.ids import checked_categories, split_id
from mimomem.curated.memory import (
    CURATED_SCOPES,
    DEFAULT_CATEGORIES,
    BulkResult,
    ForgetResult,
    InspectReport,
    Memory,
    MemoryFields,
    MemoryStatus,
    Problem,
    Recalled,
    iso,
    memory_from_meta,
    new_memory_meta,
)
from mimomem.curated.ranking import RecallIndex, memory_key
from mimomem.curated.recall_cache import build_ranking
from mimomem.curated.render import outline_lines
from mimomem.curated.roots import CuratedRoot, default_global_root
from mimomem.curated.scoring import decay, rehearsal
from mimomem.errors import (
    CuratedError,
    InvalidMemoryError,
    MemoryNotFoundError,
    NoProjectRootError,
    SecretRefusedError,
    StaleListingError,
)
from mimomem.text.query import Query, parse_query

if TYPE_CHECKING:  # a write imports writing and the duplicate filter; a read never needs them
    from mimomem.curated.dedup import DedupIndex
    from mimomem.curated.undo import Undo

Now = _dt.datetime | Callable[[], _dt.datetime] | None
_T = TypeVar("_T")


class CuratedMemory:
    """The curated store over a project root and a global root (see the module docstring).

    ``project_root`` is the project directory (its memories live in ``.memory/`` there);
    when ``None``, the git repository around the current directory is used, if any.
    ``global_root`` is the global memory directory itself; ``None`` means
    ``default_global_root()``.  ``now`` (a datetime or a callable) pins the clock for tests.
    """

    def __init__(
        self,
        project_root: str | os.PathLike[str] | None = None,
        global_root: str | os.PathLike[str] | None = None,
        *,
        categories: Sequence[str] = DEFAULT_CATEGORIES,
        half_life_days: float = 14.0,
        now: Now = None,
    ) -> None:
        cats = checked_categories(categories)
        if half_life_days < 0 or math.isnan(half_life_days):
            raise ValueError(f"half_life_days must be >= 0 (0 disables decay), got {half_life_days}")
        self.categories = cats
        self.half_life_days = float(half_life_days)
        self._now = now
        if project_root is None:
            from mimomem.tree.project import find_git

            found = find_git(os.getcwd())
            project_root = found[0] if found else None
        self.project_dir = Path(project_root) if project_root is not None else None
        self._roots: dict[str, CuratedRoot] = {}
        if self.project_dir is not None:
            self._roots["project"] = CuratedRoot("project", self.project_dir / ".memory", cats)
        self._roots["global"] = CuratedRoot("global", Path(global_root) if global_root else default_global_root(), cats)
        self._ranking: RecallIndex | None = None
        self._dedup: dict[str, DedupIndex] = {}

    # -- clock, roots, loading ------------------------------------------------------------------
    def now(self) -> _dt.datetime:
        """The current time (the pinned one in tests), timezone-aware UTC."""
        value = self._now() if callable(self._now) else self._now
        return value if value is not None else _dt.datetime.now(_dt.timezone.utc)

    @property
    def roots(self) -> dict[str, Path]:
        """Scope -> memory root directory (whether or not it exists yet)."""
        return {scope: root.path for scope, root in self._roots.items()}

    def _root(self, scope: str) -> CuratedRoot:
        if scope not in CURATED_SCOPES:
            raise ValueError(f"scope must be 'project' or 'global', got {scope!r}")
        if scope not in self._roots:
            raise NoProjectRootError(
                "no project root: pass project_root= (CLI: --project DIR) or run inside a git repository, "
                "or use scope='global' (CLI: --global)"
            )
        return self._roots[scope]

    def _refresh(self, *, recover: bool = True) -> RecallIndex:
        """Rescan any root whose files changed since we last read it (memories are read when first
        needed), then rebuild the index (from ``curated.recall_cache`` when it holds those files).
        ``recover``: also clean up after a writer killed half-way (``recover_root``); off
        when the caller holds the root's lock already (its write recompiles everything).
        """
        changed = False
        for root in self._roots.values():
            if root.fingerprint is None or root.current_fingerprint() != root.fingerprint:
                root.scan()
                if recover and root.exists():
                    from mimomem.curated.transaction import recover_root

                    recover_root(root, self.categories)
                self._dedup.pop(root.scope, None)
                changed = True
        if changed or self._ranking is None:
            self._ranking = build_ranking(self._roots, self.categories, self.half_life_days, self._is_eligible)
        return self._ranking

    def reload(self) -> None:
        """Forget everything read so far and read both roots again."""
        for root in self._roots.values():
            root.fingerprint = None
        self._refresh()

    def _is_eligible(self, memory: Memory) -> bool:
        """Live for recall: not superseded, not a proposal, not shadowed by a project memory."""
        if memory.superseded_by or memory.kind == "rule-proposal":
            return False
        if memory.scope == "global" and "project" in self._roots:
            return memory.id not in self._roots["project"].memories
        return True

    def _reindex(self, memory: Memory | None, *, key: str | None = None) -> None:
        """Keep the index in step with one changed memory (or removed key)."""
        key = memory_key(memory) if memory is not None else key
        assert self._ranking is not None and key is not None
        self._ranking.remove(key)
        if memory is not None and self._is_eligible(memory):
            self._ranking.add(memory)

    def memories(self, scope: str | None = None) -> list[Memory]:
        """Every memory file read (all statuses), project first, each root in id order."""
        self._refresh()
        out: list[Memory] = []
        for root in self._roots.values():
            if scope is None or root.scope == scope:
                out.extend(root.memories[k] for k in sorted(root.memories))
        return out

    def get(self, memory_id: str, *, scope: str | None = None) -> Memory:
        """The memory with this id (the project one wins when both roots have it)."""
        self._refresh()
        split_id(memory_id, self.categories)
        for root in self._roots.values():
            if (scope is None or root.scope == scope) and memory_id in root.memories:
                return root.memories[memory_id]
        raise MemoryNotFoundError(redact_secrets(f"no memory {memory_id!r}; `mimomem inspect` lists every id"))

    # -- recall ---------------------------------------------------------------------------------
    def _decay(self, memory: Memory, now: _dt.datetime) -> float:
        """``0.5 ** (age_days / half_life_days)``; 1 for pinned memories or half-life 0."""
        return decay(memory.updated.timestamp(), memory.pinned, now.timestamp(), self.half_life_days)

    @staticmethod
    def rehearsal(hits: int) -> float:
        """``min(1.5, 1 + 0.1 * log2(1 + hits))``: grows with recall hits, bounded (cap at 31 hits)."""
        return rehearsal(hits)

    def recall(self, query: str | Query, limit: int = 4, *, count_hits: bool = True) -> list[Recalled]:
        """The ``limit`` best live memories for ``query``, each with the reasons for its score.

        Hit counters of the returned memories are incremented (``count_hits=False`` for a
        dry run); the scores use the counts from before this call.
        """
        if limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        ranking = self._refresh()
        parsed = query if isinstance(query, Query) else parse_query(query)
        if limit == 0 or not parsed:
            return []
        now_ts = self.now().timestamp()
        hits = {scope: root.read_hits() for scope, root in self._roots.items()}
        max_hits = {scope: root.max_hits for scope, root in self._roots.items()}  # bound: of the index that ranks
        results = self._using(ranking, lambda r: r.top(parsed, limit, now_ts, hits, r.max_multiplier(now_ts, max_hits)))
        if count_hits:
            for scope, root in self._roots.items():
                root.add_hits(r.memory.id for r in results if r.memory.scope == scope)  # warns if not saved
        return results

    def _using(self, ranking: RecallIndex, use: Callable[[RecallIndex], _T]) -> _T:
        """``use(ranking)``; on a file changed since the scan, or a damaged cache, every file is read again."""
        try:
            return use(ranking)
        except (StaleListingError, TypeError, ValueError, KeyError, IndexError):  # a code bug raises again below
            for root in self._roots.values():
                root.load()
                self._dedup.pop(root.scope, None)
            self._ranking = build_ranking(
                self._roots, self.categories, self.half_life_days, self._is_eligible, use_cache=False
            )
            return use(self._ranking)

    # -- writing --------------------------------------------------------------------------------
    def remember(
        self,
        category: str,
        summary: str,
        body: str = "",
        *,
        author: str,
        highlight: str = "",
        load_when: Sequence[str] = (),
        pinned: bool = False,
        supersedes: str | None = None,
        scope: str = "project",
        slug: str | None = None,
    ) -> Memory:
        """Write one memory and recompile its root's outlines, all or nothing (see ``_writing``).

        Refused: likely secrets in any field (``SecretRefusedError``, never showing them),
        near-duplicates of a live memory in the same root (``DuplicateMemoryError``, naming it).
        ``author="model"`` cannot create hard rules: a model's ``rules`` entry is stored as kind
        ``rule-proposal``.  Line endings are stored as ``\\n``.
        """
        root = self._root(scope)
        with self._writing(root) as undo:
            given = MemoryFields(category, summary, body, highlight, load_when, pinned, supersedes, slug)
            return self._write_one(root, given, author=author, undo=undo)

    def _writing(self, root: CuratedRoot) -> AbstractContextManager[Undo]:
        """One all-or-nothing write to ``root`` (``transaction.writing``; ``reset`` after an undo)."""
        from mimomem.curated.transaction import writing  # writes only: a read never imports them

        return writing(root, self.categories, refresh=lambda: self._refresh(recover=False), reset=self._reset)

    def _reset(self, root: CuratedRoot) -> None:
        self._dedup.pop(root.scope, None)
        self._ranking = None

    def remember_many(self, items: Iterable[Mapping[str, Any]], *, author: str, scope: str = "project") -> BulkResult:
        """Write many memories, compiling once at the end; refused items are reported, not raised.

        Each item is a mapping with ``category`` and ``summary`` and optionally ``body``,
        ``highlight``, ``load_when``, ``pinned``, ``supersedes`` and ``slug``.  Any other failure
        (a full disk, an error from ``items``) undoes the whole batch.
        """
        return self._bulk(items, author=author, scope=scope)

    def import_dir(
        self, directory: str | os.PathLike[str], *, author: str = "user", scope: str = "project"
    ) -> BulkResult:
        """Import existing Markdown notes (``*.md`` under ``directory``) as memories.

        A note's own frontmatter ``summary``/``category``/``load_when``/``pinned`` are used
        when present; otherwise the category is the note's parent folder when that is a
        known category (else ``facts``) and the summary its first heading or line.
        """
        base = Path(directory)
        if not base.is_dir():
            raise FileNotFoundError(f"{base} is not a directory")
        from mimomem.curated.importer import read_notes

        items, labels, skipped = read_notes(base, self.categories)
        result = self._bulk(items, author=author, scope=scope, labels=labels)
        result.refused[:0] = skipped
        return result

    def _bulk(
        self, items: Iterable[Any], *, author: str, scope: str, labels: Sequence[str] | None = None
    ) -> BulkResult:
        from mimomem.curated.importer import item_arguments, item_label
        from mimomem.curated.warm import warm_caches

        root = self._root(scope)
        result = BulkResult([], [])
        with self._writing(root) as undo:  # all or nothing: a full disk undoes the whole batch
            for n, item in enumerate(items):
                try:
                    memory = self._write_one(root, item_arguments(n, item), author=author, durable=False, undo=undo)
                except (CuratedError, SecretRefusedError, ValueError) as exc:
                    result.refused.append((item_label(n, item, labels), str(exc)))
                    continue
                result.written.append(memory.id)
            if result.written:
                os.sync()  # one flush for the whole batch instead of one fsync per file
        warm_caches(self._roots, root, self.categories, undo.written, self._ranking, reset=self._reset)
        return result

    def _write_one(
        self, root: CuratedRoot, given: MemoryFields, *, author: str, undo: Undo, durable: bool = True
    ) -> Memory:
        """Check, write and register one memory (the caller holds the root's lock and compiles)."""
        from mimomem.curated import writing as w

        category, slug, supersedes, pinned = given.category, given.slug, given.supersedes, given.pinned
        fields = {"category": category, "summary": given.summary, "slug": slug, "highlight": given.highlight}
        summary, body, highlight, when = w.checked_input(
            {**fields, "load when": given.load_when, "supersedes": supersedes, "body": given.body},
            author=author,
            root=root,
            categories=self.categories,
        )
        memory_id = w.choose_id(root, category, summary, slug)
        path = root.file_for(memory_id)  # a symlinked category directory or file is refused before anything else
        old = w.supersede_target(root, supersedes)
        dedup = self._dedup_for(root)
        w.refuse_duplicate(dedup, summary, body, skip=supersedes)
        now = self.now()
        meta = new_memory_meta(
            memory_id,
            kind=w.kind_for(category, author),
            summary=summary,
            highlight=highlight,
            now=now,
            load_when=when,
            pinned=pinned,
            supersedes=supersedes,
            author=author,
        )
        content = w.memory_file_text(meta, body, where=f"{root.scope}:{memory_id}")
        path = w.write_memory_file(root, memory_id, content, path=path, durable=durable, undo=undo)
        memory, _ = memory_from_meta(  # exactly what loading the file back gives
            meta, body.strip("\n"), memory_id=memory_id, scope=root.scope, path=path, mtime=now
        )
        assert memory is not None
        self._register(root, memory, dedup, old, durable=durable, undo=undo)
        return memory

    def _register(
        self, root: CuratedRoot, memory: Memory, dedup: DedupIndex, old: Memory | None, *, durable: bool, undo: Undo
    ) -> None:
        """Bring the in-memory view in step with a memory just written (and the one it supersedes)."""
        root.memories[memory.id] = memory
        dedup.add_memory(memory.id, memory.summary, memory.body)
        if old is not None:
            self._set_superseded_by(root, old, memory.id, durable=durable, undo=undo)
        if memory.scope == "project" and "global" in self._roots and memory.id in self._roots["global"].memories:
            self._reindex(None, key=f"global:{memory.id}")  # the project memory now shadows it
        self._reindex(memory)

    def _set_superseded_by(self, root: CuratedRoot, old: Memory, new_id: str, *, durable: bool, undo: Undo) -> None:
        from mimomem.curated.writing import rewrite_meta

        changes = {"superseded_by": new_id, "updated": iso(self.now())}
        updated = rewrite_meta(root, old, changes, durable=durable, undo=undo)
        self._reindex(updated)
        if root.scope in self._dedup:
            self._dedup[root.scope].remove(old.id)

    def _dedup_for(self, root: CuratedRoot) -> DedupIndex:
        from mimomem.curated.dedup import DedupIndex

        dedup = self._dedup.get(root.scope)
        if dedup is None:
            dedup = self._dedup[root.scope] = DedupIndex.of(root.memories.values())
        return dedup

    def forget(self, memory_id: str, *, scope: str | None = None) -> ForgetResult:
        """Delete a memory file and recompile; ids outside the roots are refused.

        Memories whose ``supersedes``/``superseded_by`` pointed at it keep their links;
        they are returned as ``dangling`` and ``inspect`` reports them.
        """
        split_id(memory_id, self.categories)
        self._refresh()
        scopes = [scope] if scope else [s for s in CURATED_SCOPES if s in self._roots]
        for s in scopes:
            root = self._root(s)
            if memory_id not in root.memories:
                continue
            with self._writing(root) as undo:
                memory = root.memories.get(memory_id)
                if memory is None:
                    continue
                dangling = self._remove(root, memory, undo)
            return ForgetResult(memory_id, s, dangling)
        where = f"the {scope} root" if scope else "any root"
        raise MemoryNotFoundError(redact_secrets(f"no memory {memory_id!r} in {where}; `mimomem inspect` lists ids"))

    def _remove(self, root: CuratedRoot, memory: Memory, undo: Undo) -> list[str]:
        """Delete a memory's file and counter; the ids whose links now point at nothing."""
        path = root.file_for(memory.id)
        undo.note(path)
        path.unlink()
        root.drop_hits(memory.id)  # a later memory with this id starts from zero
        del root.memories[memory.id]
        if root.scope in self._dedup:  # built lazily by the first write; nothing to update before
            self._dedup[root.scope].remove(memory.id)
        self._reindex(None, key=memory_key(memory))
        if root.scope == "project" and "global" in self._roots:
            shadowed = self._roots["global"].memories.get(memory.id)
            if shadowed is not None:
                self._reindex(shadowed)
        return sorted(m.id for m in root.memories.values() if memory.id in (m.supersedes, m.superseded_by))

    def accept_rule(self, memory_id: str, *, scope: str | None = None) -> Memory:
        """Turn a ``rule-proposal`` into a hard rule (a person's decision)."""
        memory = self._proposal(memory_id, scope)
        root = self._root(memory.scope)
        with self._writing(root) as undo:
            from mimomem.curated.writing import rewrite_meta

            changes = {"kind": "rule", "updated": iso(self.now()), "accepted_by": "user"}
            updated = rewrite_meta(root, memory, changes, undo=undo)
            self._reindex(updated)
        return updated

    def reject_rule(self, memory_id: str, *, scope: str | None = None) -> ForgetResult:
        """Delete a ``rule-proposal``."""
        memory = self._proposal(memory_id, scope)
        return self.forget(memory_id, scope=memory.scope)

    def _proposal(self, memory_id: str, scope: str | None) -> Memory:
        memory = self.get(memory_id, scope=scope)
        if memory.kind != "rule-proposal":
            raise InvalidMemoryError(f"{memory_id} is a {memory.kind!r}, not a rule-proposal; nothing to accept/reject")
        return memory

    # -- compiled outlines and the self-check ---------------------------------------------------
    def compile(self) -> None:
        """Recompile ``ROOT.md`` and every ``index.md`` of the existing roots (``inspect --fix``)."""
        self._refresh()
        for root in self._roots.values():
            if root.exists():
                with self._writing(root):
                    pass  # the write recompiles every outline and clears a stale-write note

    def inspect(self) -> InspectReport:
        """Every memory with its status, plus the self-check: drift, broken links, malformed files, secrets."""
        from mimomem.curated.inspection import inspect_roots

        self._refresh()
        return inspect_roots(list(self._roots.values()), self.categories, self._is_eligible)

    # -- injection ------------------------------------------------------------------------------
    def render_injection(self, context_text: str, *, max_bodies: int = 4, budget_chars: int = 1200) -> str:
        """Text for the model: hard rules and the outline always, then recalled bodies within budget."""
        from mimomem.curated.injection import render_injection

        return render_injection(self, context_text, max_bodies=max_bodies, budget_chars=budget_chars)

    def hard_rules(self) -> list[Memory]:
        """Live hard rules of both roots (a project rule replaces a global one of the same id)."""
        ranking = self._refresh()
        for root in self._roots.values():
            root.memories  # read each root at once, not file by file  # noqa: B018
        eligible = self._using(ranking, lambda r: r.eligible)
        return sorted((m for m in eligible.values() if m.is_hard_rule), key=lambda m: (m.scope != "project", m.id))

    def outline(self, *, max_goals: int = 10, max_scenarios: int = 20) -> list[str]:
        """Compact outline lines: per scope, category counts, pinned goals and load-when scenarios.

        Goals and scenarios beyond the caps are counted in a closing line (never dropped
        silently); ROOT.md lists them all.
        """
        self._refresh()
        return outline_lines(
            self._roots.values(), self.categories, self._is_eligible, max_goals=max_goals, max_scenarios=max_scenarios
        )


__all__ = [  # the store and the types its methods return
    "DEFAULT_CATEGORIES",
    "BulkResult",
    "CuratedMemory",
    "ForgetResult",
    "InspectReport",
    "Memory",
    "MemoryStatus",
    "Problem",
    "Recalled",
]
