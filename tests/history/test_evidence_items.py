"""What the evidence queries return: the promotion rule and short session ids."""

from __future__ import annotations

from trajectory_fixtures import SID_A, SID_D

from mimomem.history.evidence_items import Provenance, UserStatement, promotable, short_id


def test_promotion_rule_and_short_ids() -> None:
    assert promotable(UserStatement("always x", "rule", Provenance("s", 0)))
    assert not promotable(object())
    assert "aaaaaaaa" == short_id(SID_A)
    assert "ses_d4d4d4d4mimo" == short_id(SID_D)
    assert "abc" == short_id("abc")
