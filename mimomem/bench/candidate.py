"""A candidate tokenizer (``--tokenizer MODULE:FUNCTION``), tried without a rebuild.

``load_tokenizer`` imports the function, checks it on a probe text and wraps it as a
``Candidate``.  ``use_tokenizer`` swaps it in for the shipped bigram tokenizer for the
length of a ``with`` block, at the places where mimomem's own backends get their tokens:

* the document side - the shadow column (``mimomem.search.db``'s ``tokenize_many``), from
  which both ``fts5-bigram`` and ``native-index`` (``BM25Index.add_joined``) are built;
* the query side - ``mimomem.text._accel.tokenize_bigram`` / ``tokenize_many``, which
  ``mimomem.tokenize`` (so ``parse_query``, feedback, proximity) and the peer engines
  (``bm25s``, ``tantivy``, ``naive-bigram``) call at run time.

The shipped twins stay the reference: they run first, outside the block.  What the swap
cannot change: ``parse_query`` builds the phrase of a CJK run with its own bigram rule,
and FTS5 reads the shadow column with its ``ascii`` tokenizer, so a candidate token with
ASCII punctuation or a space in it is split again by ``fts5-bigram`` (not by
``native-index``); ``ascii_split_tokens`` counts such tokens for the report.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mimomem.errors import TokenizerSpecError
from mimomem.text._accel import tokenize_bigram as _shipped_bigram
from mimomem.text.tokens import Token

CANDIDATE_BACKENDS = ("fts5-bigram", "native-index", "naive-bigram", "bm25s", "tantivy")
"""The backends built on mimomem's tokens, which a candidate tokenizer changes."""

PROBE = "部署脚本用pnpm，端口5433 ACCESS_TOKEN_TTL v1.2.3 東京タワー 한국어"
"""Text every candidate is tried on before the run starts."""

_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
_ASCII_SPLIT = re.compile(r"[\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]")  # ASCII that is not a letter, digit or _


@dataclass(frozen=True)
class Candidate:
    """A loaded candidate tokenizer: its ``MODULE:FUNCTION`` spec and the function."""

    spec: str
    function: Callable[..., Any]

    def tokenize(self, text: str, mode: str = "bigram") -> list[Token]:
        """The candidate's tokens of ``text`` as ``Token``s (``mode`` is accepted and ignored)."""
        try:
            raw = self.function(text)
        except TokenizerSpecError:
            raise
        except Exception as exc:  # the candidate is user code: report, never a traceback
            raise TokenizerSpecError(
                f"{self.spec} raised {type(exc).__name__}: {exc} on the text {text[:60]!r}; fix the function"
            ) from None
        return as_tokens(raw, self.spec)

    def tokenize_many(self, texts: Iterable[str], *, offsets: bool = False) -> list[Any]:
        """``mimomem.text.tokens.tokenize_many``'s shape, from the candidate's tokens."""
        out: list[Any] = []
        for text in texts:
            found = self.tokenize(text)
            words = tuple(t.text for t in found)
            out.append((words, tuple(t.start for t in found), tuple(t.end for t in found)) if offsets else words)
        return out


def as_tokens(raw: object, spec: str) -> list[Token]:
    """``raw`` as a list of ``Token``; ``TokenizerSpecError`` unless it is a sequence of them.

    Accepted items: ``Token`` (or any object with ``text``, ``start``, ``end``) and plain
    ``(text, start, end)`` tuples.
    """
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise TokenizerSpecError(_wrong_type(spec, f"a {type(raw).__name__}"))
    out = []
    for item in raw:
        if isinstance(item, Token):
            out.append(item)
            continue
        fields = (getattr(item, "text", None), getattr(item, "start", None), getattr(item, "end", None))
        if fields[0] is None and isinstance(item, tuple) and len(item) == 3:
            fields = item
        text, start, end = fields
        if not (isinstance(text, str) and text and isinstance(start, int) and isinstance(end, int)):
            raise TokenizerSpecError(_wrong_type(spec, f"an item {item!r}"))
        out.append(Token(text, start, end))
    return out


def _wrong_type(spec: str, got: str) -> str:
    return (
        f"{spec} returned {got}; a candidate must return what mimomem.tokenize does: a list of "
        "mimomem.Token(text, start, end) (or (text, start, end) tuples) with non-empty text"
    )


