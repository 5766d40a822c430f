"""A katakana or hangul loanword is compared with the English word it comes from by its sound."""

from __future__ import annotations

import pytest

from mimomem.passes.loanword import compound_of, part_of, romanize, skeleton, sounds_like


@pytest.mark.parametrize(
    ("borrowed", "english"),
    [
        ("アップロード", "upload"),
        ("キャッシュ", "cache"),
        ("ポート", "port"),
        ("サーバー", "server"),
        ("セッション", "session"),
        ("マイグレーション", "migration"),
        ("ブランチ", "branch"),
        ("リポジトリ", "repository"),
        ("캐시", "cache"),
        ("크론", "cron"),
        ("워커", "worker"),
        ("브로커", "broker"),
        ("서비스", "service"),
        ("대시보드", "dashboard"),
        ("레플리카", "replica"),
    ],
)
def test_a_loanword_sounds_like_its_english_word(borrowed: str, english: str) -> None:
    assert sounds_like(borrowed, english)


@pytest.mark.parametrize(
    ("borrowed", "english"),
    [
        ("フロントエンド", "backend"),
        ("ポート", "path"),
        ("キー", "key"),  # one consonant: too little to tell
        ("결제", "search"),  # a Korean word, not a loanword
        ("ログ", "upload"),
    ],
)
def test_other_words_do_not(borrowed: str, english: str) -> None:
    assert not sounds_like(borrowed, english)


def test_romanization_and_skeletons() -> None:
    assert romanize("キャッシュ") == "kyashyu" and romanize("크론") == "keuron"
    assert skeleton("cache") == skeleton("キャッシュ") == "KS"
    assert skeleton("設定") == "" and skeleton("") == ""


def test_a_compound_loanword_written_as_one_run_is_two_english_words() -> None:
    assert compound_of("ビルドキャッシュ", "build", "cache") and not compound_of("ビルドキャッシュ", "cache", "build")
    assert part_of("build", "ビルドキャッシュ") and part_of("cache", "ビルドキャッシュ")
    assert not part_of("build", "ビルド")  # the whole word is sounds_like's, not a part
    assert not compound_of("フロントエンド", "back", "end") and not part_of("image", "ビルドキャッシュ")
