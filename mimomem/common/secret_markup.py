"""Markup records of the secret scanner: a credential named by one part of a record and held by another.

* an XML / HTML element whose tag names a credential: ``<Password>x</Password>``,
  ``<secret>x</secret>`` (Maven settings, .NET and Java configuration, SOAP bodies);
* a name / value pair: the name field holds the credential's name and the value field its
  value — Kubernetes ``env`` lists (``- name: DB_PASSWORD`` then ``value: x``), JSON
  ``{"name": "API_SECRET", "value": "x"}``, .NET ``<add key="SmtpPassword" value="x" />``.

The value is judged as an assignment to that name would be
(:func:`mimomem.common.secret_context.generic_value_is_secret`).
"""

from __future__ import annotations

from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_connect import chosen_password
from mimomem.common.secret_context import generic_value_is_secret
from mimomem.common.secret_needles import needle_matches, needle_text

Span = tuple[str, int, int]

_ELEMENT = lazy(
    r"(?i)<(?P<tag>[\w.\-:]{0,40}(?:pass|pwd|secret|token|key|auth|credential)[\w.\-:]{0,40})"
    r"(?:\s[^<>]{0,200})?>[ \t]*(?P<value>[^<>\s]{1,256})[ \t]*</(?P=tag)\s*>"
)
_NEEDLES = ("pass", "pwd", "secret", "token", "key", "auth", "credential")
"""What the credential part of every ``_ELEMENT`` and ``_NAME_VALUE`` match holds, lower-cased."""
_CREDENTIAL = lazy(r"(?i)pass|pwd|secret|token|credential|api[_\-]?key|auth")
_NAME_VALUE = lazy(
    r"(?i)(?<![\w\-])[\"']?(?:name|key)[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<label>[\w.\-]{0,40}(?:pass|pwd|secret|token|key|auth|credential)[\w.\-]{0,40})[\"']?"
    r"[^{}\[\]\n]{0,40}?(?:\n[ \t]*)?[,;\s]*[\"']?value[\"']?[ \t]*[:=][ \t]*"
    r"(?P<q>[\"']?)(?P<value>[^\s\"',}<>]{1,256})"
)


def markup_records(text: str) -> Iterator[Span]:
    """Credentials held by an element named for them, or by the value field of a name / value pair."""
    if "</" in text:
        for m in needle_matches(_ELEMENT, text, _NEEDLES):
            if _secret(m.group("tag").split(":")[-1], m.group("value")):
                yield "markup-secret", m.start("value"), m.end("value")
    if "value" in needle_text(text):
        for m in needle_matches(_NAME_VALUE, text, _NEEDLES, after=1):
            if _secret(m.group("label"), m.group("value")):
                yield "name-value-secret", m.start("value"), m.end("value")


def _secret(name: str, value: str) -> bool:
    """An assignment's test, or a chosen password behind a credential's name (``<secret>Ab3#…``)."""
    return generic_value_is_secret(name, value) or (
        bool(_CREDENTIAL.search(name)) and generic_value_is_secret("password", value) and chosen_password(value)
    )


MARKUP_RULES = (markup_records,)

__all__ = ["MARKUP_RULES"]
