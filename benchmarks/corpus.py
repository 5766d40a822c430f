"""Reproducible benchmark corpora: 1k / 10k / 100k generated agent-memory notes.

The documents and the 200 queries come from ``mimomem.bench.scale`` (mostly Chinese sentences of jieba
dictionary words drawn by frequency, ~5.5 % English identifiers, paths, versions and
ports, lognormal lengths of 100-800 characters; document seed 20240601, query seed 7).
Each smaller corpus is a prefix of a larger one, so every engine and every size sees
exactly the same text.  Generating 100k documents takes about a minute, so the corpus is
cached as JSON lines in ``$MIMOMEM_BENCH_CORPORA`` (default: ``mimomem-bench-corpora-<uid>`` in
the system's temporary directory, never the user's cache); delete the file to regenerate.

``python benchmarks/corpus.py [N ...]`` generates (or loads) and prints corpus statistics.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000}


def cache_path(n: int) -> Path:
    from mimomem.bench.scale import SEED

    explicit = os.environ.get("MIMOMEM_BENCH_CORPORA")
    folder = Path(explicit) if explicit else Path(tempfile.gettempdir()) / f"mimomem-bench-corpora-{os.getuid()}"
    return folder / f"corpus-{SEED}-{n}.jsonl"


def private_caches(base: Path) -> Path:
    """Point mimomem's caches (curated snapshots, recall indexes, jieba) at ``base/cache``, for
    this process and its children: a benchmark never writes into the user's ~/.cache/mimomem."""
    folder = base / "cache"
    os.environ["MIMOMEM_CACHE_DIR"] = str(folder)
    return folder


def documents(n: int) -> list[str]:
    """The first ``n`` generated documents (texts only, in order); cached on disk."""
    path = cache_path(n)
    if path.exists():
        with path.open(encoding="utf-8") as handle:
            docs = [json.loads(line) for line in handle]
        if len(docs) == n:
            return docs
    for bigger in sorted(SIZES.values()):  # a larger cached corpus has this one as a prefix
        if bigger > n and cache_path(bigger).exists():
            with cache_path(bigger).open(encoding="utf-8") as handle:
                docs = [json.loads(line) for _, line in zip(range(n), handle, strict=False)]
            break
    else:
        from mimomem.bench.scale import generate_corpus

        docs = [text for _, text in generate_corpus(n)]
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    with tmp.open("w", encoding="utf-8") as handle:
        for text in docs:
            handle.write(json.dumps(text, ensure_ascii=False) + "\n")
    os.replace(tmp, path)
    return docs


def real_chinese() -> list[str]:
    """Real (not generated) Chinese text, about 70 KB: every note of corpora/agent-memory and
    corpora/failures (title and text; Chinese mixed with code, as agent notes are) and the
    Chinese prose of CPython's test/cjkencodings (GB2312, GBK, GB18030, Big5, HZ samples)."""
    import sysconfig

    root = Path(__file__).resolve().parent.parent / "corpora"
    texts = []
    for name in ("agent-memory", "failures"):
        with (root / name / "corpus.jsonl").open(encoding="utf-8") as handle:
            for line in handle:
                doc = json.loads(line)
                texts.append(f"{doc.get('title') or ''}\n{doc['text']}")
    samples = Path(sysconfig.get_paths()["stdlib"]) / "test" / "cjkencodings"
    for name in ("gb2312", "gbk", "gb18030", "big5", "hz"):
        path = samples / f"{name}-utf8.txt"
        if path.exists():  # some distributions strip the test package
            texts.append(path.read_text(encoding="utf-8"))
    return texts


def queries() -> list[str]:
    """The 200 benchmark queries (1-3 terms each: CJK words and English identifiers)."""
    from mimomem.bench.scale import generate_queries

    return generate_queries()


def megabytes(docs: list[str]) -> float:
    """UTF-8 size of ``docs`` in MB (10**6 bytes), the unit of every MB/s figure."""
    return sum(len(d.encode("utf-8")) for d in docs) / 1e6


def size_arg(text: str) -> int:
    """``"10k"`` or ``"10000"`` -> 10000."""
    return SIZES.get(text) or int(text.replace("_", ""))


def main(argv: list[str]) -> int:
    for n in [size_arg(a) for a in argv] or list(SIZES.values()):
        docs = documents(n)
        han = sum(1 for d in docs for ch in d if "\u4e00" <= ch <= "\u9fff")
        chars = sum(len(d) for d in docs)
        print(
            f"{n:>7} docs  {megabytes(docs):7.2f} MB  {chars / n:6.1f} chars/doc  {han / chars:.0%} Han  -> {cache_path(n)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
