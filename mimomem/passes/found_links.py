"""What links a line a tool showed to the conversation around it: the answer repeating it, the
question naming its key.

- **The answer repeats it** (:func:`quotes`): the model's text after the call holds the record's
  whole value, a number / version / host / path standing apart inside it (``1.22.5`` of ``go1.22.5``,
  not ``8`` of ``8080``), the value inside one of its own tokens, a CJK value verbatim, or cites the
  record's line (``line 3``, ``第 3 行``, ``3 行目``, ``app.yaml:3``).  The text is read after NFKC
  (full-width digits) and without thousands separators (``12,000``).
- **The question names its key** (:func:`key_score`): the words of the key's name (``maxReplicas`` ->
  max, replicas; ``worker_count`` -> worker, count) against the question's Latin words, the English
  of its Chinese words (the shipped cross-language file, :mod:`mimomem.text.xlang`), and its katakana
  / hangul loanwords by sound (:mod:`mimomem.passes.loanword`: キャッシュ is cache).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from mimomem.history.tool_values import Record
from mimomem.passes.loanword import sounds_like

_ATOM = re.compile(r"[A-Za-z0-9][\w.:/@+%-]*[A-Za-z0-9]|[A-Za-z0-9]", re.A)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u9fff]")
_LOANWORD = re.compile(r"[\u30a0-\u30ffー]{2,}|[\uac00-\ud7af]{2,}")
_THOUSANDS = re.compile(r"(?<=\d)[,，](?=\d{3}(?!\d))")
_LINE_REF = re.compile(
    r"(?:\bline|\bL|第)\s*(\d{1,5})(?!\d)|(?<!\d)(\d{1,5})\s*行目|[\w-]\.\w{1,8}:(\d{1,5})(?![\d:])", re.I
)
_LATIN = re.compile(r"[a-z][a-z0-9]+")
_SEPARATOR = re.compile(r"[._/:@-]")
_DIGIT = re.compile(r"\d")
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "what",
        "which",
        "where",
        "when",
        "who",
        "how",
        "why",
        "does",
        "did",
        "can",
        "could",
        "you",
        "your",
        "our",
        "are",
        "was",
        "were",
        "this",
        "that",
        "with",
        "from",
        "set",
        "now",
        "here",
        "there",
        "value",
        "values",
        "config",
        "file",
        "files",
        "line",
        "version",
        "show",
        "tell",
        "check",
        "look",
        "find",
        "number",
        "current",
    ]
)


@dataclass(frozen=True)
class Answer:
    """The model's text after a call, read for what it repeats."""

    text: str
    atoms: frozenset[str]
    lines: frozenset[int]
    pieces: tuple[str, ...] = ()
    """The atoms that name one thing inside a longer value: numbers, versions, hosts, paths."""

    @property
    def could_quote(self) -> bool:
        return bool(self.atoms or self.lines or _CJK.search(self.text))


def answer_of(text: str) -> Answer:
    """``text`` read as an answer: its atoms (numbers, identifiers, versions, paths) and cited lines."""
    text = _THOUSANDS.sub("", unicodedata.normalize("NFKC", text))
    lines = {int(n) for found in _LINE_REF.finditer(text) for n in found.groups() if n}
    atoms = frozenset(a.casefold() for a in _ATOM.findall(text))
    return Answer(text, atoms, frozenset(lines), tuple(a for a in atoms if a.isdigit() or strong(a)))


def quotes(answer: Answer, record: Record) -> bool:
    """Whether ``answer`` repeats ``record``'s value or cites its line (see the module's doc)."""
    if record.cite and answer.lines and int(record.cite.rsplit(":", 1)[1]) in answer.lines:
        return True
    value = record.value
    if _CJK.search(value):
        return value in answer.text
    folded = value.casefold().strip("`'\"")
    if folded in answer.atoms:
        return True
    if any(piece in folded and _apart(piece, folded) for piece in answer.pieces):
        return True
    return strong(folded) and any(folded in atom and _apart(folded, atom) for atom in answer.atoms)


def strong(token: str) -> bool:
    """A term that names one thing on its own: has a digit (two or more characters) or a separator."""
    return bool(_SEPARATOR.search(token)) or (len(token) >= 2 and bool(_DIGIT.search(token)))


def _apart(part: str, whole: str) -> bool:
    """Whether ``part`` stands inside ``whole`` as a token of its own (not 8 in 8080)."""
    for found in re.finditer(re.escape(part), whole) if part else ():
        left = whole[found.start() - 1] if found.start() else " "
        right = whole[found.end()] if found.end() < len(whole) else " "
        if not (_joins(part[0], left) or _joins(part[-1], right)):
            return True
    return False


def _joins(edge: str, beside: str) -> bool:
    """Whether ``beside`` continues the token whose edge is ``edge`` (8 in 8080, a word in a longer word)."""
    if edge.isdigit():
        return beside.isdigit() or beside == "."
    return edge.isalpha() and beside.isalnum()


@dataclass(frozen=True)
class Question:
    """The user's question, read for the keys it names."""

    words: frozenset[str]
    """Stemmed English words: its own and those of its Chinese words."""
    loanwords: frozenset[str]
    """Its katakana and hangul words."""
    terms: frozenset[str]
    """Its distinctive terms as written (identifiers, paths, numbers)."""

    @classmethod
    def of(cls, text: str) -> Question:
        if not text.strip():
            return cls(frozenset(), frozenset(), frozenset())
        words = set(_LATIN.findall(text.casefold()))
        if _HAN.search(text):
            from mimomem.text.xlang import translations_in

            words.update(w for term in translations_in(text, []) for w in _LATIN.findall(term.casefold()))
        stemmed = frozenset(_stem(w) for w in words if len(w) > 2 and w not in _STOP)
        terms = frozenset(t for t in (a.casefold() for a in _ATOM.findall(text)) if strong(t))
        return cls(stemmed, frozenset(_LOANWORD.findall(text)), terms)


def names_any(text: str, question: Question) -> bool:
    """Whether ``question`` names a word of ``text`` (a command, a path): ``psql -c 'SHOW max_connections'``
    for a turn naming max_connections, ``Dockerfile.build`` for one about the build image."""
    return any(_stem(w) in question.words for w in _LATIN.findall(text.casefold()) if len(w) > 2) or any(
        t in question.terms for t in (a.casefold() for a in _ATOM.findall(text))
    )


def key_score(key: str | None, question: Question) -> int:
    """How many words of ``key``'s name ``question`` names (in English, Chinese or as a loanword)."""
    words = _key_words(key)
    return sum(1 for w in words if w in question.words or any(sounds_like(b, w) for b in question.loanwords))


@functools.lru_cache(maxsize=4096)
def _key_words(key: str | None) -> frozenset[str]:
    """The words of a key's name and of its parents' (``staging.host`` -> staging, host): ``maxReplicas``
    -> max, replicas; ``worker_count`` -> worker, count."""
    if not key:
        return frozenset()
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key)
    return frozenset(_stem(w) for w in re.split(r"[\W_]+", spaced.casefold()) if len(w) > 2)


_CAMEL = re.compile(r"[A-Z]?[a-z]{2,}|[A-Z]{3,}(?![a-z])")


def line_words(line: str) -> set[str]:
    """The words a key standing in ``line`` could be made of, stemmed as :func:`key_score` reads them."""
    return {_stem(w.casefold()) for w in _CAMEL.findall(line)}


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
