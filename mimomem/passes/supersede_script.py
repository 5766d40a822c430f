"""Traditional Chinese read as mainland simplified words, so an item written in Taiwan or Hong Kong
(快取過期時間 30 分鐘, 資料庫, 匯出服務) is compared word by word with a simplified one (缓存过期时间, 数据库,
导出服务) and, through the dictionary, with an English one.  The conversion is OpenCC's (``tw2sp``:
characters and Taiwan phrases); the text kept is the user's own, only what supersession reads is
converted.  Japanese (kana) and Korean (hangul) are left as they are: 後 / 説 / 気 are their own.
"""

from __future__ import annotations

import functools
import re
from typing import Any

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_OTHER_CJK = re.compile(r"[\u3040-\u30ff\uac00-\ud7a3]")


@functools.lru_cache(maxsize=1)
def _converter() -> Any:
    try:
        from opencc_purepy import OpenCC
    except ImportError:  # an install without it: traditional items are compared as written
        return None
    return OpenCC("tw2sp")


@functools.lru_cache(maxsize=8192)
def simplified(text: str) -> str:
    """``text`` with its traditional Chinese in mainland simplified words; unchanged without Han
    characters, or with kana or hangul (Japanese and Korean write Han their own way)."""
    if not _HAN.search(text) or _OTHER_CJK.search(text):
        return text
    converter = _converter()
    return text if converter is None else str(converter.convert(text))


@functools.lru_cache(maxsize=1)
def _japanese() -> tuple[Any, Any] | None:
    try:
        from opencc_purepy import OpenCC
    except ImportError:
        return None
    return OpenCC("jp2t"), OpenCC("t2s")


@functools.lru_cache(maxsize=8192)
def kanji_as_chinese(word: str) -> str:
    """A Japanese kanji word in simplified Chinese characters (間隔 -> 间隔, 検索 -> 检索), to be looked up
    in the Chinese-English dictionary; the word itself when nothing converts it."""
    pair = _japanese()
    return word if pair is None else str(pair[1].convert(pair[0].convert(word)))
