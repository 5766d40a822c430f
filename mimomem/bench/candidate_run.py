"""``mimomem bench --tokenizer``: the candidate tokenizer's run next to the shipped one, and its report.

``run_candidate`` runs every requested backend of ``CANDIDATE_BACKENDS`` again on each
dataset inside ``use_tokenizer`` and computes the token diff of the dataset; the result
goes under the result's ``candidate`` key, so the shipped rows (the reference) keep their
place and format.  ``shipped_view`` / ``candidate_view`` put both sides in the shape of a
result, so ``compare_results`` gates the candidate exactly as ``--compare`` gates a saved
run, and ``format_candidate`` reports tokens, wins and losses, and each affected query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mimomem.bench.candidate import CANDIDATE_BACKENDS, Candidate, use_tokenizer
from mimomem.bench.datasets import Dataset
from mimomem.bench.significance import QueryChange, query_changes, summary
from mimomem.bench.tokenizer_diff import dataset_diff, format_dataset_diff, format_query_tokens
from mimomem.bench.wins import detail, format_backend

Progress = Callable[[str], None]


def candidate_backends(names: Sequence[str]) -> list[str]:
    """The backends of ``names`` a candidate tokenizer changes (the others use no mimomem tokens)."""
    return [n for n in names if n in CANDIDATE_BACKENDS]


def run_candidate(
    datasets: Sequence[Dataset],
    names: Sequence[str],
    candidate: Candidate,
    *,
    workroot: Path,
    progress: Progress,
    shipped: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """Token diffs and the candidate-tokenizer runs of ``names`` on every dataset (JSON-ready).

    ``shipped``: the shipped run's datasets; each candidate dataset then gets ``versus``,
    per backend the wins / losses and p-values against the shipped row (overall and per category).
    """
    from mimomem.bench.runner import run_dataset

    backends = candidate_backends(names)
    out: dict[str, Any] = {"spec": candidate.spec, "backends": backends, "datasets": []}
    for dataset in datasets:
        progress(f"[{dataset.name}] candidate {candidate.spec}: diffing tokens")
        tokens = dataset_diff(dataset, candidate)
        with use_tokenizer(candidate):
            run = run_dataset(
                dataset,
                backends,
                workroot=workroot / "candidate",
                progress=lambda m: progress(f"{m} (candidate {candidate.spec})"),
            )
        entry = {"name": dataset.name, "tokens": tokens, "backends": run["backends"]}
        ref = next((d for d in shipped if d["name"] == dataset.name), None)
        if ref is not None:
            entry["versus"] = versus(ref["backends"], run["backends"])
        out["datasets"].append(entry)
    return out


def versus(shipped: Sequence[dict[str, Any]], candidate: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per backend run by both: ``summary`` overall (``all``) and per category, candidate against shipped."""
    by_name = {b["backend"]: b for b in shipped}
    out: dict[str, Any] = {}
    for row in candidate:
        prev = by_name.get(row["backend"])
        if prev is None:
            continue
        before, after = prev.get("queries", {}), row.get("queries", {})
        cats = {cat: summary(before, after, cat) for cat in row.get("categories", {})}
        out[row["backend"]] = {"all": summary(before, after), "categories": cats}
    return out


def shipped_view(result: dict[str, Any]) -> dict[str, Any]:
    """The shipped side of a ``--tokenizer`` result, limited to the backends the candidate ran."""
    backends = set(result["candidate"]["backends"])
    datasets = [
        {"name": d["name"], "backends": [b for b in d["backends"] if b["backend"] in backends]}
        for d in result["datasets"]
    ]
    return {"schema": result.get("schema"), "datasets": datasets}


def candidate_view(result: dict[str, Any]) -> dict[str, Any]:
    """The candidate side of a ``--tokenizer`` result, shaped like a result."""
    datasets = [{"name": d["name"], "backends": d["backends"]} for d in result["candidate"]["datasets"]]
    return {"schema": result.get("schema"), "datasets": datasets}


