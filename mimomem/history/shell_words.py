"""The vocabulary of the shell data-flow check (history/shell_flow.py): which programs fetch, which
run code, which run the program named after them, and which options of theirs take a value.

These are facts about the programs' command-line syntax, not spellings of unsafe commands: the flow
check decides from the parse where fetched content goes.
"""

from __future__ import annotations

import os
import re

FETCHERS = frozenset(
    [
        "curl",
        "wget",
        "fetch",
        "aria2c",
        "http",
        "https",
        "httpie",
        "xh",
        "iwr",
        "irm",
        "invoke-webrequest",
        "invoke-restmethod",
        "lwp-request",
        "GET",
    ]
)
SHELLS = frozenset(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh", "yash"])
INTERPRETERS = SHELLS | frozenset(
    [
        "python",
        "python2",
        "python3",
        "pypy",
        "pypy3",
        "perl",
        "ruby",
        "node",
        "nodejs",
        "php",
        "pwsh",
        "powershell",
        "deno",
        "bun",
        "lua",
        "tclsh",
        "osascript",
        "iex",
        "invoke-expression",
        "source",
        ".",
        "eval",
        "exec",
    ]
)
WRAPPERS = frozenset(
    [
        "sudo",
        "doas",
        "env",
        "nohup",
        "time",
        "command",
        "builtin",
        "exec",
        "nice",
        "ionice",
        "stdbuf",
        "xargs",
        "timeout",
        "chroot",
        "su",
        "busybox",
        "setsid",
        "unbuffer",
        "runuser",
        "script",
    ]
)
"""Programs that run the program named after them (and their options)."""
VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "-C", "-P", "--unset", "--chdir"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p", "--class", "--classdata"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "xargs": frozenset({"-n", "-I", "-L", "-P", "-d", "-E", "-s", "-a", "--max-args", "--delimiter", "--arg-file"}),
    "chroot": frozenset({"--userspec", "--groups"}),
    "su": frozenset({"-s", "-g", "-G", "--shell", "--group"}),
    "runuser": frozenset({"-u", "-s", "-g", "-G", "--user", "--shell", "--group"}),
    "time": frozenset({"-f", "-o", "--format", "--output"}),
    "script": frozenset({"-c", "--command"}),
}
"""Options of a wrapper that take the next word as their value (``sudo -u deploy bash``); ``env -S`` takes
the command line itself (``env -S bash -e``, ``env -S 'bash -e'``)."""
INTERPRETER_VALUE_OPTIONS = frozenset(
    {"-o", "-O", "+O", "+o", "-W", "-X", "-I", "-r", "--rcfile", "--init-file", "-ExecutionPolicy"}
)
"""Options of an interpreter that take a value (``bash -o pipefail``, ``python3 -W ignore``)."""
CODE_FLAGS = frozenset({"-c", "-e", "--eval", "-E", "--command", "-command", "-Command", "--print"})
"""An interpreter given its code as the next argument (``python3 -c CODE``, ``perl -e CODE``); a shell's
only code flag is ``-c`` (alone or last of a cluster, ``-lc``): its ``-e`` is errexit."""
OWN_CODE_FLAGS = {"php": frozenset({"-r"}), "node": frozenset({"-p"}), "nodejs": frozenset({"-p"})}
"""Code flags one interpreter has and others spell as something else (``php -r CODE``, ``ruby -r LIB``)."""
MODULE_FLAGS = frozenset({"-m"})
STDIN_SCRIPTS = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
EXTRACTORS = frozenset(["tar", "unzip", "gunzip", "bunzip2", "unxz", "7z", "7za", "bsdtar", "cpio", "unrar", "zcat"])
COPIERS = frozenset(["cp", "mv", "install", "ln", "rsync"])
SHELL_VARIABLES = frozenset(["SHELL", "BASH", "ZSH_NAME"])
"""Parameters naming a shell (``curl … | "$SHELL"``)."""
REMOTE = frozenset(["ssh"])
CMD_SHELLS = frozenset(["cmd", "cmd.exe"])
"""Windows' shell: ``cmd /c CODE`` (``/k`` keeps it open) runs its code string."""
SSH_VALUE_OPTIONS = frozenset(
    {"-p", "-i", "-l", "-o", "-J", "-F", "-b", "-c", "-D", "-E", "-e", "-I", "-L", "-m", "-O", "-Q", "-R", "-S"}
    | {"-W", "-w"}
)
_VERSIONED = re.compile(r"^(python|pypy|pip|perl|ruby|node|php|lua)[0-9.]*$")
ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def program(word: str) -> str:
    """The program a command word names: basename, version suffix and ``.exe`` folded (``/usr/bin/python3.12``
    -> python, ``powershell.exe`` -> powershell)."""
    base = os.path.basename(word.strip("\"'")) or word
    base = base[:-4] if base.casefold().endswith(".exe") else base  # Windows' powershell.exe, python.exe
    found = _VERSIONED.match(base)
    return found.group(1) if found else base.casefold()
