"""Keyword rules of the secret scanner: values named by a flag, a header, a cookie or a sentence.

``secret_context`` catches ``name = value`` and passwords on command lines; these rules catch
the forms it does not, in English and Chinese:

* a flag and its value separated by a space: ``--token X``, ``--api-key X``, ``--secret X``,
  ``gh auth login --token X``, and ``vault login X`` (the token as a positional argument);
* ``Cookie:`` / ``Set-Cookie:`` headers (``session=X; csrftoken=Y``) and
  ``Authorization: Token X``;
* a sentence that states the value: "the token is X", "the API key was X", "token 是 X",
  密码是X, 口令为X, API 密钥是 X, 令牌：X.

A value counts only when it looks chosen or random (``secret_values``): placeholders
(``$TOKEN``, ``<your-token>``, ``xxx``), paths, identifiers, words and numbers never do, so
prose *about* tokens ("the token is valid for 24 hours", 密码是必填项) passes.  The patterns
are compiled on first use, so importing the scanner costs nothing more.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from mimomem.common.lazy_pattern import LazyPattern, lazy
from mimomem.common.secret_needles import needle_text
from mimomem.common.secret_values import (
    GENERIC_MIN_ENTROPY,
    GENERIC_MIN_LEN,
    decodes_to_prose,
    is_placeholder,
    password_value_ok,
    shannon_entropy,
    token_like,
)

Span = tuple[str, int, int]

_NOT_A_VALUE_NAME = lazy(
    r"(?i)(?:file|path|dir|env|var|name|id|ids|ttl|type|types|version|length|len|scopes?|format|prefix|helper"
    r"|stdin|command|cmd|url|endpoint|header|source|store|backend|policy|expiry|expires|lifetime|duration)$"
)
_IDENTIFIER = lazy(r"[A-Za-z_\-/.]+|[A-Za-z]+(?:[_\-./][A-Za-z0-9]{1,12})+")
_HEX = lazy(r"[0-9a-fA-F\-]+")
_NOT_RANDOM = lazy(r"[()\[\]{}<>\\]|://|^[~/.$%@-]|^\d+(?:\.\d+)*$")
_HEX_WORDS = lazy(r"(?i)token|secret|api|credential|密钥|秘钥|令牌|凭证|凭据")


def random_value(value: str, *, hex_ok: bool) -> bool:
    """A key or token value: long, random, mixing letters and digits; hex only where ``hex_ok``."""
    if len(value) < GENERIC_MIN_LEN or is_placeholder(value) or _NOT_RANDOM.search(value):
        return False
    if shannon_entropy(value) < GENERIC_MIN_ENTROPY or not token_like(value) or _IDENTIFIER.fullmatch(value):
        return False
    return (hex_ok or not _HEX.fullmatch(value)) and not decodes_to_prose(value.rstrip("="))


def _chosen_password(value: str) -> bool:
    return password_value_ok(value) and not _NOT_RANDOM.search(value)


# -- the patterns (compiled on first use) -----------------------------------------------------
_SECRET_FLAG_WORD = r"(?:token|secret|api[_\-]?key|apikey|access[_\-]?key|auth|credential|private[_\-]?key)"
_EN_KEYWORD = (
    r"(?:secret(?:[ _\-]?key)?|(?:(?<![A-Za-z])|(?<=api)|(?<=access)|(?<=private))(?:key|token)|credentials?)"
    r"(?![A-Za-z])"
)
"""Starts at one of ``_EN_WORDS``: the scan tries it only where one of them is (``_word_starts``)."""
_EN_WORDS = ("secret", "token", "key", "credential")
_ZH_KEY = r"密钥|秘钥|令牌|凭证|凭据"
_ZH_IS = r"(?:也|就|都)?(?:是|为|為|设为|设置为|设成|改为|改成了?|换成了?|变成了?)"
_VALUE_OPEN = r"[ \t]*[\"'`「『“‘]?"
_KEY_VALUE = r"(?P<value>[A-Za-z0-9_\-+/=.~%]+)"
_PASSWORD_VALUE = r"(?P<value>[!-~]+?)(?=[\"'`」』”’,;.)]?(?:[\s，。；、）]|$)|[，。；、）」』”’])"


@cache
def _patterns() -> dict[str, LazyPattern]:
    return {
        # --token X, -api-key 'X', --client-secret "X" (the "=" form is an assignment)
        "flag": lazy(
            r"(?i)(?<![\w\-])(?P<name>--?(?=[A-Za-z])[\w\-]*?" + _SECRET_FLAG_WORD + r"[\w\-]*)[ \t]+(?P<q>['\"]?)"
            r"(?P<value>[^\s'\"]+)"
        ),
        # vault login [-option=...]... TOKEN
        "vault": lazy(r"(?i)\bvault[ \t]+login((?:[ \t]+-\S+)*)[ \t]+(?P<q>['\"]?)(?P<value>[^\s'\"=]+)(?![^\s'\"])"),
        "cookie": lazy(r"(?i)(?<![\w\-])(?:set-)?cookie[\"']?[ \t]*[:=][ \t]*(?P<pairs>[^\n\"'`]+)"),
        "authorization": lazy(
            r"(?i)\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:token|apikey|api-key|key)[ \t]+"
            r"(?P<value>[A-Za-z0-9_\-+/=.~]+)"
        ),
        # "the token is X", "API key: X", "token 是 X", "AppSecret：X"
        "en": lazy(
            r"(?i)(?P<kw>" + _EN_KEYWORD + r")[^:=：\n\"'`]{0,30}?"
            r"(?:[ \t]*[:=：][ \t]*|[ \t]+(?:is|was|are|were|equals)(?:[ \t]*:)?[ \t]+|[ \t]*"
            + _ZH_IS
            + r")"
            + _VALUE_OPEN
            + _KEY_VALUE
        ),
        # 密码是X, 口令为「X」, 数据库密码: X
        "zh-password": lazy(
            r"(?i)(?:(?:密码|口令)[ \t]*(?:"
            + _ZH_IS
            + r"|[:=：])|(?:passw(?:or)?d|passphrase)[ \t]*"
            + _ZH_IS
            + r")"
            + _VALUE_OPEN
            + _PASSWORD_VALUE
        ),
        # API 密钥是 X, 令牌：X
        "zh-key": lazy(r"(?P<kw>" + _ZH_KEY + r")[ \t]*(?:" + _ZH_IS + r"|[:=：])" + _VALUE_OPEN + _KEY_VALUE),
    }


_EN_WORD = lazy("(?i)(?=" + "|".join(_EN_WORDS) + ")")  # zero width: overlapping starts too


def _word_starts(text: str, low: str, prefilter: bool) -> list[int]:
    """Where one of ``_EN_WORDS`` starts, by ``str.find`` on the lower-cased text (or by regex on ``text``)."""
    if not prefilter or len(low) != len(text):  # folding changed the length: positions would not line up
        return [m.start() for m in _EN_WORD.finditer(text)]
    starts: list[int] = []
    for word in _EN_WORDS:
        at = low.find(word)
        while at != -1:
            starts.append(at)
            at = low.find(word, at + len(word))
    return sorted(starts)


def _strip_end(value: str) -> str:
    return value.rstrip(".=") if not value.endswith("==") else value


def flag_values(text: str, *, prefilter: bool = True) -> Iterator[Span]:
    """``--token X`` and ``vault login X``: a random value after a flag that names a secret.

    ``prefilter=False`` runs every pattern (tests compare it with the prefiltered scan).
    """
    low = needle_text(text) if prefilter else ""
    patterns = _patterns()
    if not prefilter or ("-" in low and any(w in low for w in ("token", "secret", "key", "auth", "credential"))):
        for m in patterns["flag"].finditer(text):
            if _NOT_A_VALUE_NAME.search(m.group("name")):
                continue
            value = m.group("value")
            if random_value(value, hex_ok=True):
                yield "secret-argument", m.start("value"), m.end("value")
    if not prefilter or ("vault" in low and "login" in low):
        for m in patterns["vault"].finditer(text):
            if random_value(m.group("value"), hex_ok=True):
                yield "secret-argument", m.start("value"), m.end("value")


_COOKIE_PAIR = lazy(r"(?P<name>[^=;\s]+)=(?P<value>[^;\s]*)")
_SESSION_NAME = lazy(r"(?i)sess|sid$|^sid|token|auth|jwt|remember|login|csrf|xsrf|secret|key|credential")


def cookies(text: str, *, prefilter: bool = True) -> Iterator[Span]:
    """Values in ``Cookie:`` / ``Set-Cookie:`` headers that look like session ids or tokens."""
    if prefilter and "cookie" not in needle_text(text):
        return
    for m in _patterns()["cookie"].finditer(text):
        for pair in _COOKIE_PAIR.finditer(m.group("pairs")):
            value = pair.group("value")
            if _SESSION_NAME.search(pair.group("name")):
                ok = len(value) >= 12 and not is_placeholder(value) and shannon_entropy(value) >= 3.0
                ok = ok and token_like(value) and not _IDENTIFIER.fullmatch(value)
            else:
                ok = random_value(value, hex_ok=False) and shannon_entropy(value) >= 4.0
            if ok:
                start = m.start("pairs") + pair.start("value")
                yield "cookie-value", start, start + len(value)


def stated_values(text: str, *, prefilter: bool = True) -> Iterator[Span]:
    """Secrets stated in a sentence or a header: "the token is X", 密码是X, ``Authorization: Token X``."""
    low = needle_text(text) if prefilter else ""
    patterns = _patterns()
    if not prefilter or "authorization" in low:
        for m in patterns["authorization"].finditer(text):
            if random_value(m.group("value"), hex_ok=True):
                yield "secret-in-text", m.start("value"), m.end("value")
    en = patterns["en"]
    for m in filter(None, (en.match(text, start) for start in _word_starts(text, low, prefilter))):
        value = _strip_end(m.group("value"))
        if random_value(value, hex_ok=bool(_HEX_WORDS.search(text, max(m.start() - 4, 0), m.end("kw")))):
            yield "secret-in-text", m.start("value"), m.start("value") + len(value)
    if prefilter and low.isascii():
        return
    if not prefilter or any(w in low for w in ("密码", "口令", "passw", "passphrase")):
        for m in patterns["zh-password"].finditer(text):
            if _chosen_password(m.group("value")):
                yield "password-in-text", m.start("value"), m.end("value")
    if not prefilter or any(w in low for w in ("密钥", "秘钥", "令牌", "凭证", "凭据")):
        for m in patterns["zh-key"].finditer(text):
            value = _strip_end(m.group("value"))
            if random_value(value, hex_ok=True):
                yield "secret-in-text", m.start("value"), m.start("value") + len(value)


PHRASE_RULES = (flag_values, cookies, stated_values)
"""The keyword rules, in order of precedence (after ``secret_context.CONTEXT_RULES``)."""

__all__ = ["PHRASE_RULES", "cookies", "flag_values", "random_value", "stated_values"]
