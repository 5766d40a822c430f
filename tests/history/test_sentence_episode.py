"""An episode of this session is no fact and no rule (history/sentence_episode.py, sentence_clause.py),
while a lasting statement in the same frames is kept.  Each case here was promoted by the code before
stop 41 (a fact or a rule from a sentence about what happened, what is being worked on, or how the
speaker feels), or, for the kept side, is a statement the new tests must leave alone."""

from __future__ import annotations

import pytest

from mimomem.history.episode import Said
from mimomem.history.sentence_clause import ends_in_order
from mimomem.history.sentence_episode import episode, state_now
from mimomem.passes.promote_items import said_items, sentences


def _kept(text: str) -> list[tuple[str, str]]:
    return [(i.section, i.text) for i in said_items(Said(text, "typed", "s", 0))]


@pytest.mark.parametrize(
    "text",
    [
        "yesterday I deployed 4.0.9 to prod and it went fine",  # a past event placed by a deictic time word
        "我昨天把 4.0.9 发到生产了，没问题",
        "昨日 4.0.9 を本番に出しました",
        "어제 4.0.9 운영에 배포했어요",
        "so the task is to add pagination to /api/v2/orders",  # the session's object as the subject
        "the error is ECONNRESET from api.partner.io",
        "刚才那个报错是 ECONNRESET",
        "the goal for today is shipping 4.1.0",
        "このファイルの parse 関数、わかりにくいですね",  # a comment on what is in front of the speaker
        "이 파일 parse 함수 너무 복잡하네요",
        "not sure but maybe port 6380 is the replica",  # a hedge anywhere
        "this looks wrong to me, the handler in orders.py swallows the exception",
        "我在想要不要把 celery 换掉",
        "I always forget the flag for verbose output",  # the speaker's own habit
        "我总是忘记加 --verbose",
        "每次都要手动重启太麻烦了",
        "gonna grab lunch, back in 20",  # a plan
        "you could also try bumping the heap to 4g",  # a suggestion
        "next, rename utils.py to helpers.py",  # an order after a sequencing adverb
        "just restart worker-2 and see",
        "the PR is #5123, take a look",  # a statement as the context of an order for now
        "in this function the loop runs 3 times, change it to 5",
        "never mind, found it",  # a reassurance worded as a ban
        "别担心，我来处理",
        "気にしないでください",
        "신경 쓰지 마세요",
        "the function must return a list but it returns None",  # a norm beside how things stand now: a bug
        "这个接口必须返回 list，现在返回的是 None",
        "all tests must pass, right now 3 are failing, fix them",
        "Sorry, I meant the other config file, config/worker.yaml not config/web.yaml.",  # the speaker's own words
        "すみません、config/worker.yaml のほうでした。",
        "The customer reported that exports over 10k rows time out.",  # someone else's report or wish
        "We talked about this in standup, Jana thinks we should drop the legacy endpoint.",
        "I've pushed my changes to feature/export.",  # the speaker's own deed
        "我刚看了下 lag，现在是 0。",
        "ありがとうございます！次はエクスポート機能をお願いします。",  # the next step of the session
        "감사합니다! 다음은 내보내기 기능 부탁드려요.",
        "Still getting timeouts from search-2 after the reindex.",  # a participle without its subject
        "지금 api-7 로그 확인하고 있어요",
        "对了 redis 这块",  # a topic alone
        "the endpoint should return 404 when the order doesn't exist",  # the task's specification
        "the new page should show the last 30 days by default",
        "这个页面默认要显示最近 30 天的数据",
        "이 페이지는 기본으로 최근 30일을 보여줘야 해요",
        "don't forget the docstring",  # a reminder without a scope
        "别忘了更新 changelog",
        "don't touch the other files",  # the rest of this task's files
        "use the existing helper in utils/dates.py instead of writing a new one",
        "there's a bug in parse_date() where it ignores the timezone",  # the task's defect as it stands
        "scripts/seed.py 已经过时了",
        "現状、client.py でリトライ回数が 3 にハードコードされています",
        "현재 client.py 에 재시도 횟수가 3 으로 하드코딩 되어 있어요",
        "any chance the staging db is still on pg 12",  # questions without their mark
        "the retry limit, is it 3 or 5",
        "测试环境的 redis 是 10.0.0.5 还是 10.0.0.6",
    ],
)
def test_an_episode_of_the_session_is_neither_a_fact_nor_a_rule(text: str) -> None:
    assert _kept(text) == []


