# Attacks on "one slow thing a pass" (link.Link.service: answer a line that waits whole, or read one
# line; the faces' pass serves no link, only Ctrl-C's guard) and on log.info leaving its segment
# listing in srv.segs for the next log.read. Real App, Server, Journal on littlefs in RAM, the
# real Link on fake streams behind the sim board's serial driver (a 0x03 read while Ctrl-C is the
# interrupt character raises KeyboardInterrupt, as a board's USB CDC driver does).
import gc
import json

import micropython
from flash import unmount
from linkkit import SerialRig, Stream, answers, finished_game, reference
from protocolrig import KEY
from protocolrig import Rig as PRig
from protocolrig import T as PT

from sagatfw.core.ticks import ticks_diff
from sagatfw.engine import clock as C
from sagatfw.link import stream as L
from sagatfw.link import wire as W
from sagatfw.ui import buttons as B


class Faces:
    """Wraps a board's show(): when each refresh happened."""

    def __init__(self, board):
        self.at = []
        self.inner = board.show

    def show(self, app, now):
        self.at.append(now)
        self.inner(app, now)


def _no_interrupt(rig, data, passes=8, dt=5):
    """The host writes data while the loop passes dt ms apart; every pass must leave Ctrl-C a byte
    (the interrupt character in force between passes is what a board's driver sees as bytes come)."""
    rig.inp.push(data)
    chars = []
    for _ in range(passes):
        try:
            rig.step(dt)
        except KeyboardInterrupt:
            raise AssertionError("0x03 reached the REPL: %r, chars so far %r" % (data, chars)) from None
        chars.append(rig.drv.char)
    return chars


# ------------------------------------------------------------------ Ctrl-C


def test_attack_ctrl_c_during_a_running_match_without_a_key():
    # a match (kokboru) runs: matchapp.step passes in_game=True to link.service, but service's second
    # guard asks server.in_progress(), the GAME clock's state, which stays SETUP under a match: after
    # every pass that serves the link (and during its read of the next line) Ctrl-C interrupts

    rig = SerialRig()
    rig.app.new_match("kokboru", {"lead": 8}, PT(rig.ms))
    rig.step()
    r = rig.request("start")
    assert r["ok"] is True and r["state"] == "running", r
    for dt in (5, 1, 37):
        chars = _no_interrupt(rig, b"\r\x03", passes=30, dt=dt)
        assert chars == [-1] * len(chars), (dt, chars)
    assert rig.app.match.m.state == 2  # still running
    unmount()


def test_attack_ctrl_c_during_a_match_stoppage_while_a_hall_polls():

    rig = SerialRig()
    rig.app.new_match("kokboru", {"lead": 8}, PT(rig.ms))
    rig.step()
    assert rig.request("start")["ok"] is True
    assert rig.request("stoppage")["ok"] is True
    # a hall's poll keeps a line waiting every other pass; 0x03 right behind it
    chars = _no_interrupt(rig, b'{"id":1,"cmd":"state"}\n\x03{"id":2,"cmd":"state"}\n\x03', passes=20, dt=3)
    assert chars == [-1] * len(chars), chars
    unmount()


def test_ctrl_c_right_after_a_button_starts_the_game_and_in_the_faces_pass():
    # no key, set up: Ctrl-C interrupts. A press starts the clock (buttons), in a faces' pass and
    # in a link pass; a 0x03 that comes in the very next pass must be a byte
    for faces_pass in (True, False):
        rig = SerialRig()
        rig.step()
        rig.app.new_game("300", "left", PT(rig.ms))
        rig.step()
        assert rig.drv.char == 3
        while ticks_diff(rig.app.next_face, PT(rig.ms)) < rig.app.buttons.lockout_ms + 10:
            rig.step(1)
        d = ticks_diff(rig.app.next_face, PT(rig.ms))  # the faces' pass is d ms away
        if not faces_pass:
            d = d - 1 if d > 1 else d + 1
        b = rig.app.buttons
        b.edge(B.START, PT(rig.ms + d - b.lockout_ms - 3), True)  # start: a short press, released at d
        b.edge(B.START, PT(rig.ms + d), False)
        shown = rig.app.next_face
        rig.step(d)
        assert not faces_pass or rig.app.next_face != shown, d  # (a start shows at once: a faces' pass too)
        assert rig.app.clock.state == C.RUNNING, (faces_pass, rig.app.clock.state)
        assert rig.drv.char == -1, faces_pass  # set in the pass that started it
        chars = _no_interrupt(rig, b"\x03", passes=5, dt=1)
        assert chars == [-1] * 5, chars
        unmount()


