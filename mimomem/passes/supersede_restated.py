"""A restatement the extractor did not keep still retires what it restates.

Whether a sentence is worth keeping is read from its wording (:mod:`mimomem.passes.promote_items`);
a terse or chatty restatement of a value ("session store = cache-2.lan", "报表任务线程数 5", "build
artifacts go to dist/", "hmm no i was wrong, flags are served from ff.lan") often is not kept, and
then nothing retires the old value: the next session sees the old value in ``MEMORY.md`` beside the
new one its session records carry.  The project's memory says what such a sentence is worth: when
it gives a newer value of what a live item is about, it is a fact of that key.

So each statement the user typed that holds a value by its form and was not kept is a *candidate*
(:data:`RESTATED`): promotion keeps it only when it supersedes a live or newly kept item
(:func:`mimomem.passes.promote.plan`), by the same rules as any item, and drops it otherwise.  A
question, a request, an opinion, a plan or a guess is never a candidate.
"""

from __future__ import annotations

from mimomem.history.episode import Episode
from mimomem.history.provenance import TYPED
from mimomem.history.sentence import STATEMENT, sentence_type
from mimomem.history.sentence_frame import opinion_or_hedge
from mimomem.history.sentence_hant import folded
from mimomem.history.sentence_moment import is_plan_or_guess
from mimomem.passes.promote_items import FACTS, Item, clean_text, sentences
from mimomem.passes.supersede import SHORT
from mimomem.passes.supersede_subject import subject_of

RESTATED = "restated"
"""``Item.kind`` of a candidate: kept (as the user's) only when it retires an older value."""


def _key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def restated_candidates(episode: Episode, items: list[Item]) -> list[Item]:
    """The statements the user typed in ``episode`` that hold a value and are not among ``items``."""
    kept = [_key(i.text) for i in items]
    out: list[Item] = []
    seen: set[str] = set()
    for said in episode.said:
        if said.kind != TYPED:
            continue
        for sentence in sentences(said.text):
            text = clean_text(sentence)
            key = _key(text)
            if len(text) < 4 or len(text) > SHORT or not key or key in seen:
                continue
            if any(key in k or k in key for k in kept if k):
                continue  # kept already, whole or as a part of a longer item
            read = clean_text(folded(sentence))
            if sentence_type(read) != STATEMENT or opinion_or_hedge(read) or is_plan_or_guess(read):
                continue
            if not subject_of(text).values:
                continue  # no value: nothing it could give a newer one of
            seen.add(key)
            out.append(Item(FACTS, text, RESTATED, said.session_id, said.time))
    return out
