"""The ``mimomem`` command: thin adapters over the library, one subcommand per method.

Each ``_cmd_*`` function calls the library and prints; library errors (``MimomemError``
and ``ValueError`` subclasses) become one-line messages and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from typing import NoReturn

from mimomem.errors import MimomemError

MAX_LIMIT = 200  # the same bound as ``MemoryIndex.search``


def _existing_dir(value: str | None, option: str) -> str | None:
    """``value`` with ``~`` expanded; refuse a path that is missing or not a directory.

    Checked before anything runs, so a typo never creates a tree or a database somewhere else.
    """
    if value is None:
        return None
    path = os.path.expanduser(value)
    if not os.path.exists(path):
        raise ValueError(f"{option} {value}: no such directory; create it first or fix the path")
    if not os.path.isdir(path):
        raise ValueError(f"{option} {value}: not a directory; pass a directory")
    return path


def _output_dir(value: str | None, option: str) -> None:
    """Refuse an output directory option that names an existing file (it is created if missing)."""
    if value is not None and os.path.exists(value) and not os.path.isdir(value):
        raise ValueError(f"{option} {value}: is a file, not a directory; pass a directory (created if missing)")


def _cmd_tokenize(args: argparse.Namespace) -> int:
    from mimomem.text.tokens import tokenize

    tokens = tokenize(args.text, mode=args.mode)
    if args.json:
        print(json.dumps([t._asdict() for t in tokens], ensure_ascii=False))
    else:
        for t in tokens:
            print(f"{t.text}\t{t.start}\t{t.end}\t{args.text[t.start:t.end]}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mimomem import bench
    from mimomem.bench.runner import stderr_progress
    from mimomem.bench.scale import parse_sizes

    if args.tolerance < 0:
        raise ValueError(f"--tolerance must be >= 0, got {args.tolerance}")
    _output_dir(args.report, "--report")
    _output_dir(args.run_file, "--run-file")
    if args.save and os.path.isdir(args.save):
        raise ValueError(f"--save {args.save}: is a directory; pass a file name such as {os.path.join(args.save, 'base.json')}")
    saved = bench.load_result(args.compare) if args.compare else None
    if args.dataset:
        paths = [Path(p) for p in args.dataset]
    else:
        paths = bench.discover_datasets(bench.find_corpora())
    result = bench.run_bench(
        paths,
        args.backend,
        run_dir=Path(args.run_file) if args.run_file else None,
        failures_only=args.failures,
        scale=parse_sizes(args.scale) if args.scale else (),
        progress=stderr_progress,
    )
    if args.save:
        bench.save_result(result, args.save)
    if args.report:
        for path in bench.write_report(result, args.report):
            print(f"wrote {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        print(bench.format_result(result), end="")
    if saved is None:
        return 0
    comparison = bench.compare_results(saved, result, args.tolerance)
    print(bench.format_comparison(comparison), file=sys.stderr if args.json else sys.stdout)
    return 0 if comparison.ok else 1


def _cmd_paths(args: argparse.Namespace) -> int:
    from mimomem.tree.store import MemoryTree

    if args.task and not args.session:
        raise ValueError("--task needs --session SID (a task journal lives in its session)")
    project = _existing_dir(args.project, "--project")
    root = args.root
    if root is not None and os.path.exists(root) and not os.path.isdir(root):
        raise ValueError(f"--root {root}: not a directory; pass the memory root directory")
    if args.mimocode is not None:
        tree = MemoryTree.from_mimocode(args.mimocode or None)
    else:
        tree = MemoryTree(root)
    ident = tree.project_id(project)
    layers = tree.layers(project_id=ident.id, session_id=args.session, task_id=args.task)
    info = {
        "project_id": ident.id,
        "repo_root": None if ident.root is None else str(ident.root),
        "git_dir": None if ident.git_dir is None else str(ident.git_dir),
        "data_dir": str(tree.data_dir),
        **{name: str(path) for name, path in layers.items()},
    }
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        width = max(map(len, info))
        for name, value in info.items():
            print(f"{name:<{width}}  {value if value is not None else '-'}")
    return 0


def _open_index(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from mimomem.search.index import MemoryIndex
    from mimomem.tree.store import MemoryTree

    tree = MemoryTree(_existing_dir(args.root, "--root"))
    db = os.path.expanduser(args.db) if args.db else str(tree.data_dir / "mimomem.db")
    if os.path.isdir(db):
        raise ValueError(f"--db {args.db}: is a directory; pass a database file path such as {os.path.join(db, 'mimomem.db')}")
    if args.db and not os.path.isdir(os.path.dirname(os.path.abspath(db))):
        raise ValueError(f"--db {args.db}: its directory does not exist; create it first or fix the path")
    args.db_used = db  # named in the message if SQLite fails (see main)
    return MemoryIndex(
        tree,
        db,
        claude_code=args.claude_code,
        reconcile_on_search=not getattr(args, "no_reconcile", False),
        expand_synonyms=getattr(args, "expand", False),
    )


def _cmd_search(args: argparse.Namespace) -> int:
    with _open_index(args) as index:
        result = index.search(
            args.query, backend=args.backend, scope=args.scope, scope_id=args.scope_id, type=args.type, limit=args.limit
        )
    if args.json:
        out = {
            "query": result.query,
            "backend": result.backend,
            "count": len(result),
            "hits": [h._asdict() for h in result],
            "hints": list(result.hints),
            "warnings": list(result.warnings),
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not result:
        print(f'No matches for "{args.query}".')
        print("\n".join(result.hints))
        return 0
    print(f"Found {len(result)} match(es) (BM25-ranked, best first, backend {result.backend}):\n")
    for hit in result:
        where = hit.scope + (f"/{hit.scope_id}" if hit.scope_id else "")
        print(f"### {hit.path}\nScope: {where}, Type: {hit.type}, Score: {hit.score:.4g}\n{hit.snippet}\n")
    return 0


def _cmd_reconcile(args: argparse.Namespace) -> int:
    with _open_index(args) as index:
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


def _cmd_index_stats(args: argparse.Namespace) -> int:
    with _open_index(args) as index:
        if not args.no_reconcile:
            index.reconcile(force=False)
        stats = index.stats()
    info = {k: v for k, v in vars(stats).items() if k != "skipped"}
    info["skipped"] = [i._asdict() for i in stats.skipped]
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
        return 0
    print(f"database        {stats.db_path} ({stats.db_bytes} bytes, schema v{stats.schema_version})")
    print(f"rows            {stats.rows}")
    print("per type        " + (", ".join(f"{k} {v}" for k, v in stats.per_type.items()) or "-"))
    print("per scope       " + (", ".join(f"{k} {v}" for k, v in stats.per_scope.items()) or "-"))
    for name, ident in stats.tokenizers.items():
        print(f"{name:<15} {ident} ({stats.index_bytes.get(name, 0)} bytes)")
    print(f"native engine   {'yes' if stats.native else 'no (pure Python)'}")
    print(f"skipped/warned  {len(stats.skipped)}")
    for issue in stats.skipped:
        print(f"  {issue.kind}: {issue.path}: {issue.reason}")
    return 0


def _index_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", metavar="DIR", help="memory root (default: <data>/memory, see MIMOMEM_HOME)")
    p.add_argument("--db", metavar="FILE", help="index database (default: <data>/mimomem.db)")
    p.add_argument("--claude-code", action="store_true", help="also index ~/.claude/projects/*/memory/")
    p.add_argument("--json", action="store_true", help="print JSON")


# -- curated memory (recall, remember, forget, inspect, rules, import, inject) --------------
def _curated(args: argparse.Namespace):  # noqa: ANN202 - CuratedMemory, imported lazily
    from mimomem.curated.store import CuratedMemory

    _output_dir(args.global_root, "--global-root")
    return CuratedMemory(project_root=_existing_dir(args.project, "--project"), global_root=args.global_root)


def _scope(args: argparse.Namespace) -> str:
    return "global" if args.use_global else "project"


def _cmd_recall(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= MAX_LIMIT:
        raise ValueError(f"--limit must be an integer 1..{MAX_LIMIT}, got {args.limit}")
    results = _curated(args).recall(args.query, limit=args.limit, count_hits=not args.dry_run)
    if args.json:
        out = [
            {
                "id": r.id, "scope": r.memory.scope, "summary": r.memory.summary, "body": r.memory.body,
                "score": r.score, "bm25": r.bm25, "scope_prior": r.scope_prior, "decay": r.decay,
                "rehearsal": r.rehearsal, "hits": r.hits, "matched_terms": list(r.matched_terms),
                "path": str(r.memory.path),
            }
            for r in results
        ]
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    if not results:
        print("no curated memory matched; `mimomem inspect` lists what is stored", file=sys.stderr)
        return 1
    for r in results:
        print(f"## {r.id} ({r.memory.scope}): {r.memory.summary}")
        print(f"why: {r.why()}")
        if r.memory.body:
            print(r.memory.body)
        print()
    return 0


def _utf8(value: str, what: str) -> str:
    """``value`` unchanged; refuse text that came from invalid UTF-8 (undecodable bytes in argv/stdin)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} is not valid UTF-8 (undecodable byte at character {exc.start}); convert it to UTF-8 and retry") from None
    return value


