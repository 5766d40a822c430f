"""Write-back commands: ``history import | search | evidence``, and the ``dream``, ``distill`` and
``checkpoint`` passes.

``history`` keeps ``<data>/history.db``, a rebuildable cache of the agents' transcripts (read,
never written).  Each pass runs deterministically (``--no-model``), shows its unified diff
(``--dry-run``), or prints the instructions and evidence for the host agent's own model
(``--emit-prompt``).  ``--model URL`` sends that prompt to an OpenAI-compatible endpoint and
merges the answer through the same checks (see :mod:`mimomem.passes.llm`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mimomem.cli import checks
from mimomem.common.secrets import redact_secrets
from mimomem.errors import UsageError

DREAM_DAYS = 7
DISTILL_DAYS = 30


def add_parsers(sub: Any) -> None:
    """Add ``history``, ``dream``, ``distill`` and ``checkpoint`` to the ``mimomem`` subparsers."""
    _add_history(sub)
    for name, days, helptext in (
        ("dream", DREAM_DAYS, "promote explicit rules, decisions and repeated evidence into the project MEMORY.md"),
        ("distill", DISTILL_DAYS, "shortlist workflows repeated across sessions; --write makes them skills"),
        ("checkpoint", None, "fill the session checkpoint's factual sections from history, notes and task journals"),
    ):
        p = sub.add_parser(name, help=helptext, description=_DESCRIPTIONS[name])
        _pass_options(p, days)
        if name == "distill":
            p.add_argument("--write", action="store_true", help="create SKILL.md files for the shortlist")
            p.add_argument("--skills-dir", metavar="DIR", help="where skills go (default: <repository>/.claude/skills)")
        p.set_defaults(func=cmd_pass, pass_name=name)


_DESCRIPTIONS = {
    "dream": "Without a model: the user's explicit rules (always/never/以后都/不要再...) go to Rules, decisions to "
    "Architecture decisions, failures seen twice and commands run in two sessions to Discovered durable "
    "knowledge; each line dated and sourced, duplicates skipped, MEMORY.md kept within 200 lines / 10 KB "
    "(the largest section spills to memory-<topic>.md). Reads the history imported by `mimomem history import`.",
    "distill": "Without a model: commands that ran in the same order in two or more sessions make the shortlist; "
    "repeats inside one session need more evidence; workflows an existing SKILL.md covers are skipped. "
    "--write creates <skills dir>/<name>/SKILL.md (never overwrites).",
    "checkpoint": "Without a model: fills §1 (latest user request), §4 (task journals), §6 (files), §8 (errors and "
    "fixes) and §11 (notes inbox) of the session's checkpoint.md, keeps the other sections, and validates the "
    "§1-§11 template and its budgets.",
}


def _store_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="FILE", help="history database (default: <data>/history.db)")
    p.add_argument("--json", action="store_true", help="print JSON")


def _add_history(sub: Any) -> None:
    p = sub.add_parser("history", help="import agent transcripts into the history store and search them")
    hsub = p.add_subparsers(dest="history_command", required=True, metavar="SUBCOMMAND", help="what to do:")
    q = hsub.add_parser(
        "import",
        help="import Claude Code, MiMo-Code or OpenCode history (read-only, incremental)",
        description="With no source option, imports Claude Code transcripts. Sources are only read; what was "
        "already imported is skipped. Unreadable lines are counted, a locked database is reported, neither stops "
        "the other sources.",
    )
    q.add_argument(
        "--claude-code",
        nargs="?",
        const="",
        metavar="DIR",
        help="Claude Code transcripts (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)",
    )
    q.add_argument(
        "--mimocode",
        nargs="?",
        const="",
        metavar="PATH",
        help="MiMo-Code's mimocode.db or data directory (default: $MIMOCODE_DB, else its data directory)",
    )
    q.add_argument(
        "--opencode",
        nargs="?",
        const="",
        metavar="PATH",
        help="OpenCode's opencode.db, storage/ or data directory (default: ~/.local/share/opencode)",
    )
    _store_options(q)
    q.set_defaults(func=cmd_import)
    q = hsub.add_parser("search", help="search the imported history (bigram BM25, Chinese and English)")
    q.add_argument("query", help="what to search for")
    q.add_argument("--limit", type=int, default=10, metavar="N", help="1..100 (default 10)")
    q.add_argument("--project", metavar="DIR", help="only the history of the repository containing DIR")
    q.add_argument("--session", metavar="SID", help="only this session")
    _store_options(q)
    q.set_defaults(func=cmd_search)
    q = hsub.add_parser("evidence", help="print the evidence the passes use: statements, failures, commands, files")
    q.add_argument("--project", default=".", metavar="DIR", help="a directory inside the project (default: .)")
    q.add_argument("--session", metavar="SID", help="only this session (with its tool trace)")
    q.add_argument("--days", type=int, default=0, metavar="N", help="only the last N days (default 0: all)")
    _store_options(q)
    q.set_defaults(func=cmd_evidence)


def _pass_options(p: argparse.ArgumentParser, days: int | None) -> None:
    p.add_argument("--project", default=".", metavar="DIR", help="a directory inside the project (default: .)")
    p.add_argument(
        "--session",
        metavar="SID",
        help="session id (default: $MIMOMEM_SESSION, else $CLAUDE_CODE_SESSION_ID or $CODEX_THREAD_ID)",
    )
    p.add_argument("--root", metavar="DIR", help="memory root to use (default: <data>/memory, see MIMOMEM_HOME)")
    if days is not None:
        p.add_argument(
            "--days", type=int, default=days, metavar="N", help=f"history of the last N days (default {days}; 0: all)"
        )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--no-model", action="store_true", help="deterministic pass, no model (the default)")
    mode.add_argument(
        "--emit-prompt", action="store_true", help="print instructions + evidence for the host agent's model; no write"
    )
    mode.add_argument(
        "--model",
        metavar="URL",
        help="OpenAI-compatible endpoint (…/v1) whose answer is merged (default: $MIMOMEM_MODEL_URL if set)",
    )
    p.add_argument("--dry-run", action="store_true", help="show the unified diff; write nothing")
    _store_options(p)


def _open_store(args: argparse.Namespace, data_dir: Any = None) -> Any:
    from mimomem.history.history_store import HistoryStore, default_path

    if args.db is not None:
        checks.file_path(args.db, "--db", "history.db")
    path = args.db if args.db is not None else default_path(data_dir)
    args.db_used, args.db_what = str(path), "history database"  # named if SQLite fails (exits.database_advice)
    return HistoryStore(path)


def cmd_import(args: argparse.Namespace) -> int:
    """Import each requested source; one source's failure is reported and the others still run."""
    from mimomem.errors import HistorySourceError
    from mimomem.history.agent_db import import_agent_db, mimocode_db
    from mimomem.history.claude_code import import_claude_code
    from mimomem.history.opencode import import_opencode
    from mimomem.history.records import ImportReport

    wanted = [
        (n, v)
        for n, v in (("claude-code", args.claude_code), ("mimocode", args.mimocode), ("opencode", args.opencode))
        if v is not None
    ]
    wanted = wanted or [("claude-code", "")]
    total = ImportReport()
    per: dict[str, dict[str, Any]] = {}
    with _open_store(args) as store:
        for name, value in wanted:
            path = value or None
            try:
                if name == "claude-code":
                    report = import_claude_code(store, path)
                elif name == "mimocode":
                    report = import_agent_db(store, mimocode_db(path))
                else:
                    report = import_opencode(store, path)
            except HistorySourceError as exc:
                report = ImportReport(problems=[f"{name}: {exc}"])
            per[name] = report.as_dict()
            total.merge(report)
        counts = store.counts()
    if args.json:
        print(json.dumps({"sources": per, "store": counts, "db": args.db_used}, ensure_ascii=False, indent=2))
    else:
        for name, counts_of in per.items():
            print(_import_line(name, counts_of))
        print(f"history: {counts['sessions']} sessions, {counts['parts']} parts in {args.db_used}")
    for problem in total.problems:
        print(f"mimomem history import: {problem}", file=sys.stderr)
    return 0 if not total.problems or total.sources else 1


