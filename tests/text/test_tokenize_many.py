"""``tokenize_many``: the batch API gives exactly ``tokenize_bigram``'s tokens, in both twins.

The native twin shares the str objects of short tokens through a process-wide cache; these
tests also check that sharing never changes a result (evictions, collisions, results kept
across calls) and that the returned tuples are not tracked by the cyclic GC.
"""

from __future__ import annotations

import gc
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_parity import ANY, MIXED_TEXT

from mimomem.text import _accel
from mimomem.text.tokens import tokenize_many


def _many(implementation):
    return sys.modules[implementation.tokenize_bigram.__module__].tokenize_many


def _expected(implementation, texts):
    tokens = [implementation.tokenize_bigram(text) for text in texts]
    return [tuple(t.text for t in ts) for ts in tokens], [
        (tuple(t.text for t in ts), tuple(t.start for t in ts), tuple(t.end for t in ts)) for ts in tokens
    ]


@given(st.lists(MIXED_TEXT, max_size=8))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.native
def test_tokenize_many_parity_mixed_scripts(pure_implementation, native_implementation, texts):
    plain, with_offsets = _expected(pure_implementation, texts)
    assert _many(native_implementation)(texts) == plain
    assert _many(native_implementation)(texts, offsets=True) == with_offsets
    assert _many(pure_implementation)(texts) == plain
    assert _many(pure_implementation)(texts, offsets=True) == with_offsets


@given(st.lists(st.text(ANY, max_size=120), max_size=5))
@settings(max_examples=300, deadline=None)
@pytest.mark.native
def test_tokenize_many_parity_arbitrary_unicode(pure_implementation, native_implementation, texts):
    plain, with_offsets = _expected(pure_implementation, texts)
    assert _many(native_implementation)(texts) == plain
    assert _many(native_implementation)(texts, offsets=True) == with_offsets


def test_tokenize_many_equals_tokenize_bigram(implementation):
    texts = ["部署脚本用pnpm而不是npm，端口5433", "", "Crème Brûlée ＡＰＩ", "一", "東京タワー 한국어abc", "x" * 300]
    plain, with_offsets = _expected(implementation, texts)
    assert _many(implementation)(texts) == plain
    assert _many(implementation)(iter(texts), offsets=True) == with_offsets  # any iterable


def test_tokenize_many_refuses_non_str(implementation):
    with pytest.raises(TypeError, match="needs str"):
        _many(implementation)(["ok", b"bytes"])


@pytest.mark.native
def test_shared_strings_survive_evictions(native_implementation):
    """Hundreds of thousands of distinct short tokens (far more than the cache) and results kept meanwhile."""
    many = _many(native_implementation)
    rng = random.Random(5)
    han = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(1, 9))) for _ in range(5000)]
    texts = ["".join(rng.choice(han) for _ in range(200)) + " " + " ".join(rng.sample(words, 30)) for _ in range(3000)]
    kept = many(texts[:50])
    results = many(texts)
    for text, tokens in zip(texts, results, strict=True):
        assert tokens == tuple(t.text for t in native_implementation.tokenize_bigram(text))
    assert kept == results[:50]  # still intact after every slot was replaced many times
    del results
    gc.collect()
    assert kept == many(texts[:50])


@pytest.mark.native
def test_results_are_not_tracked_by_the_gc(native_implementation):
    (tokens, starts, ends), *_ = _many(native_implementation)(["部署 pnpm"], offsets=True)
    assert not gc.is_tracked(tokens) and not gc.is_tracked(starts) and not gc.is_tracked(ends)
    assert (tokens, starts, ends) == (("部署", "pnpm"), (0, 3), (2, 7))


def test_public_tokenize_many_uses_the_active_twin():
    assert tokenize_many(["部署脚本"]) == [("部署", "署脚", "脚本")]
    assert tokenize_many is not None and _accel.tokenize_many(["a b"]) == [("a", "b")]
