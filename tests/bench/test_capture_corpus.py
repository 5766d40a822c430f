"""The adversarial capture set (corpora/capture): generated files current, every kind in both splits."""

from __future__ import annotations

import functools
import importlib.util
from collections import Counter
from pathlib import Path
from typing import Any

from mimomem.bench.e2e.dataset import load_devset

ROOT = Path(__file__).resolve().parents[2] / "corpora" / "capture"
KINDS = {
    "rule",
    "decision",
    "fact",
    "found",
    "failure",
    "workflow",
    "superseded",
    "not-question",
    "not-request",
    "not-pasted",
    "not-tool-order",
    "not-unsafe",
}
LATER_KINDS = {"not-fragment", "not-flaky"}
"""Kinds added with the second held-out split (the first held-out predates them)."""
THIRD_KINDS = {"not-opinion", "not-narration"}
"""Kinds added with split C (dev and split C hold them)."""


def _build() -> Any:
    return _bench().capture_build()


def test_generated_files_are_current() -> None:
    assert _build().main(["--check"]) == 0


def test_both_splits_hold_every_kind_and_load_as_e2e_sets() -> None:
    build = _build()
    sizes = {}
    for split in ("dev", "heldout", "heldout2"):
        cases = build.load(split)["cases"]
        kinds = Counter(c["kind"] for c in cases)
        later = LATER_KINDS if split != "heldout" else set()
        assert set(kinds) == KINDS | later | (THIRD_KINDS if split == "dev" else set()), split
        assert len({c["id"] for c in cases}) == len(cases)
        sizes[split] = len(cases)
        devset = load_devset(ROOT / f"e2e-{split}")  # every answer and stale value is in a transcript
        assert {q.kind for q in devset.questions} >= {"instruction", "decision", "fact", "found", "distractor"}
    splits = ("split-c", "split-d", "split-f")
    held = sizes["heldout"] + sizes["heldout2"] + sum(len(build.load(s)["cases"]) for s in splits)
    assert 0.25 <= held / (sizes["dev"] + held) <= 0.5


def test_the_supersession_splits_hold_both_kinds_and_load_as_e2e_sets() -> None:
    build = _build()
    splits = ("supersede-dev", (20, 10)), ("supersede-split", (8, 5)), ("supersede-split-2", (8, 5))
    later = ("supersede-split-3", (12, 8)), ("supersede-split-4", (14, 8))
    for split, least in (*splits, *later):
        cases = build.load(split)["cases"]
        kinds = Counter(c["kind"] for c in cases)
        assert set(kinds) == {"superseded", "kept-both"}, split
        assert (kinds["superseded"], kinds["kept-both"]) >= least
        # two statements: in two sessions, or a correction later in the same one ("不对，是 90 秒")
        assert all(sum("user" in e for s in c["sessions"] for e in s) >= 2 and c.get("expect") for c in cases)
        assert all(c.get("forbid") for c in cases if c["kind"] == "superseded")
        load_devset(ROOT / f"e2e-{split}")  # every answer and stale value is in a transcript


def test_split_c_holds_the_extraction_kinds_and_loads_as_an_e2e_set() -> None:
    cases = _build().load("split-c")["cases"]
    kinds = Counter(c["kind"] for c in cases)
    assert {"rule", "decision", "fact", "not-question", "not-request", "not-pasted", "not-opinion"} <= set(kinds)
    assert len({c["id"] for c in cases}) == len(cases) >= 40
    load_devset(ROOT / "e2e-split-c")  # every answer is in a transcript


def test_split_d_holds_facts_in_not_a_fact_frames_and_loads_as_an_e2e_set() -> None:
    cases = _build().load("split-d")["cases"]
    kinds = Counter(c["kind"] for c in cases)
    assert kinds["fact"] >= 20 and kinds["not-narration"] >= 10
    assert {"rule", "decision", "not-question", "not-request", "not-fragment"} <= set(kinds)
    assert len({c["id"] for c in cases}) == len(cases) >= 40
    load_devset(ROOT / "e2e-split-d")  # every answer is in a transcript


