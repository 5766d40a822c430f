"""Whether a statement is about this moment of the session rather than the project, for
:mod:`mimomem.history.sentence`: a reaction to what just happened, a hypothesis, the speaker's own
experience or activity in progress.

Each frame is read by the clause it governs, not by its opening word alone, because the user's
lasting facts open the same way:

- A reaction ("Thanks", "好了", "ありがとう", "오") is about the moment when the clause after it reports
  an event - a past or perfective verb, a change of state, "now" / "this time" ("Nice, the 500s are
  gone now", "好了，502 没了", "エラーが消えました", "깨졌어요") - and not when that clause opens with an
  aside connector ("Thanks - btw the bucket is …", "ありがとう、ちなみに…", "오 감사합니다, 그리고 …") or
  states something in the present ("Huh, so the importer skips files over 50 MB").
- A condition ("If …", "要是…", "もし…", "만약…") makes a hypothesis only when its main clause is
  speculative (would / might / 可能 / 会 / かもしれない / 거예요); "If you need the VPN, the profile is
  at …" and "如果要连预发库，跳板机是 …" state a fact under a condition.  "Suppose" / "imagine" /
  "what if" always suppose.
- The speaker's experience: "I get / see / can't …", "I keep hitting …" (keep with a verb, not "I
  keep the notes in docs/"), "我遇到…", a first-person Japanese sentence in the past ("私もさっき…
  繋がらなくなりました"; "私の担当は…です" states a fact).
- Activity in progress bound to the moment: a progressive with "right now" / "at the moment" / "since
  this morning", "I just restarted …", 正在, ちょうど / …ているところ, -는 중 / 방금 - not the present
  state "we're running X on Y now", "現在は…を使っています", "요즘 …돌리고 있어요".

The markers are closed classes of grammar (interjections, connectors, tense and aspect endings,
modal verbs, deictic time words), not topic words.
"""

from __future__ import annotations

import re

from mimomem.history.sentence_frame import opinion_or_hedge


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_REACTION = re.compile(
    r"^(?:thanks|thank you|thx|nice|great|cool|awesome|perfect|sweet|oops|ugh|yay|wow|whoa|hmm+|huh|damn|argh|ah+|aha"
    r"|uh|um+|welp|yikes)\b[\s,!.…—–-]*"
    r"|^(?:谢谢|謝謝|多谢|多謝|好了|太好了|终于|終於|哎|唉|嗯+|哇|奇怪|完了|糟了)[\s，,!！。…—–-]*"
    r"|^(?:ありがとう(?:ございます)?|よかった|やった|あれ|うーん|おっ|おお|しまった)[\s、,!！。…]*"
    r"|^(?:고마워요|고맙습니다|감사합니다|좋아요|오|아|음+|헐|앗)(?:\s+감사합니다)?[\s,!.…]+",
    re.I,
)
_ASIDE = re.compile(
    r"^(?:and|also|btw|by the way|fyi|plus|oh and|另外|还有|還有|顺便|順便|对了|對了|而且"
    r"|ちなみに|あと|それと|ついでに|なお|それから|그리고|참고로|근데|그런데)(?![A-Za-z])",
    re.I,
)
"""A connector that opens a new statement after a reaction: what follows is not the reaction."""
_PUNCT = " ,，、—–-!！.。…"
_EN_EVENT = re.compile(
    r"\b(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )(?<!\bwas )(?<!\bwere )[a-z]+ed\b"
    r"|\b(?:got|went|gone|came|broke|took|did|made|ran|saw|works|working|passes|now|this time|again|finally"
    r"|anymore|back)\b",
    re.I,
)
"""English: a past or perfect verb (not a passive participle: "is hosted on"), a change of state or "now"."""
_ZH_EVENT = re.compile(r"了|终于|終於|刚|剛|之后|之後")
_JA_EVENT = re.compile(r"(?:た|ました|でした|なった|ちゃった|てしまった)\s*[。.!！]*\s*$")
_KO_EVENT_END = re.compile(r"네요|네\s*[.!]*\s*$|(?:어요|어|다|습니다|는데)\s*[.!]*\s*$")


def _ko_past(text: str) -> bool:
    """A Korean verb in the past: a syllable with the final consonant ㅆ (했, 됐, 깨졌) before its ending."""
    return any("\uac00" <= ch <= "\ud7a3" and (ord(ch) - 0xAC00) % 28 == 20 for ch in text)


def _reports_event(clause: str) -> bool:
    """The clause reports something that just happened or changed (a past, a perfective, "now")."""
    if clause.isascii():
        return bool(_EN_EVENT.search(clause))
    if any("\u3040" <= ch <= "\u30ff" for ch in clause):
        return bool(_JA_EVENT.search(clause))
    if any("\uac00" <= ch <= "\ud7a3" for ch in clause):
        return _ko_past(clause) or bool(re.search(r"네요|이제", clause))
    return bool(_ZH_EVENT.search(clause))


def after_interjection(text: str) -> str:
    """``text`` without an interjection that opens it ("Cool, and the panel is …" -> "and the panel is …")."""
    found = _REACTION.match(text)
    rest = text[found.end() :].lstrip(_PUNCT) if found else ""
    return rest or text


def reaction(text: str) -> bool:
    """A reaction to what just happened: an interjection then a clause reporting an event."""
    found = _REACTION.match(text)
    if not found:
        return False
    rest = text[found.end() :].lstrip(_PUNCT)
    if not rest:
        return True
    return not _ASIDE.match(rest) and _reports_event(rest)


