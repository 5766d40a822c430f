"""The walk and the read of the memory files (the reconcile's side on disk)."""

from __future__ import annotations

import os

import pytest

from mimomem.search import walk


def test_read_text_refuses_a_fifo_without_blocking(tmp_path):
    # walk() skips FIFOs, but a file can be swapped for one before read_text opens it
    import threading

    fifo = tmp_path / "swapped.md"
    os.mkfifo(fifo)
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(walk.read_text(str(fifo), 1000))
        except OSError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader so the thread ends, then fail
        os.close(os.open(fifo, os.O_WRONLY))
        worker.join(10)
        pytest.fail("read_text blocked on a FIFO")
    assert len(outcome) == 1 and isinstance(outcome[0], OSError) and "regular file" in str(outcome[0])
