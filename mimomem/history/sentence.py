"""What kind of sentence the user typed, from its grammar: a question, a request to act now, or a
statement - and of statements, whether one sets a standing rule, records a choice, or names a value.

No model and no topic words: the signals are the closed classes every writer uses whatever they
talk about - punctuation, sentence-final particles (吗 / 呢 / っけ / か), interrogatives and how
they are bound (谁都 is "anyone", not "who"), the first word of an English sentence (an auxiliary
opens a question, a verb followed by its object an order), modality (must / 得 / 必ず / don't / 别),
quantifiers of scope (every / 每次 / 毎回 / before …), and what anchors an order to the present
(for now / 一下 / 一旦 / この).  A question or a request to do something now is never kept as a
fact or a rule; a statement is one of rule, decision or fact only when its grammar says so.

Korean is read the same way (sentence_ko.py): mood in the sentence-final ending (-까 / -는지 ask,
-주세요 / -지 마세요 order, -다 / -요 state), cases in particles.  A clause ending on a word that waits
for its object is a fragment (:func:`~mimomem.history.sentence_fragment.is_fragment`).

What remains are lists of closed classes, each small and about grammar, not topics: sentence-final
particles and endings (吗 / 呢 / か / っけ / 까 / 요), question words (what / 什么 / 何 / 뭐) and how
they are bound (谁都 / 누구나), English auxiliaries and modals (their position marks a question, and a
finite verb after the first words marks those words as its subject), determiners, pronouns,
prepositions and conjunctions (what cannot open an imperative, what a clause cannot end on),
modality (must / 得 / 必ず / 반드시), scope (every / 以后 / 毎回 / 앞으로), present anchoring (now /
一下 / 一旦 / 지금), choice and reason connectives (went with / 选了 / に決め / 기로 했다; because / 因为 /
から / 때문).  Left from earlier tuning and not yet replaced by structure: a few Chinese nouns of
convention in _ZH_DEONTIC (规矩, 规定, 约定, 规范) and the ask frames (帮我查 / 看看).
"""

from __future__ import annotations

import re

from mimomem.history.sentence_choice import weighs_alternative
from mimomem.history.sentence_episode import episode, reminder, spec_of_work, state_now
from mimomem.history.sentence_frame import (
    AFTER_DONE,
    asks_in_clause,
    describes_behaviour,
    en_condition,
    en_occasion,
    inceptive,
    one_off,
    opinion_or_hedge,
    polite_request,
    undecorated,
)
from mimomem.history.sentence_ko import (
    KO_CHOICE,
    KO_DEONTIC,
    KO_EMBEDDED,
    KO_HONORED_SUBJECT,
    KO_NOW,
    KO_PROHIBITION,
    KO_QUESTION_END,
    KO_REASON,
    KO_REQUEST_END,
    KO_STRONG_SCOPE,
    KO_WEAK_SCOPE,
    KO_WH,
    hangul,
    ko_condition_of_action,
    ko_plain_present,
)
from mimomem.history.sentence_list import names_a_norm
from mimomem.history.sentence_moment import after_interjection

QUESTION, REQUEST, STATEMENT = "question", "request", "statement"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")

