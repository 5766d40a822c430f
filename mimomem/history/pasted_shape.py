"""The shape of a text the user brought into a prompt rather than wrote: lines read as a document.

A pasted text keeps the form of where it came from, whatever its words: a chat log's lines are
stamped with a speaker or a time of day; a mail has header fields, a banner ("---- Forwarded message
----") and a signature; a quoted page ends with its source after a dash; code and configuration have
braces, comment lines between key-value pairs, nested keys; a log repeats severity words and stack
frames; Markdown sets a code block off by indenting it.  The user's own message has none of these.
Each check reads lines only; :mod:`mimomem.history.provenance` decides what to do with them.
"""

from __future__ import annotations

import itertools
import re

_TIME = re.compile(
    r"(?:\b[AaPp]\.?[Mm]\.?\s*|오전\s*|오후\s*|午前\s*|午後\s*|上午\s*|下午\s*)?"
    r"(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])(?:\s*[AaPp]\.?[Mm]\.?)?"
)
"""A time of day as chat clients print it (9:14 AM, 14:02, 오후 3:12, 午後2:03)."""
_SPEAKER = re.compile(
    r"^\s*(?:\[[^\]\n]{1,24}\]|<[^>\n]{1,24}>|[^\s:：\[\]<>]{1,20}(?: [^\s:：\[\]<>]{1,20})?)\s*[:：]\s*\S"
)
_NAME = re.compile(
    r"^\s*(?:\[[^\]\n]{1,24}\]\s*|<[^>\n]{1,24}>\s*|@?[^\s\[\]<>:：]{1,20}(?:\s[^\s\[\]<>:：]{1,20})?\s*)?[\[(]?\s*$"
)
"""What may stand before a chat stamp's time: a name of one or two words, or one in brackets."""
_AFTER_STAMP = re.compile(r"^\s*(?:[\])>]|$|[-—]\s|[^\s:：]{1,20}(?:\s[^\s:：]{1,20})?\s*[:：])")
"""What follows a chat stamp's time: its bracket's end, the line's end, or the speaker and a colon."""


def stamped(line: str) -> bool:
    """A chat log line: a time of day near its start after nothing but a name or brackets, and followed by
    its bracket's end, the speaker and a colon, or nothing ("[10:42] Priya: …", "Jordan Lee  9:14 AM",
    "[김민수] [오후 3:12] …", "张伟 14:02", "14:02 张伟：…"); not a time in a sentence ("at 9:14 it …")."""
    found = _TIME.search(line[:48])
    if not found or not _NAME.match(line[: found.start()]):
        return False
    return bool(_AFTER_STAMP.match(line[found.end() :]))


def _speaker(line: str) -> str | None:
    found = _SPEAKER.match(line)
    return found.group(0).split(":")[0].split("：")[0].strip() if found else None


def chat_log(lines: list[str]) -> bool:
    """Two or more lines stamped with a time, or two or more lines of one speaker ("Tom: …")."""
    body = [line for line in lines if line.strip()]
    if sum(stamped(line) for line in body) >= 2:
        return True
    speakers = [s for s in (_speaker(line) for line in body) if s]
    return any(speakers.count(s) >= 2 for s in set(speakers)) and len(speakers) >= len(body) / 2


_HEADER = re.compile(
    r"^\s*(?:from|to|cc|bcc|subject|date|sent|reply-to|差出人|送信者|宛先|件名|日時|送信日時|发件人|收件人|"
    r"抄送|主题|主題|日期|時間|时间|보낸\s*사람|받는\s*사람|참조|제목|날짜)\s*[:：]\s*\S",
    re.I,
)
"""A mail header field (the closed set mail clients print, in the languages we read)."""
_BANNER = re.compile(r"^\s*[-=_*]{2,}\s*[^-=_*\s][^\n]*?[-=_*]{2,}\s*$")
"""A title between runs of dashes ("---------- Forwarded message ---------", "=== 原始邮件 ===")."""


def mail(lines: list[str]) -> bool:
    """A mail's head: two header fields, or a banner line with one."""
    headers = sum(bool(_HEADER.match(line)) for line in lines)
    return headers >= 2 or (headers >= 1 and any(_BANNER.match(line) for line in lines))


def banner(line: str) -> bool:
    return bool(_BANNER.match(line))


_ATTRIBUTION = re.compile(r"^\s*(?:[—―–]{1,2}|--)\s*\S.{0,60}$")


def attribution(line: str) -> bool:
    """A source after a dash closing a quoted text ("— Engineering Handbook, §4.2", "― 開発部")."""
    return bool(_ATTRIBUTION.match(line)) and not line.rstrip().endswith(("?", "？"))


