"""Credentials named by one part of a markup record and held by another (common/secret_markup.py)."""

from __future__ import annotations

import pytest

from mimomem.common.secrets import redact_secrets

V = "Qx7#mP2vLr"  # FAKE
T = "k3JdP9sQw2LmZx8RtY4vBn6C"  # FAKE


@pytest.mark.parametrize(
    "text",
    [
        f"<settings><Password>{V}</Password></settings>",
        f"<credentials><secret>{V}</secret></credentials>",
        f"<ns:apiToken>{T}</ns:apiToken>",
        f"env:\n  - name: SMTP_PASSWORD\n    value: {V}",
        f'[{{"name": "API_SECRET", "value": "{T}"}}]',
        f'<add key="SmtpPassword" value="{V}" />',
    ],
)
def test_a_credential_held_by_its_record_is_redacted(text: str) -> None:
    out = redact_secrets(text)
    assert V not in out and T not in out


@pytest.mark.parametrize(
    "text",
    [
        "<password-policy><min-length>12</min-length></password-policy>",
        "<secret>${SMTP_SECRET}</secret>",
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: {name: db, key: password}",
        '[{"name": "REGION", "value": "eu-west-1"}]',
        "<Password></Password>",
        "self.passwords: Dict[str, AuthInfo] = {}",
        'headers["Proxy-Authorization"] = _basic_auth_str(username, password)',
    ],
)
def test_records_without_a_credential_stay(text: str) -> None:
    assert redact_secrets(text) == text


def test_a_bracket_inside_a_password_is_one_of_its_characters() -> None:
    assert "ux1n[bbvs:4z" not in redact_secrets("pass: ux1n[bbvs:4z")
    assert redact_secrets("password = self.passwords[index]") == "password = self.passwords[index]"
