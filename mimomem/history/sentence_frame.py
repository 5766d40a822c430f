"""Frames around a clause that change what the sentence is, for :mod:`mimomem.history.sentence`.

- Decoration after the last word (an emoji, ㅎㅎ / ㅋㅋ, "w", 笑, "lol", an ellipsis, tildes) hides the
  sentence-final particle: :func:`undecorated` takes it off before the ending is read.
- A question in a clause before a trailing comment ("…でしたか、念のため", "…吗 我记不清了", "…呢，我忘了")
  or a question tag after a statement ("…, right", "…, doesn't it", "…对吧") makes the sentence a
  question: :func:`asks_in_clause`.
- A polite request worded as a question ("…してもらえますか", "…해 주시겠어요", "…好吗") asks for an
  action, not an answer: :func:`polite_request`.
- A start in time with an open end ("from today on", "次から", "이제부터", "从下周起") scopes an order
  beyond the present even when the start point is "now": :func:`inceptive`.
- An order about one instance (this PR, PR 412, 이번 …, 先别…) or bounded by an event ("until I've
  reviewed it") is for now: :func:`one_off`.
- The speaker's opinion or a guess ("honestly …", "我觉得 …", "…と思う", "…것 같아요", "… i think") is
  neither a fact nor a rule: :func:`opinion_or_hedge`.
- A thing's habitual behaviour ("The cleanup job always deletes …", "…必ず…実行される") describes
  code; it is not an order to anyone: :func:`describes_behaviour`.

Each is a closed class of grammar (particles, tags, deictic time words, determiners, verbs of
opinion), not topic words.
"""

from __future__ import annotations

import re

_DECORATION = re.compile(
    r"(?:\s*(?:[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]|[ㅎㅋㅠㅜ]{2,}|(?<=[^\x00-\x7F\s])(?:哈+|啦|喔|噢|咯)|(?<=\w\s)(?:哈+|啦|喔|噢|咯)|(?<=[^\x00-\x7F])[wｗ]+|笑|\(笑\)|（笑）"
    r"|\b(?:lol|lmao|haha+|hehe)\b|…+|\.{2,}|[~～]+|!+|！+))+\s*$",
    re.I,
)


def undecorated(text: str) -> str:
    """``text`` without what follows its last word: emoji, laughter, an ellipsis, tildes, "!"."""
    return _DECORATION.sub("", text.strip())


_ZH_ASK_CLAUSE = re.compile(r"(?:吗|呢|么|来着)(?=\s*(?:[，,；;]|\s+\S))")
_JA_ASK_CLAUSE = re.compile(
    r"(?:ですか|ますか|でしたか|ましたか|でしょうか|っけ|のか|かな|んですか|んだっけ)(?=\s*[、,，]|\s+\S)"
)
_KO_ASK_CLAUSE = re.compile(r"(?:까요|나요|습니까|ㅂ니까|는지요|던가요|인가요|을까|ㄹ까)(?=\s*[,，]|\s+\S)")
_EN_TAG = re.compile(
    r",\s*(?:right|correct|yeah|no|yes)\s*$|(?<!\bthe)(?<!\ball)\s(?:right|correct|or not|or what|or no)\s*$"
    r"|,?\s*(?:is|are|was|were|do|does|did|has|have|had|can|will|would|should)(?:n'?t| not)\s+"
    r"(?:it|he|she|they|we|you|i|there|that|this)\s*$",
    re.I,
)
_ZH_TAG = re.compile(r"(?:对吧|是吧|对不对|是不是|没错吧|对么)\s*$")


def asks_in_clause(text: str) -> bool:
    """A question in a clause followed by more words, or a question tag at the end."""
    flat = undecorated(text)
    if _ZH_TAG.search(flat) or (flat.isascii() and _EN_TAG.search(flat)):
        return True
    return bool(_ZH_ASK_CLAUSE.search(flat) or _JA_ASK_CLAUSE.search(flat) or _KO_ASK_CLAUSE.search(flat))


