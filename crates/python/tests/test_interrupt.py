"""Ctrl-C during a long call stops it at once and raises KeyboardInterrupt."""

from __future__ import annotations

import _thread
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import gamelab


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt in these tests however they were started: a shell
    starts a background job with SIGINT ignored, and Python then keeps it ignored (and
    `interrupt_main` does nothing), so the long calls below would never stop."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


@pytest.mark.parametrize("python_agent", [False, True])
def test_a_long_match_stops_on_an_interrupt(python_agent):
    a = (lambda p, s: s.choice(p.legal_moves())) if python_agent else "ai14s"
    started = time.monotonic()
    interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        gamelab.match(a, "ai2", games=10**11, progress=False)
    # A bound on a hang, not on speed: the match would take days.
    assert time.monotonic() - started < 120


def test_long_tournaments_and_searches_stop_too():
    interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        gamelab.tournament(["ai2", "ai14s"], games=10**11, progress=False)
    interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        gamelab.diverge("ai2", "ai2", "ai2", limit=10**12, progress=False)


def test_ctrl_c_in_a_real_process():
    script = textwrap.dedent(
        """
        import gamelab, signal, sys
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            print("started", flush=True)
            gamelab.match("ai14s", "ai2", games=10**11, progress=False)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    # Most likely in the match by then; but wherever the interrupt lands inside the
    # `try` (a loaded machine), the outcome is the same.
    time.sleep(0.5)
    os.kill(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=20) == 3
    assert proc.stdout.read().strip() == "interrupted"


def test_progress_is_reported():
    seen = []
    gamelab.match("ai14s", "ai2", games=200_000, threads=1, progress=seen.append)
    assert seen and seen[-1] == 400_000 and seen == sorted(seen)
