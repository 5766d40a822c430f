"""The argparse definition of ``mimomem``: one subcommand per library operation.

Choices and defaults come from the library's constants (scopes, backends, modes, authors), so
the command line follows the library when those change.  Help strings never depend on the
environment, so ``python -m mimomem.cli.reference`` renders the same text everywhere.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, NoReturn

import mimomem
from mimomem.cli import agent, bench, checks, curated, history, hooks, install, mcp, search, text, tree
from mimomem.curated.memory import AUTHORS, DEFAULT_CATEGORIES
from mimomem.search.backends import SEARCH_BACKENDS
from mimomem.search.index import (
    BACKEND_ENV,
    DEFAULT_BACKEND,
    DEFAULT_LIMIT,
    MAX_LIMIT,
    SCOPES,
)
from mimomem.search.params import SEARCH_TYPES
from mimomem.text.tokens import MODES
from mimomem.tree.vocabulary import CC_TYPES, TREE_TYPES

DESCRIPTION = (
    "Durable, layered Markdown memory for coding agents, searchable in CJK and English. "
    "Files are the truth; the search index is a rebuildable cache."
)
EPILOG = (
    "Exit status: 0 on success; 1 when the command ran but its answer is no (search or recall found nothing, "
    "as with grep; inspect found problems; import skipped notes; bench --compare found a regression); 2 on a "
    "usage or input error, with one line on stderr saying what to do; 130 when interrupted. "
    "`mimomem COMMAND --help` describes each command."
)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with the subcommand help column computed the same on every Python.

    Python 3.13 counts the indent of subcommand names when it picks the help column; older
    versions do not (and then wrap a long name onto its own line).  Doing it the 3.13 way
    everywhere keeps ``--help`` and docs/cli-reference.md identical on 3.10-3.13.
    """

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            for sub in self._iter_indented_subactions(action):
                width = len(self._format_action_invocation(sub)) + self._current_indent
                self._action_max_length = max(self._action_max_length, width)


class Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line that points at ``--help`` (exit status 2)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}; see `{self.prog} --help`\n")


if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[Parser]


