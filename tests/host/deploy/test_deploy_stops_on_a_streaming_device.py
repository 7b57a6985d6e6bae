"""`sagat deploy` against a device that streams bytes and never ends a line (fakedev's ScriptedClock
with stream=b"x"): mpremote's enter_raw_repl empties the input until none is waiting, and reads
until its prompt, checking its time limit only when nothing comes; against a stream both loop for
ever. Deploy's transport puts a byte and a time budget on every operation: one line, soon."""

import os
import subprocess
import sys
import time

import pytest
from fakedev import ScriptedClock

from sagat.deploy.transport import DeployError, MpremoteTransport


@pytest.fixture
def streaming():
    dev = ScriptedClock(stream=b"x")
    yield dev
    dev.close()


def test_entering_the_repl_of_a_streaming_device_stops_within_its_budget(streaming):
    t = MpremoteTransport(streaming.port, repl_s=3.0)
    t0 = time.monotonic()
    try:
        with pytest.raises(DeployError, match="never MicroPython.s raw REPL prompt"):
            t.enter_raw_repl(soft_reset=True)
    finally:
        t.close()
    # the 3 s budget stops it (without one: for ever); the slack is the open and close of the port,
    # generous for a loaded machine
    assert time.monotonic() - t0 < 60
    assert streaming.written > 0  # it did stream


def test_a_slow_stream_stops_at_the_time_budget(tmp_path):
    """A byte every 5 ms never trips the byte budget in time: the time budget stops it."""
    import threading

    dev = ScriptedClock(lambda req: None)
    stop = threading.Event()

    def drip():
        while not stop.is_set():
            try:
                os.write(dev.master, b"y")
            except OSError:
                return
            time.sleep(0.005)

    th = threading.Thread(target=drip, daemon=True)
    th.start()
    t = MpremoteTransport(dev.port, repl_s=2.0)
    t0 = time.monotonic()
    try:
        with pytest.raises(DeployError, match=r"bytes in 2 s, never MicroPython.s raw REPL prompt"):
            t.enter_raw_repl(soft_reset=True)
    finally:
        stop.set()
        t.close()
        dev.close()
    # the 2 s time budget, not the bytes, ended it (at 200 bytes a second they would take minutes;
    # the bound is generous for a loaded machine)
    assert 2 <= time.monotonic() - t0 < 60


def test_deploy_to_a_device_that_streams_without_a_newline_is_one_line_soon(streaming):
    t0 = time.monotonic()
    try:
        run = subprocess.run([sys.executable, "-m", "sagat", "deploy", "--port", streaming.port, "--board", "pico",
                              "--timeout", "1", "--boot-timeout", "4"], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail("deploy ran on for 300 s against a streaming device")
    took = time.monotonic() - t0
    err = run.stderr.strip().splitlines()
    assert run.returncode == 2, run.stderr[-800:]
    assert len(err) == 1 and err[0].startswith("sagat: "), err
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    assert len(run.stdout) < 2000, run.stdout[-500:]  # mpremote's print of what it got is not passed on
    # (most of it: mpy-cross compiling the firmware, 15 s and more on a loaded machine, a minute on a
    # busier one; the device's budgets themselves are seconds)
    assert took < 240, took
