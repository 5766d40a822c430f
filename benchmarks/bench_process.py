"""What a user pays for one search in a new process: interpreter start, imports, open, one query.

For each size, builds a database of generated notes (``corpus.py``) in a temporary directory,
runs one warm-up process per backend (``native-index`` saves its ``<db>.bm25`` there), then
times ``--runs`` new processes per case, the cases taking turns:

* ``python -c pass``: the interpreter alone, the base of every ratio;
* per backend, with the default retrieval options and with ``retrieval="off"``: a process that
  imports mimomem, opens the database and answers one query (limit 10, floor, snippets).

Each figure is the CPU (user + sys) of the whole child process (``RUSAGE_CHILDREN``); the child
also reports its in-process split (``time.process_time`` at interpreter start, after the imports,
after the query), printed beside it and labelled as such.

    python benchmarks/bench_process.py [--sizes 1k,10k] [--runs 7] [--record]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import corpus

CHILD = """
import sys, time, json
t = time.process_time
start = t()
from mimomem.search.document_index import DocumentIndex
imported = t()
db, backend, retrieval, query = sys.argv[1:5]
with DocumentIndex(db) as index:
    options = {"retrieval": retrieval} if retrieval else {}
    index.search(query, backend=backend, limit=10, floor=0.15, snippets=True, **options)
end = t()
print(json.dumps({"interpreter start": start, "imports": imported - start, "open + query": end - imported}))
"""
CASES = [(b, r) for b in ("native-index", "fts5-bigram") for r in ("", "off")]


def child(cmd: list[str]) -> tuple[float, str]:
    """CPU seconds of one whole child process and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def label(backend: str, retrieval: str) -> str:
    return f"{backend}, {'options off' if retrieval else 'default options'}"


def measure(n: int, workdir: Path, runs: int) -> dict[str, Any]:
    from mimomem.search.document_index import DocumentIndex

    db = workdir / f"bench-{n}.db"
    start = time.process_time()
    with DocumentIndex(db) as index:
        index.add_documents((str(i), text) for i, text in enumerate(corpus.documents(n)))
    print(f"{n:,} notes: built in {time.process_time() - start:.1f} s CPU", flush=True)
    query = corpus.queries()[0]
    cmds = {label(b, r): [sys.executable, "-c", CHILD, str(db), b, r, query] for b, r in CASES}
    for cmd in cmds.values():
        child(cmd)  # warm-up: native-index saves <db>.bm25, the page cache holds the file
    whole: dict[str, list[float]] = {"python -c pass": [], **{name: [] for name in cmds}}
    split: dict[str, list[dict[str, float]]] = {name: [] for name in cmds}
    for _ in range(runs):
        whole["python -c pass"].append(child([sys.executable, "-c", "pass"])[0] * 1000)
        for name, cmd in cmds.items():
            cpu, out = child(cmd)
            whole[name].append(cpu * 1000)
            split[name].append({k: v * 1000 for k, v in json.loads(out).items()})
    return {
        "query": query,
        "whole_ms": whole,
        "split_ms": {name: {k: [s[k] for s in rows] for k in rows[0]} for name, rows in split.items()},
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1k,10k")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/process.json")
    args = parser.parse_args(argv)
    sizes: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-process-") as tmp:
        corpus.private_caches(Path(tmp))
        for name in args.sizes.split(","):
            n = corpus.size_arg(name)
            sizes[str(n)] = result = measure(n, Path(tmp), args.runs)
            print(f"\n| {n:,} notes, CPU ms ({args.runs} runs) | whole process median (min-max) | in-process split |")
            print("| --- | ---: | --- |")
            for case, samples in result["whole_ms"].items():
                parts = result["split_ms"].get(case, {})
                split = ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in parts.items())
                print(
                    f"| {case} | {statistics.median(samples):.1f} ({min(samples):.1f}-{max(samples):.1f}) | {split} |"
                )
    if args.record:
        import record

        record.save("process", ["benchmarks/bench_process.py", *argv], {"runs": args.runs, "sizes": sizes})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
