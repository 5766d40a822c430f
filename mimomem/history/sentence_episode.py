"""Whether a statement tells an episode of this session rather than a lasting state, for
:mod:`mimomem.history.sentence` and promotion: what happened, what is being worked on, how the
speaker feels about it.  None of these is a fact or a rule, though each may name a host, a
version or a path:

- An event placed in the recent past by a deictic time word ("yesterday I deployed 4.0.9",
  "我昨天把 4.0.9 发到生产了", "昨日 … 出しました", "어제 … 배포했어요"); "since yesterday" starts a
  state and is no event.
- The session's own object as the subject: the error, the task, the failing test, the PR
  ("the error is ECONNRESET from api.partner.io", "刚才那个报错是 …", "今日のタスクは …").
- The speaker's own habit or experience with always / never ("I always forget the flag", "我总是忘记…"):
  first person singular, so no norm for anyone else.
- A reassurance worded as a ban ("don't worry", "never mind", "别担心", "気にしないで", "신경 쓰지 마세요"):
  the verb is one of concern, there is nothing to do or avoid.
- A comment on what is in front of the speaker: a Korean exclamative -네요, a Japanese adjective
  before ですね, a Chinese 太 … 了 ("复杂하네요", "わかりにくいですね", "太麻烦了").
- A sentence whose later clause orders something now ("the PR is #5123, take a look", "in this
  function the loop runs 3 times, change it to 5"): the rest is the order's context.

Each test reads a closed class of grammar - deictic time words, the nouns an episode is made of,
the first person, verbs of concern, exclamative endings - not the topic.
"""

from __future__ import annotations

import re

_SINCE = r"(?<!since )(?<!从)(?<!自)"
_PAST_DEIXIS = re.compile(
    rf"\b{_SINCE}(?:yesterday|last night|this morning|earlier today|just now|a (?:minute|moment|second|while) ago"
    r"|an hour ago|\d+ (?:min(?:ute)?s?|hours?) ago)\b(?! on\b)"
    rf"|{_SINCE}(?:昨天|昨晚|前天|刚才|剛才|刚刚|剛剛|今天早上|今早|上午|早上)(?![起以开開])"
    r"|(?:昨日|昨晩|一昨日|さっき|先ほど|今朝|さきほど)(?!から|以来)"
    r"|(?:어제|그제|방금|아까|오늘\s*아침)(?!부터)",
    re.I,
)
_EN_PAST = re.compile(r"\b(?:[a-z]+ed|went|got|ran|saw|did|made|broke|took|found|put|set|pushed|was|were|had)\b", re.I)
_EPISODE_SUBJECT = re.compile(
    r"^(?:so\s+|and\s+|ok\s+)?(?:the|this|that|my|our|today'?s|the current|the main)\s+"
    r"(?:(?:failing|broken|flaky|red|current|real|actual|original|remaining|last)\s+)?"
    r"(?:error|exception|failure|problem|issue|bug|crash|stack ?trace|traceback|task|goal|plan|todo|ask|idea"
    r"|question|test|pr|ticket|diff|change|fix|symptom)s?\s+(?:for (?:today|now|this \w+)\s+)?(?:is|was|are|were)\b"
    r"|^what (?:i|we) (?:want|need|'?m after|am after|are after)\b"
    r"|^(?:刚才|剛才|刚刚|剛剛|这个|這個|那个|那個|现在的|現在的|目前的|今天的|今天|我的|我们的|我們的)?(?:的)?"
    r"(?:报错|報錯|错误|錯誤|异常|異常|问题|問題|任务|任務|目标|目標|需求|bug)(?:是|就是|在于|在於)"
    r"|^(?:さっきの|この|今回の|今日の|いまの|今の)?(?:エラー|問題|タスク|課題|目標|バグ)(?:は|って)"
    r"|^(?:아까|이|이번|오늘|지금)?\s*(?:에러|오류|문제|작업|목표|버그)(?:는|은)\s",
    re.I,
)
_FIRST_PERSON_HABIT = re.compile(
    r"^(?:honestly\s+|tbh\s+)?i\s+(?:always|never|usually|often|still|sometimes)\s+(?!want\b|need\b|'?d\b)"
    r"|^我(?!们|們)(?:老是|总是|總是|经常|經常|一直|每次|从来|從來|从不|從不|也)"
    r"|^(?:私|僕|俺)(?:は|も)?(?:いつも|よく|毎回)|^(?:저는|전|나는|난)\s*(?:항상|맨날|늘|자주)",
    re.I,
)
_OWN_WORDS = re.compile(
    r"\bi (?:meant|mean to say)\b|(?:我是说|我說的是|我说的是|我指的是|我是說)"
    r"|(?:のほう|の方|の間違い)でした|(?:말한|말씀드린)\s*거(?:예요|였어요)|말이었어요",
    re.I,
)
_REPORTED = re.compile(
    r"^(?:the |a |our |my )?[\w-]+(?: [\w-]+)? (?:reported|complained|suggested|thinks|wants|asked(?: me)?|is asking)"
    r"(?: that| us| me| for| to|,)?\s"
    r"|^(?:客户|用户|产品|老板|领导|客戶|用戶|產品|老闆)\S{0,4}(?:反馈|反映|说想|想要|觉得|要求|問|问)",
    re.I,
)
_SPEAKER_DID = re.compile(
    r"^(?:i|we)(?:'ve| have)?\s+(?:just\s+|already\s+|finally\s+)?(?!been\b|used\b|decided\b|agreed\b)[a-z]+ed\b"
    r"|^(?:i|we)(?:'ve| have)\s+(?:just\s+|already\s+)?(?:pushed|done|made|written|run|put|set|seen|found|got|gotten)\b"
    r"|^我(?:们|們)?(?:刚|剛|已经|已經|也)?[^，,。]{0,20}?(?:了|过了|過了)\s*[。！!]?$|^我(?:们|們)?(?:刚|剛)(?![才刚剛])",
    re.I,
)