class _Version(argparse._VersionAction):
    """``--version`` on one line: the reason a build fell back is a long line, and is not to be wrapped."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> NoReturn:
        print(str(self.version).replace("%(prog)s", parser.prog))
        parser.exit()


def _why_pure() -> str:
    """``pure Python``, and why: chosen with MIMOMEM_PURE, or the build that did not make the extension."""
    import os

    from mimomem.common.build import not_built

    if os.environ.get("MIMOMEM_PURE", "") not in ("", "0"):
        return "pure Python: MIMOMEM_PURE is set"
    why = not_built("native")
    return f"pure Python: the native extension was not built at install: {why}" if why else "pure Python"


def build_parser() -> argparse.ArgumentParser:
    """The ``mimomem`` parser; each subcommand sets ``func``, the function that runs it."""
    parser = Parser(prog="mimomem", description=DESCRIPTION, epilog=EPILOG)
    engine = "native" if mimomem.native_available() else _why_pure()
    parser.add_argument(
        "-V",
        "--version",
        action=_Version,
        version=f"%(prog)s {mimomem.__version__} ({engine})",
        help="print the version and whether the native extension is in use (if not, why), then exit",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="the command to run:")
    _add_tokenize(sub)
    _add_curated(sub)
    _add_search(sub)
    _add_index(sub)
    _add_paths(sub)
    bench.add_parsers(sub)
    _add_agent(sub)
    install.add_parsers(sub)
    _add_hook(sub)
    history.add_parsers(sub)
    _add_mcp(sub)
    return parser


def _add_tokenize(sub: Subparsers) -> None:
    p = sub.add_parser("tokenize", help="show the tokens of TEXT (token, start, end, original)")
    p.add_argument("text", help="the text to tokenize")
    p.add_argument("--mode", choices=MODES, default=MODES[0], help=f"tokenizer (default {MODES[0]})")
    p.add_argument(
        "--diff",
        metavar="MODULE:FUNCTION",
        help="show TEXT's tokens side by side with a candidate tokenizer's (as mimomem bench --tokenizer takes it)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON list of tokens")
    p.set_defaults(func=text.cmd_tokenize)


def _roots(p: argparse.ArgumentParser, *, scope: bool = False) -> None:
    """The options naming the curated roots (and, with ``scope``, which one to write)."""
    p.add_argument(
        "--project",
        metavar="DIR",
        help="project directory (memories in DIR/.memory; default: the git repo around .)",
    )
    p.add_argument(
        "--global-root",
        metavar="DIR",
        help="global memory directory (default: $XDG_CONFIG_HOME/mimomem/memory)",
    )
    if scope:
        p.add_argument(
            "--global",
            dest="use_global",
            action="store_true",
            help="use the global root instead of the project one",
        )


def _add_curated(sub: Subparsers) -> None:
    p = sub.add_parser("recall", help="curated memories best matching QUERY, with why they matched")
    p.add_argument("query", help="what to recall (any language; CJK is matched by bigrams)")
    p.add_argument(
        "--limit",
        type=int,
        default=4,
        metavar="N",
        help=f"how many, 1..{curated.RECALL_MAX_LIMIT} (default 4)",
    )
    p.add_argument("--dry-run", action="store_true", help="do not count this recall in the hit counters")
    p.add_argument("--json", action="store_true", help="print JSON")
    _roots(p)
    p.set_defaults(func=curated.cmd_recall)
    _add_remember(sub)

    p = sub.add_parser("forget", help="delete a curated memory by id (<category>/<slug>)")
    p.add_argument("id", help="the memory id, <category>/<slug>")
    _roots(p, scope=True)
    p.set_defaults(func=curated.cmd_forget)

    p = sub.add_parser("inspect", help="list curated memories and check compiled outlines, links, secrets")
    p.add_argument("--fix", action="store_true", help="recompile ROOT.md and index.md files first")
    p.add_argument("--json", action="store_true", help="print JSON")
    _roots(p)
    p.set_defaults(func=curated.cmd_inspect)

    _add_curated_review(sub)


def _add_curated_review(sub: Subparsers) -> None:
    """``rules``, ``import`` and ``inject``: what a person reviews, loads in bulk, or shows a model."""
    p = sub.add_parser("rules", help="review rule proposals written by a model")
    rules_sub = p.add_subparsers(
        dest="rules_command", required=True, metavar="SUBCOMMAND", help="what to do with the proposal:"
    )
    for name, what in (("accept", "make the proposal a hard rule"), ("reject", "delete the proposal")):
        q = rules_sub.add_parser(name, help=what)
        q.add_argument("id", help="the proposal's id, rules/<slug>")
        _roots(q, scope=True)
        q.set_defaults(func=curated.cmd_rules)

    p = sub.add_parser("import", help="import a directory of Markdown notes as curated memories")
    p.add_argument("directory", help="directory searched for *.md notes")
    p.add_argument("--author", choices=AUTHORS, default=AUTHORS[0], help=f"who wrote the notes (default {AUTHORS[0]})")
    _roots(p, scope=True)
    p.set_defaults(func=curated.cmd_import)

    p = sub.add_parser("inject", help="render the curated-memory injection text for CONTEXT")
    p.add_argument("context", help="context text ('-' reads stdin)")
    p.add_argument(
        "--max-bodies",
        type=int,
        default=4,
        metavar="N",
        help=f"at most N memory bodies, 0..{curated.RECALL_MAX_LIMIT} (default 4)",
    )
    p.add_argument(
        "--budget",
        type=int,
        default=1200,
        metavar="CHARS",
        help="character budget for bodies (default 1200)",
    )
    _roots(p)
    p.set_defaults(func=curated.cmd_inject)


def _add_remember(sub: Subparsers) -> None:
    p = sub.add_parser("remember", help="store a curated memory (refuses secrets and near-duplicates)")
    p.add_argument("category", help=", ".join(DEFAULT_CATEGORIES[:-1]) + f" or {DEFAULT_CATEGORIES[-1]}")
    p.add_argument("summary", help="one line")
    p.add_argument("body", nargs="?", default="", help="Markdown body ('-' reads stdin)")
    p.add_argument("--highlight", metavar="PHRASE", help="a key phrase shown in outlines and searched")
    p.add_argument("--when", action="append", metavar="SCENARIO", help="load_when scenario (repeatable)")
    p.add_argument("--pinned", action="store_true", help="never decays; listed under Goals")
    p.add_argument("--supersedes", metavar="ID", help="replace this memory (kept, never recalled again)")
    p.add_argument("--slug", help="file name stem (default: from the summary)")
    p.add_argument("--author", choices=AUTHORS, default=AUTHORS[0], help="model-written rules become proposals")
    _roots(p, scope=True)
    p.set_defaults(func=curated.cmd_remember)


def _index_options(p: argparse.ArgumentParser) -> None:
    """The options naming the memory tree and its index database."""
    p.add_argument("--root", metavar="DIR", help="memory root (default: <data>/memory, see MIMOMEM_HOME)")
    p.add_argument("--db", metavar="FILE", help="index database (default: <data>/mimomem.db)")
    p.add_argument("--claude-code", action="store_true", help="also index ~/.claude/projects/*/memory/")
    p.add_argument("--json", action="store_true", help="print JSON")


def _add_search(sub: Subparsers) -> None:
    p = sub.add_parser(
        "search",
        help="search this project's memory: tree files and curated memories in one list",
        description="BM25-ranked memory search. Terms are OR-joined; CJK is matched by bigrams; "
        "identifiers like v1.2.3 are matched as a unit. By default the memory tree and the curated store "
        "are searched together (reciprocal-rank fusion), limited to the current project, its sessions and "
        "global memory; --all-projects (or --scope-id) widens that. --scope and --type narrow both stores "
        "alike (a curated memory's scope is project or global, its type its category). "
        "Zero results print what to try next.",
    )
    p.add_argument("query", help="what to search for")
    p.add_argument("--project", metavar="DIR", help="a directory inside the project (default: .)")
    p.add_argument(
        "--session",
        metavar="SID",
        help="the current session (default: $MIMOMEM_SESSION, else $CLAUDE_CODE_SESSION_ID or $CODEX_THREAD_ID)",
    )
    p.add_argument("--all-projects", action="store_true", help="search every project, not only the current one")
    p.add_argument(
        "--backend",
        choices=SEARCH_BACKENDS,
        help=f"retrieval backend (default: ${BACKEND_ENV} or {DEFAULT_BACKEND})",
    )
    p.add_argument(
        "--scope",
        choices=SCOPES,
        type=checks.scope_name,
        help="only this layer of the tree (default: all)",
    )
    p.add_argument("--scope-id", metavar="ID", help="with --scope: only this project or session id")
    p.add_argument(
        "--type",
        choices=SEARCH_TYPES,
        metavar="TYPE",
        help=f"only this memory type: {', '.join(TREE_TYPES)} (Claude Code: {', '.join(CC_TYPES)}) "
        f"or curated category: {', '.join(DEFAULT_CATEGORIES)}",
    )
    p.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"1..{MAX_LIMIT} (default {DEFAULT_LIMIT})",
    )
    p.add_argument("--no-reconcile", action="store_true", help="search the index as it is")
    p.add_argument(
        "--expand",
        action="store_true",
        help="add glossary synonyms (部署/deploy ...), weighted below your words",
    )
    _index_options(p)
    p.set_defaults(func=search.cmd_search)

    p = sub.add_parser("reconcile", help="sync the index with the memory files now")
    p.add_argument("-v", "--verbose", action="store_true", help="list skipped files with reasons")
    _index_options(p)
    p.set_defaults(func=search.cmd_reconcile)


def _add_index(sub: Subparsers) -> None:
    p = sub.add_parser("index", help="inspect the search index")
    index_sub = p.add_subparsers(dest="index_command", required=True, metavar="SUBCOMMAND", help="what to show:")
    q = index_sub.add_parser("stats", help="rows, per-type counts, skipped files, tokenizers, sizes")
    q.add_argument("--no-reconcile", action="store_true", help="do not reconcile first")
    _index_options(q)
    q.set_defaults(func=search.cmd_index_stats)


def _add_paths(sub: Subparsers) -> None:
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
        "--mimocode",
        nargs="?",
        const="",
        metavar="DATA_DIR",
        help="use an existing MiMo-Code tree in place (default: $MIMOCODE_HOME/data or ~/.local/share/mimocode)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(func=tree.cmd_paths)


def _add_hook(sub: Subparsers) -> None:
    p = sub.add_parser("hook", help="handle one agent hook call: event JSON on stdin, hook output on stdout")
    hook_sub = p.add_subparsers(
        dest="hook_command", required=True, metavar="HARNESS", help="the harness calling the hook:"
    )
    q = hook_sub.add_parser(
        "claude-code",
        help="a Claude Code hook (SessionStart, UserPromptSubmit, PreCompact, SessionEnd)",
        description="Run as the command of Claude Code's hooks. SessionStart and UserPromptSubmit get "
        "memory context back; PreCompact and SessionEnd append a digest of the transcript to the session's "
        "notes. Never blocks the agent: on a problem it prints one line on stderr and exits 0.",
    )
    q.set_defaults(func=hooks.cmd_hook_claude_code)


def _add_mcp(sub: Subparsers) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve this project's memory to any agent harness over MCP (stdio)",
        description="A Model Context Protocol server on standard input and output: memory_* tools (search, recall, "
        "remember, forget, inspect, note, write, context), the memory files as memory:// resources, and the "
        "checkpoint, dream and distill prompts. Standard output carries protocol only. Needs the mcp extra: "
        "pip install 'mimomem[mcp]'.",
    )
    p.add_argument("--project", default=".", metavar="DIR", help="a directory inside the project (default: .)")
    p.add_argument(
        "--session",
        metavar="SID",
        help="session id (default: $MIMOMEM_SESSION, else $CLAUDE_CODE_SESSION_ID or $CODEX_THREAD_ID, "
        "else the client's, else a new mcp-<id> per connection)",
    )
    p.add_argument("--root", metavar="DIR", help="memory root to use (default: <data>/memory, see MIMOMEM_HOME)")
    p.add_argument("--agent", default="main", metavar="NAME", help="who writes, for the write gate (default: main)")
    p.add_argument("--claude-code", action="store_true", help="also index ~/.claude/projects/*/memory/")
    p.set_defaults(func=mcp.cmd_mcp)


def _where_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--project", default=".", metavar="DIR", help="a directory inside the project (default: .)")
    p.add_argument(
        "--session",
        metavar="SID",
        help="session id (default: $MIMOMEM_SESSION, else $CLAUDE_CODE_SESSION_ID or $CODEX_THREAD_ID)",
    )
    p.add_argument("--root", metavar="DIR", help="memory root to use (default: <data>/memory, see MIMOMEM_HOME)")


def _add_agent(sub: Subparsers) -> None:
    p = sub.add_parser(
        "context",
        help="print the memory context an agent gets at session start (or for --prompt), within a token budget",
        description="Session start: memory instructions, tasks, checkpoint, project and global memory, notes, "
        "curated rules and outline. With --prompt: only what is relevant to that prompt (often nothing). "
        "The token count goes to stderr; --json gives every block with its tokens.",
    )
    _where_options(p)
    p.add_argument("--prompt", metavar="TEXT", help="assemble the per-prompt context for TEXT instead")
    p.add_argument(
        "--budget",
        type=int,
        metavar="TOKENS",
        help="total estimated tokens (default: 4000 at session start, 1200 with --prompt, as the hooks use)",
    )
    p.add_argument("--json", action="store_true", help="print blocks, token counts and the text as JSON")
    p.set_defaults(func=agent.cmd_context)
    p = sub.add_parser("note", help="append an entry to the current session's notes.md (through the write gate)")
    _where_options(p)
    p.add_argument("text", nargs="?", metavar="TEXT", help="the note (default: read standard input)")
    p.add_argument("--turn", type=int, metavar="N", help="turn number in the heading (default: entries + 1)")
    p.add_argument("--agent", default="main", metavar="NAME", help="who is writing (default: main)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=agent.cmd_note)
    p = sub.add_parser(
        "write",
        help="write standard input to TARGET if the write gate allows it",
        description="TARGET is a path, or one of: project (MEMORY.md), global, checkpoint, notes, progress:TID. "
        "The gate decides by --agent, the session, the project and --task; a refusal says what is allowed.",
    )
    p.add_argument(
        "target", metavar="TARGET", help="path or layer name (project, global, checkpoint, notes, progress:TID)"
    )
    _where_options(p)
    p.add_argument("--agent", default="main", metavar="NAME", help="who is writing (default: main)")
    p.add_argument("--task", metavar="TID", help="the task this agent is bound to (a subagent's journal)")
    p.add_argument("--append", action="store_true", help="append instead of replacing")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=agent.cmd_write)