# --- questions ---
_QMARK = re.compile(r"[?？]\s*[)）」』\"']*\s*$")
_ZH_FINAL = re.compile(r"(?:吗|呢|么|不|没|没有|呀吗|来着|(?:是|对|没错)[^，,。；;]{0,40}吧)\s*[。.!！~～]*\s*$")
"""Sentence-final question particles; 吧 after a copula asks for confirmation ("还是 5433 吧", "对吧"),
after an action verb it proposes ("用 Redis 吧", a choice)."""
_JA_FINAL = re.compile(
    r"(?:か|かな|かね|っけ|だっけ|でしたっけ|ですか|ますか|でしょうか|の|よね|でしょ)\s*[。.!！]*\s*$"
)
_ZH_WH = re.compile(
    r"(?<![很许許好太差没沒不更最诸諸众眾])多(?:久|大|长时间|長時間|长|長|高|远|遠|少)|几(?:个|位|天|次|号|点|分|秒|岁|年|台|条|G|g)|什么|啥|哪(?:个|些|里|儿|天|台)?|谁|怎么|怎样|为什么|为啥|如何|是否"
)
_ZH_A_NOT_A = re.compile(r"([是有能会要对行可好在用])(?:不|没)\1")
_ZH_UNIVERSAL = re.compile(r"(?:什么|谁|哪(?:个|里|儿)?|多少|多久|多大|多长|怎么)(?:都|也)")
"""An interrogative bound by 都 / 也 is a universal ("谁都不许" = nobody may), not a question."""
_ZH_ASK_FRAME = re.compile(
    r"^(?:我想知道|想知道|想问|请问|问一下|问下|不知道|不确定|不清楚|你知道|帮我?(?:查|看|确认|瞧|找)|确认一下|看看|看下|看一下|查一下|找一下|查下)"
)
_JA_WH = re.compile(
    r"何(?!でも|も)|なに|なん(?:で|の)|どこ|いつ(?!も)|誰(?!でも|も)|だれ|どれ|どの|どう(?!ぞ)|なぜ|いくつ|いくら"
)
_EN_AUX = _words(
    """
    is are was were am do does did has have had can could will would should shall may might isn't aren't
    wasn't weren't doesn't didn't hasn't haven't can't couldn't won't wouldn't shouldn't
    """
)
_EN_WH = frozenset(["what", "which", "where", "when", "who", "whom", "whose", "why", "how"])
_EN_ASK_FRAME = re.compile(
    r"^(?:i\s+wonder|wondering|not\s+sure\s+(?:if|whether)|do\s+you\s+know|any\s+idea|(?:is\s+there\s+)?any\s+chance|i'?d\s+like\s+to\s+know|"
    r"(?:does\s+|do\s+)?(?:any|some)(?:one|body)\s+(?:know|remember|recall)s?\s+(?:whether|if|what|which|where|when|who|how|why)|"
    r"i\s+(?:forget|forgot|can'?t\s+remember|don'?t\s+remember|don'?t\s+know)\s+(?:whether|if|what|which|where|when|who|how|why)|"
    r"i\s+want\s+to\s+know|curious\s+(?:if|whether|what|which|how|where|when|who)|can\s+you\s+(?:check|tell|find|look)|could\s+you\s+(?:check|tell|find|look))\b",
    re.I,
)
_EN_ASK_CLAUSE = re.compile(
    r"[,;]\s*(?:is|are|was|were|do|does|did|can|should|will)\s+(?:it|they|we|you|that|this|there)\b(?![^,;]*[,;])", re.I
)
_ZH_ALTERNATIVE = re.compile(r"是[^，,。；;]{1,30}(?<![最后最終就])还是[^，,。；;]{1,30}$")
_EN_POLITE = re.compile(
    r"^(?:please\s+|pls\s+|plz\s+|kindly\s+)?(?:could|can|would|will)\s+you\b|^would\s+you\s+mind\b", re.I
)

