# The App under CPython (its flash a temporary directory: CPython's files stand in for littlefs):
# a board that shows nothing, the App and its protocol Server with a host that talks to it line by
# line and signs with the arbiter key, and the log's segments as `sagat logs pull` saves them.
# The MicroPython tests' rig, on a real littlefs, is protocolrig.py.
import json
import os

from appkit import RootBoard

from sagatfw.app.main import App
from sagatfw.link import auth as A
from sagatfw.link import server as SV

KEY = b"arbiter's secret"


class Rig:
    """An App and its protocol Server on a directory (CPython's files stand in for littlefs)."""

    def __init__(self, root, key=b""):
        root = str(root) + "/"
        if key:
            with open(root + "key", "wb") as f:
                f.write(key)
        self.board = RootBoard(root)
        self.app = App(self.board)
        self.app.boot(0)
        self.srv = SV.Server(self.app, {"uid": "x"}, 0)
        self.ms = 0
        self.ids = 0

    def at(self, ms):
        self.ms = ms
        self.app.step(ms)
        self.srv.feed(b"", ms)

    def raw(self, line):
        self.srv.feed(line + b"\n", self.ms)
        out = b""
        for _ in range(100):
            out += self.srv.take_out(100000)
            if not self.srv.has_work():
                break
            self.srv.feed(b"", self.ms)
        return [json.loads(x) for x in out.split(b"\n")[:-1]]

    def call(self, cmd, proof=None, **args):
        self.ids += 1
        req = {"id": self.ids, "cmd": cmd}
        req.update(args)
        if proof is not None:
            nonce = self.call("auth.challenge")["nonce"]
            req["auth"] = A.sign(proof, nonce, req, "x")
        got = self.raw(json.dumps(req).encode())
        assert len(got) == 1, got
        return got[0]

    def ok(self, cmd, proof=None, **args):
        r = self.call(cmd, proof, **args)
        assert r["ok"] is True, (cmd, r)
        return r

    def err(self, cmd, code, proof=None, **args):
        r = self.call(cmd, proof, **args)
        assert r["ok"] is False and r["error"]["code"] == code, (cmd, code, r)
        return r


def records(root, path):
    """The log's segments under `root` in order, into `path`, as `sagat logs pull` saves them (records.bin)."""
    log = os.path.join(str(root), "log")
    with open(path, "wb") as out:
        for name in sorted(n for n in os.listdir(log) if n.endswith(".seg")):  # (not ckpt, not the ballast)
            with open(os.path.join(log, name), "rb") as f:
                out.write(f.read())