def own_words(text: str) -> bool:
    """The speaker correcting what they said ("i meant orders_v2", "我是说 …", "…のほうでした"), or
    reporting what someone else wants or thinks ("Jana thinks we should …", "客户反馈 …")."""
    flat = text.strip()
    return bool(_OWN_WORDS.search(flat) or _REPORTED.search(flat))


def speaker_did(text: str) -> bool:
    """The speaker's own action just done ("I've pushed my changes to feature/export", "我回滚了")."""
    return bool(_SPEAKER_DID.search(text.strip()))


_CONCERN = re.compile(
    r"^(?:please\s+)?(?:don'?t|do not|no need to|never)\s+(?:worry|mind|bother|stress|panic|sweat|care)\b"
    r"|^never\s*mind\b|^no (?:worries|rush|hurry|pressure)\b"
    r"|^(?:别|不要|不用|甭)(?:担心|擔心|着急|著急|急|在意|介意|管我|客气|客氣)"
    r"|(?:気にし|心配し|急が)(?:ないで|なくて)|(?:신경\s*쓰|걱정하|서두르)지\s*마",
    re.I,
)
_COMMENT_END = re.compile(
    r"(?:네요|군요|구나|네)\s*[.!~]*\s*$"
    r"|(?:(?<!ださ)(?<!なさ)(?<!ござ)い|し|く)(?:です)?ね[ぇえー]*\s*[。.!！]*\s*$"
    r"|^(?:[^，,。]*?)太[^，,。]{1,8}了\s*[。!！]*\s*$"
)


_STATE_NOW = re.compile(
    r"\bbut (?:it|they|this|that|currently|right now|now)\b|\bright now\b|\bcurrently\b"
    r"|[，,]\s*(?:但是?|可是|不过|不過)?(?:现在|現在|目前)(?!起|开始|開始)|(?:今は|いまは|현재는|지금은)",
    re.I,
)


def state_now(text: str) -> bool:
    """A clause saying how things stand at the moment beside a norm ("must return a list but it returns
    None", "必须返回 list，现在返回的是 None"): the norm describes the task, the bug to fix."""
    return bool(_STATE_NOW.search(text.strip()))