# --- orders and their anchoring ---
_EN_ARTICLE = _words("a all an any each every it its my our some that the these this those your")
"""Words before a noun (and pronouns): shared by the two sets below."""
_EN_DETERMINER = _EN_ARTICLE | {"ahead", "and", "back", "me", "out", "over", "them", "up", "us"}
_EN_NOT_VERB = _EN_ARTICLE | _words(
    """
    after as at because before by during for from he her here his i if in no not on once one she since
    their there they three to two we when with you i'm i've i'd i'll we're we've we'd we'll it's that's
    there's they're you're he's she's
    """
)
_EN_OPENER = re.compile(
    r"^(?:(?:please|pls|plz|ok(?:ay)?|so|and|also|anyway|anyways|fwiw|well|alright)\b[\s,]*)+", re.I
)
_EN_SEQUENCE = re.compile(r"^(?:now|next|then|just|first|finally)\b[\s,]*", re.I)
_EN_SUBORDINATOR = _words("when whenever before after if once unless")
"""A bare verb followed by one of these is an order with its condition ("squash when merging")."""
_ZH_REQUEST_OPEN = re.compile(
    r"^(?:帮我|帮忙|帮|麻烦你|麻烦|请你|请|给我|把|将|去|试试|试一下|看看|跑一下|来|再|重新|看一?[眼下])"
)
_ZH_BA = re.compile(r"把[^了过。！？]{2,40}$|[^\W\d_A-Za-z]一[下遍](?!子)")
"""The disposal construction without a completed aspect (把 X 跑通; not 我把端口改成了 6543), or a
verb softened by 一下 / 一遍 (跑一下测试): orders in Chinese."""
_ZH_TO_SPEAKER = re.compile(r"(?:发|告诉|通知|提醒|跟)我(?!们)|给我(?=[看发回])")
"""An action whose recipient is the speaker ("截个图发我", "跑完告诉我"): an order to the listener."""
_JA_REQUEST_END = re.compile(
    r"(?:てください|でください|て下さい|てくれ|てくれる|てもらえる|ておいて|といて|てね|して|お願いします|お願い|ほしい"
    r"|(?<=[\u3040-\u30ff\u4e00-\u9fff])て)\s*[。.!！?？]*\s*$"
)
_NOW_EN = re.compile(
    r"\b(?:for now|right now|now(?! on\b)|today|tonight|this time|yet|for the moment|at the moment|asap)\b", re.I
)
_NOW_ZH = re.compile(
    r"现在|这次|这回|接下来|接下來|下一步|马上|立刻|立即|一旦|再说|看看效果|一下(?!子)|刚才|今天|明天|先这样|暂时"
)
_NOW_JA = re.compile(r"^次(?:は|に)|一旦|とりあえず|今すぐ|今日|この|その|今回|ひとまず")

# --- modality and scope ---
_EN_DEONTIC = re.compile(
    r"\b(?:must(?:n'?t)?|need(?:s)?(?: to)?|have to|has to|should(?:n'?t)?|shall|required|requires?|"
    r"not allowed|may not|ever|never|always|i'?d rather|i'?d prefer|i prefer|i want you to|i don'?t want)\b"
    r"|(?:^|[;,:—-]\s*)no\s+\S",
    re.I,
)
_EN_NEG_IMPERATIVE = re.compile(
    r"^(?:please\s+|pls\s+|and\s+)?(?:don'?t|do not|never|no more|stop)\b"
    r"|^(?:(?:on|in|during|after|before|at|from)\s+[\w-]+(?:\s+[\w-]+)?,?\s+)?"
    r"(?:no one|no-one|nobody|none of us)\s+(?:ever\s+)?[a-z]+"
    r"|^no\s+(?!(?:one|idea|worries|problem|luck|way|matter|need|clue|thanks|rush|longer|more)\b)[a-z][\w.-]*(?:\(\))?\s+\S",
    re.I,
)
"""A negative order, or a ban with a negative subject ("Nobody touches the prod DB by hand")."""
_ZH_DEONTIC = re.compile(
    r"记得|记着|别忘|必须|一定要|至少要|最少要|一定得|务必|得(?=先|要|在|用|跑|走|经|过|等)|要(?=先|用|跑|走|带|加|经|过|等|写|统一)|不许|不准|不能|不可以|不得|不要|别|禁止|只能|只许|"
    r"统一|一律|都要|都得|都带|都用|都走|都加|规矩|规定|惯例|约定|规范|不发|不上|不合"
)
_JA_DEONTIC = re.compile(
    r"必ず|かならず|禁止|こと\s*[。.]?\s*$|べき|ないで|てください|でください|ように|厳禁|絶対|ぜったい|お願いします|おねがいします|ましょう|必要"
)
_STRONG_DEONTIC = re.compile(
    r"\b(?:must|never|always)\b|必须|务必|一定要|至少要|必ず|かならず|禁止|厳禁|반드시|절대|금지", re.I
)
"""Modality that makes a statement standing on its own, without a scope word."""
_STRONG_SCOPE = re.compile(
    r"\b(?:from now on|from here on|going forward|in future|in the future|whenever|every time|each time|from today)\b"
    r"|以后(?!再)|(?<![完好])之后(?=都|一律|也)|今后|往后|从现在起|从今以后|每次|每个|每回|所有|任何|凡是|谁都|一律|统一|永远|一直|始终|默认|老规矩"
    r"|毎回|いつも|今後|これから|常に|すべて|全て|絶対|例外なく|例外なし|无一例外|예외\s*없이"
    r"|\b(?:no exceptions|without exception)\b",
    re.I,
)
_WEAK_SCOPE = re.compile(
    r"\b(?:every|each|any|anything|all|before|after|when|whenever|in this repo|whatever|new \w+s|everywhere|anywhere)\b"
    r"|前|之前|以前|(?<![超按准及同临臨当當小过過])时|的时候|先[^，,。]{1,30}再|都|は|前に|時は|場合|到处|どこでも|全部|^(?:如果|要是|只要|每当)[^，,]{2,40}[，,]",
    re.I,
)

