"""The failures section (passes/failure_items.py): each failure with its fix and its stated cause."""

from __future__ import annotations

from transcript_build import Build

from mimomem.passes.promote_items import FAILURES, RULES, items_of

SID = "fa11ed00-0000-4000-8000-000000000001"


def _failures(b: Build) -> list[str]:
    return [i.text for i in items_of(b.episode) if i.section == FAILURES]


def test_the_models_diagnosis_is_kept_with_the_failure_and_its_fix() -> None:
    b = Build(SID).bash("cargo test", "error: linking with `cc` failed: exit status: 1", ok=False)
    b.say(
        "The link error comes from rusqlite linking the system libsqlite3; the bundled feature builds it from source."
    )
    b.bash("cargo test --features bundled", "test result: ok")
    (item,) = _failures(b)
    assert "bundled feature" in item and "--features bundled" in item and item.startswith("`cargo test` failed")
    assert not [i for i in items_of(b.episode) if i.section == RULES]


def test_an_edit_of_several_lines_is_told_by_the_line_it_added_or_changed() -> None:
    b = Build(SID).bash("npx vitest run api", "close timed out after 10000ms", ok=False)
    b.edit(
        "/r/test/setup.ts",
        "teardown() {\n  await server.close();\n}",
        "teardown() {\n  await server.close();\n  await redis.quit();\n}",
    )
    b.edit("/r/.env", "DB_HOST=localhost\nDB_PORT=5432", "DB_HOST=127.0.0.1\nDB_PORT=5432")
    b.bash("npx vitest run api", "Tests 141 passed")
    (item,) = _failures(b)
    assert "added `await redis.quit();`" in item and "`DB_HOST=localhost` -> `DB_HOST=127.0.0.1`" in item


def test_the_diagnosis_is_read_from_its_place_without_a_reason_word_or_a_term_of_the_fix() -> None:
    b = Build(SID).bash("npx vitest run api", "close timed out after 10000ms", ok=False)
    b.say("The ioredis client the fixtures open is still connected when the suite ends.")
    b.say("Let me look at the teardown.")  # a plan: never a cause
    b.edit("/r/test/setup.ts", "teardown() {\n  x();\n}", "teardown() {\n  x();\n  await redis.quit();\n}")
    b.bash("npx vitest run api", "Tests 141 passed")
    b.say("All green now.")
    (item,) = _failures(b)
    assert "cause (agent): The ioredis client" in item and "Let me" not in item and "All green" not in item


def test_a_fix_after_which_the_command_failed_again_is_no_fix() -> None:
    b = Build(SID).bash("pip install -r requirements.txt", "error: Building wheel for pyarrow failed", ok=False)
    b.say("应该是缺 wheel 包，先装上。")
    b.bash("pip install wheel", "Successfully installed wheel-0.45.1")
    b.bash("pip install -r requirements.txt", "error: Building wheel for pyarrow failed", ok=False)
    assert not [i for i in items_of(b.episode) if "pip install wheel" in i.text or "缺 wheel" in i.text]


def test_a_corrected_typo_is_no_lesson_and_a_changed_version_is() -> None:
    b = Build(SID).bash("npm run tset", 'npm ERR! Missing script: "tset"', ok=False).bash("npm run test", "88 passed")
    b.bash("python -m pytest tests/test_paser.py", "ERROR: file not found", ok=False)
    b.bash("python -m pytest tests/test_parser.py", "9 passed")
    assert not _failures(b)
    b = Build(SID).bash("pip install foo==1.2.3", "error: no matching distribution", ok=False)
    b.bash("pip install foo==1.2.4", "Successfully installed foo-1.2.4")
    (item,) = _failures(b)
    assert "1.2.4" in item


def test_a_flag_added_or_dropped_is_named_as_the_fix() -> None:
    b = Build(SID).bash("go test -race ./...", 'cgo: C compiler "gcc" not found', ok=False)
    b.bash("go test ./...", "ok  pelican/ingest")
    b.bash("python -m tern.load data/orders.parquet", "Killed", ok=False)
    b.bash("python -m tern.load data/orders.parquet --batch-size 500 --no-cache", "loaded")
    without, added = sorted(_failures(b))
    assert "without `-race`" in without and "added `--batch-size 500 --no-cache`" in added


def test_the_cause_the_user_stated_is_kept_in_the_users_words() -> None:
    b = Build(SID).bash("npm publish", "npm ERR! 403 Forbidden - You do not have permission to publish", ok=False)
    b.user("包名得带 scope 才有权限，改成 @tern/sdk 再发")
    b.edit("/r/package.json", '"name": "tern-sdk",', '"name": "@tern/sdk",')
    b.bash("npm publish --access public", "+ @tern/sdk@1.4.0")
    (item,) = _failures(b)
    assert "cause (user): 包名得带 scope 才有权限" in item and "@tern/sdk" in item


def test_a_reported_problem_fixed_by_an_option_the_model_named_first() -> None:
    b = Build(SID).user("プレビュー画面が鏡に映したみたいに逆になってます")
    b.say("フロントカメラの映像をそのまま描画しているためです。--no-mirror を渡すと正しい向きで描かれます。")
    b.bash("npm run preview -- --no-mirror", "preview server running")
    (item,) = _failures(b)
    assert "--no-mirror" in item and "ran `npm run preview -- --no-mirror`" in item


def test_a_reaction_is_no_reported_problem() -> None:
    b = Build(SID).user("很好。对账任务每天 02:30 跑，cron 配在 deploy/cron/reconcile.cron。")
    b.edit("/r/deploy/cron/reconcile.cron", "# reconcile", "30 2 * * * run reconcile")
    b.say("已配置 cron：每天 02:30 运行。")
    assert not _failures(b)


def test_a_command_whose_options_the_model_named_only_after_it_ran_is_no_fix() -> None:
    b = Build(SID).user("the staging pods keep restarting")
    b.bash("kubectl get pods -n staging", "api-7c4  0/1  CrashLoopBackOff")
    b.say("The api pods in staging are in CrashLoopBackOff.")
    assert not _failures(b)


def test_a_why_question_answered_with_a_cause_and_an_edit_is_a_failure_and_fixed() -> None:
    b = Build(SID).user("为什么日志每行都打印两次？")
    b.say("root logger 和 app logger 都挂了 StreamHandler，app logger 设 propagate = False 就不会重复。")
    b.edit("/r/app/log.py", 'log = getLogger("app")', 'log = getLogger("app")\nlog.propagate = False')
    (item,) = _failures(b)
    assert item.startswith("为什么日志每行都打印两次") and "propagate" in item
    b = Build(SID).user("how many workers does the api run?")
    b.say("The api runs 8 workers; I set worker_count to 8 in the config.")
    b.edit("/r/config.yaml", "worker_count: 4", "worker_count: 8")
    assert not _failures(b)  # a question, but not for a cause
