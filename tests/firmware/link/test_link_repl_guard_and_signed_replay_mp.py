# Attacks (firmware side, under the MicroPython unix port) on the clock over the
# USB serial link WITHOUT the arbiter key. The first failed when it was written (a finding,
# fixed by the maintenance rule in link/stream.py); the second held.
import json

from flash import unmount
from protocolrig import KEY, UID, Rig

from sagatfw.engine import clock as C
from sagatfw.link import auth as A
from sagatfw.link import stream as L


class _Kbd:
    """Stands for the `micropython` module: records what kbd_intr is set to."""

    def __init__(self):
        self.calls = []

    def kbd_intr(self, c):
        self.calls.append(c)


class _Link(L.Link):
    """The firmware's Link without streams: only its Ctrl-C guard matters here."""

    def __init__(self, server):
        self.server = server
        self.max_out = self.step_out = 256  # a UART board's (HwBoard.LINK_WRITE)
        self.busy = False
        self.open = False
        self.intr = None
        self.kbd_intr = L.micropython.kbd_intr  # (the test's stand-in, installed before the link is made)

    def _ready(self, poller):
        return False


def test_with_a_key_ctrl_c_never_reaches_the_repl_between_games():
    # docs/arbiter-guide.md ("It closes the REPL. With a key set, no byte sequence on
    # the USB serial link drops the board to MicroPython's prompt"). mpremote sends b"\r\x03\x03"
    # then b"\r\x01" (raw REPL): between games the firmware turns the keyboard interrupt back on
    # (kbd_intr(3)) whatever the key, so a laptop gets the REPL and reads /arbiter.key.
    rig = Rig(key=KEY)
    kbd = _Kbd()
    saved = L.micropython
    L.micropython = kbd
    try:
        rig.app.link = _Link(rig.srv)
        rig.at(100)  # setup, key set
        assert rig.app.clock.state == C.SETUP
        setup_calls = list(kbd.calls)
        rig.ok("new", KEY, tc="300", first="left")
        rig.ok("start", KEY)
        rig.at(1000)
        rig.ok("result", KEY, result="1-0")
        rig.at(2000)  # finished, key set
        assert rig.app.clock.state == C.FINISHED
    finally:
        L.micropython = saved
        rig.app.link = None
        unmount()
    assert 3 not in setup_calls, "Ctrl-C interrupts to the REPL in setup with a key set: %r" % setup_calls
    assert 3 not in kbd.calls, "Ctrl-C interrupts to the REPL after a result with a key set: %r" % kbd.calls


def test_a_signed_request_cannot_be_replayed_or_retargeted():
    # held: the nonce is used up by the next request that carries auth, right or wrong; a proof
    # for one request does not fit another (a changed argument, id or command).
    rig = Rig(key=KEY)
    rig.ok("new", KEY, tc="300", first="left")
    rig.ok("start", KEY)
    rig.at(1000)
    nonce = rig.call("auth.challenge")["nonce"]
    req = rig.request("pause", by="left")
    req["auth"] = A.sign(KEY, nonce, req, UID)
    line = json.dumps(req).encode() + b"\n"
    assert rig.lines(line)[0]["ok"] is True
    rig.ok("resume", KEY)
    assert rig.lines(line)[0]["error"]["code"] == "auth_failed"  # replayed: the nonce is gone
    nonce = rig.call("auth.challenge")["nonce"]
    req = rig.request("pause", by="left")
    req["auth"] = A.sign(KEY, nonce, req, UID)
    req["by"] = "right"  # retargeted
    assert rig.lines(json.dumps(req).encode() + b"\n")[0]["error"]["code"] == "auth_failed"
    for bad in (None, 0, True, [], {}, "0" * 63, "g" * 64, "0" * 64):
        rig.call("auth.challenge")
        req = rig.request("pause", by="left")
        req["auth"] = bad
        r = rig.lines(json.dumps(req).encode() + b"\n")[0]
        assert r["ok"] is False and r["error"]["code"] in ("auth_failed", "auth_required"), (bad, r)
    # duplicate keys: the proof covers what the clock parsed, so a second "result" cannot ride along
    nonce = rig.call("auth.challenge")["nonce"]
    req = rig.request("pause", by="left")
    sig = A.sign(KEY, nonce, req, UID)
    text = json.dumps(req)[:-1] + ', "by": "right", "auth": "%s"}' % sig
    assert rig.lines(text.encode() + b"\n")[0]["error"]["code"] == "auth_failed"
    assert rig.ok("state")["state"] == "running"
    assert rig.srv.internal_errors == 0
    unmount()
