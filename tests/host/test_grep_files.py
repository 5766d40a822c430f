"""The files a recorded grep searched, rebuilt from its output (bench/host/grep_files.py; no host needed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mimomem.bench.host.grep_files import put_searched_files, searched_files
from mimomem.bench.host.scenario import load_scenarios

CASES = [
    ("grep -rn MAX_UPLOAD src/", "src/app/settings.py:42:MAX_UPLOAD_MB = 25\nsrc/app/views.py:9:import MAX_UPLOAD_MB"),
    ("grep -n publicPath webpack.config.js", "17:    publicPath: 'https://cdn.example/static/',"),
    ("grep DB_POOL deploy/prod.env", "DB_POOL=40"),
    ("grep -rl api_upstream conf", "conf/sites/api.conf"),
    ("grep -r timeout config", "config/app.yml:  read_timeout: 45s"),
]


def test_each_output_shape_names_the_files_and_lines_searched() -> None:
    assert searched_files(*CASES[0]) == {
        "src/app/settings.py": {42: "MAX_UPLOAD_MB = 25"},
        "src/app/views.py": {9: "import MAX_UPLOAD_MB"},
    }
    assert searched_files(*CASES[1]) == {"webpack.config.js": {17: "    publicPath: 'https://cdn.example/static/',"}}
    assert searched_files(*CASES[2]) == {"deploy/prod.env": {1: "DB_POOL=40"}}
    assert searched_files(*CASES[3]) == {"conf/sites/api.conf": {1: "api_upstream"}}
    assert searched_files("grep -rl x /etc/nginx", "/etc/nginx/a.conf") == {}  # never outside the project
    assert searched_files("grep -n x ../other/f", "3:x") == {}
    assert searched_files("pnpm test", "ok") == {}


@pytest.mark.parametrize(("command", "output"), CASES)
def test_a_real_grep_over_the_rebuilt_files_prints_the_recorded_output(
    tmp_path: Path, command: str, output: str
) -> None:
    (tmp_path / "webpack.config.js").write_text("module.exports = {\n  mode: 'production',\n}\n")  # kept, not lost
    put_searched_files(tmp_path, command, output)()
    ran = subprocess.run(["bash", "-c", f"LC_ALL=C {command}"], cwd=tmp_path, capture_output=True, text=True)
    assert sorted(ran.stdout.splitlines()) == sorted(output.splitlines())
    if "webpack" in command:
        assert "mode: 'production'" in (tmp_path / "webpack.config.js").read_text()


def test_a_scenarios_grep_call_writes_its_files_before_it_runs(tmp_path: Path) -> None:
    devset = Path(__file__).resolve().parents[2] / "corpora" / "capture" / "e2e-found-dev"
    (scenario,) = [s for s in load_scenarios(devset, tmp_path, tmp_path / "home") if s.name == "fd07-1"]
    (step,) = [s for t in scenario.script.turns for s in t.steps if s.tools[0].name == "Bash"]
    assert step.before is not None
    step.before()
    assert "MAX_UPLOAD_MB = 25" in (tmp_path / "gannet" / "src/gannet/settings.py").read_text()
