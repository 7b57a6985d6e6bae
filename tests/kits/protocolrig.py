# The protocol's rig for the MicroPython tests (tests/mprun.py puts tests/kits on the path): an App
# and its Server on a fresh littlefs in RAM (flash.py), in appkit.py's ticks, a host that talks to
# it line by line, signs with the arbiter key and pulls the log; and what reads a pull back
# (records, events, faces).
import gc
import json

from appkit import BASE, RootBoard, T  # noqa: F401   (the ticks wrap 5 s into every test)
from flash import Flash, mount

from sagatfw.app import main as app_main
from sagatfw.app.main import App
from sagatfw.engine import clock as C
from sagatfw.link import auth as A
from sagatfw.link import server as SV
from sagatfw.link import wire as W
from sagatfw.link.commands import save_key
from sagatfw.log import records as R
from sagatfw.log.journal import Journal
from sagatfw.log.read import Reader

KEY = b"arbiter's secret"
UID = "e6614103e7"  # the clock id a signature names
SEGMENT_RECORDS = 16  # small segments: pulls and erases cross many of them


def _keyed_journal(root, **kw):
    # What the app does at boot (see the report): the journal's chain is keyed with the arbiter key
    # stored on the flash. Small segments for these tests.
    kw["key"] = SV.load_key(root[: -len("log")])
    kw["segment_records"] = SEGMENT_RECORDS
    return Journal(root, **kw)


class Rig:
    """An App and its Server on a fresh littlefs, and a host that talks to it."""

    def __init__(self, at="/flash", key=b"", fresh=True, blocks=64):
        if fresh:
            gc.collect()
            mount(Flash(blocks=blocks), at=at, fresh=True)
            if key:
                save_key(at + "/", key)
        app_main.Journal = _keyed_journal
        self.board = RootBoard(at + "/")
        self.app = App(self.board)
        self.app.boot(T(0))
        self.srv = SV.Server(self.app, {"uid": UID, "number": 12}, T(0))
        self.ms = 0
        self.ids = 0
        self.key = key

    def at(self, ms):
        self.ms = ms
        self.app.step(T(ms))
        self.srv.feed(b"", T(ms))

    def press(self, side, ms):
        b = self.app.buttons
        b.edge(side, T(ms), True)
        b.edge(side, T(ms + b.lockout_ms + 1), False)
        self.at(ms)

    def send(self, data, chunks=None):
        """Feed bytes (in the given chunk sizes, else all at once) until every complete line is
        answered; returns the raw answer bytes."""
        srv = self.srv
        now = T(self.ms)
        out = bytearray()
        i = 0
        k = 0
        for _ in range(1000000):
            if i < len(data):
                size = len(data) - i
                if chunks is not None:
                    size = chunks[k % len(chunks)]
                    k += 1
                i += srv.feed(data[i : i + size], now)
            else:
                srv.feed(b"", now)
            while srv.pending():
                out += srv.take_out(700)
            if i >= len(data) and not srv.has_work():
                break
        return bytes(out)

    def lines(self, data, chunks=None):
        out = self.send(data, chunks)
        assert out == b"" or out.endswith(b"\n")
        return [json.loads(x) for x in out.split(b"\n")[:-1]]

    def request(self, cmd, **args):
        self.ids += 1
        req = {"id": self.ids, "cmd": cmd}
        for k in args:
            req[k] = args[k]
        return req

    def call(self, cmd, proof=None, **args):
        req = self.request(cmd, **args)
        if proof is not None:  # prove the arbiter key: challenge, then sign
            nonce = self.call("auth.challenge")["nonce"]
            req["auth"] = A.sign(proof, nonce, req, UID)
        got = self.lines(json.dumps(req).encode() + b"\n")
        assert len(got) == 1, got
        assert got[0]["id"] == req["id"]
        return got[0]

    def ok(self, cmd, proof=None, **args):
        r = self.call(cmd, proof, **args)
        assert r["ok"] is True, (cmd, r)
        return r

    def err(self, cmd, code, proof=None, **args):
        r = self.call(cmd, proof, **args)
        assert r["ok"] is False and r["error"]["code"] == code, (cmd, code, r)
        assert r["error"]["message"]
        return r

    def pull(self, start=0, chunk=W.MAX_RECORDS):
        """log.read from `start` to the end in chunks; returns (records, responses)."""
        recs = []
        resps = []
        seq = start
        while True:
            r = self.ok("log.read", from_seq=seq, max_records=chunk)
            resps.append(r)
            raw = _b64(r["data"])
            assert len(raw) == r["count"] * R.RECORD_SIZE
            for i in range(r["count"]):
                recs.append(raw[i * R.RECORD_SIZE : (i + 1) * R.RECORD_SIZE])
            if r["count"] == 0:
                return recs, resps
            seq = r["next"]


def _b64(text):
    import binascii

    return binascii.a2b_base64(text) if text else b""


def _real(recs):
    """The records of a pull without the segments' anchors (each has the seq of the next)."""
    return [r for r in recs if R.type_of(r) != R.T_ANCHOR]


def _at(recs, seq):
    """Index of the first record (or anchor) of a pull with seq >= `seq`."""
    return next(i for i, r in enumerate(recs) if R.seq_of(r) >= seq)


def _events(recs, key=b""):
    rd = Reader(key, checkpoints=True)
    return rd.events(recs), rd


def _faces(app):
    c = app.clock
    return (c.state, c.running, c.ms(C.LEFT), c.ms(C.RIGHT), c.moves[C.LEFT], c.moves[C.RIGHT], c.t)