@pytest.mark.parametrize(
    ("text", "section", "part"),
    [
        ("결제 쪽은 김민수 님이 담당하세요", "Discovered durable knowledge", "김민수"),  # honorific, no order
        ("새 의존성 추가할 때는 꼭 먼저 물어봐 주세요", "Rules", "의존성"),  # 먼저 under an occasion is no "now"
        ("the broker moved to port 6001 yesterday", "Discovered durable knowledge", "6001"),  # a change, not an event
        ("I keep the release notes in docs/releases/", "Discovered durable knowledge", "docs/releases/"),
        ("我这边一直是用 qs-admin 这个账号登 Grafana 的", "Discovered durable knowledge", "qs-admin"),
        ("We've been on Postgres 16.4 since yesterday", "Discovered durable knowledge", "16.4"),
        ("今後 main への直接 push はやめてくださいね", "Rules", "push"),
        ("don't forget to bump the chart version before tagging a release", "Rules", "chart version"),
        ("The deploy script must always be run from the repo root.", "Rules", "repo root"),
        ("消息队列最后还是用 NATS，Kafka 运维成本太高了。", "Architecture decisions", "NATS"),
        ("the build fails unless NODE_OPTIONS has --max-old-space-size=4096", "Discovered durable knowledge", "4096"),
        ("Mei owns the payments repo, ping her before touching it", "Discovered durable knowledge", "Mei"),
        ("Alice is the tech lead for search.", "Discovered durable knowledge", "Alice"),
        ("Redis is only used for sessions, not for caching.", "Discovered durable knowledge", "sessions"),
        ("老张负责运维，机器的事找他。", "Discovered durable knowledge", "老张"),
        ("文档都在语雀上", "Discovered durable knowledge", "语雀"),
        ("문서는 노션에 있어요", "Discovered durable knowledge", "노션"),
        ("好，同步一下，日志平台是 loki-prod，保留 30 天。", "Discovered durable knowledge", "loki-prod"),
        ("헐 또 타임아웃 ㅠㅠ 참고로 배치 서버는 batch-02 하나예요.", "Discovered durable knowledge", "batch-02"),
        ("CI 跑一次大概 12 分钟", "Discovered durable knowledge", "12 分钟"),  # 大概 before a number: about, no guess
        ("Status on the broker: it's NATS 2.10 on nats-1 now.", "Discovered durable knowledge", "NATS 2.10"),
        (
            "Quick update: billing is switching to Stripe, the old invoicer kept double-charging.",
            "Architecture decisions",
            "double-charging",
        ),
        ("以后新加的表名都要带 kst. 前缀", "Rules", "kst. 前缀"),  # a full stop inside a Chinese sentence
        ("Heads-up, staging assets sit in s3://harbor-stg-assets", "Discovered durable knowledge", "stg-assets"),
        ("Logging goes to loki.internal:3100", "Discovered durable knowledge", "3100"),
        ("참고로 지금 스테이징은 stg2.narae.dev 에서 돌아가고 있어요.", "Discovered durable knowledge", "stg2"),
        (
            "ugh, still red. anyway, the artifact store is nexus.example.com:8082. yesterday I bumped the heap",
            "Discovered durable knowledge",
            "nexus.example.com:8082",
        ),
    ],
)
def test_a_lasting_statement_in_the_same_frames_is_kept(text: str, section: str, part: str) -> None:
    kept = _kept(text)
    assert any(s == section and part in t for s, t in kept), kept
    assert not any("bumped the heap" in t for _, t in kept)


def test_a_writer_who_never_capitalises_still_has_sentences() -> None:
    said = "looked at it, makes sense. going forward every new endpoint needs a rate limit. ok lets continue"
    assert sentences(said)[1] == "going forward every new endpoint needs a rate limit."
    assert sentences("use e.g. wren-eu-1 or approx. 40 nodes") == ["use e.g. wren-eu-1 or approx. 40 nodes"]
    assert _kept(said) == [("Rules", "going forward every new endpoint needs a rate limit")]


def test_the_frames_read_grammar_not_topics() -> None:
    assert episode("the bug was in the retry loop") and not episode("the broker is rabbit-2")
    assert state_now("must be sorted, but currently it is not") and not state_now("from now on, sort it")
    assert ends_in_order("the log is in /tmp/x.log, send it over")
    assert not ends_in_order("Release is: bump the version, tag it, push the tag")
    assert not ends_in_order("bump the version in pyproject, tag it, push the tag")
