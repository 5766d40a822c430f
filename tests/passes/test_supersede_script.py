"""Traditional Chinese and Japanese kanji read as simplified Chinese for supersession only."""

from __future__ import annotations

from mimomem.passes.supersede_script import kanji_as_chinese, simplified


def test_taiwan_words_read_as_mainland_words_and_other_scripts_left_alone() -> None:
    assert simplified("快取過期時間 30 分鐘") == "缓存过期时间 30 分钟"
    assert simplified("正式站資料庫在 db-prod.example") == "正式站数据库在 db-prod.example"
    assert simplified("検索のタイムアウト") == "検索のタイムアウト"  # kana: Japanese, its own kanji
    assert simplified("배포 서버") == "배포 서버" and simplified("cache TTL") == "cache TTL"


def test_a_kanji_word_is_read_in_chinese_characters_for_the_dictionary() -> None:
    assert kanji_as_chinese("検索") == "检索" and kanji_as_chinese("間隔") == "间隔"
