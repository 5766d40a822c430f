"""Whether a statement is about this moment (history/sentence_moment.py): each frame read by the clause it
governs, so a lasting fact that opens like a reaction, a condition or the speaker's activity is kept."""

from __future__ import annotations

import pytest

from mimomem.history.sentence_moment import about_the_moment, is_plan_or_guess


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, that fixed the 502 on api-3!",
        "Nice, the 500s on /checkout are gone now.",
        "好了，api-3 的 502 没了",
        "哇，重启 api-4 之后延迟降下来了。",
        "ありがとう、api-3 の 502 直りました！",
        "오, 이제 빌드가 3분 만에 끝나네요.",
        "헐, 방금 배포한 버전에서 로그인이 또 깨졌어요.",
    ],
)
def test_a_reaction_to_an_event_is_about_the_moment(text: str) -> None:
    assert about_the_moment(text)


@pytest.mark.parametrize(
    "text",
    [
        "Thanks — btw the staging bucket is marten-stg-assets.",
        "Cool, and the admin panel is only reachable through bastion-2.",
        "Huh, so the importer silently skips files over 50 MB.",
        "谢谢，另外监控告警是发到飞书的 kestrel-oncall 群。",
        "よかった、ちなみにこのサービスのオーナーは山本さんです。",
        "오 감사합니다, 그리고 사내 도커 레지스트리는 registry.hanok.io 예요.",
        "아 그리고 빌드 캐시는 s3://hanok-cache 에 있어요.",
    ],
)
def test_a_statement_after_a_reaction_is_not_about_the_moment(text: str) -> None:
    assert not about_the_moment(text)


@pytest.mark.parametrize(
    ("text", "hypothesis"),
    [
        ("If we moved to Postgres 16 we'd get MERGE.", True),
        ("If we sharded by tenant_id the hot partition would go away.", True),
        ("要是换成 Redis 会快一点", True),
        ("もし Postgres 17 に上げたら、拡張が動かなくなるかもしれない。", True),
        ("만약 노드를 4대로 늘리면 비용이 두 배가 될 거예요.", True),
        ("Suppose we dropped Python 3.9.", True),
        ("If you ever need prod access, Priya owns the IAM roles.", False),
        ("要是没指定配置，默认读的是 /etc/kestrel/app.toml。", False),
        ("もし DB に入りたければ、踏み台は bastion.sakura.local です。", False),
        ("만약 배포가 막히면 담당자는 김민준 님이에요.", False),
    ],
)
def test_a_condition_is_a_hypothesis_only_with_a_speculative_main_clause(text: str, hypothesis: bool) -> None:
    assert about_the_moment(text) is hypothesis


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("I keep hitting EADDRINUSE on 3000 after a restart.", True),
        ("I get ECONNREFUSED on 5432 when I start it.", True),
        ("I keep the release notes in docs/releases/.", False),
        ("We're rebuilding the search-idx-3 index right now.", True),
        ("We're seeing timeouts from search-2 since this morning.", True),
        ("I just restarted worker-9 and it's catching up.", True),
        ("We're serving the docs site from Netlify now.", False),
        ("我们正在排查 order-svc 的内存泄漏。", True),
        ("我们现在是用 Jenkins 的 kestrel-nightly 任务来出夜间包。", False),
        ("今ちょうど sakura-web のビルドを回しています。", True),
        ("現在は認証に Keycloak 24 を使っています。", False),
        ("私もさっき sakura-db-2 に繋がらなくなりました。", True),
        ("私の担当は決済 API で、在庫まわりは木村さんが見ています。", False),
        ("지금 결제 모듈 테스트 돌리는 중이에요.", True),
        ("요즘 결제 서버는 pay-02 에서 돌리고 있어요.", False),
    ],
)
def test_experience_and_activity_are_bound_to_the_moment_a_present_state_is_not(text: str, moment: bool) -> None:
    assert is_plan_or_guess(text) is moment
