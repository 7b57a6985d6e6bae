"""Ctrl-C and the REPL end to end (docs/protocol.md): mpremote itself (its SerialTransport, the code `mpremote` and
`sagat deploy` run) tries to reach the REPL of the sim board over a real pseudo-terminal. The sim
board's serial driver does with the interrupt character what a board's USB CDC / UART driver does
(sagatfw.boards.simserial.SerialDriver): a Ctrl-C let through stops the firmware, as it would drop a board
to its REPL, where the arbiter key's file can be read. With a key set it must never get through."""

import contextlib
import time

import pytest
import serial
from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport
from simkit import KEY, Sim

from sagat.client import Clock

DROPPED = "a board would be at its REPL now"


def _mpremote(port: str) -> None:
    """What `mpremote` does to reach the raw REPL: b"\\r\\x03" (Ctrl-C), b"\\r\\x01" (Ctrl-A),
    then, once the REPL's banner would come, b"\\x04" (soft reset). A clock answers no banner, so
    mpremote gives up (with a read timeout; without one, as `mpremote` opens a port, it waits for
    ever); the soft reset, Ctrl-B and raw-paste bytes follow by hand."""
    t = SerialTransport(port, baudrate=115200, timeout=0.5)
    try:
        with pytest.raises(TransportError, match="could not enter raw repl"):
            t.enter_raw_repl(soft_reset=True, timeout_overall=1.5)
        t.serial.write(b"\x04\r\x02\x05A\x01\r\x03\x03" + b"\x03" * 32)  # soft reset, Ctrl-B, raw paste, pyboard.py
        time.sleep(0.3)
    finally:
        t.close()


def _state(port: str) -> dict:
    s = serial.Serial(port, 115200, timeout=0.2)
    s.write(b"\n")  # a host that connects ends the line the last one left (protocol.md)
    s.close()
    with Clock(port) as c:
        return c.request("state")


def _set_key(port):
    with Clock(port) as c:
        c.request("key.set", key=KEY.hex())


def _keyed(tmp_path, lines):
    """A sim clock with the arbiter key, set on a first boot of its flash (the key file), so a
    real-time script's start never comes before the key (key.set is refused once a game runs)."""
    if lines:
        return Sim(tmp_path, lines, prepare=_set_key)
    sim = Sim(tmp_path, lines)
    _set_key(sim.port)
    return sim


def test_mpremote_cannot_reach_the_repl_of_a_keyed_clock_between_games(tmp_path):
    sim = _keyed(tmp_path, [])
    try:
        _mpremote(sim.port)
        assert sim.proc.poll() is None, sim.proc.stderr.read()  # the firmware still runs
        assert _state(sim.port)["state"] == "setup"
        with Clock(sim.port) as c:
            assert c.request("identify")["repl_open"] is False
    finally:
        sim.stop()
    assert DROPPED not in sim.proc.stderr.read()


def test_mpremote_cannot_stop_a_keyed_clock_during_a_game(tmp_path):
    sim = _keyed(tmp_path, [{"at": 1500, "do": "start"}])
    try:
        sim.wait_until(1700)
        # the start is a real-time script line: on a loaded machine it lands late; wait for it
        deadline = time.monotonic() + 60
        before = _state(sim.port)
        while before["state"] != "running" and time.monotonic() < deadline:
            time.sleep(0.1)
            before = _state(sim.port)
        assert before["state"] == "running"
        _mpremote(sim.port)
        assert sim.proc.poll() is None
        after = _state(sim.port)
        assert after["state"] == "running" and after["left"]["ms"] <= before["left"]["ms"] - 1500  # kept time
    finally:
        sim.stop()


def test_after_maintenance_mpremote_reaches_the_repl(tmp_path):
    sim = _keyed(tmp_path, [])
    try:
        with Clock(sim.port) as c:
            with pytest.raises(Exception, match="auth_required"):
                c.request("maintenance")  # no proof: refused
        with Clock(sim.port, key=KEY) as c:
            assert c.request("maintenance", auth=True)["repl_open"] is True
        _mpremote_reaches_the_repl(sim)
    finally:
        if sim.proc.poll() is None:
            sim.stop()
    assert DROPPED in sim.proc.stderr.read()


def test_without_a_key_mpremote_reaches_the_repl_between_games_as_before(tmp_path):
    sim = Sim(tmp_path, [])
    try:
        assert _state(sim.port)["state"] == "setup"
        _mpremote_reaches_the_repl(sim)
    finally:
        if sim.proc.poll() is None:
            sim.stop()
    assert DROPPED in sim.proc.stderr.read()


def _mpremote_reaches_the_repl(sim):
    """mpremote's own enter_raw_repl: the sim has no REPL to show, so its firmware stops (as a
    board's would drop to the REPL) and the pty goes away under mpremote."""
    t = SerialTransport(sim.port, baudrate=115200, timeout=0.5)
    try:
        with pytest.raises((TransportError, serial.SerialException)):
            t.enter_raw_repl(soft_reset=True, timeout_overall=1.5)
    finally:
        with contextlib.suppress(OSError):  # the pty is gone with the sim
            t.close()
    sim.proc.wait(timeout=60)  # (its exit: a loaded machine's may take a while)
