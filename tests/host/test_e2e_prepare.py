"""The host bench's sandbox holds what the replay's does: host memory files where Claude Code keeps them."""

from __future__ import annotations

from pathlib import Path

from mimomem.bench.e2e.dataset import load_devset
from mimomem.bench.e2e.run import default_devset
from mimomem.bench.host.binary import Host
from mimomem.bench.host.e2e import prepare_projects
from mimomem.tree.host_paths import claude_memory_dir


def test_each_projects_host_memory_is_in_its_claude_code_memory_folder(tmp_path: Path) -> None:
    devset = load_devset(default_devset())
    host = Host(Path("/nonexistent/claude"), "0")  # the settings route never runs the binary to install
    boxes = prepare_projects(tmp_path, host, "settings", devset)
    for project, box in boxes.items():
        folder = Path(claude_memory_dir(str(box.project), box.env()) or "")
        assert folder.is_relative_to(box.home / ".claude" / "projects")
        for file in devset.host_memory(project):
            assert (folder / file.name).read_bytes() == file.read_bytes()
