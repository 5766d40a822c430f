"""The paired randomization test on constructed data, and ``--compare`` / ``compare_results`` with an alpha."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mimomem.bench.compare import compare_results, format_comparison
from mimomem.bench.significance import EXACT_LIMIT, paired_test, query_changes, summary
from mimomem.bench.wins import format_runs
from mimomem.cli import main


def test_a_clear_drop_is_significant_and_noise_is_not() -> None:
    before = [0.8] * 40
    drop = [0.8] * 10 + [0.5] * 30  # 30 of 40 queries lost 0.3
    assert paired_test(before, drop, "less") < 0.001
    assert paired_test(before, drop) < 0.001
    assert paired_test(before, drop, "greater") > 0.99
    rng = random.Random(1)
    noise = [b + rng.choice((-0.1, 0.1)) for b in before]  # symmetric +-0.1: no direction
    assert paired_test(before, noise) > 0.05
    assert paired_test(before, noise, "less") > 0.05


def test_exact_p_values_by_hand() -> None:
    # three queries, all worse: of the 2^3 sign assignments only the observed one is as low
    assert paired_test([1, 1, 1, 0.5], [0, 0, 0, 0.5], "less") == 1 / 8
    assert paired_test([1, 1, 1], [0, 0, 0]) == 2 / 8  # two-sided: all down or all up
    assert paired_test([0.5, 0.5], [0.5, 0.5]) == 1.0  # nothing changed
    # one query lost a lot, one gained a little: the loss alone is not evidence
    assert paired_test([1, 0], [0, 0.1], "less") == 0.5


def test_random_rounds_are_deterministic_and_close_to_exact() -> None:
    rng = random.Random(7)
    before = [rng.random() for _ in range(EXACT_LIMIT + 10)]
    after = [b - 0.05 + rng.uniform(-0.2, 0.2) for b in before]
    p = paired_test(before, after, "less")
    assert p == paired_test(before, after, "less")
    assert 0 < p < 1


def test_mismatched_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="one value per query"):
        paired_test([1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="alternative"):
        paired_test([1.0], [0.0], "down")


def _queries(values: list[float], category: str = "c") -> dict[str, dict[str, object]]:
    return {
        f"q{i}": {"text": f"t{i}", "category": category, "ndcg@10": v, "recall@10": v, "recall@100": v, "mrr@10": v}
        | {"returned": 1, "relevant_ranks": {"d": 1} if v > 0.6 else {}, "tokens": []}
        for i, v in enumerate(values)
    }


def _result(values: list[float]) -> dict[str, object]:
    queries = _queries(values)
    mean = sum(values) / len(values)
    backend = {"backend": "native-index", "ndcg@10": mean, "recall@10": mean, "recall@100": mean, "mrr@10": mean}
    backend |= {"zero_result_share": 0.0, "queries": queries, "categories": {}}
    return {"schema": 1, "datasets": [{"name": "ds", "backends": [backend]}]}


def test_alpha_keeps_significant_drops_only() -> None:
    base = _result([0.8] * 30)
    small = _result([0.8] * 29 + [0.5])  # one query lost 0.3: the mean drops 0.01
    broad = _result([0.7] * 30)  # every query lost 0.1
    assert not compare_results(base, small).ok  # without alpha every drop fails, as before
    gated = compare_results(base, small, alpha=0.05)
    assert gated.ok and len(gated.not_significant) == 4 and gated.not_significant[0].p_value == 0.5
    assert "not significant at alpha 0.05 (4 drop(s), not failing)" in format_comparison(gated)
    failed = compare_results(base, broad, alpha=0.05)
    assert not failed.ok and all(r.p_value is not None and r.p_value < 0.05 for r in failed.regressions)
    assert "dropped by more than 0.00005 and significantly (p < 0.05)" in format_comparison(failed)
    assert compare_results(base, broad, 0.2, alpha=0.05).ok  # the absolute tolerance still applies
    with pytest.raises(ValueError, match="alpha"):
        compare_results(base, broad, alpha=1.5)


def test_wins_and_losses_are_both_reported() -> None:
    before, after = _queries([0.5, 0.5, 0.9, 0.4]), _queries([1.0, 0.5, 0.7, 0.4])
    changes = {c.qid: c.verdict for c in query_changes(before, after)}
    assert changes == {"q0": "better", "q2": "worse"}
    stats = summary(before, after)
    assert stats["better"] == 1 and stats["worse"] == 1 and stats["queries"] == 4
    assert stats["ndcg@10"]["before"] == pytest.approx(0.575) and stats["ndcg@10"]["after"] == pytest.approx(0.65)
    text = format_runs(_result([0.5, 0.5, 0.9, 0.4]), _result([1.0, 0.5, 0.7, 0.4]), "W:")
    assert "[ds] native-index: 1 better, 1 worse of 4 queries" in text
    assert (
        "better: q0 't0' [c]: ndcg@10 0.500 -> 1.000" in text and "worse: q2 't2' [c]: ndcg@10 0.900 -> 0.700" in text
    )
    assert format_runs(_result([0.5]), _result([0.5]), "W:") == ""


def test_cli_compare_with_alpha(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mimomem import bench

    saved = tmp_path / "base.json"
    bench.save_result(_result([0.8] * 30), saved)
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: _result([0.8] * 29 + [0.5]))
    monkeypatch.setattr(bench, "format_result", lambda result: "")  # the tables are not under test here
    args = ["bench", "--dataset", str(tmp_path), "--compare", str(saved)]
    assert main(args) == 1  # unchanged without --alpha
    capsys.readouterr()
    assert main([*args, "--alpha", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "not significant at alpha 0.05" in out and "worse: q29 't29' [c]: ndcg@10 0.800 -> 0.500" in out
    for bad in ("0", "1", "-0.1", "nan"):
        assert main([*args, "--alpha", bad]) == 2
        assert "--alpha must be between 0 and 1" in capsys.readouterr().err
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: _result([0.7] * 30))
    assert main([*args, "--alpha", "0.05", "--json"]) == 1
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert "significantly (p < 0.05)" in captured.err
