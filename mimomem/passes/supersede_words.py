"""The closed classes supersession reads in four languages: the *attribute* a value is of (port /
端口 / ポート / 포트, owner / 负责人 / 担当 / 담당자, ...) and the *environment* it belongs to (staging /
预发 / ステージング / 스테이징, prod / 生产 / 本番 / 운영, ...).  Two values of two attributes or of two
environments are two things (:mod:`mimomem.passes.supersede_subject`)."""

from __future__ import annotations

import re

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
COMPONENTS: dict[str, tuple[str, ...]] = {
    "database": (
        "database",
        "databases",
        "db",
        "dbs",
        "数据库",
        "資料庫",
        "數據庫",
        "データベース",
        "데이터베이스",
        "디비",
    ),
    "message queue": (
        "message queue",
        "message broker",
        "broker",
        "mq",
        "消息队列",
        "消息隊列",
        "消息中间件",
        "メッセージキュー",
        "ブローカー",
        "메시지 큐",
        "메시지 브로커",
        "브로커",
    ),
}
"""Component -> the names it goes by, in English, Chinese, Japanese and Korean: the thing a project
most often calls by two names ("the broker" / "the message queue", 测试库 / "test DB").  A word of
one is the component whatever the language; a Chinese 库 after an environment or a role (测试库,
主库) is a database (库 alone is also a code library or a warehouse)."""

CORRECTION = re.compile(
    r"^\W*(?:(?:hmm+|uh+|um+|er+m?|ah+|oh+|嗯+|呃|えっと|あっ?|음|어)[\s,，、.…]*)?"  # an interjection before it
    r"(?:(?:no,?\s+)?wait|no(?=,)|actually|correction|sorry|oops|my bad|scratch that|i misspoke|i mean|typo"
    r"|no,?\s+i\s+(?:was wrong|got (?:it|that) wrong|mixed (?:it|them) up)|i was wrong|my mistake"
    r"|不对|不對|不是|错了|錯了|说错了|說錯了|记错了|記錯了|搞错了|搞錯了|更正(?:一下)?|订正|訂正|纠正|糾正"
    r"|いや|違(?:う|います|いました)|すみません|ごめん|間違(?:え|い)\w*|訂正"
    r"|아니(?:요|에요)?|아|정정(?:할게요|합니다)?|잘못\s*말했\w*)(?:[\s,，、。.:：;；!！-]+|$)",
    re.I,
)
"""A self-repair said first ("不对，", "Actually,", "いや、", "정정할게요."): the rest of the turn
replaces something said before."""

CHANGE = re.compile(
    r"[改换调升降迁挪搬切移][成为到]|改用|换了|不再|不用了|别再|现在是|现在用|现在改|已经改|升级到|升到|迁移到|搬到|挪到|替换|调成|调到|调整为|切到|现在"
    r"|\b(?:instead of|no longer|not any ?more|anymore|changed? to|switched to|moved to|updated to|replaced|"
    r"bumped to|migrated to|upgraded to|now (?:is|uses?|on|at|lives|runs)?|from now on|"
    r"moved|changed|switched|"
    r"upgrade|upgraded|raised|lowered|bumped|increased|decreased|reduced)\b"
    r"|引き上げ|引き下げ|変更|変わ|移行|切り替え|代わ|短縮|延長|延长|缩短"
    r"|바꿨|바꾸었|바뀌었|바뀌|변경|교체|전환|이전했|옮겼|늘렸|줄였|올렸|내렸|갈아탔|(?:으로|로)\s+(?:갔|됐|되었)",
    re.I,
)
"""A change of a value in four languages ("改成", "switched to", "に変更", "바꿨"): the shape of a newer value."""

LABEL = re.compile(
    r"^\s*(?:note|nb|fyi|heads[- ]?up|notice|update|reminder|memo|psa|注意|提醒|通知|公告|备注|備註|记一下|記一下|更新"
    r"|メモ|お知らせ|連絡|告知|참고|메모|공지|알림|안내)\s*[:：]\s*",
    re.I,
)
"""A notice's label before a colon ("FYI:", "注意：", "お知らせ：", "공지:"): how the news is announced,
not what it is about (unlike the key of "mail provider: SES")."""