# --- choices ---
_EN_CHOICE = re.compile(
    r"\b(?:went with|go(?:ing)? with|settled on|picked|chose|opted for|we'?re keeping|we keep|we'?ll use|we use|"
    r"stays?|decided|agreed|is our|are our|sticking with|stick with|ended up (?:with|on|going with)|landed on|"
    r"went for|(?:is|are|'re|'s) (?:moving|switching|migrating) (?:over )?to|ended up \w+ing|in favou?r of)\b"
    r"|\b(?:we'?re doing|(?:is|are) going to be)\b(?=.*(?:[,;]|\s[—–-])\s)"
    r"|^(?:the\s+)?(?:decision|settled|verdict|final (?:answer|decision|call)|conclusion)(?:\s+is)?(?:\s*[:：]|\s|$)",
    re.I,
)
_EN_CONTRAST = re.compile(r"\b(?:over(?!\s+\d)|instead of|rather than|not)\b", re.I)
_ZH_CHOICE = re.compile(
    r"选了|选的|选用|定了|拍板|最后用|最终用|最后选|最终选|就用|决定|采用|改用|就\s*[A-Za-z][\w.-]*\s*了|放弃|放棄|结论|結論|(?:没|不)用(?=\s*[A-Za-z“「])|而不是|就落|(?:最后|最终|最後|最終)落在|用.{1,20}吧|方案是|定为|定成"
)
_ZH_CHANGE = re.compile(r"换成了?|换到了?|切到了?|切换到了?|迁到了?|迁移到了?|改成了?")
"""A change of what is used: a decision when a reason comes with it ("换成了 Loki，ES 太吃内存")."""
_JA_CHOICE = re.compile(
    r"にしました|にします|にした|で行く|でいく|ことになりました|ことにしました|に決め|に決定|を採用|採用し|一本化|ではなく"
    r"|に決まり|に寄せ|をやめて|^(?:決定|結論)\s*[:：]"
)
REASON = re.compile(
    r"\b(?:because|since|as|so|so that|given|otherwise|due to)\b|[—–]\s|;\s"
    r"|因为|由于|主要是|原因|理由|所以|不然|否则|以免|为了|太|才"
    r"|ので|から|ため",
    re.I,
)
_REASON_SENTENCE = re.compile(
    r"(?:ので|から|からです|ためです|ためだ|の問題です|が理由です|のせいです)\s*[。.]?\s*$"
    r"|^(?:because|since|the reason|reason:|因为|由于|原因是|理由是|原因在于|理由は|理由として|というのも|なぜなら)",
    re.I,
)


