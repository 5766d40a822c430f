"""The hosts' own memory files as search hits (scope ``host``): ranked by BM25, read-only, never the tree's.

``mimomem search`` finds what Claude Code, Codex or Gemini CLI remembered for this project
(:mod:`mimomem.tree.host_paths` says where) beside mimomem's own memory.  Each file is one
document (a Claude Code fact with its name and description; a Codex file; a Gemini file's saved
section); its hit names the file, and its label says which host's model wrote it.  A host file
whose words are nearly all inside one of mimomem's own hits repeats it and is left out.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from mimomem.common.secrets import redact_secrets
from mimomem.search.hits import Found
from mimomem.search.params import Filters
from mimomem.text.bm25 import BM25Index
from mimomem.text.query import Query
from mimomem.text.tokens import tokenize
from mimomem.tree import host_files, host_paths

REPEAT = 0.8
"""A host file whose words are this share inside a hit of mimomem's own repeats it."""


def host_documents(cwd: str | None, env: Mapping[str, str]) -> list[tuple[str, str, str, str, str]]:
    """``(path, host, label, type, text)`` of every host memory file of ``cwd``'s project that reads."""
    out = []
    for source in host_paths.sources(cwd, env):
        files = host_files.listing(source.path)[0] if source.folder else [source.path]
        for path in files:
            if os.path.basename(path) == host_files.INDEX and source.folder:
                continue
            try:
                text, problem = host_files.read_text(path)
            except (OSError, ValueError):
                continue
            out.append(_document(path, source.host, text, problem))
    return [d for d in out if d[4].strip()]


def _document(path: str, host: str, text: str, problem: str) -> tuple[str, str, str, str, str]:
    name = host_paths.HOST_NAMES.get(host, host)
    if host == "gemini":
        return path, host, f"{name} memory (model-written)", "", host_files.gemini_saved(text)[0]
    if host == "codex":
        return path, host, f"{name} memory (model-written)", "", text
    fact = host_files.parse(path, text, problem)
    what = ", ".join(x for x in ("model-written", fact.type) if x)
    body = "\n".join(x for x in (fact.description, fact.body.strip()) if x)
    return path, host, f"{name} memory ({what}): {fact.name}", fact.type, body


def host_hits(
    where_cwd: str | None,
    query: Query,
    filters: Filters,
    fetch: int,
    own: Sequence[str],
    env: Mapping[str, str] | None = None,
) -> list[Found]:
    """The host memory files matching the parsed ``query`` under ``filters``, best first, without those that
    repeat one of ``own`` (the texts of mimomem's own hits, as their search read them: no file is read
    again); ``[]`` when the filters leave hosts out."""
    if filters.scope not in (None, "host") or (filters.scope_id and filters.scope_id not in host_paths.HOSTS):
        return []
    env = os.environ if env is None else env
    docs = [
        d
        for d in host_documents(where_cwd, env)
        if (not filters.type or d[3] == filters.type) and (not filters.scope_id or d[1] == filters.scope_id)
    ]
    if not docs:
        return []
    index = BM25Index()
    by_id = {f"host:{i}": doc for i, doc in enumerate(docs)}
    for key, doc in by_id.items():
        index.add(key, tokenize(doc[4]))
    mine = [_words(text) for text in own]
    out = []
    for hit in index.search(query, fetch):
        path, host, label, type_, text = by_id[str(hit.doc_id)]
        words = _words(text)
        if any(len(words & m) >= REPEAT * len(words) for m in mine):
            continue
        snippet = redact_secrets(" ".join(text.split())[:200])  # a host file may hold one: the gate never saw it
        out.append(Found("host", path, label, "host", host, type_ or host, hit.score, hit.score, snippet))
    return out


def _words(text: str) -> set[str]:
    return {t.text for t in tokenize(text)}
