"""The closed classes supersession reads in four languages: the *attribute* a value is of (port /
端口 / ポート / 포트, owner / 负责人 / 担当 / 담당자, ...) and the *environment* it belongs to (staging /
预发 / ステージング / 스테이징, prod / 生产 / 本番 / 운영, ...).  Two values of two attributes or of two
environments are two things (:mod:`mimomem.passes.supersede_subject`)."""

from __future__ import annotations

ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "port": ("port", "ports", "端口", "ポート", "포트"),
    "owner": (
        "owner",
        "owned",
        "owns",
        "maintainer",
        "maintained",
        "responsible",
        "took over",
        "takes over",
        "负责人",
        "负责",
        "管",
        "接手",
        "接管",
        "オーナー",
        "担当",
        "担当者",
        "責任者",
        "引き継",
        "담당",
        "담당자",
        "책임자",
        "맡",
    ),
    "version": ("version", "versions", "版本", "バージョン", "버전"),
    "location": (
        "host",
        "hostname",
        "address",
        "url",
        "endpoint",
        "domain",
        "地址",
        "主机",
        "域名",
        "网址",
        "ホスト",
        "アドレス",
        "호스트",
        "주소",
    ),
    "path": (
        "path",
        "dir",
        "directory",
        "folder",
        "路径",
        "目录",
        "文件夹",
        "パス",
        "ディレクトリ",
        "경로",
        "디렉터리",
        "디렉토리",
        "폴더",
    ),
    "timeout": ("timeout", "timeouts", "超时", "タイムアウト", "타임아웃"),
    "expiry": ("expire", "expires", "expiry", "lifetime", "ttl", "过期", "有效期", "有効期限", "期限", "만료"),
    "retention": ("retention", "retain", "retained", "保留", "保留期", "保持", "保存期間", "보관", "보존"),
    "limit": ("limit", "limits", "max", "maximum", "cap", "上限", "限制", "最大", "制限", "제한", "최대"),
    "branch": ("branch", "分支", "ブランチ", "브랜치"),
    "channel": ("channel", "频道", "チャンネル", "채널"),
    "size": ("size", "大小", "サイズ", "크기"),
}
"""Attribute -> its words in English, Chinese, Japanese and Korean (what a value is of)."""
ENVIRONMENTS: dict[str, tuple[str, ...]] = {
    "staging": ("staging", "stg", "stage", "预发", "预发布", "ステージング", "스테이징"),
    "prod": ("prod", "production", "生产", "线上", "正式环境", "本番", "운영", "프로덕션"),
    "dev": ("dev", "development", "开发", "開発", "개발"),
    "test": ("test", "testing", "qa", "测试", "テスト", "테스트"),
}
"""Environment -> its words: two values of two environments are two things."""
