"""The host cap rule and the scoring of what a fresh session received."""

from __future__ import annotations

import json

from mimomem.bench.e2e.dataset import Question
from mimomem.bench.e2e.score import (
    HOST_PREVIEW,
    Outcome,
    delivered,
    extra_lines,
    extra_splits,
    host_view,
    over_cap,
    percentile,
    summarize,
)
from mimomem.served.hosts import utf16_len


def q(kind: str = "fact", answers: tuple[str, ...] = ("6543",), **kw: object) -> Question:
    return Question(id=kw.pop("id", "q1"), project="p", kind=kind, question="?", answers=answers, **kw)  # type: ignore[arg-type]


def test_exactly_ten_thousand_units_pass_one_more_becomes_the_preview() -> None:
    assert host_view("a" * 10_000) == "a" * 10_000
    assert not over_cap("a" * 10_000)
    assert over_cap("a" * 10_001)
    assert "a" * HOST_PREVIEW == host_view("a" * 10_001)


def test_characters_beyond_the_bmp_count_twice_as_in_javascript() -> None:
    text = "😀" * 5_000  # 10,000 UTF-16 units
    assert 10_000 == utf16_len(text)
    assert not over_cap(text)
    assert over_cap(text + "x")
    preview = host_view(text + "x")
    assert 1_000 == len(preview) and 2_000 == utf16_len(preview)


def test_an_answer_beyond_the_preview_of_an_oversized_output_is_lost() -> None:
    long = "x" * 9_000 + " port 6543 " + "y" * 2_000
    assert not Outcome(q(), long, "", 0, 1).hit
    assert Outcome(q(), long[:9_990], "", 0, 0).hit


def test_delivered_reads_additional_context_or_plain_text() -> None:
    out = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "端口 6543"}}
    assert "端口 6543" == delivered(json.dumps(out, ensure_ascii=False) + "\n")
    assert "plain\n" == delivered("plain\n")
    assert "" == delivered('{"decision": "approve"}')  # a bare object delivers nothing
    assert "" == delivered("")


def test_hit_any_all_and_normalisation() -> None:
    assert Outcome(q(answers=("ＰＧＳＳＬＭＯＤＥ=require",)), "set pgsslmode=REQUIRE", "", 0, 0).hit
    both = q(answers=("pnpm build", "pnpm preview"), require="all")
    assert not Outcome(both, "pnpm build", "", 0, 0).hit
    assert Outcome(both, "pnpm build", "then pnpm   preview", 0, 0).hit


def test_distractor_hit_means_no_prompt_context_at_all() -> None:
    d = q(kind="distractor", answers=())
    assert Outcome(d, "session start text", "", 0, 0).hit
    assert not Outcome(d, "", "## Memory search hits\n- something", 0, 0).hit


def test_stale_only_and_stale_seen() -> None:
    s = q(kind="superseded", answers=("6543",), stale=("5433",))
    stale = Outcome(s, "staging port 5433", "", 0, 0)
    assert stale.stale_only and stale.stale_seen and not stale.hit
    both = Outcome(s, "was 5433, now 6543", "", 0, 0)
    assert both.hit and not both.stale_only and both.stale_seen
    assert not Outcome(s, "", "", 0, 0).stale_only


def test_summary_counts_kinds_distractors_and_tokens() -> None:
    outcomes = [
        Outcome(q(id="a"), "6543", "", 100, 0),
        Outcome(q(id="b"), "", "", 300, 0),
        Outcome(q(id="c", kind="distractor", answers=()), "", "hits", 50, 1),
        Outcome(q(id="d", kind="superseded", stale=("5433",)), "5433", "", 200, 0),
    ]
    s = summarize(outcomes, extra_over_cap=2)
    assert (1, 3) == (s.hits, s.answerable)
    assert {"fact": (1, 2), "superseded": (0, 1), "distractor": (0, 1)} == s.per_kind
    assert (1, 1) == (s.distractors, s.distractors_with_context)
    assert 1 == s.stale_only
    assert 3 == s.over_cap
    assert 150.0 == s.median_tokens
    assert 300.0 == s.p95_tokens
    assert 0.0 == percentile([], 95)


def test_extra_splits_count_distractors_and_related_questions_per_split() -> None:
    outcomes = [
        Outcome(q(id="z1", kind="distractor", answers=(), split="new-distractors"), "", "hits", 0, 0),
        Outcome(q(id="y1", kind="distractor", answers=(), split="split-2"), "start", "", 0, 0),
        Outcome(q(id="y2", kind="distractor", answers=(), split="split-2"), "", "## Memory entries", 0, 0),
        Outcome(q(id="r1", split="split-2"), "6543", "", 0, 0),  # answered at SessionStart, no prompt context
        Outcome(q(id="r2", split="split-2"), "", "6543", 0, 0),
        Outcome(q(id="r3", split="split-2"), "", "", 0, 0),
    ]
    got = extra_splits(outcomes)
    assert got["new-distractors"] == {
        "asked": 1,
        "with_context": 1,
        "ids_with_context": ["z1"],
        "related": 0,
        "related_hit": 0,
        "related_prompt": 0,
    }
    assert got["split-2"] == {
        "asked": 2,
        "with_context": 1,
        "ids_with_context": ["y2"],
        "related": 3,
        "related_hit": 2,
        "related_prompt": 1,
    }
    lines = extra_lines({"extra_splits": got})
    assert lines[1] == (
        "split split-2: distractors with context 1/2 (y2); related questions answered 2/3, with prompt context 1/3"
    )
