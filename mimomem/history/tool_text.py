"""What of a tool's output may be quoted in memory: the first sentence of an error, nothing else.

A tool's output is written by whoever wrote the repository, the package or the server it talked
to; a line in it can be an order aimed at the agent, in any language and without any listed word.
So memory never quotes tool output as prose: of a failure it keeps at most the first sentence of
the first line, and only when that sentence is in the register of an error message (an error
class, ``ERR!``, "failed", "not found", 错误 / 失败 / エラー …) and is not itself an order
(:func:`~mimomem.history.provenance.reads_as_instruction`, or imperative / standing by its
grammar).  Everything after the first sentence - where an injected order usually sits, behind
a real error - is never quoted, whatever its language.
"""

from __future__ import annotations

import re

from mimomem.history.episode import clip
from mimomem.history.provenance import reads_as_instruction
from mimomem.history.sentence import is_imperative, is_standing

QUOTE_CHARS = 140

_FIRST_SENTENCE = re.compile(r"^(.+?)(?:(?<=[.?])\s+(?=\S)|(?<=[a-z]!)\s+|(?<=[。！？]))")
_ERROR_REGISTER = re.compile(
    r"\b(?:error|err!?|errno|fatal|panic|exception|traceback|fail(?:s|ed|ure)?|killed|timeout|timed out|refused|denied|"
    r"not found|no such|cannot|can't|unable|invalid|missing|undefined|unresolved|unsupported|segmentation fault|"
    r"aborted|exit (?:code|status)|oom|conflict|expired)\b|\b\w+(?:Error|Exception|Warning)\b|(?-i:^E[A-Z]{3,}\b)"
    r"|错误|失败|异常|报错|超时|找不到|无法|拒绝|エラー|失敗|例外|見つかりません",
    re.I,
)


def quotable_error(output: str | None) -> str | None:
    """The first sentence of the first line of ``output`` when it reads as an error and not as an
    order; None when nothing of it may be quoted."""
    line = next((" ".join(raw.split()) for raw in (output or "").splitlines() if raw.strip()), "")
    if not line:
        return None
    found = _FIRST_SENTENCE.match(line)
    sentence = (found.group(1) if found else line).strip()
    if not _ERROR_REGISTER.search(sentence):
        return None
    if reads_as_instruction(sentence) or is_standing(sentence) or is_imperative(sentence):
        return None
    return clip(sentence, QUOTE_CHARS)
