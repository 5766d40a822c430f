"""Credentials in the password slot of a connection's own grammar (common/secret_connect.py)."""

from __future__ import annotations

import pytest

from mimomem.common.secrets import redact_secrets, scan_secrets

V = "Qx7#mP2vLr"  # FAKE
T = "k3JdP9sQw2LmZx8RtY4vBn6C"  # FAKE


@pytest.mark.parametrize(
    "text",
    [
        f"git push https://{T}@github.com/acme/web.git",
        f'dsn := "etl:{V}@tcp(10.1.2.3:3306)/dw"',
        f"sqlplus hr/{V}@//db:1521/XEPDB1",
        f"jdbc:oracle:thin:hr/{V}@db:1521:XE",
        f"smbclient //nas/x -U ops%{V}",
        f"CREATE USER bi IDENTIFIED BY '{V}';",
        f"ALTER USER bi WITH PASSWORD '{V}'",
        f"SET PASSWORD FOR 'bi'@'%' = PASSWORD('{V}');",
        f"masterauth {V}",
        f"sqlcmd -S db -U sa -P {V}",
        f"zip -P {V} out.zip a",
        f"rabbitmqctl change_password admin {V}",
        f"htpasswd -b /etc/nginx/.htpasswd admin {V}",
        f"curl -u :{V} https://r.example.com/v2/",
        f"https://ci.example.com/generic-webhook-trigger/invoke/{T}",
        f"https://chat.example.com/hooks/{T}",
        f'gh secret set DB_PASSWORD --body "{V}"',
        f"npm config set npmAuthToken {T}",
    ],
)
def test_the_password_slot_is_redacted(text: str) -> None:
    assert scan_secrets(text)
    assert V[:6] not in redact_secrets(text) and T not in redact_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "git clone https://alice@github.com/acme/web.git",
        "uses: actions/checkout@v4",
        "npm i @types/node@20.11.5",
        'dsn := "etl@tcp(10.1.2.3:3306)/dw"',
        "sqlplus / as sysdba",
        "CREATE USER bi IDENTIFIED BY PASSWORD;",
        "data['password'] = data['email'] = ''",
        "const password = 'Password used to generate key';",
        "requirepass ${REDIS_PASSWORD}",
        "docker run -p 8080:80 nginx",
        "ssh -p 2222 -w 0:0 ops@bastion",
        "sudo sysctl -w net.ipv6.conf.lo.disable_ipv6=0",
        "mkdir -p build/Release2 && cp -p src/a.c build/",
        "const password = new Password('r0sebud');",
        "The userid and password is shared through 1password.",
        "rabbitmqctl list_users",
        "https://docs.example.com/api/hooks/overview",
        "https://chat.example.com/hooks/incoming-webhook-setup-guide",
        "gh secret set DEPLOY_KEY < deploy_key.pem",
        "git config --global core.autocrlf input",
        "yarn config set registry https://registry.example.com",
    ],
)
def test_look_alikes_of_those_slots_stay(text: str) -> None:
    assert redact_secrets(text) == text


@pytest.mark.parametrize(
    "text",
    ["DB_PASS=Ab3;x9,Q!k", "the password is Ab3;x9,Qk!", "token=Ab3;x9,Qkz81LmP0qR", "pwd: q9;W2,e8:R7"],
)
def test_a_comma_or_semicolon_with_no_space_after_it_is_inside_the_value(text: str) -> None:
    out = redact_secrets(text)
    assert not any(piece in out for piece in ("Ab3", "x9", "Q!k", "Qk!", "Qkz", "q9", "e8:R7"))


def test_a_comma_before_a_space_still_ends_a_value() -> None:
    assert redact_secrets("the password is Ab3x9Qk!, then log in").endswith(", then log in")
