"""``mimomem bench --e2e``: what one session learns, measured in what the next session receives.

Modules: ``dataset`` (the dev set: manifest, transcripts, questions, and their checks),
``replay`` (the host's hook calls, line by line, in a sandbox), ``systems`` (mimomem and
the baselines), ``score`` (the host cap rule, hits, stale values, tokens), ``run`` (one
whole run), ``report`` (tables, JSON, chart).
"""

from __future__ import annotations

from mimomem.bench.e2e.dataset import DevSet, Question, load_devset
from mimomem.bench.e2e.report import format_e2e, format_text, write_e2e_report
from mimomem.bench.e2e.run import SYSTEMS, default_devset, run_e2e

__all__ = [
    "SYSTEMS",
    "DevSet",
    "Question",
    "default_devset",
    "format_e2e",
    "format_text",
    "load_devset",
    "run_e2e",
    "write_e2e_report",
]
