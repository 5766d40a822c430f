"""Curated-memory commands: ``recall``, ``remember``, ``forget``, ``inspect``, ``rules``, ``import``, ``inject``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from mimomem.cli import checks
from mimomem.cli.exits import NO, OK
from mimomem.curated.store import CuratedMemory
from mimomem.search.index import MAX_LIMIT

if TYPE_CHECKING:
    from mimomem.curated.memory import Recalled

RECALL_MAX_LIMIT = MAX_LIMIT
"""``recall --limit`` accepts 1..this (the bound of ``mimomem search --limit``), ``inject --max-bodies`` 0..this."""


def open_store(args: argparse.Namespace) -> CuratedMemory:
    """The store for ``--project`` / ``--global-root``, both checked first."""
    checks.output_dir(args.global_root, "--global-root")
    return CuratedMemory(project_root=checks.existing_dir(args.project, "--project"), global_root=args.global_root)


def _scope(args: argparse.Namespace) -> str:
    return "global" if args.use_global else "project"


def cmd_recall(args: argparse.Namespace) -> int:
    """The best-matching memories with why they matched; exit 1 when none matched (as ``search``, and grep)."""
    checks.in_range(args.limit, "--limit", 1, RECALL_MAX_LIMIT)
    results = open_store(args).recall(args.query, limit=args.limit, count_hits=not args.dry_run)
    if args.json:
        print(json.dumps([_recall_json(r) for r in results], ensure_ascii=False, indent=2))
        return OK if results else NO
    if not results:
        print("no curated memory matched; `mimomem inspect` lists what is stored", file=sys.stderr)
        return NO
    for r in results:
        print(f"## {r.id} ({r.memory.scope}): {r.memory.summary}")
        print(f"why: {r.why()}")
        if r.memory.body:
            print(r.memory.body)
        print()
    return OK


def _recall_json(r: Recalled) -> dict[str, Any]:
    return {
        "id": r.id,
        "scope": r.memory.scope,
        "summary": r.memory.summary,
        "body": r.memory.body,
        "score": r.score,
        "bm25": r.bm25,
        "scope_prior": r.scope_prior,
        "decay": r.decay,
        "rehearsal": r.rehearsal,
        "hits": r.hits,
        "matched_terms": list(r.matched_terms),
        "path": str(r.memory.path),
    }


def cmd_remember(args: argparse.Namespace) -> int:
    """Store one memory through the writer API; a model-written rule becomes a proposal a person must accept."""
    from mimomem.memory import writes

    body = checks.utf8(checks.text_or_stdin(args.body or "", "the body"), "the body")
    checks.utf8(args.summary, "the summary")
    checks.utf8(args.highlight or "", "--highlight")
    for scenario in args.when or ():
        checks.utf8(scenario, "--when")
    memory = writes.remember(
        writes.Writer(author=args.author),
        args.category,
        args.summary,
        body,
        highlight=args.highlight or "",
        load_when=args.when or (),
        pinned=args.pinned,
        supersedes=args.supersedes,
        scope=_scope(args),
        slug=args.slug,
        store=open_store(args),
    )
    proposal = memory.kind == "rule-proposal"
    note = " (stored as a rule-proposal: a person must run `mimomem rules accept`)" if proposal else ""
    print(f"remembered {memory.id} in {memory.path}{note}")
    return OK


def cmd_forget(args: argparse.Namespace) -> int:
    """Delete one memory through the writer API; memories still linking to it are named."""
    from mimomem.memory import writes

    scope = "global" if args.use_global else None
    result = writes.forget(writes.Writer(), args.id, scope=scope, store=open_store(args))
    print(f"forgot {result.id} ({result.scope})")
    for other in result.dangling:
        print(f"note: {other} still links to {result.id} (supersedes chain); `mimomem inspect` reports it")
    return OK


def cmd_inspect(args: argparse.Namespace) -> int:
    """Every memory with its status, then the problems found; exit 1 when there are problems."""
    store = open_store(args)
    if args.fix:
        store.compile()
    report = store.inspect()
    if args.json:
        print(
            json.dumps(
                {
                    "roots": report.roots,
                    "memories": [m.__dict__ for m in report.memories],
                    "problems": [p.__dict__ for p in report.problems],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        for scope, path in report.roots.items():
            print(f"{scope} root: {path}")
        for m in report.memories:
            print(f"{m.status:10} {m.scope:7} {m.id}  hits={m.hits}  {m.summary}")
        for problem in report.problems:
            print(f"problem: {problem}")
        print(f"{len(report.memories)} memories, {len(report.problems)} problems")
    return OK if report.ok else NO


def cmd_rules(args: argparse.Namespace) -> int:
    """``rules accept ID`` makes a proposal a hard rule, ``rules reject ID`` deletes it: the writer API, as the user."""
    from mimomem.memory import writes

    by = writes.Writer(author="user")  # a person at the shell: the one who may accept a model's rule
    scope = "global" if args.use_global else None
    if args.rules_command == "accept":
        memory = writes.accept_rule(by, args.id, scope=scope, store=open_store(args))
        print(f"accepted {memory.id}: it is now a hard rule")
    else:
        writes.reject_rule(by, args.id, scope=scope, store=open_store(args))
        print(f"rejected and removed {args.id}")
    return OK


def cmd_import(args: argparse.Namespace) -> int:
    """Import ``*.md`` notes through the writer API; exit 1 when some were skipped (each reason on stderr)."""
    from mimomem.memory import writes

    by = writes.Writer(author=args.author)
    result = writes.import_dir(by, args.directory, scope=_scope(args), store=open_store(args))
    for label, reason in result.refused:
        print(f"skipped {label}: {reason}", file=sys.stderr)
    print(f"imported {len(result.written)} memories, skipped {len(result.refused)}")
    return OK if not result.refused else NO


def cmd_inject(args: argparse.Namespace) -> int:
    """The injection text (hard rules, outline, relevant bodies) for the given context."""
    checks.in_range(args.max_bodies, "--max-bodies", 0, RECALL_MAX_LIMIT)
    checks.in_range(args.budget, "--budget", 0)
    text = checks.text_or_stdin(args.context, "the context")
    print(open_store(args).render_injection(text, max_bodies=args.max_bodies, budget_chars=args.budget), end="")
    return OK