def _cjk(text: str) -> bool:
    return not text.isascii() and any("\u3040" <= ch <= "\u9fff" for ch in text)


def _kana(text: str) -> bool:
    return not text.isascii() and any("\u3040" <= ch <= "\u30ff" for ch in text)


def _en_words(text: str) -> list[str]:
    return [w.casefold().replace("’", "'") for w in _ASCII_WORD.findall(text)]


def is_question(text: str) -> bool:
    """A question, direct or embedded ("我想知道…", "wondering whether…", "…だっけ"), with or without "?"."""
    flat = undecorated(text)
    if not flat:
        return False
    if polite_request(flat) and not KO_EMBEDDED.search(flat):
        return False  # "…してもらえますか", "…해 주시겠어요": asks for an action
    if asks_in_clause(flat):
        return True  # "…でしたか、念のため", "…吗 我记不清了", "…, right"
    if _EN_POLITE.match(flat):
        return bool(_EN_ASK_FRAME.match(flat))  # "could you keep …" is a request; "could you check …" asks
    if _QMARK.search(flat):
        return True
    if hangul(flat) and not _kana(flat):
        return bool(KO_QUESTION_END.search(flat) or KO_EMBEDDED.search(flat) or KO_WH.search(flat))
    if _kana(flat):
        return bool(_JA_FINAL.search(flat)) or (bool(_JA_WH.search(flat)) and not _JA_REQUEST_END.search(flat))
    if _cjk(flat):
        bare = _ZH_UNIVERSAL.sub("", flat)
        if _ZH_ASK_FRAME.match(flat) and (_ZH_WH.search(bare) or _ZH_A_NOT_A.search(bare) or "还是" in bare):
            return True
        if _ZH_ALTERNATIVE.search(bare):
            return True  # "redis 是 10.0.0.5 还是 10.0.0.6": an alternative question
        if _ZH_FINAL.search(flat) and not _ZH_DEONTIC.search(flat[-3:]):
            return True
        return bool(_ZH_WH.search(bare) or _ZH_A_NOT_A.search(bare)) and not _ZH_DEONTIC.search(bare)
    words = _en_words(flat)
    if not words:
        return False
    if _EN_ASK_FRAME.match(flat) or _EN_ASK_CLAUSE.search(flat):
        return True  # "the retry limit, is it 3 or 5": the clause after the topic asks
    if words[0] in _EN_WH and not re.match(r"^\w+\s+to\b", flat, re.I):
        return not (en_condition(flat) and words[1] not in _EN_AUX)  # "When you cut a release, bump …"
    return words[0] in _EN_AUX and len(words) > 1 and words[1] not in ("not", "n't")