_CODE_LINE = re.compile(
    r"^\s*(?:[{}\[\]();,]+\s*$"  # braces alone
    r"|(?://|/\*|\*/|--\s|;\s)\s*\S"  # a comment
    r"|#(?!#)\s*\S.*"  # a shell / YAML / Python comment (a lone '#' heading is Markdown's, two or more)
    r"|\"[^\"\n]+\"\s*:"  # a JSON member
    r"|[A-Za-z_][\w.-]*\s*=\s*\S"  # an assignment
    r"|<[A-Za-z/][^>]*>"  # a tag
    r"|(?:def|class|function|import|from|return|if|for|while|const|let|var|fn|pub|func)\b[^\n]*[:{(;]\s*$"
    r")"
)
_NESTED_KEY = re.compile(r"^\s+[\w.-]+\s*:(?:\s|$)")
_OPENS_BLOCK = re.compile(r"^\s*[\w.-]+\s*:\s*$")


def code_like(lines: list[str]) -> bool:
    """Code or configuration: most lines braces, comments, JSON members, assignments or tags, or a key
    opening a nested block ("server:" then "  port: 8080").  A flat list of "key: value" lines is the
    user's own note and is not code."""
    body = [line for line in lines if line.strip()]
    if len(body) < 2:
        return False
    nested = any(_OPENS_BLOCK.match(a) and _NESTED_KEY.match(b) for a, b in itertools.pairwise(body))
    coded = sum(bool(_CODE_LINE.match(line)) for line in body)
    return (nested and coded + sum(bool(_NESTED_KEY.match(x)) for x in body) >= len(body) / 2) or (
        coded >= 2 and 2 * coded >= len(body)
    )


def indented(lines: list[str]) -> bool:
    """Every line set in by four spaces or a tab: Markdown's code block."""
    body = [line for line in lines if line.strip()]
    return bool(body) and all(line.startswith(("    ", "\t")) for line in body)


LOGGY = re.compile(
    r"^\s*(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[\d{2}:\d{2}"
    r"|\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|FATAL|CRITICAL|notice|warn|error)\]?[\s:]"
    r"|(?:[\w.-]+\s+){1,2}(?:WARN|ERR!|ERROR|INFO|DEBUG|notice|warn)\b"
    r"|at [\w$.<>]+\(|File \"[^\"]+\", line \d+|Traceback \(most recent call last\)|\$ \S"
    r"|[\w.]+(?:Error|Exception)\b:?|Exception in thread|Caused by:|\.\.\. \d+ more)"
)
"""A line of a log or a stack trace: a timestamp, a severity word, a frame, an exception's name."""


def log_lines(lines: list[str]) -> int:
    return sum(bool(LOGGY.match(line)) for line in lines)


def document_line(line: str) -> bool:
    """One line of a document's form by itself: a log line, a chat stamp, a mail header, a line of code."""
    return bool(LOGGY.match(line) or stamped(line) or _HEADER.match(line) or _CODE_LINE.match(line))


def shaped(lines: list[str]) -> bool:
    """Lines with a document's form (see the module docstring): a chat log, a mail head, code, an
    indented block, a log (two lines of one and half the lines), or a text closed by its source."""
    body = [line for line in lines if line.strip()]
    if not body:
        return False
    logs = log_lines(body)
    return (
        chat_log(body)
        or mail(body)
        or code_like(body)
        or indented(body)
        or (logs >= 2 and 2 * logs >= len(body))
        or (len(body) >= 2 and attribution(body[-1]))
    )


_OWN_VOICE = re.compile(
    r"\b(?:I|I'm|I've|I'd|me|my|mine|we|we're|we've|our|ours|us)\b"
    r"|我|咱|俺|僕|私|うち|我々|自分|저희|우리|제가|저는|내가|나는",
    re.I,
)
"""The speaker in the first person (pronouns, a closed class): a lead-in or list in the user's own
voice ("My rules for this repo:", "我们组的约定", "제가 배포할 때 하는 순서예요", "- we use pnpm")."""


def own_voice(text: str) -> bool:
    return bool(_OWN_VOICE.search(text))


CAPTION_CHARS = 48
_SENTENCE_END = re.compile(r"[.!?。！？．]\s*$")


def caption(line: str) -> bool:
    """A short line with no sentence end: a title or a lead-in ("Incident Response", "群里刚发的",
    "これ見て") that may introduce the lines after it."""
    text = line.strip()
    return 0 < len(text) <= CAPTION_CHARS and not _SENTENCE_END.search(text) and not text.startswith(("-", "*", "•"))