def _import_line(name: str, r: dict[str, Any]) -> str:
    line = (
        f"{name}: {r['sources']} sources, {r['sessions']} new sessions, {r['messages']} messages, "
        f"{r['parts']} parts, {r['results']} tool results"
    )
    if r["skipped"]:
        line += "; skipped " + ", ".join(f"{n} {why}" for why, n in r["skipped"].items())
    if r["pending_bytes"]:
        line += f"; {r['pending_bytes']} bytes of unfinished lines left for next time"
    return line


def cmd_search(args: argparse.Namespace) -> int:
    """Print history hits best first (exit 1 when nothing matched)."""
    from mimomem.history.history_store import project_of
    from mimomem.history.records import iso_time
    from mimomem.history.search import search_history

    checks.in_range(args.limit, "--limit", 1, 100)
    project = project_of(checks.existing_dir(args.project, "--project")) if args.project else None
    with _open_store(args) as store:
        hits = search_history(
            store, checks.utf8(args.query, "QUERY"), limit=args.limit, project=project, session_id=args.session
        )
    if args.json:
        print(_json_shown([h.as_dict() for h in hits]))
    for h in [] if args.json else hits:
        what = h.tool if h.kind == "tool" else h.role
        snippet = " ".join(h.snippet.split())
        print(redact_secrets(f"{iso_time(h.time)} [session {h.session_id}] {what}: {snippet}"))
    if not hits and not args.json:
        print("no match; try fewer or other words, or run `mimomem history import` first", file=sys.stderr)
    return 0 if hits else 1