def load_tokenizer(spec: str) -> Candidate:
    """Import ``MODULE:FUNCTION`` and check it on ``PROBE``; ``TokenizerSpecError`` says what is wrong."""
    if not _SPEC.match(spec):
        raise TokenizerSpecError(
            f"--tokenizer {spec!r} is not MODULE:FUNCTION; pass e.g. mymod:tokenize "
            "(mymod.py in the working directory, on PYTHONPATH or installed)"
        )
    module_name, _, function_name = spec.partition(":")
    try:
        module = _import(module_name)
    except ModuleNotFoundError as exc:
        raise TokenizerSpecError(
            f"cannot import {module_name!r} for --tokenizer {spec} ({exc}); run from the directory holding "
            f"{module_name.replace('.', '/')}.py, or put its directory on PYTHONPATH"
        ) from None
    except Exception as exc:  # the module is user code: its import may fail in any way
        raise TokenizerSpecError(
            f"importing {module_name!r} for --tokenizer {spec} raised {type(exc).__name__}: {exc}; fix the module"
        ) from None
    function = getattr(module, function_name, None)
    if function is None:
        raise TokenizerSpecError(
            f"module {module_name!r} has no {function_name!r} (--tokenizer {spec}); name a function it defines"
        )
    if not callable(function):
        raise TokenizerSpecError(
            f"{spec} is a {type(function).__name__}, not a function; name a function taking the text (str)"
        )
    candidate = Candidate(spec, function)
    candidate.tokenize(PROBE)
    return candidate


def _import(module_name: str) -> Any:
    """``module_name`` from ``sys.path``, else ``<cwd>/<module_name>.py``.

    The working directory is tried for the candidate file alone, never put on ``sys.path``: with
    ``PYTHONPATH=.`` in a checkout, ``import mimomem`` would find the source tree, which has no
    compiled extension, and the whole run (shipped rows included) would be pure Python.
    """
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name.split(".")[0]:
            raise
        file = Path.cwd() / f"{module_name.replace('.', '/')}.py"
        spec = importlib.util.spec_from_file_location(module_name, file) if file.is_file() else None
        if spec is None or spec.loader is None:
            raise
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[module_name]
            raise
        return module


def ascii_split_tokens(tokens: Iterable[str]) -> int:
    """How many of ``tokens`` FTS5's ``ascii`` tokenizer would split (ASCII punctuation or space)."""
    return sum(1 for t in tokens if _ASCII_SPLIT.search(t))


@contextlib.contextmanager
def use_tokenizer(candidate: Candidate) -> Iterator[None]:
    """Within the block, mimomem's backends tokenize with ``candidate`` (see the module doc)."""
    from mimomem.search import db
    from mimomem.text import _accel

    db.bigram_tokenizer_id()  # cached with the shipped tokens: databases of this process keep one identity
    shipped_bigram, shipped_many = _accel.tokenize_bigram, _accel.tokenize_many
    inside = [0]  # > 0 while the candidate runs: its own calls of mimomem.tokenize get the shipped tokenizer

    def bigram(text: str) -> list[Token]:
        if inside[0]:
            return list(shipped_bigram(text))
        inside[0] += 1
        try:
            return candidate.tokenize(text)
        finally:
            inside[0] -= 1

    def many(texts: Iterable[str], *, offsets: bool = False) -> list[Any]:
        if inside[0]:
            return list(shipped_many(texts, offsets=offsets))
        inside[0] += 1
        try:
            return candidate.tokenize_many(texts, offsets=offsets)
        finally:
            inside[0] -= 1

    swaps: list[tuple[object, str, object]] = [(_accel, "tokenize_bigram", bigram), (_accel, "tokenize_many", many)]
    swaps.append((db, "tokenize_many", many))
    saved = [(module, name, getattr(module, name)) for module, name, _ in swaps]
    for module, name, value in swaps:
        setattr(module, name, value)
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def shipped_tokens(text: str) -> list[Token]:
    """The shipped bigram tokenizer's tokens (the reference side of every diff), even inside ``use_tokenizer``."""
    return list(_shipped_bigram(text))
