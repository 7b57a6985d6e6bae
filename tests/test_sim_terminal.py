"""`sagat sim` needs a terminal for its faces and keys; without one it says so and what to use."""

import os
import subprocess
import sys
from pathlib import Path

SAGAT = str(Path(sys.executable).parent / "sagat")


def test_the_interactive_sim_without_a_terminal_says_what_to_use_instead(tmp_path):
    run = subprocess.run(["setsid", SAGAT, "sim", "--flash", str(tmp_path / "f.img")], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60, env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path)))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sagat: ")
    assert "terminal" in lines[0] and "--serial --headless" in lines[0] and "--script" in lines[0]


def test_the_serial_port_stays_on_the_faces_screen(tmp_path):
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:
        os.environ["XDG_CACHE_HOME"] = str(tmp_path)
        os.execv(SAGAT, [SAGAT, "sim", "--serial", "--flash", str(tmp_path / "f.img")])
    out = b""
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
            frames = out.split(b"\x1b[H")
            if b"keys:" in frames[-1] and b"\x1b[J" in frames[-1]:
                break  # a whole frame drawn
    finally:
        os.kill(pid, 15)
        os.waitpid(pid, 0)
        os.close(fd)
    frames = out.split(b"\x1b[H")
    assert len(frames) > 1, out[-500:]
    screen = frames[-1].split(b"\x1b[J")[0]  # what stays on screen after the last redraw
    assert b"serial port /dev/" in screen, screen
