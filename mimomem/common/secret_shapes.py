"""Shape rules of the secret scanner: credentials recognisable by their own form.

Private key blocks (also with the header wrapped over lines or split into concatenated
string literals), provider tokens with documented prefixes, JWTs, Basic/Bearer
credentials and passwords in URLs.  Each rule is ``(kind, pattern, group, check)``: the
pattern's ``group`` holds the secret and ``check`` (when given) must accept it.

The provider list follows the token formats the providers document, compared with the
coverage of the public rule sets of detect-secrets and gitleaks; the patterns are our own.
"""

from __future__ import annotations

import binascii
import json
import re
from collections.abc import Callable

from mimomem.common.lazy_pattern import LazyPattern, lazy
from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.common.secret_values import (
    GENERIC_MIN_ENTROPY,
    char_classes,
    hex_token_like,
    is_placeholder,
    shannon_entropy,
    token_like,
)

if TYPE_CHECKING:
    from typing import Optional

Check = Callable[[str], bool]
if TYPE_CHECKING:
    Rule = tuple[str, LazyPattern, int, Optional[Check]]  # noqa: UP045

_B = r"(?<![A-Za-z0-9])"
"""A token starts where a word ends: after a space, quote, slash, dot, or the ``-`` / ``_`` joining it to
the words of a file or branch name (``token-ghp_...txt``, ``backup_sk-ant-...``); not inside a longer word."""
_E = r"(?![A-Za-z0-9_\-])"  # ... and ends at one


