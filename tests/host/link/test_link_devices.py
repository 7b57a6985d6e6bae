"""The host against what a newcomer's port may have behind it: MicroPython
without sagat, a device that echoes, one that never answers, a clock with a stale answer or a
partial line on its link. Each is one clear line, within the timeout."""

import json
import time

import pytest
from fakedev import FakeDevice
from simkit import Sim

from sagat import client
from sagat.cli import main


@pytest.fixture
def device(request):
    dev = FakeDevice(request.param)
    yield dev
    dev.close()


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("device", ["repl"], indirect=True)
def test_info_on_micropython_without_sagat_says_deploy(device, capsys):
    t0 = time.monotonic()
    assert main(["info", "--port", device.port, "--timeout", "60"]) == 2
    line = _one_line(capsys)
    assert "runs MicroPython without sagat" in line and "sagat deploy" in line, line
    assert "refused" not in line
    # the prompt says it at once, no timeout needed: well inside a timeout long enough that a
    # loaded machine's own slowness can never reach it
    assert time.monotonic() - t0 < 50


@pytest.mark.parametrize("device", ["echo"], indirect=True)
def test_info_on_an_echoing_device_is_not_a_sagat_clock(device, capsys):
    assert main(["info", "--port", device.port]) == 2
    line = _one_line(capsys)
    assert "is not a sagat clock" in line and "echoes" in line, line


@pytest.mark.parametrize("device", ["silent"], indirect=True)
def test_info_on_a_silent_device_times_out_in_one_line(device, capsys):
    t0 = time.monotonic()
    assert main(["info", "--port", device.port, "--timeout", "0.5"]) == 2
    line = _one_line(capsys)
    assert line.startswith("sagat: no answer from the clock on " + device.port), line
    assert time.monotonic() - t0 < 60  # the timeout ends it (without one: for ever)


def test_port_errors_are_one_line_without_repeated_errno(capsys):
    assert main(["info", "--port", "/dev/no-such-sagat-port"]) == 2
    line = _one_line(capsys)
    assert line.startswith("sagat: cannot open /dev/no-such-sagat-port: No such file or directory"), line
    assert line.count("Errno") == 0 and line.count("/dev/no-such-sagat-port") == 1, line


@pytest.mark.parametrize("device", ["stale"], indirect=True)
def test_a_stale_answer_is_never_taken_for_a_new_one(device, capsys):
    """A late answer with id 1 (an earlier connection's identify) before each real answer: `sagat
    state` prints the clock's real state, never the stale answer as `0:00.000 ... None-None`."""
    assert main(["state", "--port", device.port, "--json"]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["state"] == "paused" and st["left"]["moves"] == 7
    # and ids are fresh per connection: two connections do not both start at 1
    with client.Clock(device.port) as a:
        first = a.send("state")
    with client.Clock(device.port) as b:
        second = b.send("state")
    assert first != 1 and second != 1 and first != second


@pytest.mark.parametrize("device", ["partial"], indirect=True)
def test_a_partial_line_on_the_link_is_ended_by_the_leading_newline(device, capsys):
    t0 = time.monotonic()
    assert main(["state", "--port", device.port, "--timeout", "60"]) == 0, capsys.readouterr().err
    assert "7-6" in capsys.readouterr().out
    assert time.monotonic() - t0 < 50  # answered, not waited out (the 60 s timeout)


def test_old_input_is_flushed_on_open():
    dev = FakeDevice("silent")
    try:
        import os

        # an answer that waited in the port since an earlier host, with the id a new host used to take
        os.write(dev.master, b'{"id":1,"ok":true,"state":"finished"}\n')
        time.sleep(0.1)
        with client.Clock(dev.port, timeout=0.5) as c:
            with pytest.raises(client.LinkError, match="no answer"):
                c.wait(1, "state")  # even the old id is not answered by what was there before
    finally:
        dev.close()


def test_the_sim_answers_after_a_partial_line_left_by_an_earlier_host(tmp_path, capsys):
    """The real firmware: an earlier host (an mpremote attempt) left half a line on the link."""
    import serial

    sim = Sim(tmp_path, [])
    try:
        with serial.Serial(sim.port, 115200, timeout=0.2) as s:
            s.write(b'{"id":1,"cmd":"sta')
        t0 = time.monotonic()
        assert main(["state", "--port", sim.port, "--timeout", "60"]) == 0, capsys.readouterr().err
        assert "setup" in capsys.readouterr().out
        assert time.monotonic() - t0 < 50  # answered, not waited out (the 60 s timeout)
    finally:
        sim.stop()


@pytest.mark.parametrize("device", ["echo"], indirect=True)
def test_deploy_to_an_echoing_device_is_one_line_at_once(device, capsys):
    t0 = time.monotonic()
    assert main(["deploy", "--port", device.port, "--board", "pico", "--timeout", "1"]) == 2
    line = _one_line(capsys)
    assert line.startswith(f"sagat: {device.port} is not a MicroPython board: it echoes"), line
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("device", ["silent"], indirect=True)
def test_deploy_to_a_silent_device_gives_up_in_one_line(device, capsys):
    """Before: mpremote read the pty with no timeout and deploy hung for ever."""
    t0 = time.monotonic()
    assert main(["deploy", "--port", device.port, "--board", "pico", "--timeout", "1"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "is not a MicroPython board" in err[0], err
    assert "internal error" not in captured.err and "b''" not in captured.out
    assert time.monotonic() - t0 < 60  # its REPL wait (10 s) and reads end it: a bound, not a race with load
