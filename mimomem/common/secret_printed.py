"""A credential printed on the line after the command that prints it (the secret scanner's output rule).

A terminal or a REPL pasted into a chat shows the command and, on the next line, what it printed:
``$ echo $DB_PASSWORD`` then the password, ``>>> os.environ['AWS_SECRET_ACCESS_KEY']`` then the key,
``$ kubectl get secret pg -o jsonpath='{.data.password}' | base64 -d`` then the password.  A prompt
line (``$ ``, ``>>> ``, ``PS …> ``) that names a credential (a head of the label rule), then
one token alone on the next line: that token is the credential's value when its shape says so (as a
label's value is judged: a password may be short, a key mixes letters and digits).
"""

from __future__ import annotations

from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_label_values import _value_ok
from mimomem.common.secret_needles import needle_lines

Span = tuple[str, int, int]
_PROMPT = lazy(r"[ \t]*(?:\$|>>>|PS [^\n>]{0,80}>)[ \t]+\S")


def printed_values(text: str) -> Iterator[Span]:
    """The value on the line after a prompt line that names a credential."""
    if "\n" not in text:
        return
    from mimomem.common.secret_labels import _candidates, _head_at

    for start, end in needle_lines(text, ("$ ", ">>> ", "ps ")):  # the prompt lines only
        line = text[start:end].rstrip("\n")
        stop = text.find("\n", end)
        following = text[end : stop if stop != -1 else len(text)]
        if end >= len(text) or not _PROMPT.match(line) or _PROMPT.match(following):
            continue
        output = following.strip()
        if not output or " " in output:
            continue
        low, starts = _candidates(line, True)
        found = [(at, h) for at, h in ((at, _head_at(line, low, at)) for at in starts) if h is not None]
        heads = [h for at, h in found if not _called(line, h[0])]  # token_hex(16) computes, prints no secret
        if not heads:
            continue
        quoted = output[:1] in "'\"" and output[-1:] == output[:1] and len(output) > 2
        value = output[1:-1] if quoted else output
        password = any(p for _, p in heads)
        if _value_ok(value, False, password, "token", ""):
            at = end + following.index(value)
            yield "printed-secret", at, at + len(value)


def _called(line: str, end: int) -> bool:
    """Is the name the head ending at ``end`` belongs to called (``token_hex(16)``, ``make_password()``)?"""
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    return line.startswith("(", end)


PRINTED_RULES = (printed_values,)

__all__ = ["PRINTED_RULES", "printed_values"]
