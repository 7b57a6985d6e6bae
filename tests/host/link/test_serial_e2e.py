"""End to end over a real pseudo-terminal: the firmware under MicroPython on the sim board answers
on its pty like a board on /dev/ttyACM0, and the host package drives it through pyserial."""

import base64
import json
import os
import random
import time

import pytest
import serial
from simkit import KEY, Sim

from sagat.cli import main
from sagat.client import Clock, LinkError
from sagatfw.core.ticks import ticks_diff
from sagatfw.link import wire as W
from sagatfw.log import records as R

START_AT = 1500  # ms after the boot that plays the script (the host syncs its time meanwhile)


GAME = [
    {"at": START_AT, "do": "start"},
    {"at": START_AT + 700, "do": "press", "side": "left"},
    {"at": START_AT + 1500, "do": "press", "side": "right"},
    {"at": START_AT + 2100, "do": "press", "side": "left"},
    {"at": START_AT + 2600, "do": "press", "side": "right"},
    {"at": START_AT + 3000, "do": "pause", "by": "left"},
]


def _configure(port):
    with Clock(port, key=KEY) as c:
        ident = c.request("identify")
        assert ident["protocol"] == W.PROTOCOL and ident["board"] == "sim"
        c.request("key.set", key=KEY.hex())  # no game in progress: the arbiter sets the key
        c.request("new", auth=True, tc="60+2", first="left")


def test_configure_play_pull_verify(tmp_path, capsys):
    # the key and the game are set on a first boot (kept on the flash), so the script's start can
    # never come before them; the time sync is the running boot's own (RAM): it is meant to land
    # before the start, and wherever it lands, every record from it on carries the wall time
    sim = Sim(tmp_path, GAME, prepare=_configure)
    try:
        with Clock(sim.port, key=KEY) as c:
            c.request("time.sync", auth=True, wall_ms=int(time.time() * 1000))
        sim.wait_until(START_AT + 3400)
        with Clock(sim.port, key=KEY) as c:
            # the script runs in real time: on a loaded machine its last line may land late, so
            # wait for the pause it makes (a bound, not a guess that the sim got there first)
            deadline = time.monotonic() + 60
            st = c.request("state")
            while st["state"] != "paused" and time.monotonic() < deadline:
                time.sleep(0.1)
                st = c.request("state")
            assert st["state"] == "paused" and st["left"]["moves"] == 2 and st["right"]["moves"] == 2
            # the game is in progress: a change needs the arbiter's key
            with pytest.raises(LinkError, match="auth_required"):
                Clock.request(c, "adjust", side="right", ms=30000)
            c.request("adjust", auth=True, side="right", ms=30000)
            c.request("result", auth=True, result="1-0")
        out = tmp_path / "pulled"
        code = main(["logs", "pull", "--port", sim.port, "--out", str(out), "--key", KEY.decode()])
        assert code == 0, capsys.readouterr().err
        capsys.readouterr()
        code = main(["logs", "verify", "--records", str(out / "records.bin"), "--key", KEY.decode()])
        assert code == 0 and capsys.readouterr().out.startswith("OK")
        pulled = (out / "records.bin").read_bytes()
    finally:
        sim.stop()
    assert pulled == sim.image_records()  # byte for byte what is on the flash
    events = [json.loads(x) for x in (out / "events.jsonl").read_text().splitlines()]
    game = [e for e in events if e["game"] == 1 and e["type"] not in ("settings", "time_sync")]
    kinds = [e["type"] for e in game]
    # the first boot's end, then the game the script played
    assert kinds == ["power_restore", "game_start", "press", "press", "press", "press", "pause", "adjust", "result"]
    presses = [e for e in game if e["type"] == "press"]
    # played in real time: each press is stamped at its scripted instant (as a pin IRQ stamps it),
    # so the presses lie exactly as far apart as the script puts them; the start lands within a
    # loop pass of its own instant, later on a loaded machine, so the first press's t is its
    # instant less that lateness (bounded generously)
    ts = [e["t"] for e in presses]
    assert [ts[i + 1] - ts[i] for i in range(3)] == [800, 600, 500], ts
    assert 700 - 2000 <= ts[0] <= 700, ts
    g = game[1:]
    assert g[5]["by"] == "left" and g[6]["after"]["ms"] == 30000 and g[7]["result"] == "1-0"
    synced = next(e["seq"] for e in events if e["type"] == "time_sync")
    # every record from the sync on is dated (the whole game's when the sync lands before the
    # start, as it does unless the machine cannot answer one request in START_AT)
    assert all(e["wall"] for e in events if e["seq"] > synced) and game[-1]["wall"]


