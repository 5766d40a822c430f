"""The end-to-end dev set on disk: a manifest of Claude Code transcripts and the questions.

Layout (``corpora/e2e-dev/``, or any directory of the same shape)::

    manifest.json       {"sessions": [{project, session_id, transcript, cwd, start, ends, end_reason}]}
    transcripts/<project>/<session>.jsonl   Claude Code's own JSONL format
    questions.jsonl     {id, project, kind, question, answers?, require?, stale?, absent?, split}
    host-memory/<project>/*.md   optional: the project's Claude Code auto-memory folder (what the host's
                        model saved), put where Claude Code keeps it before the replay

Loading checks what the scores rely on, so a broken set fails loudly instead of skewing a
number: every answer (and stale value) occurs in some transcript of its project (or its host memory
files: ``host-memory/<project>/``) and not in
the question itself; a distractor's ``absent`` words occur in no transcript of its project.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mimomem.errors import DatasetError

QUESTION_KINDS = (
    "instruction",
    "decision",
    "fact",
    "found",
    "failure",
    "workflow",
    "superseded",
    "cross-language",
    "host",
    "distractor",
)
"""Question kinds, in the order tables list them."""


@dataclass(frozen=True)
class SessionSpec:
    """One recorded session: where its transcript is and how the host ended it."""

    project: str
    session_id: str
    transcript: Path
    cwd: str
    start: str
    ends: bool
    end_reason: str


@dataclass(frozen=True)
class Question:
    """A question asked from a fresh session of ``project``, with what must reach that session."""

    id: str
    project: str
    kind: str
    question: str
    answers: tuple[str, ...] = ()
    require: str = "any"
    stale: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    split: str = "dev"


@dataclass(frozen=True)
class DevSet:
    """Sessions in start order, and the questions."""

    path: Path
    sessions: tuple[SessionSpec, ...]
    questions: tuple[Question, ...]
    extra: tuple[Question, ...] = ()
    """Prompts of splits of their own (:data:`EXTRA_FILES`), reported apart from the questions, per split."""

    def host_memory(self, project: str) -> list[Path]:
        """The project's host memory files (``host-memory/<project>/*.md``), sorted; ``[]`` without any."""
        return sorted((self.path / "host-memory" / project).glob("*.md"))

    def projects(self) -> list[str]:
        """Project names in order of their first session."""
        return list(dict.fromkeys(s.project for s in self.sessions))


def normalize(text: str) -> str:
    """NFKC, case-folded, whitespace runs as one space: how answers are looked for."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def contains(text: str, needle: str) -> bool:
    """True when ``needle`` occurs in ``text`` after :func:`normalize` of both."""
    return normalize(needle) in normalize(text)


def load_devset(path: Path) -> DevSet:
    """Load and check the dev set in ``path`` (``DatasetError`` naming what to fix)."""
    sessions = _sessions(path)
    questions = _questions(path / "questions.jsonl")
    extra = []
    for name in EXTRA_FILES:
        if (path / name).is_file():
            split = _questions(path / name)
            if not any(q.kind == "distractor" for q in split):
                raise DatasetError(f"{path / name} holds no distractor: it is a split of unrelated prompts")
            extra += split
    devset = DevSet(path, tuple(sessions), tuple(questions), tuple(extra))
    check(sessions, [*questions, *extra], {p: devset.host_memory(p) for p in devset.projects()})
    return devset


EXTRA_DISTRACTORS = "distractors-heldout.jsonl"
"""Unrelated prompts written after the gate's calibration and never tuned on (optional)."""

EXTRA_FILES = (EXTRA_DISTRACTORS, "distractors-split-2.jsonl", "distractors-dev.jsonl", "distractors-split-3.jsonl")
"""Splits asked after the questions and reported apart (each optional): unrelated prompts, and in the
second and third, related ones beside them that must still get context (so a gate that goes silent
shows); the third is the relevance gate's dev set, the first two were never tuned on."""


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror or exc}; is this an e2e dev set directory?") from None
    except ValueError as exc:
        raise DatasetError(f"{path} is not valid JSON ({exc}); rebuild it (corpora/e2e-dev/build.py)") from None