MAX_DAYS = 36_500
"""The longest ``--days`` window: more than any history holds, and far inside every date range."""


def _context(args: argparse.Namespace, days: int | None) -> Any:
    from mimomem.passes.base import PassContext
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.where import locate

    project = checks.existing_dir(args.project, "--project") or "."
    checks.not_a_file(getattr(args, "root", None), "--root")
    if days is not None and not 0 <= days <= MAX_DAYS:
        raise UsageError(f"--days must be 0 (all history) to {MAX_DAYS} (a hundred years), got {days}")
    tree = MemoryTree(getattr(args, "root", None))
    where = locate(project, session_id=args.session, tree=tree)
    store = _open_store(args, tree.data_dir)
    return PassContext.open(where, store, cwd=project, days=days)


def cmd_evidence(args: argparse.Namespace) -> int:
    """Print the evidence blocks (and, with --session, that session's tool trace)."""
    from mimomem.history.evidence import Evidence, Window
    from mimomem.history.records import iso_time
    from mimomem.passes.prompts import render_evidence

    ctx = _context(args, args.days)
    with ctx.store:
        ev = Evidence.gather(ctx.store, Window(session_id=args.session)) if args.session else ctx.evidence()
        if args.json:
            data = {
                "sessions": ev.sessions(),
                "statements": [_plain(s) for s in ev.statements()],
                "repeated_failures": [_plain(f) for f in ev.repeated_failures()],
                "repeated_commands": [_plain(r) for r in ev.repeated_commands()],
                "files": [_plain(f) for f in ev.files_touched()],
            }
            print(_json_shown(json.loads(json.dumps(data, default=str))))
            return 0
        out = render_evidence(ev)
        if args.session:
            out += ["## Tool trace", ""]
            out += [f"- {iso_time(s.provenance.time)} {s.status:<9} {s.summary} -> {s.result}" for s in ev.trace()]
        print(redact_secrets("\n".join(out).rstrip("\n")))
    return 0


def _plain(item: Any) -> dict[str, Any]:
    return {k: (v.render() if hasattr(v, "render") else v) for k, v in item.__dict__.items()}


def _shown(value: Any) -> Any:
    """``value`` (JSON data) with every likely secret redacted in its strings.

    The history holds what was typed and run, secrets too; what these commands print never shows one."""
    if isinstance(value, str):
        return redact_secrets(value)
    if isinstance(value, list):
        return [_shown(item) for item in value]
    if isinstance(value, dict):
        return {key: _shown(item) for key, item in value.items()}
    return value


def _json_shown(data: Any) -> str:
    return json.dumps(_shown(data), ensure_ascii=False, indent=2)


def cmd_pass(args: argparse.Namespace) -> int:
    """Run ``dream``, ``distill`` or ``checkpoint`` (deterministic, emit-prompt, or with a model)."""
    import os

    from mimomem.passes import checkpoint, distill, dream, prompts

    name = args.pass_name
    if args.dry_run and args.emit_prompt:
        raise UsageError("--dry-run and --emit-prompt do not combine: --emit-prompt never writes")
    ctx = _context(args, getattr(args, "days", None))
    with ctx.store:
        if args.emit_prompt:
            sys.stdout.write(prompts.pass_prompt(name, ctx))
            return 0
        model_url = None if args.no_model else (args.model or os.environ.get("MIMOMEM_MODEL_URL") or None)
        if model_url:
            from mimomem.passes.llm import run_with_model

            report = run_with_model(name, ctx, model_url, dry_run=args.dry_run, write=getattr(args, "write", False))
        elif name == "dream":
            report = dream.run_dream(ctx, dry_run=args.dry_run)
        elif name == "distill":
            report = distill.run_distill(ctx, write=args.write, dry_run=args.dry_run, skills_dir=args.skills_dir)
        else:
            report = checkpoint.run_checkpoint(ctx, dry_run=args.dry_run)
    if args.json:
        print(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(report.render(diffs=args.dry_run))
    return 0
