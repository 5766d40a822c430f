"""Value tests of the secret scanner: shapes that are never a secret's value."""

from __future__ import annotations

import pytest

from mimomem.common.redaction import redact
from mimomem.common.secret_values import is_placeholder, is_uuid
from mimomem.common.secrets import scan_secrets

UUID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"


@pytest.mark.parametrize("value", [UUID, UUID.upper(), "{" + UUID + "}", "urn:uuid:" + UUID])
def test_a_uuid_is_an_identifier(value: str) -> None:
    assert is_uuid(value)
    assert is_placeholder(value)  # every rule's value test starts with is_placeholder


@pytest.mark.parametrize("value", [UUID + "x", UUID.replace("-", ""), "Zc9e6679-7425-40de-944b-e07fc1f90ae7"])
def test_near_uuids_are_not(value: str) -> None:
    assert not is_uuid(value)


@pytest.mark.parametrize(
    "text",
    [
        # a credential word earlier in the sentence, a request id after it (an attack case)
        f"Note: the deploy job reads AWS_SECRET_ACCESS_KEY from ~/.aws/credentials; the failing request id was {UUID}.",
        f"the token request failed, trace id {UUID}",
        f"secret_key rotation job id: {UUID}",
        f"令牌刷新失败，请求 ID 是 {UUID}",
    ],
)
def test_a_uuid_beside_a_credential_word_stays(text: str) -> None:
    assert scan_secrets(text) == []
    assert UUID in redact(text, before="")


def test_a_real_secret_beside_a_uuid_is_still_caught() -> None:
    text = f"request {UUID} used api_key=q8Vb2Nm4Lk6Jh8Gf0Ds2Aa4Zx6Cv8Bn0Mq2Wr4T"
    out = redact(text, before="")
    assert UUID in out and "q8Vb2Nm4Lk6Jh8Gf0Ds2Aa4Zx6Cv8Bn0Mq2Wr4T" not in out


def test_a_letter_whose_lower_case_is_two_code_points_is_no_crash() -> None:
    """Found by hypothesis: "İ".lower() is "i" + a combining dot, and ord() of it raised TypeError."""
    from mimomem.common.secret_values import is_sequential

    assert is_sequential("İABCDEFGHI") is True
    assert is_sequential("İ-----endGR1348941") is False
    assert "1348941" not in redact("sshpass -p İ-----endGR1348941 ssh deploy@host")
