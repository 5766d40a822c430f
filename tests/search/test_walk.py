"""The walk and the read of the memory files (the reconcile's side on disk)."""

from __future__ import annotations

import os

from mimomem.search import walk


def test_read_text_refuses_a_fifo_without_blocking(tmp_path, without_blocking):
    # walk() skips FIFOs, but a file can be swapped for one before read_text opens it
    fifo = tmp_path / "swapped.md"
    os.mkfifo(fifo)
    outcome = without_blocking(fifo, lambda: walk.read_text(str(fifo), 1000))
    assert isinstance(outcome, OSError) and "regular file" in str(outcome)
