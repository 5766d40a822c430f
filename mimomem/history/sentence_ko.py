"""Korean sentence grammar for :mod:`mimomem.history.sentence`: sentence-final endings (-까 / -요 /
-다 / -세요), particles and the few adverbs that carry mood, modality and scope - closed classes, not
topic words.  Hangul syllables are U+AC00..U+D7A3; a syllable's final consonant is (code - 0xAC00) % 28.
"""

from __future__ import annotations

import re

KO_QUESTION_END = re.compile(
    r"(?:까|까요|나요|니|냐|냐고|(?<![로\s])가요|죠|지요|는지|은지|인지|ㄴ지|던가|던가요|래요|을래|ㄹ래|을래요|ㄹ래요|려나|는가|인가"
    r"|(?:[었았였했있없되]|하|는|리|이)나)\s*[.!~]*\s*$"
)
"""Interrogative endings: -(ㅂ니)까, -나요, -니 / -냐, -(인)가요, -죠, -는지 (embedded), -ㄹ래(요), and the
plain -나 / -인가 after a verb stem or the copula (돌리나, 였나, 아니었나, 8080 인가).  가요 after the particle
(으)로 or a space is the verb "go" ("채널로 가요"), not -(ㄴ)가요."""
KO_EMBEDDED = re.compile(r"(?:는지|은지|인지|ㄴ지|을지|ㄹ지|던지)(?=\s|$|[,.])")
"""An embedded interrogative clause ("…는지 궁금해요", "30일인지 90일인지 알려줄 수 있어요")."""
KO_WH = re.compile(
    r"(?:^|\s)(?:뭐|무엇|무슨|어디|언제|누구|누가|왜|어떻게|어떤|몇|얼마|어느)(?!\S*(?:나|든지|든|도)(?:\s|$))"
)
"""Question words not bound by 나 / 든 / 도 (누구나, 언제든, 아무도: universals, not questions)."""
KO_REQUEST_END = re.compile(
    r"(?:주세요|줘요|줘|둬요|둬|봐요|봐|놔요|놔|주십시오|주시겠어요|세요|십시오|하자|합시다|해라|하라|마세요|마십시오|마라|마요|말아요|말아\s*줘|줄래요|줄래|줄\s*수\s*있어요)"
    r"\s*[.!~]*\s*$|(?:시|세)고요\s*[.!~]*\s*$"
)
"""Imperative and propositive endings: -(아/어) 주세요, -세요, -십시오, -자 / -ㅂ시다, -지 마(세요), and the
honorific -(으)시고요 that softens an order ("알려 주시고요", "받으시고요")."""
KO_NOW = re.compile(
    r"^(?:다음은|다음으로|그다음|그\s다음)|지금|일단|우선|당장|이번에|이번엔|오늘|잠깐|(?<!때는\s)(?<!때\s)(?<!전에\s)(?<!꼭\s)먼저"
)
KO_HONORED_SUBJECT = re.compile(r"[\uac00-\ud7a3]\s*(?:님이|님께서|께서)\s")
"""A third person honoured as the subject: the -세요 after it is the honorific present, not an order."""
KO_DEONTIC = re.compile(
    r"야\s*(?:한다|해요|합니다|해|됩니다|돼요|된다|함)|반드시|꼭|절대|금지|지\s*마|지\s*말|면\s*안\s*(?:돼|됩니다|된다)|는\s*안\s*(?:돼|됩니다|된다)"
    r"|않는다\s*[.!]?\s*$|필요(?:하다|합니다|해요)\s*[.!]?\s*$"
)
"""Modality: -아야 하다 (must), 반드시 / 꼭 / 절대, 금지, -지 마(세요), -면 안 되다, -지 않는다."""


def ko_condition_of_action(text: str) -> bool:
    """-아야 / -어야 followed by another verb ("두 개 받아야 배포할 수 있어요", "통과해야 머지돼요"): only if X,
    then Y - a standing condition.  The infinitive's last syllable has no final consonant and ends in
    ㅏ ㅐ ㅓ ㅕ ㅘ ㅙ ㅝ (받아, 해, 써, 돼); 거야 ("will") is no obligation."""
    for found in re.finditer(r"(\S)야\s+(?!하|해|합|한|되|돼|됩|된)\S", text):
        ch = found.group(1)
        if "\uac00" <= ch <= "\ud7a3" and ch != "거":
            code = ord(ch) - 0xAC00
            if code % 28 == 0 and (code // 28) % 21 in (0, 1, 4, 6, 9, 10, 14):
                return True
    return False


KO_PROHIBITION = re.compile(r"지\s*마|지\s*말|금지|면\s*안\s*(?:돼|됩니다|된다)|않는다\s*$")
KO_STRONG_SCOPE = re.compile(r"앞으로|항상|언제나|매번|모든|늘\s|절대|무조건|반드시|이후로|계속|누구도|아무도")
KO_WEAK_SCOPE = re.compile(r"전에|전에는|때|마다|할\s*때|경우")
KO_CHOICE = re.compile(
    r"기로\s*(?:했|하였|결정)|(?:으)?로\s*(?:정했|결정했|정하였|결정|갔|가기로)|채택|선택했|대신"
    r"|(?:으)?로\s*(?:가요|간다)(?=.*(?:때문|서요|서\s*[.]?$|니까|말고|보다))|^(?:결정|결론)\s*[:：]"
)
"""A choice: -기로 했다, (으)로 정했다, 채택, 대신; "…로 가요" (we go with) only with a reason or an alternative
beside it - alone it says where something goes ("알림은 #alerts 채널로 가요")."""
KO_REASON = re.compile(r"때문|이유는|이유가|왜냐하면|(?:아|어|해)서요?\s*[.]?\s*$")


def hangul(text: str) -> bool:
    return not text.isascii() and any("\uac00" <= ch <= "\ud7a3" for ch in text)


def ko_plain_present(text: str) -> bool:
    """A Korean sentence ending on the plain present -ㄴ다 / -는다 (붙인다, 한다, 않는다)."""
    flat = text.strip().rstrip(".。!")
    if len(flat) < 2 or flat[-1] != "다":
        return False
    before = flat[-2]
    return before == "는" or ("\uac00" <= before <= "\ud7a3" and (ord(before) - 0xAC00) % 28 == 4)