def is_imperative(text: str) -> bool:
    """An order in the imperative, polite or not (English verb + object, 把 / 帮我 …, 〜てください)."""
    flat = undecorated(text)
    if polite_request(flat):
        return True
    span = inceptive(flat)
    if span and flat.casefold().startswith(span.casefold()):  # "Starting today, please tag …"
        flat = flat[len(span) :].lstrip(" ,，、") or flat
    if hangul(flat) and not _kana(flat):  # "김민수 님이 담당하세요": a third person's honorific, no order
        return bool(KO_REQUEST_END.search(flat)) and not KO_HONORED_SUBJECT.search(flat)
    if _kana(flat):
        return bool(_JA_REQUEST_END.search(flat))
    if _cjk(flat):
        return bool(_ZH_REQUEST_OPEN.match(flat) or _ZH_BA.search(flat) or _ZH_TO_SPEAKER.search(flat))
    if _EN_POLITE.match(flat) or _EN_NEG_IMPERATIVE.match(flat) or re.match(r"^let'?s\s+(?!say\b)\w+", flat, re.I):
        return True  # "Let's bump the pool to 40 and see …": an order that includes the speaker
    flat = after_interjection(flat)
    condition = en_condition(flat)
    if condition:  # "If you add an env var, document it …": the main clause is the order
        return is_imperative(condition[1])
    bare = _EN_OPENER.sub("", flat)
    sequenced = _EN_SEQUENCE.match(bare)  # an adverb of sequence, then the verb: "just restart …", "next, rename …"
    words = _en_words(bare[sequenced.end() :] if sequenced else bare)
    if len(words) < 2 or words[0] in _EN_NOT_VERB or words[0] in _EN_AUX or words[0] in _EN_WH:
        return False
    if sequenced and bare[sequenced.end() :][:1].islower() and not words[0].endswith(("s", "ed")):
        return True
    first = flat.lstrip("-*> ").split()[0] if flat.split() else ""
    if first[:1].isupper() and first[1:].isupper():
        return False  # an acronym opens a statement ("CI moved to …")
    if words[0].endswith(("s", "ed")) and not words[0].endswith("ss"):
        return False  # "Commits go …", "Went with …": a noun or a past, not an order
    finite = next((n for n, w in enumerate(words[1:5], 1) if w in _EN_AUX or w in ("need", "needs")), None)
    if finite is not None and not _EN_DETERMINER.intersection(words[1:finite]):
        return False  # verb position: a finite verb after the first words makes them its subject ("Max size is …")
    if words[1] in _EN_DETERMINER or words[1] in _EN_SUBORDINATOR:
        return True
    path_object = re.match(r"^[A-Za-z]+\s+(?:\S*[A-Za-z0-9][./_]|\.)[A-Za-z]\S*\s+\S", flat)  # "Rename utils.py to …"
    return bool(path_object) and not re.search(r"\b(?:is|are|was|were|has|have)\b", flat)


def anchored_now(text: str) -> bool:
    """The order is about the present task ("for now", "一下", "一旦", "this file"), not a standing one.
    A start with an open end ("from today on", "今日から", "지금부터") is not: its "now" begins a span."""
    span = inceptive(text)
    if _STRONG_SCOPE.search(AFTER_DONE.sub("", text)) or span:
        return False
    return bool(
        _NOW_EN.search(text)
        or _NOW_ZH.search(text)
        or _NOW_JA.search(text)
        or KO_NOW.search(text)
        or re.search(r"了\s*[，,。]", text)
    )


def sentence_type(text: str) -> str:
    """:data:`QUESTION`, :data:`REQUEST` (to do something now) or :data:`STATEMENT`."""
    if is_question(text):
        return QUESTION
    if describes_behaviour(text):
        return STATEMENT  # "这个定时任务每次启动都会先把 cache 目录清空": what a thing does, not an order
    if is_imperative(text) and not is_standing(text):
        return REQUEST
    now = anchored_now(text) or one_off(text)
    if now and (is_imperative(text) or _ZH_DEONTIC.search(text) or is_prohibition(text)) and not strongly_scoped(text):
        return REQUEST
    return STATEMENT