def test_ctrl_c_while_a_line_waits_unanswered_with_a_key():
    rig = SerialRig(KEY)
    rig.step()
    # lines and 0x03 interleaved, a line left waiting each pass (and a log.read streaming)
    data = b"".join(b'{"id":%d,"cmd":"state"}\n\x03' % i for i in range(10))
    data += b'{"id":99,"cmd":"log.read","from_seq":0,"max_records":256}\n\x03\r\x03\x01'
    chars = _no_interrupt(rig, data, passes=80, dt=1)
    assert chars == [-1] * len(chars), chars
    unmount()


# ------------------------------------------------------------------ nothing lost, nothing reordered


def _serve(rig, pieces, passes=4000, dt=1):
    """Push each piece of bytes in its own pass, then pass until everything is answered."""
    srv = rig.link.server
    for p in pieces:
        rig.inp.push(p)
        rig.step(dt)
    for _ in range(passes):
        if not (rig.inp.data or srv.pending() or srv.has_work()):
            break
        rig.step(dt)
    got = [json.loads(x) for x in bytes(rig.out.data).split(b"\n") if x]
    rig.out.data = bytearray()
    return got


def test_attack_pipelined_odd_lines_all_answered_in_order():
    rig = SerialRig()
    rig.step()
    pad = "x" * 300  # a line longer than MAX_IN (256): read over two passes
    lines = [
        b'{"id":1,"cmd":"state"}\n',
        b'{"id":2,"cmd":"identify"}\r\n',  # CRLF
        b"\n",  # blank: no answer
        b"\r\n",  # blank with CR
        ('{"id":3,"cmd":"state","pad":"%s"}\n' % pad).encode(),
        ('{"id":4,"cmd":"state","pad":"%s"}\n' % ("y" * 600)).encode(),  # over MAX_LINE: an error, id null
        b'{"id":5,"cmd":"state"}\n',
        ('{"id":6,"cmd":"state","pad":"%s"}\n' % ("z" * (W.MAX_LINE - 32))).encode(),  # at MAX_LINE
        b'{"id":7,"cmd":"state"}\n',
    ]
    assert len(lines[7]) == W.MAX_LINE, len(lines[7])
    got = _serve(rig, [b"".join(lines)])
    ids = [a["id"] for a in got]
    assert ids == [1, 2, 3, None, 5, 6, 7], got
    assert got[3]["error"]["code"] == "line_too_long", got[3]
    assert got[0]["ok"] and got[1]["ok"] and got[4]["ok"] and got[6]["ok"], got
    unmount()


def test_attack_a_line_split_across_passes_and_tiny_requests():
    rig = SerialRig()
    rig.step()
    one = b'{"id":1,"cmd":"state"}\n'
    # byte by byte, one byte a pass
    got = _serve(rig, [one[i : i + 1] for i in range(len(one))])
    assert [a["id"] for a in got] == [1], got
    # many tiny requests at once, then in odd splits
    many = b"".join(b'{"id":%d,"cmd":"state"}\n' % i for i in range(60))
    got = _serve(rig, [many])
    assert [a["id"] for a in got] == list(range(60)), [a["id"] for a in got]
    pieces = []
    i = 0
    k = 0
    while i < len(many):
        n = (7, 1, 40, 3, 100)[k % 5]
        pieces.append(many[i : i + n])
        i += n
        k += 1
    got = _serve(rig, pieces)
    assert [a["id"] for a in got] == list(range(60)), [a["id"] for a in got]
    unmount()


def test_attack_a_request_during_a_streaming_log_read_and_a_host_that_pauses_reading():
    rig = PRig(blocks=128)
    finished_game(rig, 600)
    inp, out = Stream(), Stream()
    link = L.Link(rig.srv, inp, out, max_out=256, step_out=256)  # a UART board: the chunk streams long
    rig.app.link = link
    srv = rig.srv
    ms = rig.ms
    inp.push(b'{"id":1,"cmd":"log.read","from_seq":0,"max_records":256,"bin":true}\n')
    for _ in range(50):
        ms += 1
        rig.app.step(PT(ms))
        if srv.rd is not None:
            break
    assert srv.rd is not None, (srv.lines, bytes(out.data[:200]))  # streaming
    inp.push(b'{"id":2,"cmd":"state"}\n{"id":3,"cmd":"log.read","from_seq":256,"max_records":256,"bin":true}\n')
    # the host stops reading for a while (under the stall limit): nothing moves, nothing is lost
    blocked = [False]
    orig = out.ioctl

    def ioctl(req, arg):
        r = orig(req, arg)
        if blocked[0] and req == 3:
            r &= ~4  # no POLLOUT
        return r

    out.ioctl = ioctl
    for k in range(500):
        blocked[0] = 1000 <= k * 7 < 3000  # 2 s: under the stall limit
        ms += 7
        rig.app.step(PT(ms))
    assert not blocked[0]
    for _ in range(5000):
        if not (inp.data or srv.pending() or srv.has_work()):
            break
        ms += 1
        rig.app.step(PT(ms))
    got = answers(out.data)
    assert [a["id"] for a, _ in got] == [1, 2, 3], [a for a, _ in got]
    ref = reference(rig.app.journal.root, 0, 256)
    assert got[0][1] == ref[0], (got[0][0], len(got[0][1]), ref[1:])
    ref = reference(rig.app.journal.root, 256, 256)
    assert got[2][1] == ref[0], (got[2][0], len(got[2][1]), ref[1:], len(ref[0]))
    assert got[1][0]["ok"] and got[1][0]["state"] == "finished", got[1][0]
    unmount()


