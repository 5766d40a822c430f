"""Generated corpora for latency and memory scaling curves (``mimomem bench --scale``).

Documents are synthetic agent-memory notes: Chinese sentences of jieba dictionary words
drawn in proportion to their frequency, with about 5 % English material (identifiers in
snake / camel / CONSTANT case, paths, versions, ports, hashes, commands) glued to or
spaced from the Chinese, some lines as Markdown headings or bullets.  The same seed gives
the same corpus on every machine; each smaller corpus is a prefix of a larger one.
There are no relevance judgments: these corpora measure speed and size, not quality.
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mimomem.errors import ScaleError

if TYPE_CHECKING:
    from mimomem.bench.runner import Progress

SEED = 20240601
"""Seed of the document generator."""

QUERY_SEED = 7
"""Seed of the query generator."""

MAX_DOCS = 100_000
"""Largest generated corpus."""

_TECH = (  # noqa: SIM905 (one word list, easier to edit as text)
    "memory index query token cache config deploy build test lint schema migration session "
    "checkpoint reconcile search snippet backend worker server client request response retry "
    "timeout budget context prompt agent model stream buffer parser writer reader handler "
    "router plugin hook gate lock queue batch shard replica commit branch merge release tag "
    "docker image volume mount port host proxy socket thread process signal daemon cron "
    "logger metric trace span alert dashboard user admin role policy secret token vault "
    "sqlite postgres redis kafka nginx node python rust cargo pnpm npm yarn pytest vitest "
    "eslint ruff mypy pyright cython numpy jieba tantivy fts5 bm25 bigram unicode trigram"
).split()

_PUNCT = "，。、；！？："


def parse_sizes(spec: str) -> list[int]:
    """``"1000,10000"`` -> ``[1000, 10000]``; each size must be 1..``MAX_DOCS``."""
    sizes = []
    for part in spec.split(","):
        part = part.strip().replace("_", "")
        if not part:
            continue
        try:
            size = int(part)
        except ValueError:
            raise ScaleError(f"--scale takes comma-separated document counts like 1000,10000; got {part!r}") from None
        if not 1 <= size <= MAX_DOCS:
            raise ScaleError(f"--scale size {size} is out of range; use 1..{MAX_DOCS}")
        sizes.append(size)
    if not sizes:
        raise ScaleError("--scale needs at least one document count, e.g. --scale 1000,10000")
    return sorted(set(sizes))


@functools.lru_cache(maxsize=1)
def _dictionary() -> tuple[list[str], list[int]]:
    """jieba's dictionary: pure-Han words of 1-4 characters and their frequencies."""
    import jieba

    words, freqs = [], []
    with jieba.get_dict_file() as handle:
        for raw in handle:
            parts = raw.decode("utf-8").split()
            if len(parts) < 2:
                continue
            word, freq = parts[0], int(parts[1])
            if 1 <= len(word) <= 4 and freq > 0 and all("\u4e00" <= ch <= "\u9fff" for ch in word):
                words.append(word)
                freqs.append(freq)
    return words, freqs


def _english(rng: random.Random) -> str:
    a, b, c = rng.choice(_TECH), rng.choice(_TECH), rng.choice(_TECH)
    kind = rng.randrange(10)
    if kind == 0:
        return f"{a}_{b}_{c}"
    if kind == 1:
        return a + b.capitalize()
    if kind == 2:
        return f"{a}_{b}".upper()
    if kind == 3:
        return f"src/{a}/{b}.py"
    if kind == 4:
        return f"v{rng.randrange(4)}.{rng.randrange(20)}.{rng.randrange(10)}"
    if kind == 5:
        return f"localhost:{rng.choice((3000, 5432, 5433, 6379, 8000, 8080, 9200))}"
    if kind == 6:
        return f"{rng.getrandbits(28):07x}"
    if kind == 7:
        return f"`pip install {a}`"
    if kind == 8:
        return f"{rng.randrange(1, 100)}%"
    return a


