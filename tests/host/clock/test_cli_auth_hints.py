"""The clock's refusals that a key settles (auth_required, auth_failed), as the `sagat` command
prints them: one line that names the options giving the key."""

import json
import os
import termios
import threading
import tty

import pytest

from sagat.cli import main


class Refuser:
    """A clock on a pseudo-terminal that refuses every request with one error code."""

    def __init__(self, code: str, message: str):
        self.code, self.message = code, message
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave, termios.TCSANOW)
        self.port = os.ttyname(self.slave)
        self.stopped = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        buf = b""
        while not self.stopped:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    req = json.loads(line)
                except ValueError:
                    continue
                ans = {"id": req.get("id"), "ok": False, "error": {"code": self.code, "message": self.message}}
                os.write(self.master, json.dumps(ans).encode() + b"\n")

    def close(self):
        self.stopped = True
        os.close(self.slave)
        os.close(self.master)


@pytest.mark.parametrize("code,message,hint", [
    ("auth_required", "the clock has an arbiter key: this needs it (sign with the key)",
     "(the clock has an arbiter key: give it with --key KEY or --key-file FILE)"),
    ("auth_failed", "auth does not match",
     "(the key given is not this clock's arbiter key: check --key / --key-file)"),
])
def test_a_refusal_for_the_key_names_key_and_key_file(code, message, hint, capsys):
    dev = Refuser(code, message)
    try:
        rc = main(["new", "420", "--port", dev.port, "--timeout", "2"])
    finally:
        dev.close()
    out, err = capsys.readouterr()
    assert rc == 2 and out == "", out
    assert err == f"sagat: clock refused new: {code}: {message} {hint}\n", err
