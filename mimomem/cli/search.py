"""``mimomem search``, ``reconcile`` and ``index stats``: the SQLite cache over the memory tree."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from mimomem.cli import checks
from mimomem.cli.exits import NO, OK
from mimomem.errors import UsageError
from mimomem.search.index import MemoryIndex
from mimomem.tree.memory_tree import MemoryTree

if TYPE_CHECKING:
    from mimomem.memory.search import Results


def open_index(args: argparse.Namespace) -> MemoryIndex:
    """The index named by ``--root`` / ``--db`` (checked first) and the other index options."""
    tree = MemoryTree(checks.existing_dir(args.root, "--root"))
    db = os.path.expanduser(args.db) if args.db else str(tree.data_dir / "mimomem.db")
    checks.file_path(db, "--db", "mimomem.db")
    if args.db and not os.path.isdir(os.path.dirname(os.path.abspath(db))):
        raise UsageError(f"--db {args.db}: its directory does not exist; create it first or fix the path")
    args.db_used = db  # named in the message if SQLite fails (see exits.database_advice)
    return MemoryIndex(
        tree,
        db,
        claude_code=args.claude_code,
        reconcile_on_search=not getattr(args, "no_reconcile", False),
        expand_synonyms=getattr(args, "expand", False),
    )


def cmd_search(args: argparse.Namespace) -> int:
    """This project's tree and curated hits in one list, narrowed by the filters given.

    The library's one memory search (:func:`mimomem.memory.search.search`); zero hits print
    what to try next and exit 1 (as grep).
    """
    from mimomem.memory.search import Filters, search
    from mimomem.tree.where import locate

    project = checks.existing_dir(args.project, "--project") or "."
    filters = Filters(args.scope, args.scope_id, args.type, all_projects=args.all_projects)
    with open_index(args) as index:
        where = locate(project, session_id=args.session, tree=index.tree)
        results = search(where, args.query, filters, limit=args.limit, backend=args.backend, index=index)
    hints = explain(results)
    if args.json:
        print(json.dumps(_search_json(results, where.project_name, hints), ensure_ascii=False, indent=2))
        return OK if results else NO
    for warning in results.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not results:
        print(f'No matches for "{args.query}".')
        print("\n".join(hints))
        return NO
    place = "all projects" if args.all_projects else where.project_name
    narrowed = "".join(", " + OPTIONS[k].format(v) for k, v in filters.named().items())
    print(
        f"Found {len(results)} match(es) in {place}{narrowed} (best first by the fused score, backend "
        f"{results.backend}):\n"
    )
    for hit in results:
        own = f"{'BM25' if hit.source == 'tree' else 'recall'} {hit.source_score:.4g}"
        print(f"### {hit.path}\n{hit.label}, type {hit.type}, score {hit.score:.4g} ({own})\n{hit.snippet}\n")
    for hint in hints:
        print(hint)
    return OK


OPTIONS = {"scope": "--scope {}", "scope_id": "--scope-id {}", "type": "--type {}", "all_projects": "--all-projects"}
"""How this command spells each search filter (in the hints after an empty search)."""


def explain(results: Results) -> list[str]:
    """What to try next (after an empty search), or the notes on a search that found something."""
    from mimomem.memory.search import explain as words

    return words(results, OPTIONS)


def _search_json(results: Results, project: str, hints: list[str]) -> dict[str, Any]:
    return {
        "query": results.query,
        "backend": results.backend,
        "project": project,
        "count": len(results),
        "hits": [vars(h) for h in results],
        "hints": hints,
        "warnings": list(results.warnings),
    }


def cmd_reconcile(args: argparse.Namespace) -> int:
    """Sync the index with the files now; one summary line, then warnings (all issues with -v)."""
    with open_index(args) as index:
        report = index.reconcile()
    if args.json:
        out = {k: v for k, v in vars(report).items() if k != "issues"}
        out["issues"] = [i._asdict() for i in report.issues]
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    print(
        f"indexed {report.indexed}, pruned {report.pruned}, touched {report.touched}, "
        f"unchanged {report.unchanged}, skipped {len(report.skipped)}, warnings {len(report.warnings)} "
        f"in {report.seconds * 1000:.0f} ms"
    )
    for issue in report.issues if args.verbose else report.warnings:
        print(f"{issue.kind}: {issue.path}: {issue.reason}")
    return 0


def utc_iso(epoch: float | None) -> str | None:
    """Seconds since the epoch as ISO 8601 UTC (``2026-12-01T14:23:29Z``); None stays None."""
    if epoch is None:
        return None
    return dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def cmd_index_stats(args: argparse.Namespace) -> int:
    """Rows, per-type and per-scope counts, tokenizers, sizes and skipped files of the index."""
    with open_index(args) as index:
        if not args.no_reconcile:
            index.reconcile(force=False)
        stats = index.stats()
    if args.json:
        info = {k: v for k, v in vars(stats).items() if k != "skipped"}
        info["last_reconcile"] = utc_iso(stats.last_reconcile)
        info["last_reconcile_epoch"] = stats.last_reconcile
        info["skipped"] = [i._asdict() for i in stats.skipped]
        print(json.dumps(info, ensure_ascii=False, indent=2))
        return 0
    print(f"database        {stats.db_path} ({stats.db_bytes} bytes, schema v{stats.schema_version})")
    print(f"rows            {stats.rows}")
    print("per type        " + (", ".join(f"{k} {v}" for k, v in stats.per_type.items()) or "-"))
    print("per scope       " + (", ".join(f"{k} {v}" for k, v in stats.per_scope.items()) or "-"))
    for name, ident in stats.tokenizers.items():
        built = f"{ident} ({stats.index_bytes.get(name, 0)} bytes)" if ident else "not built (built by its first query)"
        print(f"{name:<15} {built}")
    print(f"last reconcile  {utc_iso(stats.last_reconcile) or 'never'}")
    print(f"native engine   {'yes' if stats.native else 'no (pure Python)'}")
    print(f"skipped/warned  {len(stats.skipped)}")
    for issue in stats.skipped:
        print(f"  {issue.kind}: {issue.path}: {issue.reason}")
    return 0