def _cmd_remember(args: argparse.Namespace) -> int:
    body = _utf8(sys.stdin.read() if args.body == "-" else (args.body or ""), "the body")
    for what, value in (("the summary", args.summary), ("--highlight", args.highlight or ""), *(("--when", w) for w in args.when or ())):
        _utf8(value, what)
    memory = _curated(args).remember(
        args.category, args.summary, body, author=args.author, highlight=args.highlight or "",
        load_when=args.when or (), pinned=args.pinned, supersedes=args.supersedes, scope=_scope(args),
        slug=args.slug,
    )
    note = " (stored as a rule-proposal: a person must run `mimomem rules accept`)" if memory.kind == "rule-proposal" else ""
    print(f"remembered {memory.id} in {memory.path}{note}")
    return 0


def _cmd_forget(args: argparse.Namespace) -> int:
    result = _curated(args).forget(args.id, scope="global" if args.use_global else None)
    print(f"forgot {result.id} ({result.scope})")
    for other in result.dangling:
        print(f"note: {other} still links to {result.id} (supersedes chain); `mimomem inspect` reports it")
    return 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    store = _curated(args)
    if args.fix:
        store.compile()
    report = store.inspect()
    if args.json:
        print(json.dumps({
            "roots": report.roots,
            "memories": [m.__dict__ for m in report.memories],
            "problems": [p.__dict__ for p in report.problems],
        }, ensure_ascii=False, indent=2))
    else:
        for scope, path in report.roots.items():
            print(f"{scope} root: {path}")
        for m in report.memories:
            print(f"{m.status:10} {m.scope:7} {m.id}  hits={m.hits}  {m.summary}")
        for problem in report.problems:
            print(f"problem: {problem}")
        print(f"{len(report.memories)} memories, {len(report.problems)} problems")
    return 0 if report.ok else 1


