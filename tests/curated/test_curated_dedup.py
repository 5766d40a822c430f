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


def _brute_force(sets: dict[str, set[int]], mine: set[int], skip: str | None) -> str | None:
    best = None
    for key, theirs in sets.items():
        if key == skip or not mine:
            continue
        j = len(mine & theirs) / len(mine | theirs)
        if j >= DUPLICATE_JACCARD and (best is None or (j, key) > best):
            best = (j, key)
    return best[1] if best else None


@pytest.mark.parametrize(("seed", "bits_min"), [(1, 64), (2, 64), (5, 64), (1, 2), (3, 4), (4, 8)])
def test_prefix_index_is_exact_with_removals_skips_and_reorders(
    seed: int, bits_min: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mimomem.curated.dedup as dedup_module

    monkeypatch.setattr(dedup_module, "REORDER_MIN", 40)  # the token order is fixed again several times
    monkeypatch.setattr(dedup_module, "REORDER_GROWTH", 2)
    monkeypatch.setattr(dedup_module, "BITS_MIN", bits_min)  # small: most posting lists are also bit sets
    monkeypatch.setattr(dedup_module, "SLOT_SLACK", -100)  # slots renumbered often (after most removals)
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(30)] + [f"r{i}" for i in range(300)]  # frequent and rare words
    dedup = DedupIndex()
    texts: dict[str, str] = {}
    for i in range(500):
        if texts and rng.random() < 0.1:  # forget one
            gone = rng.choice(sorted(texts))
            del texts[gone]
            dedup.remove(gone)
            continue
        if texts and rng.random() < 0.5:
            words = rng.choice(list(texts.values())).split()
            for _ in range(rng.randint(0, 3)):
                words[rng.randrange(len(words))] = rng.choice(vocab)
            if rng.random() < 0.3:
                words.append(rng.choice(vocab))
        else:
            words = rng.sample(vocab[:30], rng.randint(1, 10)) + rng.sample(vocab[30:], rng.randint(0, 40))
        text = " ".join(words)
        skip = rng.choice(sorted(texts)) if texts and rng.random() < 0.2 else None
        sets = {k: set(token_hashes(t)) for k, t in texts.items()}
        want = _brute_force(sets, set(token_hashes(text)), skip)
        got = dedup.find(text, f"unique summary {i}", skip=skip)
        assert want == (got[0] if got else None), (i, text)
        if got is None or rng.random() < 0.3:  # also index some duplicates (a superseding write does)
            texts[f"m{i}"] = text
            dedup.add(f"m{i}", text, f"unique summary {i}")


def test_min_overlap_is_exact() -> None:
    from mimomem.curated.dedup import min_overlap

    assert [min_overlap(n) for n in range(11)] == [0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8]
    assert all(min_overlap(n) * 5 >= 4 * n > (min_overlap(n) - 1) * 5 for n in range(1, 2000))
