"""Near-duplicate refusal: same summary or token-set Jaccard >= 0.8, exact against brute force."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.curated.dedup import DUPLICATE_JACCARD, DedupIndex, token_hashes
from mimomem.errors import DuplicateMemoryError

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def test_near_duplicates_are_refused_with_the_way_out(store: CuratedMemory) -> None:
    first = store.remember(
        "facts", "The build uses pnpm workspaces", "Run pnpm install at the root of the repo.", author="user"
    )
    with pytest.raises(DuplicateMemoryError) as info:
        store.remember("facts", "the build uses PNPM workspaces!", "different body", author="user")
    assert first.id == info.value.existing_id and "same summary" in str(info.value)
    assert f"supersedes={first.id!r}" in str(info.value)
    with pytest.raises(DuplicateMemoryError, match="Jaccard"):
        store.remember(
            "facts", "pnpm workspaces: the build uses them", "Run pnpm install at the root of the repo.", author="user"
        )
    replacement = store.remember(
        "facts",
        "The build uses pnpm workspaces",
        "Run pnpm install at the root of the repo.",
        author="user",
        supersedes=first.id,
    )
    assert replacement.supersedes == first.id
    other = store.remember("facts", "The build uses npm", "A different tool entirely with other words", author="user")
    assert other.id.startswith("facts/")


def test_duplicate_filter_is_exact_against_brute_force() -> None:
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(40)]
    dedup = DedupIndex()
    texts: dict[str, str] = {}
    for i in range(300):
        base = (
            rng.choice(list(texts.values()))
            if texts and rng.random() < 0.5
            else " ".join(rng.sample(vocab, rng.randint(3, 12)))
        )
        words = base.split()
        for _ in range(rng.randint(0, 2)):  # small edits make near-duplicates
            words[rng.randrange(len(words))] = rng.choice(vocab)
        text = " ".join(words)
        sets = {k: set(token_hashes(t)) for k, t in texts.items()}
        mine = set(token_hashes(text))
        want = max(
            (
                (len(mine & s) / len(mine | s), k)
                for k, s in sets.items()
                if len(mine & s) / len(mine | s) >= DUPLICATE_JACCARD
            ),
            default=None,
        )
        got = dedup.find(text, f"unique summary {i}")
        assert (want[1] if want else None) == (got[0] if got else None)
        if got is None:
            key = f"m{i}"
            texts[key] = text
            dedup.add(key, text, f"unique summary {i}")
