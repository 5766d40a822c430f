"""What the default retrieval policy costs per query: options off against the shipped policy.

On N generated notes (``corpus.py``) in an in-memory ``DocumentIndex``, the 200 generated and
the 237 corpus queries (``bench_retrieval.Bench``), top 10, for ``fts5-bigram`` and
``native-index``: each query's ranking (``rank_with_options``), timed both as CPU time of the
thread (``time.thread_time``) and as wall-clock time (``time.perf_counter``), labelled as such.
The queries are run ``--runs`` times over (the cases taking turns per run); every run's p50 and
p95 are kept, and the table gives their median with the lowest and highest run.

    python benchmarks/bench_policy_latency.py [--docs 10000] [--runs 3] [--record]

(``python benchmarks/bench_retrieval.py --latency N`` runs it once and prints the table.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_retrieval import Bench

from mimomem.bench.metrics import percentile
from mimomem.search.document_index import DocumentIndex
from mimomem.search.rerank import OFF, options_for, rank_with_options

BACKENDS = ("fts5-bigram", "native-index")
CASES = ("off", "policy")


def measure(n: int, runs: int) -> dict[str, Any]:
    """Per backend and case, per run: p50 / p95 of CPU and wall ms over every query."""
    from corpus import documents, queries

    index = DocumentIndex()
    index.add_documents((str(i), t) for i, t in enumerate(documents(n)))
    asked = [*queries(), *(r.text for r in Bench("fts5-bigram", {}).rows)]
    out: dict[str, Any] = {"docs": n, "queries": len(asked), "cases": {}}
    for backend in BACKENDS:
        index.backend(backend).load()
        parsed = {text: index.parse(text, backend) for text in asked}
        for text in asked[:20]:  # warm-up
            rank_with_options(index, parsed[text], backend, options_for(text), limit=10)
    for _ in range(runs):
        for backend in BACKENDS:
            for case, pick in zip(CASES, (lambda _t: OFF, options_for), strict=True):
                cpu, wall = [], []
                for text in asked:
                    parsed_query = index.parse(text, backend)
                    start, start_wall = time.thread_time(), time.perf_counter()
                    rank_with_options(index, parsed_query, backend, pick(text), limit=10)
                    cpu.append((time.thread_time() - start) * 1e3)
                    wall.append((time.perf_counter() - start_wall) * 1e3)
                row = out["cases"].setdefault(f"{backend} {case}", {})
                for name, values in (("cpu", cpu), ("wall", wall)):
                    for q in (50, 95):
                        row.setdefault(f"{name}_p{q}_ms", []).append(percentile(values, q))
    return out


def table(data: dict[str, Any]) -> str:
    lines = [
        f"| backend | options | CPU p50 ms | CPU p95 ms | wall p50 ms | wall p95 ms | "
        f"({data['docs']} documents, {data['queries']} queries, median of runs) |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for name, row in data["cases"].items():
        backend, case = name.split()
        cells = [f"{statistics.median(row[k]):.2f}" for k in ("cpu_p50_ms", "cpu_p95_ms", "wall_p50_ms", "wall_p95_ms")]
        lines.append(f"| {backend} | {case} | {' | '.join(cells)} | |")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/policy-latency.json")
    args = parser.parse_args(argv)
    data = measure(args.docs, args.runs)
    print(table(data))
    if args.record:
        import record

        record.save("policy-latency", ["benchmarks/bench_policy_latency.py", *argv], {"runs": args.runs, **data})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
