"""One vocabulary for search: backend and scope names, and the 0.1 names that still work (with a warning)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem import MemoryIndex
from mimomem.errors import InvalidScopeError, InvalidTypeError, UnknownBackendError
from mimomem.search import backends as backends_mod
from mimomem.search.backends import Backend, Fts5Backend, NativeIndex, make_backends
from mimomem.search.document_index import DocumentIndex
from mimomem.search.hits import RankedRow
from mimomem.search.params import (
    SCOPES,
    SEARCH_BACKENDS,
    SEARCH_TYPES,
    TYPES,
    check_backend,
    check_scope,
    check_type,
    default_backend,
    public_scope,
    stored_scope,
)
from mimomem.text.query import parse_query


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "memory"
    write(root, "global/MEMORY.md", "deploy with pnpm\n")
    write(root, "projects/p1/MEMORY.md", "deploy script lives in ops/\n")
    write(root, "sessions/s1/notes.md", "deploy failed once\n")
    return root


def test_names():
    assert ("fts5-bigram", "native-index", "fts5-unicode61") == SEARCH_BACKENDS
    assert ("global", "project", "session", "claude-code", "host") == SCOPES
    for scope in SCOPES:
        assert scope == check_scope(scope) == public_scope(stored_scope(scope))
    assert ("projects", "sessions", "cc") == tuple(stored_scope(s) for s in ("project", "session", "claude-code"))
    assert None is check_scope(None) is check_scope("")
    assert "" == public_scope("")  # plain DocumentIndex documents have no scope


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(InvalidScopeError, match="valid scopes: global, project, session, claude-code, host"):
        check_scope("sessionz")
    with pytest.raises(UnknownBackendError, match="valid backends: fts5-bigram, native-index, fts5-unicode61"):
        check_backend("native")


def test_the_memory_search_types_are_the_index_types_and_the_curated_categories():
    """One type filter for the memory search: a tree or Claude Code type, or a curated category (never a typo)."""
    from mimomem.curated.memory import DEFAULT_CATEGORIES

    assert TYPES + DEFAULT_CATEGORIES == SEARCH_TYPES and not set(TYPES) & set(DEFAULT_CATEGORIES)
    given = ("notes", "reference", "facts", "")
    assert [check_type(t, SEARCH_TYPES) for t in given] == ["notes", "reference", "facts", None]
    with pytest.raises(InvalidTypeError, match=r"valid types: memory, checkpoint, .*, user, rules, .*, facts$"):
        check_type("fact", SEARCH_TYPES)


@pytest.mark.parametrize("old", ["projects", "sessions", "cc", "native-scan"])
def test_the_0_1_names_are_gone(tree, old, monkeypatch):
    """The 0.1 spellings were removed (no deprecation shims in 0.1.0): an error that lists the valid names."""
    with pytest.raises(InvalidScopeError, match="valid scopes: global, project, session, claude-code, host"):
        MemoryIndex(tree).search("deploy", scope=old)
    with pytest.raises(UnknownBackendError, match="valid backends: fts5-bigram, native-index, fts5-unicode61"):
        MemoryIndex(tree, backend=old)
    monkeypatch.setenv("MIMOMEM_BACKEND", old)
    with pytest.raises(UnknownBackendError):
        default_backend()
    for name in ("NativeScan", "BackendHit"):
        with pytest.raises(AttributeError):
            getattr(backends_mod, name)
    assert not hasattr(DocumentIndex().backend("native-index"), "search")  # the 0.1 name of Backend.rank


def test_every_backend_implements_the_protocol():
    docs = DocumentIndex()
    docs.add_documents([("a", "部署脚本 deploy"), ("b", "other")])
    made = make_backends(docs.connection)
    assert tuple(sorted(made)) == tuple(sorted(SEARCH_BACKENDS))
    query = parse_query("部署脚本 deploy")
    for name, backend in made.items():
        assert isinstance(backend, Backend) and backend.name == name
        assert isinstance(backend, (Fts5Backend, NativeIndex))
        backend.load()
        rows = backend.rank(query, limit=5)
        assert ["a"] == [r.path for r in rows] and all(isinstance(r, RankedRow) for r in rows)
        assert 1 == len(backend.snippets(query, rows)) and backend.size_bytes() > 0
