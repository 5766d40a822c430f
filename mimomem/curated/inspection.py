"""The self-check behind ``inspect``: each memory's status, broken links, secrets and outline drift."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from mimomem.common.secrets import redact_secrets, scan_secrets
from mimomem.curated.memory import InspectReport, Memory, MemoryStatus, Problem
from mimomem.curated.render import compiled_files
from mimomem.curated.roots import CuratedRoot


def status_of(memory: Memory, is_live: Callable[[Memory], bool]) -> str:
    """``superseded``, ``proposal``, ``shadowed`` (a project memory has its id) or ``live``."""
    if memory.superseded_by:
        return "superseded"
    if memory.kind == "rule-proposal":
        return "proposal"
    return "live" if is_live(memory) else "shadowed"


def inspect_roots(
    roots: Sequence[CuratedRoot], categories: Sequence[str], is_live: Callable[[Memory], bool]
) -> InspectReport:
    """The report of ``inspect``: every memory with its status, and the problems of every root.

    A likely secret in an id, path, summary or message is redacted (a hand-made file may hold one).
    """
    statuses: list[MemoryStatus] = []
    problems: list[Problem] = []
    for root in roots:
        problems.extend(root.problems)
        if not root.exists():
            continue
        root_statuses, root_problems = inspect_root(root, is_live)
        statuses.extend(root_statuses)
        problems.extend(root_problems)
        problems.extend(drift_problems(compiled_files(root, categories)))
    return InspectReport({r.scope: str(r.path) for r in roots}, *shown(statuses, problems))


def inspect_root(root: CuratedRoot, is_live: Callable[[Memory], bool]) -> tuple[list[MemoryStatus], list[Problem]]:
    """Every memory of an existing root with its status, and the problems of each memory file."""
    statuses: list[MemoryStatus] = []
    problems: list[Problem] = []
    hits = root.read_hits()
    for memory_id in sorted(root.memories):
        m = root.memories[memory_id]
        statuses.append(
            MemoryStatus(m.id, m.scope, m.kind, status_of(m, is_live), hits.get(m.id, 0), str(m.path), m.summary)
        )
        problems.extend(link_problems(m, root.memories))
        problems.extend(secret_problems(m))
    return statuses, problems


def shown(statuses: Iterable[MemoryStatus], problems: Iterable[Problem]) -> tuple[list[MemoryStatus], list[Problem]]:
    """Statuses and problems as reported: a likely secret in an id, path, summary or message is redacted."""
    return (
        [
            s._replace(id=redact_secrets(s.id), path=redact_secrets(s.path), summary=redact_secrets(s.summary))
            for s in statuses
        ],
        [p._replace(path=redact_secrets(p.path), message=redact_secrets(p.message)) for p in problems],
    )


def link_problems(m: Memory, memories: Mapping[str, Memory]) -> list[Problem]:
    """``supersedes``/``superseded_by`` links to missing memories, or not returned by the other side."""
    problems = []
    for link_name, target in (("supersedes", m.supersedes), ("superseded_by", m.superseded_by)):
        if target and target not in memories:
            problems.append(
                Problem(
                    "orphaned-supersedes",
                    str(m.path),
                    f"{link_name} {target!r} does not exist; edit the frontmatter or remember a replacement",
                )
            )
    if m.superseded_by and m.superseded_by in memories and memories[m.superseded_by].supersedes != m.id:
        problems.append(
            Problem(
                "orphaned-supersedes",
                str(m.path),
                f"superseded_by {m.superseded_by} but that memory does not list it in supersedes",
            )
        )
    return problems


def secret_problems(m: Memory) -> list[Problem]:
    """Likely secrets in the memory file (kind and line only, never the value)."""
    try:
        findings = scan_secrets(m.path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        findings = []
    return [
        Problem("secret", str(m.path), f"likely {f.describe()}; remove it or mark the line with mimomem:allow-secret")
        for f in findings
    ]


def drift_problems(expected: Mapping[Path, str]) -> list[Problem]:
    """Compiled files that are missing, unreadable or differ from what compiling gives now."""
    problems = []
    for path, text in expected.items():
        try:
            actual = path.read_bytes().decode("utf-8")  # as written: no newline translation
        except FileNotFoundError:
            problems.append(Problem("drift", str(path), "compiled file is missing; run `mimomem inspect --fix`"))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            message = f"unreadable compiled file ({exc}); run `mimomem inspect --fix`"
            problems.append(Problem("drift", str(path), message))
            continue
        if actual != text:
            detail = _difference(text.splitlines(), actual.splitlines())
            problems.append(Problem("drift", str(path), detail + "; run `mimomem inspect --fix` to recompile"))
    return problems


def _difference(want: list[str], have: list[str]) -> str:
    """How a compiled file differs: missing and extra lines (the first of each), or reordering."""
    want_set, have_set = set(want), set(have)
    missing = [line for line in want if line not in have_set]
    extra = [line for line in have if line not in want_set]
    detail = []
    if missing:
        detail.append(f"{len(missing)} missing line(s), first: {missing[0][:80]!r}")
    if extra:
        detail.append(f"{len(extra)} extra line(s), first: {extra[0][:80]!r}")
    return "; ".join(detail) or "lines reordered or edited by hand"
