"""`sagat sim`: the firmware on the sim board under the MicroPython unix port, driven by scripts
(contract 4) in virtual time, from the keyboard through a pseudo-terminal, and in a 64 KB heap."""

import json
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from sagat.cli import main
from sagat.sim.script import SimError, parse_script, plan_boots


def _script(path, lines):
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return str(path)


def _events(path):
    return [json.loads(line) for line in open(path)]


def _sim(capsys, *argv):
    code = main(["sim", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ validation

BAD = [
    ('{"at": 0, "do": "start"', "line 1: not JSON"),
    ('[1, 2]', "line 1: each line must be a JSON object"),
    ('{"do": "start"}', 'line 1: "at" must be'),
    ('{"at": -5, "do": "start"}', 'line 1: "at" must be'),
    ('{"at": 0, "do": "jump"}', "line 1: unknown \"do\" 'jump'"),
    ('{"at": 0, "do": "press"}', 'line 1: press needs "side"'),
    ('{"at": 0, "do": "press", "side": "middle"}', 'line 1: press: "side" must be left or right'),
    ('{"at": 0, "do": "new", "tc": "300+"}', "line 1: bad TimeControl '300+'"),
    ('{"at": 0, "do": "new", "tc": {"left": "300"}}', "line 1: new: tc must be a TimeControl string or {"),
    ('{"at": 0, "do": "settings", "colour": "red"}', "line 1: unknown setting 'colour'"),
    ('{"at": 0, "do": "settings", "freeze": "yes"}', "line 1: bad value for freeze"),
    ('{"at": 0, "do": "adjust", "side": "left"}', "line 1: adjust: needs ms, moves or stage"),
    ('{"at": 0, "do": "result", "result": "2-0"}', 'line 1: result: result must be one of 1-0'),
    ('{"at": 0, "do": "power_cut"}', 'line 1: power_cut needs "off_ms"'),
]


@pytest.mark.parametrize("line,message", BAD)
def test_malformed_line_is_rejected_with_its_number(line, message):
    with pytest.raises(SimError) as e:
        parse_script(line, "s.jsonl")
    assert message in str(e.value), str(e.value)


def test_lines_out_of_time_order_are_rejected():
    text = '{"at": 0, "do": "new", "tc": "420"}\n{"at": 50, "do": "start"}\n{"at": 10, "do": "pause"}\n'
    with pytest.raises(SimError) as e:
        parse_script(text, "s.jsonl")
    assert "line 3" in str(e.value) and "time order" in str(e.value)


def test_a_bad_script_runs_nothing(tmp_path, capsys):
    flash = tmp_path / "flash.img"
    path = tmp_path / "s.jsonl"
    path.write_text('{"at": 0, "do": "new", "tc": "420"}\n{"at": 5, "do": "press", "side": "up"}\n')
    code, out, err = _sim(capsys, "--script", str(path), "--flash", str(flash), "--virtual")
    assert code == 2 and not flash.exists()
    assert err.strip().splitlines() == ['sagat: s.jsonl line 2: press: "side" must be left or right, not \'up\'']


def test_power_cut_plan_drops_actions_while_off():
    actions, _ = parse_script(
        "\n".join(
            json.dumps(x)
            for x in [
                {"at": 0, "do": "start"},
                {"at": 100, "do": "power_cut", "off_ms": 50},
                {"at": 120, "do": "pause"},
                {"at": 150, "do": "resume"},
            ]
        )
    )
    boots, warnings = plan_boots(actions)
    assert [(b.start, [a.line for a in b.actions]) for b in boots] == [(0, [1, 2]), (150, [4])]
    assert warnings == ["line 3: pause at 120 ms dropped: the board is off until 150"]


# ------------------------------------------------------------------ scripted games


def test_scripted_game_logs_exact_times(tmp_path, capsys):
    script = _script(
        tmp_path / "game.jsonl",
        [
            {"at": 0, "do": "settings", "freeze": False},
            {"at": 0, "do": "new", "tc": "420", "first": "left"},  # TK-B3 blitz
            {"at": 1000, "do": "start"},
            {"at": 3500, "do": "press", "side": "left"},
            {"at": 3600, "do": "press", "side": "left"},  # not running: TK-C9
            {"at": 10000, "do": "press", "side": "right"},
            {"at": 12000, "do": "pause", "by": "arbiter"},
            {"at": 15000, "do": "adjust", "side": "right", "ms": 60000, "moves": 12},
            {"at": 16000, "do": "resume"},
            {"at": 20000, "do": "result", "result": "1-0"},
        ],
    )
    out = tmp_path / "log.jsonl"
    flash = tmp_path / "flash.img"
    code, _, err = _sim(capsys, "--script", script, "--flash", str(flash), "--virtual", "--log-json", str(out))
    assert code == 0, err
    events = [e for e in _events(out) if e["type"] not in ("settings",)]
    got = [(e["type"], e["t"], e["left_ms"], e["right_ms"], e["left_moves"], e["right_moves"], e["running"])
           for e in events]
    assert got == [
        ("game_start", 0, 420000, 420000, 0, 0, "left"),
        ("press", 2500, 417500, 420000, 1, 0, "right"),
        ("press", 9000, 417500, 413500, 1, 1, "left"),
        ("pause", 11000, 415500, 413500, 1, 1, None),
        ("adjust", 14000, 415500, 60000, 1, 12, None),
        ("resume", 15000, 415500, 60000, 1, 12, "left"),
        ("result", 19000, 411500, 60000, 1, 12, None),
    ]
    assert events[3]["by"] == "arbiter" and events[4]["before"]["ms"] == 413500
    assert events[-1]["result"] == "1-0"
    assert all(e["game"] == 1 for e in events)


def test_power_cut_restores_paused_at_the_last_durable_state(tmp_path, capsys):
    script = _script(
        tmp_path / "cut.jsonl",
        [
            {"at": 0, "do": "new", "tc": "600+5"},
            {"at": 0, "do": "start"},
            {"at": 4000, "do": "press", "side": "left"},
            {"at": 9000, "do": "press", "side": "right"},
            {"at": 40000, "do": "power_cut", "off_ms": 3000},  # left has thought 31 s
            {"at": 41000, "do": "resume"},  # dropped: the board is off
            {"at": 50000, "do": "resume"},
            {"at": 52000, "do": "press", "side": "left"},
        ],
    )
    out = tmp_path / "log.jsonl"
    code, _, err = _sim(
        capsys, "--script", script, "--flash", str(tmp_path / "f.img"), "--virtual", "--log-json", str(out)
    )
    assert code == 0, err
    assert "line 6: resume at 41000 ms dropped" in err
    ev = [e for e in _events(out) if e["type"] != "settings"]
    kinds = [e["type"] for e in ev]
    assert kinds == ["game_start", "press", "press", "power_restore", "resume", "press"]
    pr = ev[3]
    # the last durable state: the checkpoint 30 s into left's turn (checkpoints every 15 s from
    # the press at t=9000); left had 600 - 4 + 5 = 601 s then
    assert pr["t"] == 39000 and pr["running"] is None and pr["left_ms"] == 601000 - 30000
    # the board was off from 40000 to 43000: t goes on from the restored state (39000)
    assert ev[4]["t"] == 39000 + (50000 - 43000) and ev[4]["running"] == "left"
    assert ev[5]["t"] == 48000 and ev[5]["left_ms"] == 571000 - 2000 + 5000


def test_five_hour_game_in_virtual_time(tmp_path, capsys):
    lines = [{"at": 0, "do": "new", "tc": "40/7200+30:3600+30"}, {"at": 0, "do": "start"}]
    t = 0
    for i in range(600):  # 300 moves a side, 30 s each: 5 hours
        t += 30000
        lines.append({"at": t, "do": "press", "side": "left" if i % 2 == 0 else "right"})
    lines.append({"at": t + 1000, "do": "result", "result": "1/2-1/2"})
    script = _script(tmp_path / "long.jsonl", lines)
    out = tmp_path / "log.jsonl"
    t0 = time.monotonic()
    code, _, err = _sim(
        capsys, "--script", script, "--flash", str(tmp_path / "f.img"), "--virtual", "--log-json", str(out)
    )
    took = time.monotonic() - t0
    assert code == 0, err
    ev = _events(out)
    presses = [e for e in ev if e["type"] == "press"]
    assert len(presses) == 600 and presses[-1]["t"] == 600 * 30000
    # 40 moves in 2 h +30 s, then 1 h +30 s: each side used 300 x 30 s = 9000 s of 7200 + 3600 + 300 x 30
    assert presses[-1]["left_ms"] == presses[-1]["right_ms"] == (7200 + 3600 + 300 * 30 - 300 * 30) * 1000
    assert [e["side"] for e in ev if e["type"] == "stage"] == ["left", "right"]
    print(f"5-hour game, 600 presses, in virtual time: {took:.1f} s")
    # virtual, not real time: a thirtieth of the game's 5 hours at most (about 1.5 s on a quiet machine;
    # its speed is benchmarks' business, and a loaded machine's is not this test's)
    assert took < 5 * 3600 / 30


# The budget is a 64 KB heap. On the 64-bit unix port every object is about 1.4 times its size on a
# Pico's 32-bit MicroPython, and the firmware's code and names alone take ~88 KB there when its .mpy
# files are imported (benchmarks/memory_bench.py; tests/test_benchmarks.py holds the whole firmware,
# faces and log pull included, to 156 KB): this test holds `sagat sim --heap` (a scripted game, no
# faces, 300 moves a side and a restore that replays them) to 144 KB until the budget is met.
HEAP = "144k"


def test_whole_firmware_plays_300_moves_in_a_bounded_heap(tmp_path, capsys):
    lines = [{"at": 0, "do": "new", "tc": "5400+30"}, {"at": 0, "do": "start"}]
    t = 0
    for i in range(600):
        t += 20000 + (i * 7919) % 20000
        lines.append({"at": t, "do": "press", "side": "left" if i % 2 == 0 else "right"})
    lines.append({"at": t + 50000, "do": "power_cut", "off_ms": 1000})  # restore replays 600 moves
    lines.append({"at": t + 60000, "do": "resume"})
    script = _script(tmp_path / "heap.jsonl", lines)
    out = tmp_path / "log.jsonl"
    code, _, err = _sim(
        capsys, "--script", script, "--flash", str(tmp_path / "f.img"), "--virtual", "--log-json", str(out),
        "--heap", HEAP,
    )
    assert code == 0, err
    ev = _events(out)
    assert len([e for e in ev if e["type"] == "press"]) == 600
    assert [e["type"] for e in ev][-2:] == ["power_restore", "resume"]


# ------------------------------------------------------------------ keyboard


def test_interactive_keys_press_the_buttons(tmp_path):
    """A real pseudo-terminal: space starts, `a` is the left lever, unknown keys are ignored,
    `q` powers off; the log on the flash shows the game."""
    flash = tmp_path / "flash.img"
    pid, fd = pty.fork()
    if pid == 0:  # the child: `sagat sim` on the pty
        os.execv(sys.executable, [sys.executable, "-m", "sagat", "sim", "--flash", str(flash)])
    screen = b""

    def read_for(seconds):
        nonlocal screen
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    screen += os.read(fd, 65536)
                except OSError:
                    return

    deadline = time.monotonic() + 60  # a loaded machine may take a while to boot the sim
    while b"sagat sim" not in screen and time.monotonic() < deadline:
        read_for(0.2)
    assert b"sagat sim" in screen, screen[-2000:]

    def drawn(pattern):
        """Read until the last whole frame drawn shows `pattern` (each frame starts at ESC [ H and
        ends with ESC [ J): the key before it was read and acted on, however late a loaded machine
        let the sim read it."""
        end = time.monotonic() + 30
        while True:
            frames = screen.split(b"\x1b[H")
            whole = [f for f in frames if f.endswith(b"\x1b[J")]
            if whole and re.search(pattern, whole[-1]):
                return
            assert time.monotonic() < end, (pattern, screen[-2000:])
            read_for(0.05)

    # each lever key waits for its move on the faces (M<moves>), then 0.3 s more, so no two presses
    # are ever read within the levers' together window (60 ms) of each other, as they could be if
    # the sim read keys sent at fixed instants all at once after a stall; x and ? are ignored keys
    for key, then in ((b" ", rb"sagat sim +running"), (b"x", None), (b"a", rb"M1 S1 [^|]*\| +M0 "), (b"?", None),
                      (b"l", rb"M1 S1 [^|]*\| +M1 "), (b"a", rb"M2 S1 [^|]*\| +M1 ")):
        os.write(fd, key)
        if then is not None:
            drawn(then)
        read_for(0.3)
    os.write(fd, b"q")
    read_for(1.0)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0, screen[-2000:]
    assert b"sagat sim" in screen and b"running" in screen
    run = subprocess.run(
        [sys.executable, "-m", "sagat", "logs", "show", "--image", str(flash), "--json"],
        capture_output=True, text=True,
    )
    kinds = [(e["type"], e.get("side")) for e in map(json.loads, run.stdout.splitlines())]
    assert kinds[-4:] == [("game_start", None), ("press", "left"), ("press", "right"), ("press", "left")]


def test_cpython_fallback_plays_the_same_script(tmp_path, capsys, monkeypatch):
    """Where the MicroPython unix port has no wheel, `sagat sim` runs the same firmware on CPython,
    its flash's files unpacked from and packed back into the littlefs image."""
    lines = [
        {"at": 0, "do": "new", "tc": "420", "first": "left"},
        {"at": 1000, "do": "start"},
        {"at": 3500, "do": "press", "side": "left"},
        {"at": 10000, "do": "press", "side": "right"},
        {"at": 20000, "do": "power_cut", "off_ms": 1000},
        {"at": 25000, "do": "resume"},
        {"at": 26000, "do": "press", "side": "left"},
    ]
    results = []
    for engine in ("micropython", "cpython"):
        if engine == "cpython":
            monkeypatch.setenv("SAGAT_SIM_PYTHON", "1")
        out = tmp_path / f"{engine}.jsonl"
        script = _script(tmp_path / "s.jsonl", lines)
        code, _, err = _sim(capsys, "--script", script, "--flash", str(tmp_path / f"{engine}.img"), "--virtual",
                            "--log-json", str(out))
        assert code == 0, err
        assert ("running the firmware on CPython" in err) == (engine == "cpython")
        results.append([{k: v for k, v in e.items() if k != "wall"} for e in _events(out)])
    assert results[0] == results[1]
    assert [e["type"] for e in results[1]][-3:] == ["power_restore", "resume", "press"]


def test_interactive_serial_in_a_terminal_serves_the_protocol(tmp_path):
    """`sagat sim --serial` as a newcomer types it: in a terminal (a real pty, the sim's controlling
    terminal), the faces and keys there, the protocol on its own pty. Before: the first frame's
    flush of /dev/tty raised EINVAL and the sim exited 1, its traceback sent down the serial link."""
    import threading

    from sagat.client import Clock

    flash = tmp_path / "flash.img"
    pid, fd = pty.fork()
    if pid == 0:  # the child: `sagat sim --serial` on the pty, as in a terminal
        os.execv(sys.executable, [sys.executable, "-m", "sagat", "sim", "--serial", "--flash", str(flash)])
    screen = bytearray()

    def reader():  # the terminal shows whatever comes, all the time (the faces never wait on it)
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            screen.extend(data)

    threading.Thread(target=reader, daemon=True).start()
    deadline = time.monotonic() + 60
    while b"serial port" not in screen and time.monotonic() < deadline:
        time.sleep(0.1)
    line = bytes(screen).split(b"serial port", 1)[1].split()[0]
    port = line.decode()
    def last_frame():
        """The last whole frame drawn (from ESC [ H to ESC [ J): the one being read may be cut."""
        whole = [f for f in bytes(screen).split(b"\x1b[H") if f.endswith(b"\x1b[J")]
        return whole[-1] if whole else b""

    try:
        # the faces' screen is redrawn in place from its top: the port stays on it, under the faces
        shown = b"serial port " + port.encode()
        while not (b"READY" in last_frame() and shown in last_frame()) and time.monotonic() < deadline:
            time.sleep(0.1)
        frame = last_frame()
        assert b"READY" in frame and shown in frame, frame
        with Clock(port, timeout=60) as c:
            assert c.request("identify")["board"] == "sim"
            assert c.request("state")["state"] == "setup"
            os.write(fd, b" ")  # the space key in the terminal starts the clock
            end = time.monotonic() + 30
            while c.request("state")["state"] != "running" and time.monotonic() < end:
                time.sleep(0.1)
            assert c.request("state")["state"] == "running", bytes(screen[-2000:])
        os.write(fd, b"q")
        end = time.monotonic() + 60
        while time.monotonic() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("sagat sim --serial did not power off on q")
    finally:
        try:
            os.kill(pid, 15)
        except OSError:
            pass
    assert os.WEXITSTATUS(status) == 0, bytes(screen[-2000:])
    assert b"Traceback" not in screen and b"running" in screen


def test_serial_sim_errors_go_to_stderr_never_the_link(tmp_path):
    """An error in the sim board serving a link: its traceback on stderr (the terminal), exit 1,
    and not a byte of it on stdout (the serial link, where MicroPython prints an uncaught one)."""
    from conftest import ROOT, tool

    exe = tool("micropython")
    assert exe, "no micropython: install the dev extra"
    wrapper = tmp_path / "boom.py"
    wrapper.write_text(
        "import sys\n"
        f"sys.path.insert(0, {os.path.join(ROOT, 'firmware')!r})\n"
        "from sagatfw.boards import simulator as sim\n"
        "def boom(app, board, keys=None, player=None):\n"
        "    raise ValueError('boom in the loop')\n"
        "sim.run_interactive = boom\n"
        "sim.main(sys.argv[1:])\n"
    )
    run = subprocess.run([exe, str(wrapper), "--flash", str(tmp_path / "f.img"), "--serial", "--headless"],
                         input=b"", capture_output=True, timeout=60)
    assert run.returncode == 1
    assert run.stdout == b"", run.stdout
    assert b"ValueError: boom in the loop" in run.stderr and b"Traceback" in run.stderr


def test_refused_script_actions_are_warnings_with_line_and_reason(tmp_path, capsys):
    lines = [
        {"at": 0, "do": "new", "tc": "60", "first": "left"},
        {"at": 0, "do": "start"},
        {"at": 1000, "do": "pause"},
        {"at": 2000, "do": "start"},  # line 4: paused, not setup
        {"at": 3000, "do": "extend"},  # line 5: no flag is down
        {"at": 4000, "do": "resume"},
        {"at": 5000, "do": "press", "side": "left"},  # left's move: right runs
        {"at": 5020, "do": "press", "side": "right"},  # line 8: pressed together with left's
        {"at": 6000, "do": "press", "side": "left"},  # line 9: right's turn still
        {"at": 7000, "do": "press", "side": "right"},
    ]
    script = tmp_path / "game.jsonl"
    script.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["sim", "--script", str(script), "--virtual", "--flash", str(tmp_path / "f.img")]) == 0
    err = capsys.readouterr().err
    warnings = [x for x in err.splitlines() if x.startswith("sagat sim: warning:")]
    assert len(warnings) == 4, err
    assert "game.jsonl line 4: start refused: the clock is paused" in warnings[0]
    assert "game.jsonl line 5: extend refused: no flag is down" in warnings[1]
    assert "game.jsonl line 8: press refused: dropped as pressed together: 20 ms after the left" in warnings[2]
    assert "game.jsonl line 9: press refused: it is not left's turn" in warnings[3]


def test_sim_help_lists_the_script_actions(capsys):
    from sagat.sim.script import ACTIONS

    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = capsys.readouterr().out
    for what in ACTIONS:
        assert f"\n  {what} " in out, what


def test_a_script_without_flash_never_touches_the_saved_game(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    from sagat.sim.board import default_flash

    saved = default_flash()
    assert main(["sim", "--script", _game(tmp_path), "--virtual"]) == 0
    assert not os.path.exists(saved)  # not created
    with open(saved, "wb") as fh:
        fh.write(b"the interactive game")
    assert main(["sim", "--script", _game(tmp_path), "--virtual", "--log-json", str(tmp_path / "l.jsonl")]) == 0
    assert open(saved, "rb").read() == b"the interactive game"
    assert "fresh flash" in capsys.readouterr().err
    kinds = [json.loads(x)["type"] for x in open(tmp_path / "l.jsonl")]
    assert "game_start" in kinds


def _game(tmp_path):
    script = tmp_path / "g.jsonl"
    script.write_text('{"at": 0, "do": "start"}\n{"at": 500, "do": "press", "side": "left"}\n')
    return str(script)


def test_a_script_ends_with_the_faces_it_left(tmp_path, capsys):
    """`sagat sim --script` prints the faces as its last boot ended them, then its one-line summary:
    what the players would see at the end (the final times, END, the result code to copy)."""
    script = _script(tmp_path / "game.jsonl", [
        {"at": 0, "do": "new", "tc": "60"},
        {"at": 1000, "do": "start"},
        {"at": 5000, "do": "press", "side": "left"},
        {"at": 9000, "do": "pause"},
        {"at": 9500, "do": "result", "result": "1-0"},
    ])
    flash = tmp_path / "flash.img"
    log = tmp_path / "log.jsonl"
    code, out, err = _sim(capsys, "--script", script, "--flash", str(flash), "--virtual", "--log-json", str(log))
    assert code == 0, err
    assert "script done: 1 boot on " in err, err
    faces = out.rstrip("\n").split("\n")
    assert faces[0] == "sagat sim  finished" and "\r" not in out and "\x1b" not in out, faces
    assert all(" | " in row for row in faces[1:]), faces
    assert [e["result"] for e in _events(log) if e["type"] == "result"] == ["1-0"]
    codes = [row for row in faces if "CODE" in row]
    assert codes, faces
    left, right = (half.strip() for half in codes[0].split(" | "))
    assert left == right and left.startswith("CODE "), codes
    # the code on the faces is the game's own: it checks against the log
    assert main(["logs", "verify", "--image", str(flash), "--game", "1", "--code", left[5:]]) == 0
    capsys.readouterr()
    assert any("0:56" in row.split(" | ")[0] and "0:56" in row.split(" | ")[1] for row in faces), faces
