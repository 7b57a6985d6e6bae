# The serial link's kit for the link's MicroPython tests (tests/firmware/link: test_repl_mp,
# test_link_pass_mp, test_link_pass_ctrl_c_and_floods_mp, test_log_read_stream_mp): one direction
# of the link as a stream that counts what was read; a booted App with its link on two of them behind the
# sim board's SerialDriver, which does what a board's USB CDC / UART driver does with the interrupt
# character (SerialRig); the answers in a pull's written bytes; a finished game on protocolrig's
# Rig; and log.read's answer worked out from the segment files by the plain reading of
# docs/protocol.md's rules (reference). Runs under MicroPython (no pytest here).
import gc
import io
import json
import os
import select

from appkit import T
from flash import Flash, mount
from protocolrig import UID

from sagatfw.app.main import App
from sagatfw.boards.simserial import SerialDriver
from sagatfw.engine import clock as C
from sagatfw.link import auth as A
from sagatfw.link import server as SV
from sagatfw.link import stream as L
from sagatfw.link.commands import save_key
from sagatfw.log import records as R


class Stream(io.IOBase):
    """One direction of the serial link: bytes waiting to be read, or bytes written."""

    def __init__(self):
        self.data = bytearray()
        self.taken = 0  # bytes read from it so far

    def push(self, b):
        self.data += b

    def readinto(self, buf):
        n = min(len(buf), len(self.data))
        buf[:n] = self.data[:n]
        self.data = self.data[n:]
        self.taken += n
        return n

    def write(self, b):
        self.data += b
        return len(b)

    def ioctl(self, req, arg):
        if req == 3:  # MP_STREAM_POLL
            r = 0
            if arg & select.POLLIN and self.data:
                r |= select.POLLIN
            if arg & select.POLLOUT:
                r |= select.POLLOUT
            return r
        return -22  # EINVAL: no file descriptor (MP_STREAM_GET_FILENO), else poll would watch fd 0


class SerialBoard:
    """SerialRig's board: it keeps its notes and nothing else (a pass under heap_lock allocates
    nothing for it)."""

    name = "test"

    def __init__(self, root):
        self.root = root
        self.notes = []

    def attach(self, buttons):
        pass

    def show(self, app, now):
        pass

    def beep(self, ms, now, enabled):
        pass

    def note(self, text):
        self.notes.append(text)


class SerialRig:
    """A booted App with its link on fake streams behind a board's serial driver."""

    def __init__(self, key=b"", fresh=True):
        if fresh:
            gc.collect()
            mount(Flash(blocks=64), fresh=True)
            if key:
                save_key("/flash/", key)
        self.app = App(SerialBoard("/flash/"))
        self.app.boot(T(0))
        self.inp = Stream()
        self.out = Stream()
        self.link = L.Link(SV.Server(self.app, {"uid": UID}, T(0)), self.inp, self.out)
        self.drv = SerialDriver.attach(self.link)
        self.app.link = self.link
        self.ms = 0
        self.ids = 0
        self.key = key

    def step(self, dt=5):
        """One pass of the board's loop, dt ms after the last; may raise KeyboardInterrupt."""
        self.ms += dt
        self.app.step(T(self.ms))

    def host(self, data, passes=6):
        """The host writes data; the loop passes; returns the interrupt character in force after
        each service call."""
        self.inp.push(data)
        chars = []
        for _ in range(passes):
            self.step()
            chars.append(self.drv.char)
        return chars

    def answers(self):
        lines = [json.loads(x) for x in bytes(self.out.data).split(b"\n") if x]
        self.out.data = bytearray()
        return lines

    def request(self, cmd, proof=None, **args):
        self.ids += 1
        req = {"id": self.ids, "cmd": cmd}
        for k in args:
            req[k] = args[k]
        if proof is not None:
            nonce = self.request("auth.challenge")["nonce"]
            req["auth"] = A.sign(proof, nonce, req, UID)
        self.host(b"\n" + json.dumps(req).encode() + b"\n")  # "\n" first, as a host that connects
        got = [a for a in self.answers() if a["id"] is not None]
        assert len(got) == 1 and got[0]["id"] == req["id"], got
        return got[0]

    def to_state(self, name):
        """Drive the clock into a state (as the buttons and the menu would)."""
        app = self.app
        now = T(self.ms)
        if name == "flagged":
            app.new_game("10+1", "left", now)  # an increment: freeze on, a flag stops the clock
        if name != "setup":
            app.start(now)
        if name == "flagged":
            self.step(10500)
        elif name == "paused":
            app.pause(C.BY_ARBITER, now)
        elif name == "adjourned":
            app.adjourn(now)
        elif name == "finished":
            app.result("1-0", now)
        self.step()
        assert C.STATE_NAMES[app.clock.state] == name, (name, app.clock.state)


def answers(out):
    """The answers in the written bytes (each log.read's line, then its raw records)."""
    got = []
    i = 0
    while i < len(out):
        j = out.index(b"\n", i)
        ans = json.loads(bytes(out[i:j]))
        i = j + 1
        n = ans.get("bin", 0)
        if n is True or n is False:  # log.info's: "log.read can send bin", no bytes follow
            n = 0
        got.append((ans, bytes(out[i : i + n])))
        i += n
    return got


def finished_game(rig, presses):
    """A count-up game of `presses` alternating presses a second apart, and its result 1-0."""
    rig.ok("new", tc="-", first="left")
    rig.ok("start")
    for i in range(presses):
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, 1000 * (i + 1))
    rig.ok("result", result="1-0")


def reference(folder, start, want):
    """(data, from, next, count, torn) of log.read(from_seq=start, max_records=want)."""
    names = sorted(n for n in os.listdir(folder) if n.endswith(".seg"))
    i = 0
    for k in range(len(names)):
        if int(names[k][:-4]) <= start:
            i = k
    out = []
    first = None
    top = start - 1
    real = 0
    torn = 0
    for name in names[i:]:
        if real >= want:
            break
        with open(folder + "/" + name, "rb") as f:
            data = f.read()
        whole = len(data) // R.RECORD_SIZE
        prev = int(name[:-4]) - 1
        idx = 0
        while idx < whole and real < want:
            rec = data[idx * R.RECORD_SIZE : (idx + 1) * R.RECORD_SIZE]
            idx += 1
            bad = R.check(rec)
            pos = prev + 1 if bad else R.seq_of(rec)
            anchor = rec[1] == R.T_ANCHOR if not bad else idx == 1  # a segment's first entry: its anchor's place
            prev = pos - 1 if anchor else pos
            if first is None and pos < start:
                continue
            if anchor and idx >= whole:
                continue  # nothing after it: it goes with its record, later
            if first is None:
                first = pos
            if prev > top:
                top = prev
            out.append(rec)
            if not anchor:
                real += 1
        if idx >= whole and len(data) % R.RECORD_SIZE:
            torn += 1
    count = len(out)
    return b"".join(out), first if first is not None else start, top + 1 if count else start, count, torn
