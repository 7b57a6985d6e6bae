"""The simulator as a clock on a real pseudo-terminal, for the host's end-to-end tests:
`sagat sim --serial --headless` on a flash image, with or without a script, and the log's records
read back from that image."""

import json
import subprocess
import sys
import time

import littlefs
import pytest

KEY = b"arbiter-secret"


def script(path, lines):
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return str(path)


class Sim:
    """`sagat sim --serial --headless` on a flash image in tmp_path, its script (if any) played in
    real time from the board's boot. `prepare(port)`, if given, runs against a first boot of the
    same flash without the script, which then stops: what the host must have done before a
    real-time script begins (a key, a game set up) is done before its clock starts, however slow the
    machine, instead of racing the script's first instants."""

    def __init__(self, tmp_path, lines, prepare=None):
        self.flash = str(tmp_path / "flash.img")
        if prepare is not None:
            first = Sim(tmp_path, [])
            try:
                prepare(first.port)
            finally:
                first.stop()
        cmd = [sys.executable, "-m", "sagat", "sim", "--serial", "--headless", "--flash", self.flash]
        if lines:
            cmd += ["--script", script(tmp_path / "game.jsonl", lines)]
        self.proc = subprocess.Popen(
            cmd,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stderr.readline()
        assert "serial port" in line, line
        self.port = line.split()[-1]
        self.t0 = time.monotonic()

    def wait_until(self, ms):
        delay = self.t0 + ms / 1000 - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)

    def image_records(self):
        data = open(self.flash, "rb").read()
        ctx = littlefs.UserContext(len(data))
        ctx.buffer[:] = data
        fs = littlefs.LittleFS(context=ctx, block_size=4096, block_count=len(data) // 4096)
        out = b""
        for name in sorted(n for n in fs.listdir("/log") if n.endswith(".seg")):  # the log's segments
            with fs.open("/log/" + name, "rb") as fh:
                out += fh.read()
        return out


def cli(capsys, *argv):
    """`sagat ARGV` run in-process: (exit code, stdout, stderr), checked to carry no traceback and no
    internal error whatever the code."""
    from sagat.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


@pytest.fixture
def sim(tmp_path):
    """A simulator on a fresh flash image, no script: its `port` for the host's commands (tests/conftest.py
    loads this kit's fixtures; a module with a `sim` of its own keeps it)."""
    s = Sim(tmp_path, [])
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def sim_port(tmp_path_factory):
    """The port of one simulator that a module's tests share (a fresh flash, no script)."""
    s = Sim(tmp_path_factory.mktemp("sim"), [])
    try:
        yield s.port
    finally:
        s.stop()