_JA_POLITE_REQUEST = re.compile(
    r"(?:て|で)(?:もらえ|もらえませ|くれ|くれませ|いただけ|いただけませ|くださ|くれな|もらえな)"
    r"(?:ます|ません|ない|る)?か?\s*[?？。.]*\s*$"
)
_KO_POLITE_REQUEST = re.compile(
    r"(?:주시겠어요|주실\s*수\s*있(?:나요|을까요|어요)|주실래요|줄래요|줄\s*수\s*있(?:나요|어요)|주시면\s*(?:좋겠어요|감사하겠습니다)"
    r"|부탁(?:해요|합니다|드려요|드립니다|드릴게요))\s*[?？.]*\s*$"
)
_ZH_POLITE_REQUEST = re.compile(r"(?:好吗|好不好|行吗|行不行|可以吗|成吗|好嘛)\s*[?？。]*\s*$")


def polite_request(text: str) -> bool:
    """A request worded as a question or a wish: "…してもらえますか", "…해 주시겠어요", "…부탁드립니다", "…好吗"."""
    flat = undecorated(text)
    return bool(_JA_POLITE_REQUEST.search(flat) or _KO_POLITE_REQUEST.search(flat) or _ZH_POLITE_REQUEST.search(flat))


_INCEPTIVE = re.compile(
    r"\b(?:from (?:now|today|tomorrow|here|this point|the next \w+|next \w+)(?: on(?:wards?)?| forward)?"
    r"|starting (?:now|today|tomorrow|next \w+|with the next \w+)|(?:going|moving) forward|from here on out"
    r"|henceforth|next time|in (?:the )?future)\b"
    r"|(?:今日|明日|本日|次|次回|今度|来週|来月|今週|今月|これ|今|この先)から|^以降|今後|以後"
    r"|(?:이제|지금|오늘|내일|다음|다음번|향후|이후|앞으로)\s*부터|향후|앞으로|이후로"
    r"|从(?:今天|明天|现在|下周|下个月|下次|今往后|此|今)(?:起|开始|以后)?|(?:今天|明天|下周|下次|下个月)(?:起|开始)(?!\s*[到至])"
    r"|今后|往后|从此|以后(?!再)",
    re.I,
)
_BOUNDED = re.compile(r"\buntil\b|\btill\b|まで|까지|为止|等到|等我|等他|等她", re.I)


AFTER_DONE = re.compile(r"[完了][^，,。；;]{0,24}?(?:以后|之后)")
"""以后 / 之后 after a completed action ("改完 nginx.conf 以后…") is "after that", not "from now on"."""


def inceptive(text: str) -> str | None:
    """The span of a start in time with an open end ("from today on", "次から", "이제부터", "从下周起",
    "提交信息以后…"), or None (also when the span is closed again: "until Friday", "まで", "까지", and
    以后 after a completed action: "改完以后")."""
    found = _INCEPTIVE.search(AFTER_DONE.sub("", text))
    if not found or _BOUNDED.search(text):
        return None
    return found.group(0)


_LASTING = (
    r"repo|repository|project|codebase|team|company|org|仓库|项目|代码库|团队|公司"
    r"|リポジトリ|プロジェクト|チーム|저장소|프로젝트|팀|레포"
)
_ONE_OFF = re.compile(
    rf"\b(?:this|these)\s+(?!(?:{_LASTING})\b)[A-Za-z]"
    r"|\b(?:PR|MR|issue|ticket|pull request)\s*#?\d+|(?<![\w&])#\d+\b"
    r"|\bthe (?:other|rest of the|remaining) \w+"
    rf"|(?:这个|那个|这些)(?!{_LASTING}|[别不要也都就是得必一千万可])|先别|先不要|先不|暂时别"
    rf"|(?:^|\s)(?:이|그|저)\s+(?!{_LASTING})\S|이번"
    r"|\buntil (?:i|we|you|he|she|they)\b|等我|私が.*?まで|제가.*?까지|\bagain\b|もう一度|다시\s*한\s*번"
    r"|\b(?:ping|tell|show|send|give|notify|message|email|call|remind)\s+(?:me|us)\b|\blet (?:me|us) know\b"
    r"|\b(?:when|once|after) (?:the \w+|it|that|this|you'?re|you are|you'?ve|everything)\b[^,.]*?"
    r"\b(?:done|finished|finishes|finish|complete[sd]?|over|ready|merged|back|green|passes|passed)\b"
    r"|(?:发|告诉|通知|给|跟|提醒|叫|喊)我(?!们)|[跑做改弄搞写看修]完[^，,。]{0,24}?(?:之后|以后|后|了)"
    r"|(?:終わっ|済ん|でき|通っ|終え|終わ)たら|(?:끝나|완료되|다\s*되|끝내)(?:면|고)|저한테|제게",
    re.I,
)