def _b64url_json_with_alg(segment: str) -> bool:
    import base64  # only for a candidate: a scan of clean text never pays for it

    try:
        raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        header = json.loads(raw.decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and "alg" in header


def _b64_has_colon(segment: str) -> bool:
    """A Basic-auth credential: base64 of ``user:password`` with a non-placeholder password."""
    import base64

    try:
        raw = base64.b64decode(segment + "=" * (-len(segment) % 4), validate=True).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    user, sep, password = raw.partition(":")
    return bool(sep) and bool(user) and not is_placeholder(password)


def _discord_bot_token(value: str) -> bool:
    """``<base64 of the bot's numeric id>.<timestamp>.<hmac>``: the first part decodes to digits."""
    import base64

    first = value.split(".", 1)[0]
    try:
        raw = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return raw.isdigit() and 15 <= len(raw) <= 21 and token_like(value.rsplit(".", 1)[1])


def _body(prefix_len: int, check: Check = token_like) -> Check:
    """Apply ``check`` to the text after a fixed-length prefix."""
    return lambda v: check(v[prefix_len:])


def _after(sep: str, check: Check = token_like) -> Check:
    """Apply ``check`` to the text after the first ``sep``."""
    return lambda v: check(v.split(sep, 1)[-1])


def _rule(kind: str, pattern: str, check: Check | None = token_like, group: int = 1) -> Rule:
    return (kind, lazy(pattern), group, check)


# -- private keys -------------------------------------------------------------------------------
# Between the words of a PEM header: spaces, a line break, or the end of one string literal and
# the start of the next ("-----BEGIN EC " + "PRIVATE KEY-----", or implicit concatenation).
_GAP = r"(?:\s+|\s*[\"'`]\s*\+?\s*[\"'`]\s*)"
# A block's lines are joined by a line break, real or escaped in a string ("...\\n..."), with the
# decorations of where it was pasted around it: indentation, "> " quoting, string quotes and "+".
_NL = r"[ \t\"'`+,;]*(?:\r?\n|\\r\\n|\\n)[ \t>#*\"'`+,]*"
# A body line: base64 of 16 characters or more, a padded last line, a PGP checksum, or a short
# last line right before the END line.
_B64_LINE = r"(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]*={1,2}|[A-Za-z0-9+/]{1,15}(?=" + _NL + r"-{5}[ \t]*END))"
_ARMOR = r"[A-Z][A-Za-z\-]{1,30}:[ \t]*[^\n\\\"]{0,100}"  # Proc-Type, DEK-Info, Version, Comment
_KEY_LABEL = r"(?:[A-Z0-9]+" + _GAP + r"){0,3}PRIVATE" + _GAP + r"KEY(?:" + _GAP + r"BLOCK)?"
_KEY_END = r"-{5}[ \t]*END[ \t]+(?:[A-Z0-9]+[ \t]+){0,3}PRIVATE[ \t]+KEY(?:[ \t]+BLOCK)?[ \t]*-{5}"
PRIVATE_KEY_RULES: list[Rule] = [
    # the whole block, BEGIN to END; a block cut short ends where its base64 lines end
    _rule(
        "private-key",
        r"-{5}[ \t]*BEGIN" + _GAP + _KEY_LABEL + r"[ \t]*-{5}"
        r"(?:[ \t]+[^\n]{0,200}?(?=\r?\n[ \t>#*\"'`+,]*[A-Za-z0-9+/]{16}))?"  # a comment (the allow marker)
        r"(?:(?:" + _NL + r")+" + _ARMOR + r"){0,4}"
        r"(?:(?:" + _NL + r")+" + _B64_LINE + r")*"
        r"(?:(?:" + _NL + r")+" + _KEY_END + r")?",
        None,
        0,
    ),
    # the rest of a block whose BEGIN line came earlier (another message, another paste): its lines up to END
    _rule(
        "private-key",
        r"(?m)^(?:[ \t>#*\"'`]*[A-Za-z0-9+/]{16,}={0,2}[ \t\"'`]*\r?\n)+[ \t>#*\"'`]*" + _KEY_END,
        None,
        0,
    ),
    # a PEM body without its header: DER of PKCS#1 RSA / PKCS#8 keys, an OpenSSH key ("openssh-key-v1")
    _rule(
        "private-key",
        r"(?<![A-Za-z0-9+/])(MII[A-Za-z0-9+/]{3}IBA(?:AKC|DANBgkqhkiG9w0BAQEFAASC)[A-Za-z0-9+/]{20,}"
        r"|b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/]{20,})",
    ),
    _rule("private-key", r"(?m)^(Private-Lines:[ \t]*\d+)[ \t]*\r?\n[A-Za-z0-9+/]{16,}", None),  # PuTTY .ppk
    _rule("private-key", r"(AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58})", None),
]

# -- provider tokens -----------------------------------------------------------------------------
PROVIDER_RULES: list[Rule] = [
    _rule(
        "aws-access-key-id",
        r"(?<![A-Z0-9])((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16})(?![A-Z0-9])",
        lambda v: not v.endswith("EXAMPLE") and not is_placeholder(v[4:]),
    ),
    _rule(
        "github-token",
        _B + r"((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})",
    ),
    _rule(
        "gitlab-token",
        _B + r"(gl(?:pat|dt|rt|cbt|ft|ptt|imt|oas|soat|ffct|agent)-[A-Za-z0-9_\-]{20,}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?"
        r"|GR1348941[A-Za-z0-9_\-]{20})" + _E,
        _after("-"),
    ),
    _rule(
        "slack-token",
        r"(?<![A-Za-z0-9])((?:xoxe\.)?xox[abcdposre]-[A-Za-z0-9\-]{10,250})",
        lambda v: any(c.isdigit() for c in v) and not is_placeholder(v.split("-", 1)[1]),
    ),
    _rule("slack-token", r"(?<![A-Za-z0-9])(xapp-\d-[A-Z0-9]{8,}-\d{6,}-[a-f0-9]{32,})", _after("-")),
    _rule(
        "slack-webhook",
        r"(https://hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,}/(?:[A-Z0-9]+/)+[A-Za-z0-9]{16,})",
        lambda v: token_like(v.rsplit("/", 1)[1]),
    ),
    _rule(
        "discord-webhook",
        r"(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{15,21}/[A-Za-z0-9_\-]{60,})",
        lambda v: token_like(v.rsplit("/", 1)[1]),
    ),
    _rule(
        "teams-webhook",
        r"(https://[a-z0-9\-]+\.webhook\.office\.com/webhookb2/[a-f0-9\-]{36}@[a-f0-9\-]{36}/IncomingWebhook/"
        r"[a-f0-9]{32}/[a-f0-9\-]{36})",
        None,
    ),
    _rule("anthropic-key", _B + r"(sk-ant-[A-Za-z0-9_\-]{20,250})", lambda v: token_like(v[7:])),
    _rule(
        "openai-key",
        _B + r"(sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,250})",
        lambda v: (
            token_like(v[3:])
            and char_classes(v[3:].replace("-", "").replace("_", "")) >= 2
            and shannon_entropy(v) >= 3.5
        ),
    ),
    _rule("stripe-key", _B + r"((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247})", _body(8)),
    _rule("stripe-webhook-secret", _B + r"(whsec_[A-Za-z0-9+/=]{24,})", _body(6)),
    _rule("npm-token", _B + r"(npm_[A-Za-z0-9]{36})" + _E, _body(4)),
    _rule("pypi-token", _B + r"(pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_\-]{40,})", None),
    _rule("huggingface-token", _B + r"(hf_[A-Za-z0-9]{30,})" + _E, _body(3)),
    _rule("sendgrid-key", _B + r"(SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{32,64})", _after(".")),
    _rule("twilio-api-key", r"(?<![A-Za-z0-9])(SK[0-9a-f]{32})(?![A-Za-z0-9])", _body(2, hex_token_like)),
    _rule("mailgun-key", r"(?<![A-Za-z0-9_\-])(key-[0-9a-f]{32})(?![A-Za-z0-9])", _body(4, hex_token_like)),
    _rule(
        "mailchimp-key", r"(?<![A-Za-z0-9])([0-9a-f]{32}-us\d{1,2})(?![A-Za-z0-9])", lambda v: hex_token_like(v[:32])
    ),
    _rule(
        "discord-bot-token",
        _B + r"([MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40})" + _E,
        _discord_bot_token,
    ),
    _rule("telegram-bot-token", r"(?:(?<=/bot)|(?<![A-Za-z0-9]))(\d{8,10}:AA[A-Za-z0-9_\-]{33})" + _E, _after(":")),
    _rule("google-api-key", _B + r"(AIza[0-9A-Za-z_\-]{35})" + _E, _body(4)),
    _rule("google-oauth-secret", _B + r"(GOCSPX-[A-Za-z0-9_\-]{28})" + _E, _body(7)),
    _rule("google-oauth-token", _B + r"(ya29\.[A-Za-z0-9_\-]{30,})", _body(5)),
    _rule("shopify-token", _B + r"(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})" + _E, _body(6, hex_token_like)),
    _rule("digitalocean-token", _B + r"(do[opr]_v1_[a-f0-9]{64})" + _E, _body(7, hex_token_like)),
    _rule("databricks-token", _B + r"(dapi[a-f0-9]{32}(?:-\d)?)" + _E, _body(4, hex_token_like)),
    _rule("vault-token", _B + r"(hv[sbr]\.[A-Za-z0-9_\-]{24,})", _body(4)),
    _rule("linear-key", _B + r"(lin_(?:api|oauth)_[A-Za-z0-9]{40})" + _E, _after("_")),
    _rule("postman-key", _B + r"(PMAK-[a-f0-9]{24}-[a-f0-9]{34})" + _E, _body(5)),
    _rule("pulumi-token", _B + r"(pul-[a-f0-9]{40})" + _E, _body(4, hex_token_like)),
    _rule("rubygems-token", _B + r"(rubygems_[a-f0-9]{48})" + _E, _body(9, hex_token_like)),
    _rule("dockerhub-token", _B + r"(dckr_pat_[A-Za-z0-9_\-]{27})" + _E, _body(9)),
    _rule("doppler-token", _B + r"(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44})" + _E, _after(".")),
    _rule("new-relic-key", _B + r"(NR(?:AK|II|JS)-[A-Za-z0-9]{27})" + _E, _body(5)),
    _rule("sentry-token", _B + r"(sntry[su]_[A-Za-z0-9_=+/\-]{40,})", _body(7)),
    _rule("grafana-token", _B + r"(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})", _after("_")),
    _rule("atlassian-token", _B + r"(ATATT3[A-Za-z0-9_\-=]{100,})", _body(6)),
    _rule("heroku-token", _B + r"(HRKU-[A-Za-z0-9_\-]{40,})", _body(5)),
    _rule("notion-token", _B + r"(ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43})" + _E, _after("_")),
    _rule("supabase-token", _B + r"(sbp_[a-f0-9]{40})" + _E, _body(4, hex_token_like)),
    _rule("planetscale-token", _B + r"(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.\-]{32,64})", _after("_")),
    _rule(
        "ai-provider-key",
        _B + r"(pplx-[A-Za-z0-9]{48}|gsk_[A-Za-z0-9]{52}|r8_[A-Za-z0-9]{37}|xai-[A-Za-z0-9]{70,90})" + _E,
        lambda v: token_like(re.split(r"[-_]", v, maxsplit=1)[1]),
    ),
    _rule("square-token", _B + r"(sq0(?:atp|csp|idp)-[A-Za-z0-9_\-]{22,43}|EAAA[A-Za-z0-9_\-]{60})" + _E, _body(4)),
    _rule("alibaba-key-id", r"(?<![A-Za-z0-9])(LTAI[A-Za-z0-9]{16,20})(?![A-Za-z0-9])", _body(4)),
    _rule("tencent-secret-id", r"(?<![A-Za-z0-9])(AKID[A-Za-z0-9]{32})(?![A-Za-z0-9])", _body(4)),
    _rule(
        "azure-ad-client-secret",
        r"(?<![A-Za-z0-9_~.\-])([A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})" + _E,
        _body(6),
    ),
    _rule("artifactory-token", _B + r"(AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})" + _E, _body(4)),
    _rule(
        "onepassword-token",
        _B + r"(ops_eyJ[A-Za-z0-9_\-+/=]{100,}|A3-[A-Z0-9]{6}-[A-Z0-9]{6}-[A-Z0-9]{5}(?:-[A-Z0-9]{5}){3})",
        lambda v: token_like(v[3:].replace("-", "")),
    ),
]

# -- generic credential forms --------------------------------------------------------------------
FORM_RULES: list[Rule] = [
    # the signature of a signed URL (Azure SAS, S3 and GCS presigned) and a session token in one
    _rule(
        "signed-url-signature",
        r"(?i)[?&](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-security-token)=([A-Za-z0-9%+/=_.\-]{20,})",
        lambda v: char_classes(v.replace("%", "")) >= 2 and shannon_entropy(v) >= 3.5 and not is_placeholder(v),
    ),
    _rule(
        "basic-auth",
        r"(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])",
        _b64_has_colon,
    ),
    _rule(
        "bearer-token",
        r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{20,}=*)",
        lambda v: token_like(v) and shannon_entropy(v) >= GENERIC_MIN_ENTROPY,
    ),
    _rule(
        "jwt",
        r"(?<![A-Za-z0-9_\-])(ey[A-Za-z0-9_\-]{10,})\.([A-Za-z0-9_\-]{4,})\.([A-Za-z0-9_\-]{8,})",
        lambda v: _b64url_json_with_alg(v.split(".", 1)[0]),
        0,
    ),
    _rule(
        "url-credentials",
        r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@\"'<>]{0,64}:([^\s/@\"'<>]{1,128})@[A-Za-z0-9\[]",
        lambda v: not is_placeholder(v),
    ),
]

