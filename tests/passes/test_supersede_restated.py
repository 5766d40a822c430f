"""A restatement the extractor did not keep still retires the value it restates (and nothing else)."""

from __future__ import annotations

from mimomem.history.episode import Episode, Said
from mimomem.history.provenance import TYPED
from mimomem.passes.promote import plan
from mimomem.passes.promote_items import FACTS, Item, items_of
from mimomem.passes.supersede_restated import RESTATED, restated_candidates

T = 1765000000000


def _live(*texts: str) -> str:
    lines = "\n".join(f"- {t} (user, 2026-12-01, s:{n + 1:08x})" for n, t in enumerate(texts))
    return f"# Project memory\n\n## Discovered durable knowledge\n\n{lines}\n"


def _episode(*turns: str) -> Episode:
    episode = Episode()
    episode.said += [Said(t, TYPED, "2e000000-0000", T + n) for n, t in enumerate(turns)]
    return episode


def _promoted(live: str, *turns: str) -> tuple[str, list[str]]:
    episode = _episode(*turns)
    items = items_of(episode)
    planned, history = plan(live, items + restated_candidates(episode, items), {}, today="2026-12-07")
    return planned.text, history


def test_a_terse_restatement_retires_the_old_value_and_is_kept_as_the_users() -> None:
    text, history = _promoted(_live("对了 报表任务开 3 个线程哈"), "报表任务线程数 5")
    assert "3 个线程" not in text and "- 报表任务线程数 5 (user," in text
    assert len(history) == 1 and "3 个线程" in history[0]


def test_a_candidate_that_retires_nothing_is_not_kept() -> None:
    text, history = _promoted(_live("The upload API caps files at 20MB"), "报表任务线程数 5")
    assert history == [] and "线程数" not in text and "20MB" in text


def test_a_question_or_a_request_is_never_a_candidate() -> None:
    episode = _episode("报表任务线程数是 5 吗？", "把报表任务线程数改成 5", "i think the thread count is 5 maybe")
    assert restated_candidates(episode, []) == []
    statement = restated_candidates(_episode("报表任务线程数 5"), [])
    assert [(c.section, c.kind, c.text) for c in statement] == [(FACTS, RESTATED, "报表任务线程数 5")]


def test_a_candidate_never_retires_what_was_said_after_it() -> None:
    earlier = Item(FACTS, "report job thread count: 4", RESTATED, "2e000000-0000", T)
    later = Item(FACTS, "The report job runs 6 threads", "user", "2e000000-0000", T + 5)
    planned, history = plan(_live("The report job runs 3 threads"), [later, earlier], {}, today="2026-12-07")
    assert "6 threads" in planned.text and "thread count: 4" not in planned.text
    assert [h for h in history if "6 threads" in h.split(" - superseded ")[0]] == []