_SUPPOSE = re.compile(r"^(?:suppose|imagine|what if|假设|假設)\b", re.I)
_CONDITION = re.compile(r"^(?:if|要是|如果|假如|万一|萬一)\b|^(?:要是|如果|假如|万一|萬一)|^もし|^만약|^만일", re.I)
_SPECULATIVE = re.compile(
    r"\b(?:would|could|might|may|probably|maybe|likely)\b|'d\b"
    r"|可能|也许|也許|大概|恐怕|会|會|かもしれ|かも|だろう|でしょう|はず|거예요|거야|겁니다|것\s*같|겠|수도",
    re.I,
)


def hypothesis(text: str) -> bool:
    """A hypothesis: "suppose" / "what if", or a condition whose main clause is speculative."""
    return bool(_SUPPOSE.match(text) or (_CONDITION.match(text) and _SPECULATIVE.search(text)))


_EXPERIENCE = re.compile(
    r"^(?:i|i'm|i am)\s+(?:(?:still|now|also|just)\s+)?(?:get|see|have|can'?t|cannot|don'?t|need|want|keep\s+\w+ing)\b"
    r"|^我(?!们|們)(?:这边|这里|這邊|這裡)?(?:一直|还是|還是|又)?(?:遇到|碰到|看到|这报|报|拿到|收到|连不上|連不上)",
    re.I,
)
_JA_FIRST_PERSON = re.compile(r"^(?:私|僕|俺)(?:は|も|が)")
_ACTIVITY = re.compile(
    r"^(?:i|we)(?:'re|'m| are| am)\s+(?:(?:still|just|now|currently)\s+)?\w+ing\b.*\b(?:right now|at the moment"
    r"|this morning|today|since (?:this morning|yesterday|last night|the \w+))\b"
    r"|^(?:i|we)\s+just\s+\w+ed\b"
    r"|正在|ちょうど|(?:て|で)(?:いる|る)ところ|さっき|たった今|\S\s*중이(?:에요|야|예요|ㅂ니다)|중입니다|방금",
    re.I,
)


_BARE_ING = re.compile(r"^(?:still\s+|now\s+|also\s+)?([a-z]{2,}ing)\s+(\S+)", re.I)
_NOT_GERUND = _words("string thing nothing something everything anything nothing spring ceiling ring king")
_KO_PROGRESSIVE = re.compile(r"지금\s.*고\s*있(?:어요|습니다|어|다)")
_KO_TOPIC = re.compile(r"\S(?:은|는)\s")


def _bare_progressive(text: str) -> bool:
    """A clause without its subject opening on a participle ("Still seeing 502s from gw-3", "Getting
    timeouts on …"), unless a verb follows that makes the -ing word its subject ("Logging goes to …"),
    or a Korean progressive with 지금 and no topic ("지금 stg2 로그 보고 있어요"; "지금 스테이징은 … 돌아가고
    있어요" says how a thing stands)."""
    found = _BARE_ING.match(text) if text.isascii() else None
    if found and found.group(1).casefold() not in _NOT_GERUND:
        after = found.group(2).casefold()
        prefixed = found.group(0).casefold().startswith(("still", "now", "also"))
        return after not in _FINITE and (prefixed or after in _OBJECT_OPENER or after[:1].isdigit())
    return bool(_KO_PROGRESSIVE.search(text) and not _KO_TOPIC.search(text))


_OBJECT_OPENER = _words("the a an some this that these those it them lots tons my our")
_FINITE = _words(
    "is are was were goes go runs run uses use happens lives should must needs need has have takes can will"
)


def experience_or_activity(text: str) -> bool:
    """The speaker's own experience ("I get ECONNREFUSED …", "I keep hitting …", "私もさっき…なりました")
    or an activity bound to the moment ("We're rebuilding the index right now", "我们正在排查 …",
    "今ちょうど…回しています", "테스트 돌리는 중이에요")."""
    if _EXPERIENCE.match(text) or _ACTIVITY.search(text) or _bare_progressive(text):
        return True
    return bool(_JA_FIRST_PERSON.match(text) and _JA_EVENT.search(text))


def about_the_moment(text: str) -> bool:
    """A reaction to what just happened, a hypothesis, or the speaker's experience or activity in
    progress: about this session, not a lasting fact."""
    flat = text.strip()
    return reaction(flat) or hypothesis(flat) or experience_or_activity(flat)


_PLAN = re.compile(
    r"^(?:i'?ll|i will|i'?m going to|i am going to|let me|let'?s|we'?ll need|we need to|we should|i think|"
    r"maybe|perhaps|probably|i guess|i want to|i'?d like to|trying to|i tried|we tried|(?:(?:first|then|now)\s+)?gonna"
    r"|(?:i'?m\s+)?about to|you (?:could|can|might)(?: also| just)? try)\b"
    r"|^(?:i'?m|i am)\s+(?:just\s+|still\s+|now\s+)?\w+ing\b"
    r"|^(?:this is|here is|here'?s|here are|these are)\s+(?:the|my|a|an|what)\b"
    r"|^(?:我来|我先|我们先|我想|我要|我打算|打算|准备|要不|也许|可能|好像|感觉|我觉得|试了|我正在|我们正在|我(?:们)?(?:现在|这会儿|刚才)?在(?:看|查|跑|试|改|排查|对比))"
    r"|^(?:たぶん|多分|と思う)",
    re.I,
)


def is_plan_or_guess(text: str) -> bool:
    """A plan or a guess ("I'll look at …", "我觉得 …"), the speaker's activity in progress ("I'm looking at
    …", "我正在查 …"), material shown ("Here is the error …"), an opinion, or something about the moment
    (:func:`about_the_moment`): not a fact."""
    return bool(_PLAN.search(text.strip())) or opinion_or_hedge(text) or about_the_moment(text)
