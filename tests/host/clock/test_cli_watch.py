"""`sagat watch` on a terminal: each state is drawn again in place (\\r, then an erase to the line's
end, so a shorter line leaves nothing of a longer one before it), and a link error goes on a line
of its own, not onto the faces' line. Piped, one line per state."""

import os
import subprocess
import sys
import time

from fakedev import ScriptedClock

UID = "sim-watch"
LONG = {"state": "running", "running": "left", "left": {"ms": 61000, "moves": 3}, "right": {"ms": 60000, "moves": 2},
        "result_code": "123456"}
SHORT = {"state": "paused", "running": None, "left": {"ms": 61000, "moves": 3}, "right": {"ms": 60000, "moves": 3}}


def _device(states):
    """A clock whose n-th state answer is states[n] (None: it stops answering)."""
    seen = [0]

    def answer(req):
        cmd = req.get("cmd")
        if cmd == "identify":
            return {"uid": UID, "firmware": "0.1.0", "protocol": 2, "board": "sim", "key_set": False}
        if cmd == "state":
            n = seen[0]
            seen[0] += 1
            return states[n] if n < len(states) else None
        return {"id": req.get("id"), "ok": False, "error": {"code": "unknown_cmd", "message": cmd}}

    return ScriptedClock(answer)


def _watch_on_terminal(dev, *extra):
    """Run `sagat watch` with its stdout and stderr on a terminal; what the terminal got."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "sagat", "watch", "--port", dev.port, "--interval", "0.05", *extra],
                            stdout=slave, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    got = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            data = os.read(master, 65536)
        except OSError:  # the process is gone and the terminal closed
            break
        if not data:
            break
        got += data
    proc.wait(30)
    os.close(master)
    return proc.returncode, got.decode().replace("\r\n", "\n")


def test_watch_erases_what_a_shorter_line_leaves():
    dev = _device([LONG, SHORT, SHORT])
    try:
        rc, text = _watch_on_terminal(dev, "--count", "3")
    finally:
        dev.close()
    assert rc == 0, text
    draws = text.rstrip("\n").split("\r")[1:]
    assert len(draws) == 3 and all(d.endswith("\x1b[K") for d in draws), repr(text)
    assert "result code 123456" in draws[0] and "paused" in draws[1], draws
    assert text.endswith("\x1b[K\n"), repr(text)  # the line is ended when watch ends


def test_a_link_error_during_watch_goes_on_its_own_line():
    dev = _device([LONG, SHORT])  # then silence
    try:
        rc, text = _watch_on_terminal(dev, "--timeout", "1")
    finally:
        dev.close()
    assert rc == 2, text
    faces, _, rest = text.rpartition("\x1b[K")
    assert "paused" in faces and rest.startswith("\n") and rest.strip().startswith("sagat: "), repr(text)
    assert len(rest.strip().splitlines()) == 1, repr(text)


def test_watch_piped_prints_one_line_per_state():
    dev = _device([LONG, SHORT, SHORT])
    try:
        run = subprocess.run([sys.executable, "-m", "sagat", "watch", "--port", dev.port, "--interval", "0.05",
                              "--count", "3"], capture_output=True, text=True, timeout=60)
    finally:
        dev.close()
    lines = run.stdout.splitlines()
    assert run.returncode == 0 and len(lines) == 3 and "\r" not in run.stdout and "\x1b" not in run.stdout, run
    assert "running" in lines[0] and "paused" in lines[1], lines