_SPEC = re.compile(
    r"^(?:the|this|that|our|my)\s+(?:[\w./()-]+\s+){1,3}(?:should|must|needs? to|has to|ought to)"
    r"\s+(?!be\b|always\b|never\b)\w+"
    r"|^(?:这个|這個|该|該|这些|這些)[^，,。]{1,12}?(?:默认)?(?:要|应该|應該|需要|得)(?!求)"
    r"|^(?:この|その)[^、。]{1,12}?(?:は|が)[^、。]*(?:必要があります|べき|ようにしてください)"
    r"|^(?:이|그)\s+\S+(?:은|는|이|가)\s.*야\s*(?:해요|합니다|돼요)",
    re.I,
)
_REMINDER = re.compile(r"^(?:please\s+)?(?:don'?t|do not) forget\b|^(?:别|不要)忘了?|忘れないで|잊지\s*마", re.I)


_DEFECT = re.compile(
    r"\b(?:bug|broken|fails?(?: with)?|failing|crash(?:es|ed)?|out of date|outdated|hard-?coded|wasteful|doesn'?t work"
    r"|not working)\b|有个\s*bug|有個\s*bug|过时|過時|写死|寫死|坏了|壞了|ハードコード|壊れ|バグ|하드코딩|버그|깨져",
    re.I,
)
_GOTCHA = re.compile(
    r"\b(?:when|whenever|unless|if|only|always|never|every|use|instead|fixed by|workaround|until)\b"
    r"|的时候|的時候|[时時][，,]|時は|如果|只要|除非|改用|换成|場合|とき|なら|ないと|면|때|대신",
    re.I,
)


def defect_of_the_task(text: str) -> bool:
    """A defect reported as it stands ("there's a bug in parse_date()", "scripts/seed.py 已经过时了",
    "client.py 에 … 하드코딩 되어 있어요"): the task's problem, unless it says when it happens or what to
    use instead - a gotcha worth keeping ("the build fails unless NODE_OPTIONS is set")."""
    flat = text.strip()
    return bool(_DEFECT.search(flat)) and not _GOTCHA.search(flat)


def spec_of_work(text: str) -> bool:
    """What one thing under work must do, its subject acting ("the endpoint should return 404 when …",
    "这个页面默认要显示 …", "이 페이지는 … 보여줘야 해요"): the task's specification, not a norm for people."""
    return bool(_SPEC.search(text.strip()))


def reminder(text: str) -> bool:
    """ "Don't forget …", "别忘了 …", "忘れないで": a reminder, standing only with a scope."""
    return bool(_REMINDER.search(text.strip()))


def past_episode(text: str) -> bool:
    """An event placed in the recent past by a deictic time word (not "since yesterday")."""
    flat = text.strip()
    found = _PAST_DEIXIS.search(flat)
    if not found:
        return False
    if flat.isascii():
        return bool(_EN_PAST.search(flat))
    return True


def session_object(text: str) -> bool:
    """The subject is something of this session: the error, the task, the failing test, what I want."""
    return bool(_EPISODE_SUBJECT.search(text.strip()))


def speaker_habit(text: str) -> bool:
    """The speaker's own habit or experience with always / never: no norm for anyone else."""
    return bool(_FIRST_PERSON_HABIT.search(text.strip()))


def reassurance(text: str) -> bool:
    """A ban whose verb is one of concern ("don't worry", "别担心", "気にしないで"): nothing to do or avoid."""
    return bool(_CONCERN.search(text.strip()))


def comment(text: str) -> bool:
    """A comment on what is in front of the speaker: -네요, an adjective before ですね, 太 … 了."""
    return bool(_COMMENT_END.search(text.strip()))


def episode(text: str) -> bool:
    """Any of the above: about this session, never a fact or a rule."""
    flat = text.strip()
    kinds = (past_episode, session_object, speaker_habit, reassurance, comment, own_words)
    return any(f(flat) for f in kinds)


def of_the_session(text: str, changes_a_value: bool = False) -> bool:
    """Not a fact: the session's object, a reassurance, a comment, the speaker's own words, the task's
    specification, a reminder; an event of the recent past or the speaker's deed, unless it changes a
    value ("the broker moved to 6001 yesterday" is how things stand now)."""
    flat = text.strip()
    kinds = (session_object, reassurance, comment, own_words, spec_of_work, reminder, defect_of_the_task)
    if any(f(flat) for f in kinds):
        return True
    return (past_episode(flat) or speaker_did(flat)) and not changes_a_value
