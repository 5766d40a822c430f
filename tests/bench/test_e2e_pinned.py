"""A bench run's sandbox paths and project ids are the same in every run (the injected text names them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mimomem.bench.e2e.pinned import OWNER, pinned_root, project_id_for
from mimomem.bench.e2e.replay import Sandbox
from mimomem.tree.project import project_id


def test_two_runs_one_after_the_other_get_the_same_root_and_it_is_removed(tmp_path: Path) -> None:
    with pinned_root("run-", tmp_path) as first:
        (first / "memory.md").write_text("x")
    assert not first.exists()
    with pinned_root("run-", tmp_path) as second:
        assert second == first == tmp_path / "run-0"
        assert (second.stat().st_mode & 0o777) == 0o700


def test_two_runs_at_once_get_two_roots(tmp_path: Path) -> None:
    with pinned_root("run-", tmp_path) as first, pinned_root("run-", tmp_path) as second:
        assert (first.name, second.name) == ("run-0", "run-1")


def test_a_root_left_by_a_dead_run_is_reclaimed_and_one_held_by_a_live_process_is_not(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / "run-0").mkdir()
    (tmp_path / "run-0" / OWNER).write_text(dead.stdout.strip())
    (tmp_path / "run-0" / "left-over").write_text("x")
    with pinned_root("run-", tmp_path) as root:
        assert root == tmp_path / "run-0" and not (root / "left-over").exists()
    (tmp_path / "run-0").mkdir()
    (tmp_path / "run-0" / OWNER).write_text(str(os.getppid()))  # alive: the test's parent
    with pinned_root("run-", tmp_path) as root:
        assert root == tmp_path / "run-1"
    assert (tmp_path / "run-0").exists()


def test_a_replay_project_has_the_id_derived_from_its_name(tmp_path: Path) -> None:
    one = Sandbox(tmp_path / "a").project_dir("lanhai-billing")
    two = Sandbox(tmp_path / "b").project_dir("lanhai-billing")
    assert project_id(one).id == project_id(two).id == project_id_for("lanhai-billing")
    assert project_id_for("tidepool-web") != project_id_for("lanhai-billing")
