"""``mimomem bench``: every retrieval backend on BEIR-layout datasets, side by side.

Modules: ``datasets`` (BEIR loading), ``metrics`` (trec_eval definitions), ``engines``
(one adapter per backend), ``runner`` (timing and scoring), ``report`` (Markdown and
charts), ``compare`` (save / regression gate), ``scale`` (generated corpora).
"""

from __future__ import annotations

from mimomem.bench.compare import Comparison, compare_results, format_comparison, load_result, save_result
from mimomem.bench.datasets import Dataset, discover_datasets, find_corpora, load_dataset
from mimomem.bench.engines import BENCH_BACKENDS, available_backends
from mimomem.bench.report import format_result, write_report
from mimomem.bench.runner import run_bench
from mimomem.errors import (
    BackendUnavailableError,
    BenchDependencyError,
    CorporaNotFoundError,
    DatasetError,
    HostSessionError,
    HostUnavailableError,
    ResultFileError,
    ScaleError,
    TokenizerSpecError,
    UnknownBackendError,
)

__all__ = [
    "BENCH_BACKENDS",
    "BackendUnavailableError",
    "BenchDependencyError",
    "Comparison",
    "CorporaNotFoundError",
    "Dataset",
    "DatasetError",
    "HostSessionError",
    "HostUnavailableError",
    "ResultFileError",
    "ScaleError",
    "TokenizerSpecError",
    "UnknownBackendError",
    "available_backends",
    "compare_results",
    "discover_datasets",
    "find_corpora",
    "format_comparison",
    "format_result",
    "load_dataset",
    "load_result",
    "run_bench",
    "save_result",
    "write_report",
]
