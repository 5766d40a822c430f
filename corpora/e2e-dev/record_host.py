"""Record the dev set's transcripts from the real Claude Code, for the replay: ``python record_host.py OUT``.

Plays every session of this dev set through the CLI bundled in the ``claude-agent-sdk`` wheel
(``pip install 'mimomem[host]'``) and writes a dev set of the same layout into ``OUT`` (the host's
own transcripts, a manifest, the questions).  Then ``mimomem bench --e2e OUT`` replays what the real
host wrote, beside ``mimomem bench --e2e`` (this directory's transcripts, written by build.py) and
``mimomem bench --e2e --host claude-code`` (the questions asked through the host itself).
"""

from __future__ import annotations

import sys
from pathlib import Path

from mimomem.bench.host.record import record_devset

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python record_host.py OUT  (a new directory)")
    manifest = record_devset(Path(__file__).resolve().parent, Path(sys.argv[1]), progress=print)
    print(f"wrote {manifest}")