def test_fuzz_over_the_pty_never_stalls_or_crashes_the_clock(tmp_path):
    sim = Sim(tmp_path, [{"at": 1000, "do": "start"}])
    rng = random.Random(7)
    try:
        # the game runs before the fuzz (its Ctrl-C lines are the firmware's to refuse only then: at
        # setup a Ctrl-C stops it for the REPL, as on a board); the start is a real-time script line,
        # late on a loaded machine: waited for, not assumed from the wall clock (before: 1.2 s)
        with Clock(sim.port) as c:
            deadline = time.monotonic() + 60
            while c.request("state")["state"] != "running" and time.monotonic() < deadline:
                time.sleep(0.1)
        s = serial.Serial(sim.port, 115200, timeout=0.05)
        sent = 0
        junk = [
            b"\x03\x03 in the middle of a game\n",
            b"\xff\xfe\xfd invalid utf-8\n",
            b"x" * 3000 + b"\n",
            b'{"id": 1, "cmd": "jump"}\n',
            b'{"id": 2, "cmd": "adjust", "side": 5, "ms": -1}\n',
            b'{"id": 3, "cmd": "log.read", "from_seq": "zero"}\n',
            b'[1, 2, 3]\n',
            b'{"id": 4\n',
        ]
        for _ in range(300):
            if rng.random() < 0.5:
                line = rng.choice(junk)
            else:
                line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120))).replace(b"\n", b"") + b"\n"
            s.write(line)
            sent += 1
        answers = []
        deadline = time.monotonic() + 60  # returns once every answer is in
        buf = b""
        while len(answers) < sent and time.monotonic() < deadline:
            buf += s.read(65536)
            *lines, buf = buf.split(b"\n")
            answers += [json.loads(x) for x in lines if x.strip()]
        assert len(answers) == sent  # exactly one answer per line, garbage included
        assert all(a["ok"] is False and a["error"]["code"] for a in answers)
        codes = {a["error"]["code"] for a in answers}
        assert {"bad_json", "unknown_cmd", "bad_arg", "line_too_long"} <= codes | {"bad_utf8"}
        s.close()
        with Clock(sim.port) as c:
            # the start is a real-time script line: on a loaded machine it lands late; wait for it
            deadline = time.monotonic() + 60
            while c.request("state")["state"] != "running" and time.monotonic() < deadline:
                time.sleep(0.1)
            c.request("identify")  # (the longest pass of the clock's loop is measured from here)
            t1 = time.monotonic()
            st1 = c.request("state")
            time.sleep(0.5)
            st2 = c.request("state")
            took = time.monotonic() - t1
            pass_ms = c.request("identify")["loop_max_ms"]
        assert st1["state"] == st2["state"] == "running"
        used = st1["left"]["ms"] - st2["left"]["ms"]
        # the clock kept real time through all of it: it counted exactly its own ticks between the two
        # states, and it read them between the host's sending the first request and reading the
        # second answer (however late a loaded machine delivers them), at least the host's 0.5 s
        # apart. A state is read at the instant its pass began, before the pass reads the request:
        # up to one pass (the longest its loop took meanwhile, as identify says) before it came.
        assert used == ticks_diff(st2["ticks"], st1["ticks"]), (used, st1["ticks"], st2["ticks"])
        slack = 20 + pass_ms
        assert 500 - slack <= used <= took * 1000 + slack, (used, took, pass_ms)
    finally:
        sim.stop()


def test_host_that_stops_reading_or_vanishes_mid_pull(tmp_path):
    lines = [{"at": 500, "do": "start"}]
    t = 500
    for i in range(60):  # presses every 100 ms while the host misbehaves
        t += 100
        lines.append({"at": t, "do": "press", "side": "left" if i % 2 == 0 else "right"})
    sim = Sim(tmp_path, lines)
    try:
        sim.wait_until(600)
        s = serial.Serial(sim.port, 115200, timeout=0.05)
        for i in range(200):  # ask for the log again and again, never read an answer
            s.write(json.dumps({"id": i, "cmd": "log.read", "from_seq": 0, "max_records": 32}).encode() + b"\n")
        time.sleep(3.0)
        s.close()  # and vanish
        sim.wait_until(t + 1000)
        with Clock(sim.port) as c:
            # the script runs in real time from the board's boot, later than this host's start on a
            # loaded machine: wait (bounded) for its last press rather than assume it is in
            deadline = time.monotonic() + 60
            st = c.request("state")
            while st["left"]["moves"] + st["right"]["moves"] < 60 and time.monotonic() < deadline:
                time.sleep(0.1)
                st = c.request("state")
        assert st["left"]["moves"] + st["right"]["moves"] == 60  # no press was held up (nor dropped)
        out = tmp_path / "pulled"
        with Clock(sim.port) as c:
            info = c.request("log.info")
            first = c.request("log.read", from_seq=info["first"], max_records=5)
        os.makedirs(out)
        (out / "records.bin").write_bytes(base64.b64decode(first["data"]))  # a pull cut after 5 records
        assert main(["logs", "pull", "--port", sim.port, "--out", str(out)]) == 0
        pulled = (out / "records.bin").read_bytes()
    finally:
        sim.stop()
    image = sim.image_records()
    assert pulled == image[: len(pulled)] and len(pulled) // R.RECORD_SIZE >= 60