def is_standing(text: str) -> bool:
    """A standing instruction: modality (must / 得 / 必ず / don't / 别) or an order, with a scope beyond
    the present (every / 以后 / 每次 / before …) or a prohibition, and not anchored to now."""
    flat = text.strip()
    if not_standing(flat):
        return False
    strong = strongly_scoped(flat)
    deontic = bool(
        _EN_DEONTIC.search(flat)
        or _ZH_DEONTIC.search(flat)
        or (_kana(flat) and _JA_DEONTIC.search(flat))
        or (hangul(flat) and (KO_DEONTIC.search(flat) or ko_condition_of_action(flat)))
    )
    prohibition = is_prohibition(flat)
    strong = strong or (deontic and names_a_norm(flat))  # "PR merge 之前至少要两个 approve，这是 team rule"
    order = is_imperative(flat) or _zh_order_from_now(flat) or (strong and _ja_plain_clause(flat))
    if not (deontic or prohibition or order):
        return False
    if order and not (deontic or prohibition):
        # a bare order is standing only over occasions ("before you commit", "每次", "every new endpoint"),
        # not over the objects of one task ("Fix all the lint errors", "把所有的 print 换成 logger")
        flat = _OBJECT_QUANTIFIER.sub(" ", flat)
        strong = strongly_scoped(flat)
    weak = (
        _WEAK_SCOPE.search(flat)
        or (hangul(flat) and KO_WEAK_SCOPE.search(flat))
        or _generic_subject(flat)
        or _ordered_on_occasion(flat)
    )
    return strong or prohibition or (bool(weak) and (deontic or order))


def _ordered_on_occasion(flat: str) -> bool:
    """An order or a norm under a condition of occasion ("If you add an env var, document it …"); not a
    fact under one ("If you ever need prod access, Priya owns the IAM roles")."""
    main = en_condition(flat)
    return main is not None and en_occasion(flat) and bool(is_imperative(main[1]) or _EN_DEONTIC.search(main[1]))


_KO_TOPIC = re.compile(r"^(?!(?:이|그|저)\s)\S+(?:\s+\S+)?\s?(?:은|는)\s")


def _generic_subject(flat: str) -> bool:
    """A subject that names a kind, not one thing: an English bare plural first ("PRs need two approvals",
    "Migrations should be …"), a Korean topic without a demonstrative ("커밋 메시지는 …") - with modality,
    a norm."""
    if hangul(flat) and not _kana(flat):
        return bool(_KO_TOPIC.match(flat))
    words = _en_words(flat) if flat.isascii() else []
    modal = next((n for n, w in enumerate(words[:5]) if w in _EN_MODAL), None)
    if not modal or any(w in _EN_NOT_VERB or w in _EN_AUX for w in words[:modal]):
        return False
    head = words[modal - 1]  # the subject's last word: a bare plural names a kind
    return head.endswith("s") and not head.endswith(("ss", "us", "is")) and len(head) >= 3 and head != "yes"


_EN_MODAL = _words("must mustn't need needs should shouldn't shall have has cannot can't may")


_OBJECT_QUANTIFIER = re.compile(
    r"\b(?:every|each|any|all(?: the)?|whatever|everything|anything)\b(?!\s+(?:time|new)\b)"
    r"|所有的?|任何|全部の?|すべての?|全ての?|모든|전부|都"
)
"""Quantifiers over things rather than occasions: a task over a set, not a habit."""


def _zh_order_from_now(flat: str) -> bool:
    """Chinese and Japanese need no imperative mark: a verb phrase under "from now on" is an order
    ("提交信息以后用英文写", "これからは…に日付を付けること"), unless its verb is a copula or of belonging
    ("账单服务以后归周涛管", "…の担当です": a fact about the present)."""
    span = inceptive(flat)
    if not span or not _cjk(flat) or hangul(flat):
        return False
    rest = flat[flat.find(span) + len(span) :]
    if _kana(flat):  # Japanese: a plain or nominalised verb, not the copula ("…の担当です")
        return not re.search(r"(?:です|だ|でした|である)\s*[。.]?\s*$", rest)
    return not re.search(r"[是归由为]", rest)


def _ja_plain_clause(flat: str) -> bool:
    """A Japanese clause ending on a verb's dictionary form with "without exception" ("ログは全部 JSON で出す、
    例外なく"): the memo register of a norm.  常に / 全て alone describe what code does as well ("この関数は
    常に None を返す")."""
    if not (_kana(flat) and re.search(r"例外なく|例外なし", flat)):
        return False
    return any(_JA_PLAIN_ACTION.search(c) for c in re.split(r"[、，,]", flat))