SHAPE_RULES: list[Rule] = PRIVATE_KEY_RULES + PROVIDER_RULES + FORM_RULES
"""Every shape rule, the most specific first (an earlier rule wins on overlapping spans)."""

NEEDLES: dict[str, tuple[str, ...]] = {
    "private-key": ("begin", "-----end", "mii", "b3blbnnzac1rzxktdje", "private-lines", "age-secret-key"),
    "aws-access-key-id": ("akia", "asia", "abia", "acca", "agpa", "aida", "aipa", "anpa", "anva", "aroa", "apka"),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab-token": (
        *("glpat-", "gldt-", "glrt-", "glcbt-", "glft-", "glptt-", "glimt-", "gloas-", "glsoat-", "glffct-"),
        *("glagent-", "gr1348941"),
    ),
    "slack-token": ("xox", "xapp-"),
    "slack-webhook": ("hooks.slack.com",),
    "discord-webhook": ("/api/webhooks/",),
    "teams-webhook": ("webhook.office.com",),
    "anthropic-key": ("sk-ant-",),
    "openai-key": ("sk-",),
    "stripe-key": ("_live_", "_test_"),
    "stripe-webhook-secret": ("whsec_",),
    "npm-token": ("npm_",),
    "pypi-token": ("pypi-age",),
    "huggingface-token": ("hf_",),
    "sendgrid-key": ("sg.",),
    "twilio-api-key": ("sk",),
    "mailgun-key": ("key-",),
    "mailchimp-key": ("-us",),
    "telegram-bot-token": (":aa",),
    "google-api-key": ("aiza",),
    "google-oauth-secret": ("gocspx-",),
    "google-oauth-token": ("ya29.",),
    "shopify-token": ("shpat_", "shpca_", "shppa_", "shpss_"),
    "digitalocean-token": ("_v1_",),
    "databricks-token": ("dapi",),
    "vault-token": ("hvs.", "hvb.", "hvr."),
    "linear-key": ("lin_",),
    "postman-key": ("pmak-",),
    "pulumi-token": ("pul-",),
    "rubygems-token": ("rubygems_",),
    "dockerhub-token": ("dckr_pat_",),
    "doppler-token": ("dp.",),
    "new-relic-key": ("nrak-", "nrii-", "nrjs-"),
    "sentry-token": ("sntry",),
    "grafana-token": ("glsa_", "glc_"),
    "atlassian-token": ("atatt3",),
    "heroku-token": ("hrku-",),
    "notion-token": ("ntn_", "secret_"),
    "supabase-token": ("sbp_",),
    "planetscale-token": ("pscale_",),
    "ai-provider-key": ("pplx-", "gsk_", "r8_", "xai-"),
    "square-token": ("sq0", "eaaa"),
    "alibaba-key-id": ("ltai",),
    "tencent-secret-id": ("akid",),
    "azure-ad-client-secret": ("q~",),
    "artifactory-token": ("akcp", "cmvmdgtu"),
    "onepassword-token": ("ops_eyj", "a3-"),
    "discord-bot-token": (".",),  # the token's three parts are joined by dots
    "basic-auth": ("basic",),
    "bearer-token": ("bearer",),
    "jwt": ("ey",),
    "url-credentials": ("://",),
    "signed-url-signature": ("sig=", "signature=", "security-token="),
}
"""Per kind, lower-case strings one of which the text must contain for its rules to run (a fast prefilter)."""