def generate_corpus(n: int, seed: int = SEED) -> list[tuple[str, str]]:
    """``n`` synthetic notes as ``(doc_id, text)``; a prefix of any larger ``n``."""
    words, freqs = _dictionary()
    cum = list(_accumulate(freqs))
    total = cum[-1]
    rng = random.Random(seed)
    docs = []
    for number in range(n):
        target = min(800, max(100, int(rng.lognormvariate(math.log(300), 0.5))))
        parts: list[str] = []
        if rng.random() < 0.3:
            parts.append("## ")
        length = 0
        while length < target:
            if rng.random() < 0.055:
                piece = _english(rng)
                piece = f" {piece} " if rng.random() < 0.5 else piece
            else:
                piece = words[bisect.bisect(cum, rng.random() * total)]
            parts.append(piece)
            length += len(piece)
            if rng.random() < 0.15:
                parts.append(rng.choice(_PUNCT))
                if rng.random() < 0.1:
                    parts.append("\n- " if rng.random() < 0.5 else "\n\n")
        docs.append((f"s{number:06d}", "".join(parts)))
    return docs


def generate_queries(count: int = 200, seed: int = QUERY_SEED) -> list[str]:
    """``count`` queries of 1-3 terms: 2-character words, 3-4-character words, English."""
    words, freqs = _dictionary()
    pool = [(w, math.sqrt(f)) for w, f in zip(words, freqs, strict=True) if f >= 50 and len(w) >= 2]
    short = [(w, f) for w, f in pool if len(w) == 2]
    long = [(w, f) for w, f in pool if len(w) > 2]
    short_cum = list(_accumulate([f for _, f in short]))
    long_cum = list(_accumulate([f for _, f in long]))
    rng = random.Random(seed)
    queries = []
    for _ in range(count):
        terms = []
        for _ in range(rng.choice((1, 1, 2, 2, 2, 3))):
            r = rng.random()
            if r < 0.72:
                terms.append(short[bisect.bisect(short_cum, rng.random() * short_cum[-1])][0])
            elif r < 0.85:
                terms.append(long[bisect.bisect(long_cum, rng.random() * long_cum[-1])][0])
            else:
                terms.append(rng.choice(_TECH) if rng.random() < 0.6 else f"{rng.choice(_TECH)}_{rng.choice(_TECH)}")
        queries.append(" ".join(terms))
    return queries


def _accumulate(values: Sequence[float]) -> list[float]:
    out, running = [], 0.0
    for v in values:
        running += v
        out.append(running)
    return out


def run_scale(
    sizes: Sequence[int],
    backends: Sequence[str],
    *,
    workroot: Path,
    progress: Progress | None = None,
    paths: bool = False,
) -> dict[str, Any]:
    """Build each backend on each generated corpus size; time 200 queries; record sizes.

    ``paths``: also time the user paths (build, a new process's first query, curated writes
    and opening) in fresh processes at each size (``mimomem.bench.paths``), under ``"paths"``.
    """
    from mimomem.bench.engines import make_engine, remove_workdir
    from mimomem.bench.runner import _timed_build, quiet, rss_bytes, time_queries

    say = progress or quiet
    say(f"[scale] generating {max(sizes)} documents (seed {SEED})")
    corpus = generate_corpus(max(sizes))
    queries = generate_queries()
    points = []
    for size in sizes:
        docs = corpus[:size]
        chars = sum(len(t) for _, t in docs)
        for name in backends:
            workdir = workroot / f"scale-{size}-{name}"
            engine = make_engine(name, workdir)
            before = rss_bytes()
            try:
                say(f"[scale] {name}: building over {size} documents")
                build_s = _timed_build(engine, docs)
                results, timings = time_queries(engine, queries)
                after = rss_bytes()
                points.append(
                    {
                        "backend": name,
                        "documents": size,
                        "characters": chars,
                        "build_s": build_s,
                        **timings.summary(),
                        "queries_with_hits": sum(1 for r in results if r),
                        "index_bytes": {"disk": engine.size_bytes(), "memory": engine.memory_bytes()},
                        "rss_growth_bytes": (after - before) if before is not None and after is not None else None,
                    }
                )
            finally:
                engine.close()
                remove_workdir(workdir)
    out: dict[str, Any] = {"seed": SEED, "query_seed": QUERY_SEED, "queries": len(queries), "points": points}
    if paths:
        from mimomem.bench.paths import run_paths

        out["paths"] = run_paths(corpus, sizes, queries[0], workroot=workroot, progress=say)
    return out