def not_standing(text: str) -> bool:
    """What no modal word makes a standing rule: an opinion or a guess ("I think we should always …"),
    a thing's behaviour ("The cleanup job always deletes …"), an order for now or for one instance
    ("in this PR", "until I've reviewed it") without a scope beyond the present."""
    flat = text.strip()
    if opinion_or_hedge(flat) or describes_behaviour(flat) or episode(flat):
        return True
    if (state_now(flat) or spec_of_work(flat)) and not inceptive(flat):
        return not strongly_scoped(flat) or state_now(flat)  # "must return a list but it returns None"
    if reminder(flat) and not (strongly_scoped(flat) or _WEAK_SCOPE.search(flat)):
        return True  # "don't forget the docstring": a reminder for this task
    return (anchored_now(flat) or one_off(flat)) and not strongly_scoped(flat)


def is_choice(text: str) -> bool:
    """A decision: a choice verb (went with / 选了 / にしました), or alternatives contrasted with a reason."""
    flat = text.strip()
    if _EN_CHOICE.search(flat) or _ZH_CHOICE.search(flat) or _JA_CHOICE.search(flat):
        return True
    if hangul(flat) and KO_CHOICE.search(flat):
        return True
    change = _ZH_CHANGE.search(flat) if _cjk(flat) else None
    if change and REASON.search(flat[change.end() :]):
        return True
    if weighs_alternative(flat):
        return True  # "配置中心最后是 Nacos，Apollo 部署太重了", "Node is frozen at 18.20 for now - 20 breaks …"
    return bool(_EN_CONTRAST.search(flat)) and bool(REASON.search(flat)) and not _cjk(flat)


def gives_reason(text: str) -> bool:
    """A sentence that is the reason for the one before it ("…ので。", "Because …", "因为…")."""
    flat = text.strip()
    return bool(_REASON_SENTENCE.search(flat) or (hangul(flat) and KO_REASON.search(flat)))


def is_prohibition(text: str) -> bool:
    """A negative order or a ban (don't / 别 / 不许 / 禁止 / ないで)."""
    flat = text.strip()
    if _EN_NEG_IMPERATIVE.match(flat):
        return True
    if hangul(flat) and not _kana(flat):
        return bool(KO_PROHIBITION.search(flat))
    return bool(re.search(r"ないで|禁止", flat) if _kana(flat) else re.search(r"别|不要|不许|不准|不允许|禁止", flat))


def strongly_scoped(text: str) -> bool:
    """A scope beyond the present stated outright (from now on / 以后 / 每次 / 今後) or strong modality."""
    return bool(
        _STRONG_SCOPE.search(AFTER_DONE.sub("", text))
        or _STRONG_DEONTIC.search(text)
        or (hangul(text) and (KO_STRONG_SCOPE.search(text) or ko_condition_of_action(text)))
        or inceptive(text)
    )


_JA_PLAIN_ACTION = re.compile(
    r"[^\Wa-zA-Z0-9](?<!あ)(?<!い)(?<!な)(?<!でき)(?:[うくぐつぬぶむる]|(?<![まで])す)\s*[。.]?\s*$"
)
"""A Japanese sentence ending on a verb's dictionary form (…に書く, …を使う), not on ある / いる / なる
/ できる nor on the polite です / ます."""


def is_written_norm(text: str) -> bool:
    """A sentence in the register of a memo or handbook that states how things are done: a verb's
    plain dictionary form at the end (Japanese "SENTRY_DSN は .env.prod に書く", Korean "모든 배포는
    화요일에 한다"), which speech would soften (書きます, 해요).  Read only in pasted text."""
    flat = text.strip()
    if hangul(flat) and not _kana(flat):
        return ko_plain_present(flat)
    return _kana(flat) and bool(_JA_PLAIN_ACTION.search(flat))
