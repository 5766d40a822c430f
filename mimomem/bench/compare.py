"""Save a benchmark result and gate later runs against it (``--save`` / ``--compare``).

The saved file is the ``--json`` result itself: it already holds, per dataset, backend
and query, the metrics, the ranks of the relevant documents found and the query's
tokens.  ``compare_results`` flags every quality metric (overall and per category) that
dropped by more than the tolerance - or, for the zero-result share, rose by more - and
lists each query that lost a relevant document with the tokens that changed between the
saved and the current tokenization.  Latency and build time of the backends are not gated
(wall-clock, too noisy); the user paths of a ``--scale`` run are: a path whose CPU time (the
median of fresh processes) grew by more than the time tolerance - 1.5x *and* 0.05 s by
default, so that noise on a shared machine or a few ms on a fast path do not fail it - is a
regression (``slower``).  With ``alpha``, a quality drop beyond the tolerance is a
regression only when the paired randomization test over the queries
(``mimomem.bench.significance``) finds it significant (one-sided p < alpha); the others
are listed as ``not_significant``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mimomem.bench.metrics import METRICS
from mimomem.bench.paths import SLOWER, SLOWER_FLOOR, SlowerPath, slower_paths, unmatched_paths
from mimomem.errors import ResultFileError

EPSILON = 1e-9
"""Differences smaller than this are float noise, never a regression."""

DEFAULT_TOLERANCE = 0.00005
"""The default allowed drop: half the last printed digit (metrics print with 4 decimals), so a drop the
report shows as ``-0.0000`` never fails the gate; ``--tolerance 0`` fails on any drop."""


@dataclass(frozen=True)
class Regression:
    """One metric that got worse by more than the tolerance."""

    dataset: str
    backend: str
    metric: str  # e.g. "ndcg@10" or "ndcg@10 [category two-char]"
    saved: float
    current: float
    category: str | None = None
    p_value: float | None = None  # set when the comparison ran with an alpha


@dataclass(frozen=True)
class LostQuery:
    """A query that lost relevant documents, and how its tokens changed."""

    dataset: str
    backend: str
    qid: str
    text: str
    left_top10: tuple[str, ...]
    left_top100: tuple[str, ...]
    tokens_removed: tuple[str, ...]
    tokens_added: tuple[str, ...]


@dataclass
class Comparison:
    """The outcome of a comparison; ``ok`` is False when any regression was found."""

    tolerance: float
    regressions: list[Regression] = field(default_factory=list)
    lost: list[LostQuery] = field(default_factory=list)
    not_compared: list[str] = field(default_factory=list)
    slower: list[SlowerPath] = field(default_factory=list)
    time_factor: float = SLOWER
    time_floor: float = SLOWER_FLOOR
    paths_compared: bool = False
    alpha: float | None = None
    not_significant: list[Regression] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.regressions and not self.slower


def save_result(result: dict[str, Any], path: str | Path) -> None:
    """Write ``result`` as JSON, atomically."""
    from mimomem.common.files import atomic_write

    target = Path(path)
    if target.parent and not target.parent.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n")


def load_result(path: str | Path) -> dict[str, Any]:
    """Read a file written by ``save_result`` (or ``mimomem bench --json``)."""
    source = Path(path)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ResultFileError(f"{source}: cannot read ({exc.strerror}); create it first with --save") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ResultFileError(f"{source}: not a JSON benchmark result ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("datasets"), list) or "schema" not in data:
        raise ResultFileError(f"{source}: not a mimomem bench result (no 'schema' / 'datasets'); write one with --save")
    return data


def _index(result: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(d["name"], b["backend"]): b for d in result["datasets"] for b in d["backends"]}


def _check(
    out: Comparison, dataset: str, backend: str, cat: str | None, saved: dict[str, Any], current: dict[str, Any]
) -> None:
    label = f" [{cat}]" if cat is not None else ""
    for metric in METRICS:
        if metric in saved and metric in current and saved[metric] - current[metric] > out.tolerance + EPSILON:
            out.regressions.append(Regression(dataset, backend, metric + label, saved[metric], current[metric], cat))
    key = "zero_result_share"
    if key in saved and key in current and current[key] - saved[key] > out.tolerance + EPSILON:
        out.regressions.append(Regression(dataset, backend, key + label, saved[key], current[key], cat))


def _apply_alpha(out: Comparison, old: dict[tuple[str, str], Any], new: dict[tuple[str, str], Any]) -> None:
    """Keep as regressions only the drops the paired test finds significant at ``out.alpha``."""
    from dataclasses import replace

    from mimomem.bench.significance import drop_p_value

    assert out.alpha is not None
    kept: list[Regression] = []
    for r in out.regressions:
        before, after = old[(r.dataset, r.backend)].get("queries", {}), new[(r.dataset, r.backend)].get("queries", {})
        tested = replace(r, p_value=drop_p_value(before, after, r.metric.split(" [")[0], r.category))
        (kept if tested.p_value is not None and tested.p_value < out.alpha else out.not_significant).append(tested)
    out.regressions = kept


def compare_results(
    saved: dict[str, Any],
    current: dict[str, Any],
    tolerance: float = DEFAULT_TOLERANCE,
    *,
    time_factor: float = SLOWER,
    time_floor: float = SLOWER_FLOOR,
    alpha: float | None = None,
) -> Comparison:
    """Compare ``current`` against ``saved`` (both result dicts); see the module doc.

    ``tolerance``: allowed drop per quality metric; ``time_factor`` and ``time_floor``: a
    user path fails when its CPU time grew by more than both (factor x and floor seconds);
    ``alpha``: a drop fails only when also significant (one-sided p < alpha).
    """
    if tolerance < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance}")
    if alpha is not None and not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    out = Comparison(tolerance, time_factor=time_factor, time_floor=time_floor, alpha=alpha)
    old, new = _index(saved), _index(current)
    for key in old:
        if key not in new:
            out.not_compared.append(f"{key[0]} / {key[1]}: in the saved result only")
    for key in new:
        if key not in old:
            out.not_compared.append(f"{key[0]} / {key[1]}: in the current result only")
    for (dataset, backend), cur in new.items():
        prev = old.get((dataset, backend))
        if prev is None:
            continue
        _check(out, dataset, backend, None, prev, cur)
        for cat, stats in cur.get("categories", {}).items():
            if cat in prev.get("categories", {}):
                _check(out, dataset, backend, cat, prev["categories"][cat], stats)
        for qid, q in cur.get("queries", {}).items():
            p = prev.get("queries", {}).get(qid)
            if p is None:
                continue
            lost = _lost(dataset, backend, qid, p, q)
            if lost is not None:
                out.lost.append(lost)
    if alpha is not None:
        _apply_alpha(out, old, new)
    old_paths, new_paths = (saved.get("scale") or {}).get("paths"), (current.get("scale") or {}).get("paths")
    out.slower = slower_paths(old_paths, new_paths, time_factor, time_floor)
    out.not_compared += unmatched_paths(old_paths, new_paths)
    out.paths_compared = bool(old_paths and new_paths)
    return out


def _lost(dataset: str, backend: str, qid: str, prev: dict[str, Any], cur: dict[str, Any]) -> LostQuery | None:
    before, after = prev.get("relevant_ranks", {}), cur.get("relevant_ranks", {})
    top10 = tuple(d for d, r in before.items() if r <= 10 and not (d in after and after[d] <= 10))
    top100 = tuple(d for d in before if d not in after)
    if not top10 and not top100:
        return None
    old_tokens, new_tokens = list(prev.get("tokens", [])), list(cur.get("tokens", []))
    return LostQuery(
        dataset,
        backend,
        qid,
        str(cur.get("text", prev.get("text", ""))),
        top10,
        top100,
        tuple(t for t in old_tokens if t not in new_tokens),
        tuple(t for t in new_tokens if t not in old_tokens),
    )


def _regression_line(r: Regression) -> str:
    p = f", p {r.p_value:.3g}" if r.p_value is not None else ""
    return f"  {r.dataset} / {r.backend}: {r.metric} {r.saved:.4f} -> {r.current:.4f} ({r.current - r.saved:+.4f}{p})"


def plain(x: float) -> str:
    """``0.00005`` -> ``0.00005`` (not ``5e-05``), ``0.0`` -> ``0``, ``0.15`` -> ``0.15``."""
    return f"{x:.10f}".rstrip("0").rstrip(".")


def format_comparison(c: Comparison) -> str:
    """A plain-text account of ``c`` for the terminal."""
    lines = []
    how = f" and significantly (p < {c.alpha:g})" if c.alpha is not None else ""
    if c.regressions:
        lines.append(f"REGRESSION: {len(c.regressions)} metric(s) dropped by more than {plain(c.tolerance)}{how}")
        lines.extend(_regression_line(r) for r in c.regressions)
    else:
        lines.append(f"OK: no metric dropped by more than {plain(c.tolerance)}{how}")
    if c.not_significant:
        lines.append(f"not significant at alpha {c.alpha:g} ({len(c.not_significant)} drop(s), not failing):")
        lines.extend(_regression_line(r) for r in c.not_significant)
    allowed = f"{c.time_factor:g}x and +{c.time_floor:g} s"
    if c.slower:
        lines.append(f"REGRESSION: {len(c.slower)} user path(s) got slower than allowed ({allowed} CPU)")
        lines.extend(f"  {s.describe()}" for s in c.slower)
    elif c.paths_compared:
        lines.append(f"OK: no user path got slower than allowed ({allowed} CPU)")
    if c.lost:
        lines.append(f"{len(c.lost)} query/backend pair(s) lost relevant documents:")
        for q in c.lost:
            parts = []
            if q.left_top10:
                parts.append("left the top 10: " + ", ".join(q.left_top10))
            if q.left_top100:
                parts.append("no longer retrieved: " + ", ".join(q.left_top100))
            lines.append(f"  {q.dataset} / {q.backend} / {q.qid} {q.text!r}: " + "; ".join(parts))
            if q.tokens_removed or q.tokens_added:
                lines.append(
                    "    tokens removed: "
                    + (" | ".join(q.tokens_removed) or "-")
                    + "; added: "
                    + (" | ".join(q.tokens_added) or "-")
                )
            else:
                lines.append("    tokens unchanged (the index side or the ranking changed)")
    for note in c.not_compared:
        lines.append(f"not compared: {note}")
    return "\n".join(lines)