def test_split_f_holds_every_extraction_kind_in_four_voices_and_loads_as_an_e2e_set() -> None:
    data = _build().load("split-f")
    kinds = Counter(c["kind"] for c in data["cases"])
    assert min(kinds[k] for k in ("rule", "decision", "fact", "not-question", "not-request")) >= 5
    assert {"not-narration", "not-opinion"} <= set(kinds) and len(data["projects"]) == 4
    assert len({c["id"] for c in data["cases"]}) == len(data["cases"]) >= 50
    load_devset(ROOT / "e2e-split-f")  # every answer is in a transcript


def test_the_failure_split_holds_failures_and_what_is_no_fix_and_loads_as_an_e2e_set() -> None:
    for split, least in ("failure-split", 16), ("found-dev", 14):
        cases = [c for c in _build().load(split)["cases"] if c["id"].startswith(("ff", "fn", "fo", "fx"))]
        kinds = Counter(c["kind"] for c in cases)
        assert kinds["failure"] >= least - 2 and kinds["not-failure"] >= 4 and kinds["not-tool-order"] >= 2, split
        assert all(c.get("forbid") for c in cases if c["kind"] != "failure")
    load_devset(ROOT / "e2e-failure-split")  # every answer is in a transcript


def test_a_bullet_that_states_a_fix_fails_a_not_failure_case() -> None:
    case = {"id": "n", "kind": "not-failure", "forbid": ["wheel"]}
    fixed = "## Failures and fixes\n\n- `pip install -r r.txt` failed: x - fixed: `pip install y` instead\n"
    flaky = "## Failures and fixes\n\n- `make check` is flaky: failed (x), then passed when run again unchanged\n"
    assert not _bench().score_case(case, fixed)["passed"] and _bench().score_case(case, flaky)["passed"]


def test_split_e_holds_every_kind_and_loads_as_an_e2e_set() -> None:
    cases = _build().load("split-e")["cases"]
    kinds = Counter(c["kind"] for c in cases)
    assert set(kinds) == KINDS | {"kept-both"}
    assert len({c["id"] for c in cases}) == len(cases) >= 60
    assert all(c.get("forbid") for c in cases if c["kind"] == "superseded")
    devset = load_devset(ROOT / "e2e-split-e")  # every answer and stale value is in a transcript
    assert sum(q.kind == "distractor" for q in devset.questions) >= 8


@functools.cache
def _bench() -> Any:
    """benchmarks/bench_capture.py as a module (loaded once)."""
    path = ROOT.parents[1] / "benchmarks" / "bench_capture.py"
    spec = importlib.util.spec_from_file_location("bench_capture", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_retirement_of_what_a_case_should_keep_counts_as_wrong() -> None:
    bench = _bench()
    kept = {"id": "k", "kind": "kept-both", "sessions": [[{"user": "The auth service runs on port 8081."}]]}
    moved = {
        "id": "s",
        "kind": "superseded",
        "forbid": ["is 4"],
        "sessions": [[{"user": "The queue has 4 workers. Lint is ruff."}], [{"user": "The queue has 8 workers."}]],
    }
    line = "- The auth service runs on port 8081 - superseded 2026-12-01 by: The billing service runs on 8082"
    assert bench.wrongly_retired(kept, [line]) == ["- The auth service runs on port 8081"]
    assert bench.wrongly_retired(moved, ["- The queue is 4 workers - superseded 2026-12-01 by: 8 workers"]) == []
    assert bench.wrongly_retired(moved, ["- Lint is ruff - superseded 2026-12-01 by: The queue has 8"]) != []
    assert bench.origin("- Lint is ruff", [kept, moved]) is moved


def test_the_refuse_split_holds_what_must_never_be_kept_and_its_look_alikes() -> None:
    cases = _build().load("refuse-split")["cases"]
    kinds = Counter(c["kind"] for c in cases)
    assert kinds["not-pasted"] >= 10 and kinds["not-unsafe"] >= 8 and kinds["not-tool-order"] >= 4
    assert kinds["rule"] + kinds["fact"] + kinds["workflow"] >= 10  # look-alikes that must be kept
    assert all(c.get("forbid") for c in cases if c["kind"].startswith("not-"))
    assert len({c["id"] for c in cases}) == len(cases)
    load_devset(ROOT / "e2e-refuse-split")  # every answer is in a transcript
