"""``mimomem bench`` (the default run) several times, for the README's retrieval tables.

Quality (nDCG@10, Recall, MRR, zero-result share, per category) is deterministic: the script
checks it is the same in every run. Latency (CPU time of the querying thread) and build time
(wall clock) vary with the machine's load, so each is kept for every run and reported as the
median with the lowest and highest. Each backend's query handling (the product's default
retrieval policy, or plain ranking for the peers) is recorded with it.

    python benchmarks/bench_quality.py [--runs 3] [--record]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
QUALITY = ("ndcg@10", "recall@10", "recall@100", "mrr@10", "zero_result_share")


def trim(result: dict[str, Any]) -> dict[str, Any]:
    """One run without the per-query rows: what the README tables need."""
    datasets = []
    for d in result["datasets"]:
        backends = []
        for b in d["backends"]:
            keep = {k: b[k] for k in ("backend", "policy", *QUALITY, "latency_ms", "cpu_ms", "build_s", "index_bytes")}
            keep["categories"] = b["categories"]
            backends.append(keep)
        datasets.append({k: d[k] for k in ("name", "documents", "queries", "categories")} | {"backends": backends})
    return {"datasets": datasets, "failures": result.get("failures"), "skipped": result.get("skipped_backends")}


def merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The first run's quality (checked equal in every run) with every run's timings as lists."""
    first = runs[0]
    for d_index, dataset in enumerate(first["datasets"]):
        for b_index, backend in enumerate(dataset["backends"]):
            others = [r["datasets"][d_index]["backends"][b_index] for r in runs]
            for key in (*QUALITY, "categories"):
                if any(o[key] != backend[key] for o in others):
                    raise SystemExit(f"{dataset['name']} {backend['backend']}: {key} differs between runs")
            backend["runs"] = {
                "cpu_p50_ms": [o["cpu_ms"]["p50"] for o in others],
                "cpu_p95_ms": [o["cpu_ms"]["p95"] for o in others],
                "wall_p50_ms": [o["latency_ms"]["p50"] for o in others],
                "build_s": [o["build_s"] for o in others],
            }
            for key in ("latency_ms", "cpu_ms", "build_s"):
                del backend[key]
    return first


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/quality.json")
    args = parser.parse_args(argv)
    from mimomem.bench.datasets import find_corpora
    from mimomem.bench.runner import run_bench

    corpora = find_corpora(ROOT)
    paths = sorted(p for p in corpora.iterdir() if (p / "corpus.jsonl").is_file())
    runs = []
    for run in range(args.runs):
        print(f"run {run + 1} of {args.runs}", file=sys.stderr, flush=True)
        runs.append(trim(run_bench(paths, None, failures=True)))
    merged = merge(runs)
    for d in merged["datasets"]:
        print(d["name"], {b["backend"]: round(b["ndcg@10"], 3) for b in d["backends"]})
    if args.record:
        import record

        record.save("quality", ["benchmarks/bench_quality.py", *argv], {"runs": args.runs, **merged})
        chart(merged)
    return 0


def chart(result: dict[str, Any]) -> Path:
    """Redraw the README's per-category chart of agent-memory from the recorded result."""
    from mimomem.bench.report import category_chart

    path = ROOT / "docs" / "bench" / "categories-agent-memory.png"
    category_chart(next(d for d in result["datasets"] if d["name"] == "agent-memory"), path)
    return path


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
