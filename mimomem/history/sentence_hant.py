"""Traditional Chinese read with the same closed classes as simplified, for the sentence readers.

The particles, question words, modals and connectives :mod:`mimomem.history.sentence` matches are
written in simplified characters (吗 / 谁 / 记得 / 以后 / 这个 / 因为).  A Chinese sentence in
traditional characters (嗎 / 誰 / 記得 / 以後 / 這個 / 因為) is folded to simplified, character by
character, before it is read; the text kept is the user's own.  Only the characters those classes
use are folded, and only in a sentence without kana or hangul (Japanese writes 後 / 説 / 気 its own way).
"""

from __future__ import annotations

_PAIRS = (
    "與与個个們们會会為为麼么從从來来這这說说誰谁對对後后現现還还邊边連连報报規规約约範范許许準准須须務务應应"
    "該该沒没開开關关將将讓让給给時时間间線线題题問问嗎吗過过檢检發发試试寫写處处負负責责運运維维當当記记幾几"
    "裡里裏里統统剛刚動动帶带夠够實实決决傳传換换遠远選选遷迁號号錯错鎖锁錢钱數数條条樣样確确碼码誤误話话認认"
    "設设訴诉請请諸诸謝谢項项順顺預预馬马煩烦燒烧測测濟济點点總总慣惯據据擔担護护掛挂啟启團团圖图塊块場场備备"
    "復复頭头歲岁幫帮庫库異异錄录歸归劉刘則则單单臺台週周亂乱於于無无暫暂書书機机氣气眾众著着終终絕绝經经聯联"
    "腳脚萬万覺觉敗败帳账採采長长隊队願愿變变並并專专業业東东兩两嚴严齊齐體体讀读產产達达識识講讲標标環环態态"
    "雖虽樂乐種种級级類类議议資资員员網网險险價价響响舊旧結结構构麽么囉啰謂谓醫医驗验證证觀观擇择淨净層层鍵键"
    "頁页檔档幣币歷历"
)
_FOLD = str.maketrans({_PAIRS[i]: _PAIRS[i + 1] for i in range(0, len(_PAIRS), 2)})


def folded(text: str) -> str:
    """``text`` with traditional Chinese characters of the grammar's closed classes in simplified form;
    unchanged when it holds kana or hangul, or is ASCII."""
    if text.isascii() or any("\u3040" <= ch <= "\u30ff" or "\uac00" <= ch <= "\ud7a3" for ch in text):
        return text
    return text.translate(_FOLD)