def _sessions(path: Path) -> list[SessionSpec]:
    data = _read_json(path / "manifest.json")
    rows = data.get("sessions") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise DatasetError(f"{path / 'manifest.json'} has no 'sessions' list")
    out = []
    for i, row in enumerate(rows):
        try:
            out.append(
                SessionSpec(
                    str(row["project"]),
                    str(row["session_id"]),
                    path / str(row["transcript"]),
                    str(row["cwd"]),
                    str(row["start"]),
                    bool(row.get("ends", True)),
                    str(row.get("end_reason") or "other"),
                )
            )
        except (KeyError, TypeError):
            raise DatasetError(
                f"manifest.json session {i}: needs project, session_id, transcript, cwd, start"
            ) from None
    return sorted(out, key=lambda s: s.start)


def _questions(path: Path) -> list[Question]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror or exc}") from None
    out = []
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
            out.append(_question(row))
        except (ValueError, KeyError, TypeError) as exc:
            raise DatasetError(f"{path}:{n}: not a usable question ({exc}); see the module docstring") from None
    return out


def _question(row: dict[str, Any]) -> Question:
    q = Question(
        str(row["id"]),
        str(row["project"]),
        str(row["kind"]),
        str(row["question"]),
        tuple(str(a) for a in row.get("answers", ())),
        str(row.get("require", "any")),
        tuple(str(a) for a in row.get("stale", ())),
        tuple(str(a) for a in row.get("absent", ())),
        str(row.get("split", "dev")),
    )
    if q.kind not in QUESTION_KINDS:
        raise ValueError(f"kind {q.kind!r} is not one of {', '.join(QUESTION_KINDS)}")
    if q.require not in ("any", "all"):
        raise ValueError("require must be 'any' or 'all'")
    if (q.kind == "distractor") != (not q.answers):
        raise ValueError("a distractor has no answers; every other question has at least one")
    return q


def check(
    sessions: list[SessionSpec], questions: list[Question], host_memory: dict[str, list[Path]] | None = None
) -> None:
    """Every answer is in its project's transcripts (or host memory files) and not in the question;
    distractors are absent from both."""
    texts: dict[str, str] = {}
    for s in sessions:
        try:
            raw = s.transcript.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise DatasetError(f"cannot read transcript {s.transcript}: {exc.strerror or exc}") from None
        texts[s.project] = texts.get(s.project, "") + "\n" + _readable(raw)
    for project, files in (host_memory or {}).items():
        for file in files:
            texts[project] = texts.get(project, "") + "\n" + file.read_text(encoding="utf-8", errors="replace")
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            raise DatasetError(f"question id {q.id} is used twice")
        seen.add(q.id)
        if q.project not in texts:
            raise DatasetError(f"question {q.id}: project {q.project!r} has no sessions")
        for value in q.answers + q.stale:
            if not contains(texts[q.project], value):
                raise DatasetError(f"question {q.id}: {value!r} occurs in no transcript or host memory of {q.project}")
            if contains(q.question, value):
                raise DatasetError(f"question {q.id}: the question itself contains {value!r}")
        for word in q.absent:
            if contains(texts[q.project], word):
                raise DatasetError(f"distractor {q.id}: {word!r} does occur in a transcript of {q.project}")


def _readable(raw: str) -> str:
    """The transcript with JSON string escapes undone (answers are looked for in the text)."""
    out = []
    for line in raw.splitlines():
        try:
            out.append(json.dumps(json.loads(line), ensure_ascii=False).replace("\\n", "\n").replace('\\"', '"'))
        except ValueError:
            out.append(line)
    return "\n".join(out)
