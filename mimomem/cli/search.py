"""``mimomem search``, ``reconcile`` and ``index stats``: the SQLite cache over the memory tree."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from typing import Any

from mimomem.cli import checks
from mimomem.cli.exits import NO, OK
from mimomem.errors import UsageError
from mimomem.search.index import MAX_LIMIT, MemoryIndex, SearchResults
from mimomem.tree.store import MemoryTree


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
    """This project's tree and curated hits in one list; with tree filters, the memory tree alone.

    Zero hits print what to try next and exit 1 (as grep).
    """
    if not (args.scope or args.scope_id or args.type):
        return _search_everything(args)
    with open_index(args) as index:
        result = index.search(
            args.query, backend=args.backend, scope=args.scope, scope_id=args.scope_id, type=args.type, limit=args.limit
        )
        hints = list(result.hints)
        emptied = None if result else emptied_by(index, args)
    if emptied:
        hints.insert(0, emptied)
    if args.json:
        print(json.dumps(_search_json(result, hints), ensure_ascii=False, indent=2))
        return OK if result else NO
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not result:
        print(f'No matches for "{args.query}".')
        print("\n".join(hints))
        return NO
    print(f"Found {len(result)} match(es) (BM25-ranked, best first, backend {result.backend}):\n")
    for hit in result:
        where = hit.scope + (f"/{hit.scope_id}" if hit.scope_id else "")
        print(f"### {hit.path}\nScope: {where}, Type: {hit.type}, Score: {hit.score:.4g}\n{hit.snippet}\n")
    return OK


def _search_everything(args: argparse.Namespace) -> int:
    from mimomem.search.everything import search_everything
    from mimomem.search.memory_index import ESCALATION_HINTS
    from mimomem.tree.where import locate

    project = checks.existing_dir(args.project, "--project") or "."
    with open_index(args) as index:
        if args.backend:
            index.backend_name = args.backend
        where = locate(project, session_id=args.session, tree=index.tree)
        hits = search_everything(where, args.query, limit=args.limit, all_projects=args.all_projects, index=index)
    hints = [] if hits else [line.format(root=where.tree.root) for line in ESCALATION_HINTS]
    if not hits and not args.all_projects:
        hints.insert(0, "Only this project, its sessions and global memory were searched; add --all-projects.")
    if args.json:
        out = {
            "query": args.query,
            "project": where.project_name,
            "count": len(hits),
            "hits": [vars(h) for h in hits],
            "hints": hints,
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return OK if hits else NO
    if not hits:
        print(f'No matches for "{args.query}".')
        print("\n".join(hints))
        return NO
    print(
        f"Found {len(hits)} match(es) in {'all projects' if args.all_projects else where.project_name} "
        "(tree and curated memory, best first):\n"
    )
    for hit in hits:
        print(f"### {hit.path}\n{hit.label}, type {hit.type}\n{hit.snippet}\n")
    return OK


FILTERS = (("scope", "--scope"), ("scope_id", "--scope-id"), ("type", "--type"))
"""The search filters, as ``(argument, option)``, in the order they are tried when a search comes back empty."""


def emptied_by(index: MemoryIndex, args: argparse.Namespace) -> str | None:
    """Which filter emptied an empty result, and how many matches there are without it (None: not a filter).

    Each given filter is dropped on its own first (the others kept), then all of them together.
    """
    given = [(dest, option, getattr(args, dest)) for dest, option in FILTERS if getattr(args, dest)]

    def count(dropped: set[str]) -> int:
        kept = {dest: value for dest, _option, value in given if dest not in dropped}
        return len(index.search(args.query, backend=args.backend, limit=MAX_LIMIT, **kept))

    tries = [{dest} for dest, _option, _value in given]
    if len(given) > 1:
        tries.append({dest for dest, _option, _value in given})
    for dropped in tries:
        found = count(dropped)
        if found:
            named = " ".join(f"{option} {value}" for dest, option, value in given if dest in dropped)
            there = "is 1 match" if found == 1 else f"are {found}{'+' if found == MAX_LIMIT else ''} matches"
            return f"no matches with {named} (there {there} without {'it' if len(dropped) == 1 else 'them'})"
    return None


def _search_json(result: SearchResults, hints: list[str]) -> dict[str, Any]:
    return {
        "query": result.query,
        "backend": result.backend,
        "count": len(result),
        "hits": [h._asdict() for h in result],
        "hints": hints,
        "warnings": list(result.warnings),
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
        print(f"{name:<15} {ident} ({stats.index_bytes.get(name, 0)} bytes)")
    print(f"last reconcile  {utc_iso(stats.last_reconcile) or 'never'}")
    print(f"native engine   {'yes' if stats.native else 'no (pure Python)'}")
    print(f"skipped/warned  {len(stats.skipped)}")
    for issue in stats.skipped:
        print(f"  {issue.kind}: {issue.path}: {issue.reason}")
    return 0