def _cmd_rules(args: argparse.Namespace) -> int:
    store = _curated(args)
    scope = "global" if args.use_global else None
    if args.rules_command == "accept":
        memory = store.accept_rule(args.id, scope=scope)
        print(f"accepted {memory.id}: it is now a hard rule")
    else:
        store.reject_rule(args.id, scope=scope)
        print(f"rejected and removed {args.id}")
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    result = _curated(args).import_dir(args.directory, author=args.author, scope=_scope(args))
    for label, reason in result.refused:
        print(f"skipped {label}: {reason}", file=sys.stderr)
    print(f"imported {len(result.written)} memories, skipped {len(result.refused)}")
    return 0 if not result.refused else 1


def _cmd_inject(args: argparse.Namespace) -> int:
    if args.max_bodies < 0 or args.budget < 0:
        raise ValueError(f"--max-bodies and --budget must be >= 0, got {args.max_bodies} and {args.budget}")
    text = sys.stdin.read() if args.context == "-" else args.context
    print(_curated(args).render_injection(text, max_bodies=args.max_bodies, budget_chars=args.budget), end="")
    return 0


def _add_curated_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    def roots(p: argparse.ArgumentParser, *, scope: bool = False) -> None:
        p.add_argument("--project", metavar="DIR", help="project directory (memories in DIR/.memory; default: the git repo around .)")
        p.add_argument("--global-root", metavar="DIR", help="global memory directory (default: $XDG_CONFIG_HOME/mimomem/memory)")
        if scope:
            p.add_argument("--global", dest="use_global", action="store_true", help="use the global root instead of the project one")

    p = sub.add_parser("recall", help="curated memories best matching QUERY, with why they matched")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=4, metavar="N", help="how many (default 4)")
    p.add_argument("--dry-run", action="store_true", help="do not count this recall in the hit counters")
    p.add_argument("--json", action="store_true", help="print JSON")
    roots(p)
    p.set_defaults(func=_cmd_recall)

    p = sub.add_parser("remember", help="store a curated memory (refuses secrets and near-duplicates)")
    p.add_argument("category", help="rules, preferences, decisions, pitfalls or facts")
    p.add_argument("summary", help="one line")
    p.add_argument("body", nargs="?", default="", help="Markdown body ('-' reads stdin)")
    p.add_argument("--highlight", help="a key phrase shown in outlines and searched")
    p.add_argument("--when", action="append", metavar="SCENARIO", help="load_when scenario (repeatable)")
    p.add_argument("--pinned", action="store_true", help="never decays; listed under Goals")
    p.add_argument("--supersedes", metavar="ID", help="replace this memory (kept, never recalled again)")
    p.add_argument("--slug", help="file name stem (default: from the summary)")
    p.add_argument("--author", choices=["user", "model"], default="user", help="model-written rules become proposals")
    roots(p, scope=True)
    p.set_defaults(func=_cmd_remember)

    p = sub.add_parser("forget", help="delete a curated memory by id (<category>/<slug>)")
    p.add_argument("id")
    roots(p, scope=True)
    p.set_defaults(func=_cmd_forget)

    p = sub.add_parser("inspect", help="list curated memories and check compiled outlines, links, secrets")
    p.add_argument("--fix", action="store_true", help="recompile ROOT.md and index.md files first")
    p.add_argument("--json", action="store_true", help="print JSON")
    roots(p)
    p.set_defaults(func=_cmd_inspect)

    p = sub.add_parser("rules", help="review rule proposals written by a model")
    rules_sub = p.add_subparsers(dest="rules_command", required=True, metavar="SUBCOMMAND")
    for name, text in (("accept", "make the proposal a hard rule"), ("reject", "delete the proposal")):
        q = rules_sub.add_parser(name, help=text)
        q.add_argument("id")
        roots(q, scope=True)
        q.set_defaults(func=_cmd_rules)

    p = sub.add_parser("import", help="import a directory of Markdown notes as curated memories")
    p.add_argument("directory")
    p.add_argument("--author", choices=["user", "model"], default="user")
    roots(p, scope=True)
    p.set_defaults(func=_cmd_import)

    p = sub.add_parser("inject", help="render the curated-memory injection text for CONTEXT")
    p.add_argument("context", help="context text ('-' reads stdin)")
    p.add_argument("--max-bodies", type=int, default=4, metavar="N")
    p.add_argument("--budget", type=int, default=1200, metavar="CHARS", help="character budget for bodies")
    roots(p)
    p.set_defaults(func=_cmd_inject)


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line that points at ``--help`` (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}; see `{self.prog} --help`\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mimomem", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("tokenize", help="show the tokens of TEXT (token, start, end, original)")
    p.add_argument("text")
    p.add_argument("--mode", choices=["bigram", "jieba"], default="bigram")
    p.add_argument("--json", action="store_true", help="print a JSON list of tokens")
    p.set_defaults(func=_cmd_tokenize)

    # Further subcommands register here, each as: p = sub.add_parser(...); p.set_defaults(func=...)

    _add_curated_commands(sub)

    from mimomem.search.backends import BACKENDS

    p = sub.add_parser(
        "search",
        help="search the memory tree (reconciles the index first)",
        description="BM25-ranked memory search. Terms are OR-joined; CJK is matched by bigrams; "
        "identifiers like v1.2.3 are matched as a unit. Zero results print what to try next.",
    )
    p.add_argument("query")
    p.add_argument("--backend", choices=BACKENDS, help="retrieval backend (default: $MIMOMEM_BACKEND or fts5-bigram)")
    p.add_argument("--scope", choices=["global", "projects", "sessions", "cc"])
    p.add_argument("--scope-id", metavar="ID")
    p.add_argument("--type", metavar="TYPE", help="memory, checkpoint, progress, notes, free (cc: feedback, ...)")
    p.add_argument("--limit", type=int, default=10, metavar="N", help="1..200 (default 10)")
    p.add_argument("--no-reconcile", action="store_true", help="search the index as it is")
    p.add_argument("--expand", action="store_true", help="add glossary synonyms (部署/deploy ...), weighted below your words")
    _index_options(p)
    p.set_defaults(func=_cmd_search)

    p = sub.add_parser("reconcile", help="sync the index with the memory files now")
    p.add_argument("-v", "--verbose", action="store_true", help="list skipped files with reasons")
    _index_options(p)
    p.set_defaults(func=_cmd_reconcile)

    p = sub.add_parser("index", help="inspect the search index")
    index_sub = p.add_subparsers(dest="index_command", required=True, metavar="SUBCOMMAND")
    q = index_sub.add_parser("stats", help="rows, per-type counts, skipped files, tokenizers, sizes")
    q.add_argument("--no-reconcile", action="store_true", help="do not reconcile first")
    _index_options(q)
    q.set_defaults(func=_cmd_index_stats)

    p = sub.add_parser(
        "paths",
        help="show where each memory layer lives, with the project id and repository root",
        description="Print the memory root and the layer files mimomem would use for DIR (and SID). "
        "The project id is created in the main .git directory on first use, as any write would.",
    )
    p.add_argument("--project", default=".", metavar="DIR", help="a directory inside the project (default: .)")
    p.add_argument("--session", metavar="SID", help="also show this session's checkpoint, notes and tasks paths")
    p.add_argument("--task", metavar="TID", help="with --session: also show this task's progress.md")
    p.add_argument("--root", metavar="DIR", help="memory root to use (default: <data>/memory, see MIMOMEM_HOME)")
    p.add_argument(
        "--mimocode", nargs="?", const="", metavar="DATA_DIR",
        help="use an existing MiMo-Code tree in place (default: $MIMOCODE_HOME/data or ~/.local/share/mimocode)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(func=_cmd_paths)

    p = sub.add_parser(
        "bench",
        help="benchmark every retrieval backend on BEIR-layout datasets (quality, latency, size)",
        description="Run each backend on each dataset and print one table per dataset; progress on stderr. "
        "Exit status 1 when --compare finds a regression.",
    )
    p.add_argument("--dataset", action="append", metavar="DIR", help="BEIR dataset directory (repeatable; default: every dataset under corpora/)")
    p.add_argument("--backend", action="append", metavar="NAME", help="backend to run (repeatable; default: every available one)")
    p.add_argument("--run-file", metavar="DIR", help="write TREC runs (top 100) as DIR/<dataset>.<backend>.trec")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON on stdout")
    p.add_argument("--report", metavar="DIR", help="write report.md and PNG charts into DIR (needs matplotlib)")
    p.add_argument("--scale", metavar="N[,N...]", help="also time generated corpora of N documents (up to 100000)")
    p.add_argument("--save", metavar="FILE", help="save the result (JSON) for a later --compare")
    p.add_argument("--compare", metavar="FILE", help="compare with a saved result; exit 1 if a metric dropped")
    p.add_argument("--tolerance", type=float, default=0.0, metavar="X", help="allowed drop per metric for --compare (default 0)")
    p.add_argument("--failures", action="store_true", help="only the failures.md table: hits per backend side by side")
    p.set_defaults(func=_cmd_bench)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not as a traceback at exit
        return status
    except KeyboardInterrupt:  # Ctrl-C: writes are atomic, so stopping mid-way loses nothing
        print(f"mimomem {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `mimomem ... | head`: the reader has all it wanted
        _silence_stdout()
        return 0
    except sqlite3.DatabaseError as exc:
        print(f"mimomem {args.command}: error: {_database_advice(args, exc)}", file=sys.stderr)
        return 2
    except (MimomemError, ValueError) as exc:
        print(f"mimomem {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"mimomem {args.command}: error: {_os_error(exc)}", file=sys.stderr)
        return 2


def _os_error(exc: OSError) -> str:
    """An OS error as "what, where, what to do" instead of ``[Errno 20] ...``."""
    if exc.strerror is None or exc.filename is None:
        return str(exc)
    return (
        f"{exc.strerror}: {exc.filename}; fix that path or its permissions "
        f"(defaults come from MIMOMEM_HOME and the XDG_* variables, see README)"
    )


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. captured in tests)
        pass


def _database_advice(args: argparse.Namespace, exc: sqlite3.DatabaseError) -> str:
    """One line naming the database and the next step: fix the path, or delete the cache."""
    db = getattr(args, "db_used", None)
    if db is None:
        return f"SQLite: {exc}"
    if isinstance(exc, sqlite3.OperationalError):
        return f"index database {db}: {exc}; pass --db with a writable file path, or retry if another process holds it"
    return (
        f"index database {db}: {exc}; it is only a cache of the memory files: "
        f"delete it (rm {db}) and run the command again to rebuild it"
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
