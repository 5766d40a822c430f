"""A sandbox for real-host sessions: its own ``HOME``, a git project, and mimomem installed one of two ways.

The host runs with ``PATH=/usr/bin:/bin``: mimomem's virtual environment is off the agent's
``PATH``, as for a user who installed mimomem in a venv and never activated it there.  The two
install routes a user has:

- ``settings``: ``mimomem install claude-code`` in the project (hooks in ``.claude/settings.json``
  that name this installation by absolute path);
- ``plugin``: ``mimomem install claude-code --plugin DIR``, then ``claude plugin marketplace add
  DIR`` and ``claude plugin install mimomem@mimomem`` (what ``/plugin`` does);
- ``plugin-dir``: the same plugin loaded for each session with ``claude --plugin-dir DIR``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from mimomem.bench.e2e.pinned import pin_project_id
from mimomem.bench.host.binary import Host
from mimomem.errors import HostSessionError, UsageError

ROUTES = ("settings", "plugin", "plugin-dir")
HOST_PATH = "/usr/bin:/bin"
"""The agent's ``PATH``: the system's, without mimomem's virtual environment."""

KEEP_ENV = ("LANG", "LC_ALL", "MIMOMEM_PURE", "TZ")
"""Variables of the calling environment a session keeps (``MIMOMEM_PURE``: the pure pass of the tests)."""


def mimomem_command() -> list[str]:
    """How a user runs this installation: its ``mimomem`` script beside the interpreter, else ``python -m``."""
    script = Path(sys.executable).parent / "mimomem"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "mimomem"]


@dataclass
class Sandbox:
    """``root/home`` (the user's ``HOME``) and ``root/<project>`` (a git repository), for one route."""

    root: Path
    host: Host
    route: str = "settings"
    project_name: str = "shop-api"
    extra_env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.route not in ROUTES:
            raise UsageError(f"unknown install route {self.route!r}; use one of {', '.join(ROUTES)}")

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def project(self) -> Path:
        return self.root / self.project_name

    @property
    def plugin_dir(self) -> Path:
        return self.root / "mimomem-plugin"

    def env(self, base_url: str = "http://127.0.0.1:9") -> dict[str, str]:
        """The host's environment: the sandbox ``HOME``, the stand-in's URL, the system ``PATH`` only."""
        env = {k: v for k, v in os.environ.items() if k in KEEP_ENV}
        home = self.home
        env.update(
            {
                "HOME": str(home),
                "PATH": HOST_PATH,
                "SHELL": "/bin/bash",
                "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_CACHE_HOME": str(home / ".cache"),
                "XDG_DATA_HOME": str(home / ".local" / "share"),
                "XDG_STATE_HOME": str(home / ".local" / "state"),
                "ANTHROPIC_BASE_URL": base_url,
                "ANTHROPIC_API_KEY": "sk-test-stand-in",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
                "GIT_AUTHOR_NAME": "Sandbox",
                "GIT_AUTHOR_EMAIL": "sandbox@example.invalid",
                "GIT_COMMITTER_NAME": "Sandbox",
                "GIT_COMMITTER_EMAIL": "sandbox@example.invalid",
            }
        )
        env.update(self.extra_env)
        return env

    def prepare(self, files: dict[str, str] | None = None, *, install: bool = True) -> Sandbox:
        """Create ``HOME`` and the project (a git repository holding ``files``), then install mimomem
        (``install=False``: another project of this ``HOME`` installed the plugin for the user already)."""
        self.home.mkdir(parents=True, exist_ok=True)
        self.project.mkdir(parents=True, exist_ok=True)
        for rel, text in (files or {"README.md": f"# {self.project_name}\n"}).items():
            path = self.project / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self._run(["git", "init", "-q", "-b", "main"], self.project)
        pin_project_id(self.project / ".git", self.project_name)  # the same id, so the same injected paths, every run
        self._run(["git", "add", "-A"], self.project)
        self._run(["git", "commit", "-q", "-m", "start"], self.project)
        if install:
            self.install()
        return self

    def install(self) -> None:
        """Install mimomem the route's way (run with the sandbox's ``HOME``, as the user would)."""
        if self.route == "settings":
            self._run([*mimomem_command(), "install", "claude-code"], self.project)
            return
        self._run([*mimomem_command(), "install", "claude-code", "--plugin", str(self.plugin_dir)], self.root)
        if self.route == "plugin":
            claude = str(self.host.path)
            self._run([claude, "plugin", "marketplace", "add", str(self.plugin_dir)], self.project)
            self._run([claude, "plugin", "install", "mimomem@mimomem"], self.project)

    def session_args(self) -> list[str]:
        """Arguments each session adds for the route (``--plugin-dir`` for that route)."""
        return ["--plugin-dir", str(self.plugin_dir)] if self.route == "plugin-dir" else []

    def _run(self, argv: list[str], cwd: Path) -> str:
        try:
            done = subprocess.run(
                argv, cwd=cwd, env=self.env(), capture_output=True, text=True, timeout=120, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HostSessionError(f"{' '.join(argv[:4])} could not run in the sandbox: {exc}") from None
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip()[-800:]
            raise HostSessionError(f"{' '.join(argv[:4])} exited {done.returncode} in the sandbox: {said}")
        return done.stdout

    def settle(self, timeout: float = 30.0) -> list[str]:
        """Wait until no process with this sandbox's ``HOME`` runs (a detached digest or pass); those left."""
        deadline = time.monotonic() + timeout
        while True:
            left = processes_with_home(self.home)
            if not left or time.monotonic() >= deadline:
                return left
            time.sleep(0.1)


def processes_with_home(home: Path) -> list[str]:
    """The command lines of running processes whose environment has ``HOME=home`` (Linux ``/proc``)."""
    needle = f"HOME={home}".encode()
    found = []
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or entry.name == str(os.getpid()):
            continue
        try:
            environ = (entry / "environ").read_bytes()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.append(cmdline.replace(b"\0", b" ").decode("utf-8", "replace").strip())
    return [c for c in found if c]