def one_off(text: str) -> bool:
    """An order about one instance ("this PR", "PR 412", "이번 …", "这个分支", "先别…"), bounded by the
    speaker's own next step ("until I've reviewed it", "等我看完"), waiting for one task to complete
    ("when the job finishes", "跑完之后", "終わったら", "끝나면") or reporting back to the speaker ("ping
    me", "let me know", "发我"): for now, not standing."""
    return bool(_ONE_OFF.search(text))


_OPINION = re.compile(
    r"^(?:honestly|frankly|personally|imo|imho|in my (?:opinion|view)|i (?:think|feel|believe|guess|suspect)"
    r"|i'?m not (?:sure|a fan)|i (?:never|always|don'?t|do not) (?:liked?|like|love|hated?|enjoy|care))\b"
    r"|^(?:我个人|个人觉得|个人感觉|我觉得|我感觉|我认为|说实话|老实说|在我看来)"
    r"|^(?:正直|個人的には|僕的には|私的には)|(?:と思う|と思います|気がする|気がします|かもしれない|かも)\s*[。.]?\s*$"
    r"|^(?:솔직히|개인적으로|제\s*생각에는?)|(?:것\s*같아요|것\s*같아|것\s*같습니다|것\s*같은데|듯해요|듯합니다)\s*[.]?\s*$"
    r"|(?:,\s*|\s)(?:i think|i guess|i believe|iirc|not sure|maybe|probably)\s*[.]?\s*$"
    r"|^(?:not sure|no idea|unsure)\b|\b(?:maybe|probably|perhaps|i guess|i suppose)\b"
    r"|^(?:this|that|it) (?:looks|seems|feels|sounds)\b"
    r"|(?<![不尽盡])可能(?!性)|か(?:どうか)?(?:迷|悩)|지\s*고민|也许|也許|大概(?![^，,。]{0,4}\d)|好像|我在想|我在考虑|我在考慮|要不要|^(?:たぶん|多分|おそらく)|^아마"
    r"|\bshould be (?:\w+er|more|less|better|worse)\b"
    r"|(?:我记不清了|记不太清|不太确定|不确定)\s*[。]?\s*$"
    r"|^(?:looks like|seems(?: like)?|it seems|apparently|i suspect)\b|^(?:看起来|看样子|似乎|貌似)"
    r"|(?:みたい|っぽい|らしい)(?:です|だ)?\s*[。.]?\s*$",
    re.I,
)


def opinion_or_hedge(text: str) -> bool:
    """The speaker's opinion or a guess: an opinion frame at the start ("honestly", "我觉得", "正直",
    "솔직히") or a hedge at the end ("…と思う", "…것 같아요", "…, i think", "…我记不清了")."""
    return bool(_OPINION.search(undecorated(text).strip()))


_PERSON = r"we|you|i|nobody|no one|no-one|everyone|everybody|anyone|anybody|people|devs?|developers?|reviewers?"
_EN_HABIT = re.compile(
    rf"^(?!(?:{_PERSON})\b)(?:[\w./`'()-]+\s+){{1,6}}(?:always|never|automatically|only ever)\s+(?!be\b)(\w+)",
    re.I,
)
_JA_DESCRIPTION = re.compile(
    r"(?:される|されます|されている|されてる|(?:よう|作り)になって(?:いる|る|います))\s*[。.]?\s*$"
)


_ZH_HABIT = re.compile(r"(?:都|总|總|总是|總是|就|也|自动|自動)[会會]|[会會](?:自动|自動|先|把|在)")
"""Chinese 会 after an adverb of habit ("每次启动都会先…", "会自动重试"): what a thing does, never an order."""
_ZH_PERSON = re.compile(r"^(?:我们|我們|大家|你们|你們|你|谁|誰|所有人|每个人|每個人)")


