"""The host side of the link: finding clocks by USB id, opening a port without resetting an ESP32,
the progress bar, and the `sagat` commands against the simulator as a new user types them."""

import json
import os
import subprocess
import sys
import types

import pytest
from simkit import Sim

from sagat import client, pull
from sagat.cli import main


def _port(device, vid, pid, serial_number="E66"):
    return types.SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial_number)


def test_ports_are_found_by_usb_id(monkeypatch, capsys):
    from serial.tools import list_ports

    fake = [
        _port("/dev/ttyACM0", 0x2E8A, 0x0005),  # Raspberry Pi Pico (MicroPython)
        _port("/dev/ttyUSB0", 0x10C4, 0xEA60),  # CP2102 on an ESP32 DevKit
        _port("/dev/ttyUSB1", 0x1A86, 0x7523),  # CH340
        _port("/dev/ttyACM1", 0x303A, 0x1001),  # Espressif native USB
        _port("/dev/ttyUSB2", 0x0403, 0x6001),  # an FTDI cable: not a clock
        _port("/dev/ttyS0", None, None),  # a built-in UART
    ]
    monkeypatch.setattr(list_ports, "comports", lambda: fake)
    found = client.find_ports()
    assert [p.device for p in found] == ["/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyUSB1", "/dev/ttyACM1"]
    assert main(["ports", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["board"].startswith("Raspberry Pi")
    with pytest.raises(client.LinkError, match="several clocks"):
        client.pick_port(None)
    monkeypatch.setattr(list_ports, "comports", lambda: fake[4:])
    with pytest.raises(client.LinkError, match="no clock found"):
        client.pick_port(None)
    assert main(["info"]) == 2
    assert capsys.readouterr().err.strip().startswith("sagat: no clock found on USB")


def test_opening_a_port_holds_dtr_and_rts_low(monkeypatch):
    import serial

    seen = []

    class FakeSerial:
        def __init__(self):
            self._dtr = self._rts = True  # pyserial's defaults

        def __setattr__(self, name, value):
            if name in ("dtr", "rts"):
                seen.append((name, value))
            object.__setattr__(self, name, value)

        def open(self):
            seen.append(("open", (self.dtr, self.rts)))

        in_waiting = 0

        def reset_input_buffer(self):
            pass

        def write(self, data):
            pass

        def flush(self):
            pass

        def close(self):
            pass

    monkeypatch.setattr(serial, "Serial", FakeSerial)
    client.Clock("/dev/ttyUSB0").close()
    seen = [x for x in seen if x[0] != "in_waiting"]
    assert seen[-1] == ("open", (False, False))  # both low before the port opens: no ESP32 reset
    assert ("dtr", False) in seen[:-1] and ("rts", False) in seen[:-1]


def test_progress_bar(capsys):
    bar = pull.Progress(200, enabled=True)
    bar.update(50)
    bar.update(200)
    bar.finish()
    err = capsys.readouterr().err
    assert "50/200 records" in err and "200/200 records" in err and "#" * 30 in err


def test_commands_against_the_simulator(tmp_path, capsys):
    sim = Sim(tmp_path, [])
    port = sim.port
    try:
        assert main(["info", "--port", port, "--json"]) == 0
        info = json.loads(capsys.readouterr().out)
        assert info["board"] == "sim" and info["protocol"] == 2
        assert main(["settings", "--port", port, "low_time_ms=120000", "sound=false"]) == 0
        out = capsys.readouterr().out
        assert "low_time_ms = 120000" in out and "sound = false" in out
        assert main(["settings", "--port", port, "low_time_ms=-5"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == ["sagat: settings: low_time_ms is 0..360000000, not -5"]  # checked before asking
        assert main(["settings", "--port", port, "tc=300+"]) == 2  # a control the clock itself judges
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("sagat: clock refused settings.set: bad_arg")
        assert main(["presets", "push", "0", "club", "600+5", "--port", port]) == 0
        capsys.readouterr()
        assert main(["presets", "--port", port]) == 0
        assert "slot 0: club" in capsys.readouterr().out
        assert main(["new", "tk-rapid", "--first", "right", "--port", port]) == 0  # TK-B3 rapid
        capsys.readouterr()
        assert main(["watch", "--port", port, "--count", "3", "--interval", "0.05", "--json"]) == 0
        states = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        assert len(states) == 3 and states[0]["right"]["ms"] == 1200000 and states[0]["first"] == "right"
        assert main(["sync-time", "--port", port]) == 0
        assert main(["state", "--port", port]) == 0
        assert "20:00.000" in capsys.readouterr().out
        assert main(["new", "300+", "--port", port]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == ["sagat: bad TimeControl '300+': missing increment seconds in stage 1 '300+'"]
    finally:
        try:  # the pty held open here while it goes, so its number is not another test's new pty (one
            held = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)  # answering) when we ask
        except OSError:
            held = None
        sim.stop()
    try:
        assert main(["state", "--port", port, "--timeout", "0.5"]) == 2  # the clock is gone: one line
    finally:
        if held is not None:
            os.close(held)
    assert capsys.readouterr().err.count("\n") == 1


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))


def test_erase_only_what_a_pull_saved_and_verifies(tmp_path, capsys):
    from sagat.sim import runners

    flash = tmp_path / "flash.img"
    lines = [{"at": 0, "do": "new", "tc": "-"}, {"at": 0, "do": "start"}]
    for i in range(300):  # three segments of records
        lines.append({"at": 1000 * (i + 1), "do": "press", "side": "left" if i % 2 == 0 else "right"})
    lines += [
        {"at": 400000, "do": "result", "result": "1/2-1/2"},
        {"at": 401000, "do": "new", "tc": "420"},
        {"at": 402000, "do": "start"},  # game 2 in progress
    ]
    script = tmp_path / "s.jsonl"
    script.write_text("".join(json.dumps(x) + "\n" for x in lines))
    runners.run_script(str(script), str(flash), virtual=True, echo=lambda *a, **k: None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sagat", "sim", "--serial", "--headless", "--flash", str(flash)],
        stderr=subprocess.PIPE, text=True,
    )
    port = proc.stderr.readline().split()[-1]
    out = tmp_path / "pulled"
    try:
        assert main(["logs", "erase", "--port", port, "--pulled", str(out)]) == 2  # nothing pulled yet
        assert "erase needs a pull" in capsys.readouterr().err
        assert main(["logs", "pull", "--port", port, "--out", str(out)]) == 0
        capsys.readouterr()
        assert main(["logs", "erase", "--port", port, "--pulled", str(out), "--json"]) == 0
        done = json.loads(capsys.readouterr().out)
        assert done["erased_segments"] >= 1 and done["first"] > 0
        with client.Clock(port) as c:
            info = c.request("log.info")
            st = c.request("state")
        # game 2 untouched: restored paused when this boot found it in progress (TK-C18)
        assert info["first"] == done["first"] and st["state"] == "paused" and st["game"] == 2
        assert main(["logs", "pull", "--port", port, "--out", str(out)]) == 0  # pulls go on
        capsys.readouterr()
        meta = json.loads((out / "clock.json").read_text())
        (out / "clock.json").write_text(json.dumps(dict(meta, uid="another-clock")))
        assert main(["logs", "erase", "--port", port, "--pulled", str(out)]) == 2
        assert "was not pulled from this clock" in capsys.readouterr().err
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_pull_keeps_a_gap_in_the_clocks_log_a_gap(tmp_path, capsys):
    """A record missing on the clock (e.g. lost from a full RAM backlog) is never papered over:
    the pull writes every record once, and verify names the gap."""
    from imagekit import edit_image, make_image

    from sagatfw.log import records as R

    image = make_image(tmp_path / "a.img")

    def drop(segs):
        name = sorted(segs)[0]
        del segs[name][6 * R.RECORD_SIZE : 7 * R.RECORD_SIZE]  # seq 5 is gone (after the segment's anchor)

    flash = edit_image(image, tmp_path / "gap.img", drop)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sagat", "sim", "--serial", "--headless", "--flash", flash],
        stderr=subprocess.PIPE, text=True,
    )
    port = proc.stderr.readline().split()[-1]
    out = tmp_path / "pulled"
    try:
        assert main(["logs", "pull", "--port", port, "--out", str(out)]) == 0
        capsys.readouterr()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    data = (out / "records.bin").read_bytes()
    seqs = [R.seq_of(data[i : i + 64]) for i in range(0, len(data), 64) if data[i + 1] != R.T_ANCHOR]
    assert 5 not in seqs and len(seqs) == len(set(seqs)) and seqs == sorted(seqs)
    assert main(["logs", "verify", "--records", str(out / "records.bin")]) == 1
    assert "missing: seq 5..5 missing" in capsys.readouterr().out


def test_key_and_call_commands(tmp_path, capsys):
    sim = Sim(tmp_path, [])
    port = sim.port
    try:
        assert main(["key", "s3cret", "--port", port]) == 0
        assert "arbiter key set" in capsys.readouterr().out
        assert main(["new", "60", "--port", port, "--key", "s3cret"]) == 0
        assert main(["call", "start", "--port", port, "--key", "s3cret"]) == 0
        capsys.readouterr()
        assert main(["call", "pause", "by=arbiter", "--port", port]) == 2  # no key: refused, one line
        assert "auth_required" in capsys.readouterr().err
        assert main(["call", "pause", "by=arbiter", "--port", port, "--key", "s3cret", "--json"]) == 0
        capsys.readouterr()
        assert main(["call", "adjust", "side=left", "ms=30000", "--port", port, "--key", "s3cret"]) == 0
        capsys.readouterr()
        assert main(["state", "--port", port, "--json"]) == 0
        st = json.loads(capsys.readouterr().out)
        assert st["state"] == "paused" and st["left"]["ms"] == 30000
        assert main(["key", "other", "--port", port, "--key", "s3cret"]) == 2  # a game is in progress
        assert "refused" in capsys.readouterr().err
    finally:
        sim.stop()


def test_stopping_sagat_sim_stops_the_sim_board(tmp_path):
    import os
    import time

    sim = Sim(tmp_path, [])
    with client.Clock(sim.port) as c:
        assert c.request("identify")["board"] == "sim"
    sim.stop()

    def boards():
        found = []
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    if sim.flash.encode() in fh.read():
                        found.append(pid)
            except OSError:
                continue
        return found

    deadline = time.monotonic() + 30
    while boards() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert boards() == []  # no sim board left running on its own


def test_info_is_an_ordered_readable_summary_and_json_for_scripts(tmp_path, capsys):
    sim = Sim(tmp_path, [])
    try:
        assert main(["info", "--port", sim.port]) == 0
        out = capsys.readouterr().out.splitlines()
        labels = [line.split("  ")[0] for line in out]
        assert labels[:6] == ["firmware", "board", "id", "battery", "heap", "game"], out
        assert out[0].split(None, 1)[1].startswith("sagat ") and "protocol 2" in out[0]
        assert out[1].endswith("sim") and "100 %" in out[3] and "KB used" in out[4]
        assert "setup" in out[5] and "arbiter key" in labels
        assert not any(": {" in line or "['" in line for line in out)  # no raw dicts or lists
        assert main(["info", "--port", sim.port, "--json"]) == 0
        info = json.loads(capsys.readouterr().out)
        assert info["board"] == "sim" and info["game"]["state"] == "setup" and "commands" in info
    finally:
        sim.stop()