# ------------------------------------------------------------------ the faces


def test_attack_a_flooding_host_never_starves_the_faces():
    rig = SerialRig()
    rig.step()
    rig.app.new_game("300", "left", PT(rig.ms))
    rig.app.start(PT(rig.ms))
    faces = Faces(rig.app.board)
    rig.app.board.show = faces.show
    flood = b"".join(b'{"id":%d,"cmd":"state"}\n' % (i % 1000) for i in range(400))
    rig.inp.push(flood)
    for _ in range(2000):
        rig.step(1)
        if len(rig.inp.data) < 2000:
            rig.inp.push(flood)
    gaps = [(faces.at[i + 1] - faces.at[i]) & 0x3FFFFFFF for i in range(len(faces.at) - 1)]
    assert len(faces.at) >= 19 and max(gaps) <= 101, (len(faces.at), max(gaps) if gaps else None)
    assert rig.app.clock.state == C.RUNNING
    unmount()


# ------------------------------------------------------------------ log.info's listing


def _game(rig, presses, at):
    for i in range(presses):
        at += 1000
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, at)
    return at


def _read_all(rig, start=0):
    out = b""
    seq = start
    while True:
        r = rig.ok("log.read", from_seq=seq, max_records=256)
        out += rig_data(r)
        if not r["count"] or r["next"] > r["last"]:
            return out
        seq = r["next"]


def rig_data(r):
    import binascii

    return binascii.a2b_base64(r["data"]) if r.get("data") else b""


def test_attack_log_info_listing_never_serves_a_stale_log_read():
    rig = PRig(blocks=128)
    rig.app.journal.max_bytes = 40 * 1024  # trims old games: segments go
    rig.ok("new", tc="-", first="left")
    rig.ok("start")
    at = _game(rig, 150, 0)
    rig.ok("result", result="1-0")
    root = rig.app.journal.root
    # 1: records (a new segment) between log.info and log.read, in the same ms
    for case in ("records", "erase", "new game", "trim"):
        if case == "erase":
            rig.ok("result", result="1-0")  # (before log.info: erase takes finished games only)
        rig.ok("log.info")
        if case == "records":
            rig.ok("new", tc="-", first="left")
            rig.ok("start")
            at = _game(rig, 140, at)
            rig.ms = at
        elif case == "new game":
            rig.ok("new", tc="-", first="right")
        elif case == "erase":
            r = rig.ok("log.erase", upto_seq=rig.app.journal.seq, game=rig.app.journal.game)
            assert r["erased"] > 0, r
        elif case == "trim":
            rig.ok("start")
            at = _game(rig, 400, at)
            rig.ms = at
        for start in (0, 100, 300):
            want = reference(root, start, 256)
            r = rig.ok("log.read", from_seq=start, max_records=256)
            assert rig_data(r) == want[0], (case, start, r["count"], r["from"], r["next"])
            assert r["from"] == want[1] and r["next"] == want[2] and r["count"] == want[3], (case, start, r, want[1:])
    unmount()


# ------------------------------------------------------------------ memory


def test_attack_idle_link_passes_allocate_nothing():
    # an idle host: passes (faces' ones too) with the heap locked, during a game and in setup
    for running in (False, True):
        rig = SerialRig()
        rig.step()
        if running:
            rig.app.new_game("300", "left", PT(rig.ms))
            rig.app.start(PT(rig.ms))
        for _ in range(30):
            rig.step(7)
        gc.collect()
        micropython.heap_lock()
        try:
            for _ in range(60):
                rig.step(7)  # (the fake stream's poll allocates nothing when empty)
        finally:
            micropython.heap_unlock()
        unmount()