def _moved(shipped: dict[str, Any], cand: dict[str, Any]) -> dict[str, list[QueryChange]]:
    """qid -> the changes of each backend where the query's metrics or relevant ranks moved."""
    by_name = {b["backend"]: b for b in shipped["backends"]}
    moved: dict[str, list[QueryChange]] = {}
    for backend in cand["backends"]:
        prev = by_name.get(backend["backend"])
        if prev is None:
            continue
        for change in query_changes(prev.get("queries", {}), backend.get("queries", {})):
            moved.setdefault(change.qid, []).append(replace(change, qid=backend["backend"]))
    return moved


def format_candidate(result: dict[str, Any]) -> str:
    """The candidate section of the terminal report (after the shipped tables)."""
    cand = result["candidate"]
    lines = [
        f"## Candidate tokenizer {cand['spec']} against the shipped one",
        "",
        f"Backends run with both: {', '.join(cand['backends']) or '(none of the requested ones uses mimomem tokens)'}; "
        "p: two-sided paired randomization test over the queries.",
    ]
    shipped = {d["name"]: d for d in result["datasets"]}
    for ds in cand["datasets"]:
        lines.append("")
        lines.extend(format_dataset_diff(ds["name"], ds["tokens"]))
        ref = shipped.get(ds["name"], {"backends": []})
        by_name = {b["backend"]: b for b in ref["backends"]}
        for backend in ds["backends"]:
            prev = by_name.get(backend["backend"])
            if prev is not None:
                label = f"[{ds['name']}] {backend['backend']}"
                lines.extend(format_backend(label, prev.get("queries", {}), backend.get("queries", {}), show=0))
        lines.extend(_affected_lines(ds, _moved(ref, ds)))
    return "\n".join(lines) + "\n"


def _affected_lines(ds: dict[str, Any], moved: dict[str, list[QueryChange]]) -> list[str]:
    """Each query whose own tokens changed or whose ranking moved: its token changes, then each backend's move."""
    affected = ds["tokens"]["affected_queries"]
    own = [qid for qid, c in affected.items() if c["removed"] or c["added"]]
    qids = list(dict.fromkeys([*own, *moved]))
    quiet = [qid for qid in affected if qid not in qids]
    if not qids:
        return [f"[{ds['name']}] no query's tokens changed and no ranking moved"]
    lines = [f"[{ds['name']}] affected queries ({len(qids)}): the query's tokens changed or a ranking moved"]
    for qid in qids:
        changes = moved.get(qid, [])
        text = affected[qid]["text"] if qid in affected else changes[0].text
        lines.append(f"  {qid} {text!r}")
        touched: set[str] = set()
        if qid in affected:
            lines.extend(format_query_tokens(affected[qid]))
            touched = set(affected[qid]["relevant"])
        else:
            lines.append("    tokens of the query and of its relevant documents unchanged")
        grouped: dict[str, list[str]] = {}  # the same move on several backends: one line
        for change in changes:  # qid holds the backend's name here
            line = f"{change.verdict}: {detail(change)}"
            still = sorted(d for d in _moved_docs(change) if d not in touched)
            if touched and still:
                line += f" (moved without a change of the query's tokens in them: {', '.join(still)})"
            grouped.setdefault(line, []).append(change.qid)
        lines.extend(f"    {', '.join(names)} {line}" for line, names in grouped.items())
        if not changes:
            lines.append("    rankings unchanged on every backend")
    if quiet:
        lines.append(
            f"  {len(quiet)} more queries' relevant documents gained or lost one of the query's tokens with no "
            f"ranking change: {', '.join(quiet)} (--json has the tokens)"
        )
    return lines


def _moved_docs(change: QueryChange) -> list[str]:
    docs = set(change.ranks_before) | set(change.ranks_after)
    return [d for d in docs if change.ranks_before.get(d) != change.ranks_after.get(d)]