def describes_behaviour(text: str) -> bool:
    """A thing's habitual behaviour, not an order: an English third-person subject that is not a person
    with always / never and a verb in -s or -ed ("The cleanup job always deletes …"), a Japanese
    passive or "…ようになってる" at the end ("必ず main から実行される"), Chinese 会 after an adverb of habit
    with a subject that is not a person ("这个定时任务每次启动都会先把 cache 目录清空")."""
    flat = text.strip()
    found = _EN_HABIT.search(flat) if flat.isascii() else None
    if found:
        verb = found.group(1).casefold()
        return (verb.endswith(("s", "ed")) and not verb.endswith("ss")) or verb in ("has", "is", "are", "was", "were")
    if _ZH_HABIT.search(flat) and not _ZH_PERSON.match(flat) and not re.search(r"[\u3040-\u30ff\uac00-\ud7a3]", flat):
        return True
    return bool(_JA_DESCRIPTION.search(flat))


_EN_TOPIC = re.compile(
    r"^(?:(?:fyi|btw|also|and|oh|ok|so)[\s,]+)*(?:about|regarding|re|concerning|as for"
    r"|(?:\w+\s+){0,1}(?:background|context|notes?|question|thoughts|update)\s+(?:on|for|about|re))\b[:\s]"
    r"|^(?:fyi|btw)[\s,]+(?:for|on)\b",
    re.I,
)
_EN_PREDICATE = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|can|could|will|would|should|must|may|might|need|needs"
    r"|'s|'re|'ve|'ll|'d)\b|\b\w+(?:ed|es)\b",
    re.I,
)
_CJK_TOPIC = re.compile(
    r"^(?:关于|对于|至于)[^，,。]*$|^[^，,。]{1,24}(?:那块|那塊|这块|這塊|那边|那邊|的事情?)\s*[。]?$|(?:について|に関して|に関する件|の件)(?:です|だけど|なんだけど)?\s*[。]?$"
    r"|(?:관련해서|관련해|관해서|대해서|관련)(?:요)?\s*[.]?$"
    r"|^(?:(?:あと|それと|で|それで|ところで|そういえば)[、,]?\s*)?[^はがを、。]{1,40}?なん(?:だ|です)(?:けど|けれど|が)\s*[。…]*$"
)


def has_predicate(text: str) -> bool:
    """English words with a finite verb or an auxiliary ("is", "runs", "moved", "'s")."""
    return bool(_EN_PREDICATE.search(text))


def topic_only(text: str) -> bool:
    """A topic announced without anything said of it ("About the Kafka consumer", "FYI for the Redis
    stuff", "Background on billing-api", "关于 Redis 那块", "Redis について", "Redis 관련해서요"): a
    lead-in, not a statement."""
    flat = undecorated(text).strip().rstrip(".。:：")
    if flat.isascii():
        return bool(_EN_TOPIC.match(flat + " ")) and not _EN_PREDICATE.search(flat) and len(flat.split()) <= 8
    return bool(_CJK_TOPIC.search(flat))


_EN_CONDITION = re.compile(
    r"^(?:if|when|whenever|once|before|after|any time|every time)\s+([^,;:]{3,80}),\s*(\S.*)$", re.I
)
_POLITENESS = re.compile(
    r"^(?:you\s+)?(?:can|could|have (?:a |the )?(?:time|sec|second|minute|moment|chance)|get a chance|don'?t mind"
    r"|want|like|prefer|are free|'re free|possible|needed|so|necessary)\b",
    re.I,
)


def en_condition(text: str) -> tuple[str, str] | None:
    """An English sentence opening with a subordinate clause ("If you add an env var, …", "When you cut a
    release, …", "If you have time, …"), split into (condition, main clause); None when it has none."""
    found = _EN_CONDITION.match(text.strip())
    return (found.group(1), found.group(2)) if found else None


def en_occasion(text: str) -> bool:
    """The sentence opens with a condition of occasion ("If you add an env var, …"), not one of politeness
    ("if you have time", "if you can", "if possible"): an order under it holds every time."""
    condition = en_condition(text)
    return condition is not None and not _POLITENESS.match(condition[0])
