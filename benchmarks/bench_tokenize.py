"""Tokenizer throughput in MB/s: mimomem's twins against jieba, rjieba and ``str.split``.

Every case runs in the same process on the same generated documents, one call per
document (the way an indexer calls a tokenizer):

* ``native tokenize_bigram`` / ``pure tokenize_bigram`` - mimomem's two twins, returning
  ``list[Token]`` with offsets;
* ``native BM25Core.add_text`` - tokenize *and index* without creating Python token
  objects (the bulk-load path);
* ``rjieba.cut`` (Rust jieba) and ``jieba.lcut_for_search`` - what a user would pick;
* ``str.split`` - the practical ceiling for anything that returns a Python list of str.

Run ``python benchmarks/bench_tokenize.py [--docs 10k] [--runs 3]`` for the ratio table,
or ``pytest benchmarks/bench_tokenize.py`` (1k documents unless MIMOMEM_BENCH_DOCS is set).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable

import pytest

import corpus


def _native():
    try:
        return importlib.import_module("mimomem._native")
    except ImportError:
        return None


def _require(module: str):
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _cases(docs: list[str]) -> dict[str, Callable[[], int] | str]:
    """Case name -> a function returning the token count, or the reason it cannot run."""
    from mimomem.text import _tokenizer_py

    native = _native()
    rjieba = _require("rjieba")
    cases: dict[str, Callable[[], int] | str] = {}

    if native is not None:
        native_tokenize = native.tokenize_bigram

        def native_tokens() -> int:
            return sum(len(native_tokenize(d)) for d in docs)

        def native_add_text() -> int:
            core = native.BM25Core()
            for i, d in enumerate(docs):
                core.add_text(i, d)
            return core.total_tokens()

        cases["native tokenize_bigram"] = native_tokens
        cases["native BM25Core.add_text"] = native_add_text
    else:
        cases["native tokenize_bigram"] = cases["native BM25Core.add_text"] = "mimomem._native not built"

    pure_tokenize = _tokenizer_py.tokenize_bigram
    cases["pure tokenize_bigram"] = lambda: sum(len(pure_tokenize(d)) for d in docs)
    if rjieba is not None:
        cut = rjieba.cut
        cases["rjieba.cut"] = lambda: sum(len(cut(d)) for d in docs)
    else:
        cases["rjieba.cut"] = "rjieba not installed"
    cases["jieba.lcut_for_search"] = _jieba_case(docs)
    cases["str.split"] = lambda: sum(len(d.split()) for d in docs)
    return cases


def _jieba_case(docs: list[str]) -> Callable[[], int]:
    from mimomem.text.segment import _jieba

    jieba = _jieba()  # dictionary load (~0.5 s) happens here, outside the timing
    lcut = jieba.lcut_for_search
    return lambda: sum(len(lcut(d)) for d in docs)


def measure(cases: dict[str, Callable[[], int]], runs: int, slow_runs: int) -> dict[str, tuple[float, int]]:
    """Median seconds and token count per case.

    Times are CPU seconds of this process (``time.process_time``), which other processes
    on a shared machine barely disturb; one warm-up run each, then the cases take turns
    (round robin) so that what disturbance remains hits every case alike.  ``slow`` cases (jieba) get ``slow_runs`` runs
    and no full warm-up (their dictionary is loaded when the case is made).
    """
    times: dict[str, list[float]] = {name: [] for name in cases}
    tokens: dict[str, int] = {}
    for name, run in cases.items():
        if not name.startswith("jieba"):
            run()
    for round_number in range(max(runs, slow_runs)):
        for name, run in cases.items():
            if round_number >= (slow_runs if name.startswith("jieba") else runs):
                continue
            start = time.process_time()
            tokens[name] = run()
            times[name].append(time.process_time() - start)
    return {name: (statistics.median(times[name]), tokens[name]) for name in cases}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=corpus.size_arg, default=10_000, help="corpus size (1k, 10k, 100k)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case (median reported)")
    parser.add_argument("--jieba-runs", type=int, default=1, help="timed runs for jieba (slow)")
    args = parser.parse_args(argv)

    docs = corpus.documents(args.docs)
    mb = corpus.megabytes(docs)
    print(f"corpus: {len(docs)} documents, {mb:.2f} MB UTF-8; CPU time, median of {args.runs} interleaved runs "
          f"after 1 warm-up "
          f"(jieba: {args.jieba_runs} run)")
    cases = _cases(docs)
    runnable = {name: case for name, case in cases.items() if not isinstance(case, str)}
    measured = measure(runnable, args.runs, args.jieba_runs)
    rates: dict[str, float] = {}
    rows = []
    for name, case in cases.items():
        if isinstance(case, str):
            rows.append((name, None, None, case))
            continue
        seconds, tokens = measured[name]
        rates[name] = mb / seconds
        rows.append((name, mb / seconds, tokens / seconds / 1e6, f"{seconds:.3f} s"))

    base = rates.get("pure tokenize_bigram")
    print("\n| tokenizer | MB/s | M tokens/s | x pure | CPU time |\n|---|---|---|---|---|")
    for name, rate, mtok, note in rows:
        if rate is None:
            print(f"| {name} | - | - | - | {note} |")
        else:
            print(f"| {name} | {rate:.1f} | {mtok:.2f} | {rate / base:.2f}x | {note} |")

    native = rates.get("native tokenize_bigram")
    if native:
        print("\ntargets:")
        for peer, target in [("rjieba.cut", 3.0), ("pure tokenize_bigram", 5.0)]:
            if peer in rates:
                ratio = native / rates[peer]
                verdict = "met" if ratio >= target else "MISSED"
                print(f"  native tokenize_bigram / {peer} = {ratio:.2f}x (target >= {target:.0f}x: {verdict})")
        if "str.split" in rates:
            print(f"  native tokenize_bigram / str.split = {native / rates['str.split']:.2f}x (ceiling for list[str])")
    return 0


# -- pytest-benchmark ---------------------------------------------------------------------

CASE_NAMES = [
    "native tokenize_bigram",
    "native BM25Core.add_text",
    "pure tokenize_bigram",
    "rjieba.cut",
    "jieba.lcut_for_search",
    "str.split",
]


@pytest.fixture(scope="module")
def bench_docs() -> list[str]:
    import os

    return corpus.documents(corpus.size_arg(os.environ.get("MIMOMEM_BENCH_DOCS", "1k")))


@pytest.mark.parametrize("name", CASE_NAMES)
def test_tokenizer_throughput(benchmark, bench_docs, name):
    case = _cases(bench_docs)[name]
    if isinstance(case, str):
        pytest.skip(case)
    benchmark.group = "tokenize"
    tokens = benchmark.pedantic(case, rounds=3, iterations=1, warmup_rounds=1)
    seconds = benchmark.stats.stats.median
    benchmark.extra_info["MB/s"] = round(corpus.megabytes(bench_docs) / seconds, 2)
    benchmark.extra_info["tokens"] = tokens


if __name__ == "__main__":
    sys.exit(main())
