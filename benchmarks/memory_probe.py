# The whole firmware on the sim board, as memory_bench.py runs it under MicroPython:
#
#     micropython -X heapsize=N memory_probe.py FLASH ACTIONS START [ROMFS | --frozen]
#
# with the compiled firmware on sys.path (memory_bench.py puts it next to this file), or, given a
# ROMFS image of it, imported from that image (vfs.VfsRom: bytecode and constants run in place, as
# from a board's ROMFS partition; on the unix port the image itself sits in the heap), or, with
# --frozen, from the firmware frozen into the unix port itself (benchmarks/frozen_unix.py builds it,
# as a board's image is built; sys.path is only ".frozen" then). It mounts the
# littlefs image, boots the app (restoring an interrupted game: the log is replayed), plays the
# script in virtual time with the faces drawn (to a sink) and the protocol server attached, as on a
# board, asks for `state` every 50 actions as an arbiter's PC watching would, then pulls the whole
# log with `log.read` in 32-record chunks, as `sagat logs pull` does. It prints the heap in use
# (after a collection) at each phase, the interned names (qstrs), and the highest heap seen after
# every 10th step. Exit status 0 and a last line "DONE" only if everything ran.
import gc
import sys

import micropython

PEAK = [0, 0]  # the highest live heap seen, steps


def phase(name):
    gc.collect()
    print("MEM %s %d" % (name, gc.mem_alloc()))


class Sink:
    def write(self, text):
        pass


def ask(srv, now, line):
    """One request through the server, as the serial link feeds it; the answer's bytes. An
    answer that is not ok (a MemoryError inside a request is answered "internal") stops the run."""
    srv.feed(line, now)
    got = 0
    ok = False
    while srv.pending() or srv.has_work():
        piece = srv.take_out(512)
        if not got:
            ok = piece.find(b'"ok":true') >= 0
            if not ok:
                raise RuntimeError("%s answered: %s" % (line, piece))
        got += len(piece)
        srv.feed(b"", now)
    return got


KEY = b"the arbiter's key"


def signed(srv, now, request):
    """A request (a dict) signed with KEY as `sagat --key` sends it: the challenge, then the
    request with its MAC (sagatfw.link.auth.sign, the host's and the clock's one canonical form)."""
    import json

    import sagatfw
    from sagatfw.link import auth

    srv.feed(b'{"id":"c","cmd":"auth.challenge"}\n', now)
    answer = b""
    while srv.pending():
        answer += srv.take_out(512)
    request["auth"] = auth.sign(KEY, json.loads(answer)["nonce"], request, srv.info.get("uid"))
    del auth
    sagatfw.forget("sagatfw.link.auth")  # the probe keeps nothing of the firmware's own
    answer = b""
    srv.feed(json.dumps(request).encode() + b"\n", now)
    while srv.pending():
        answer += srv.take_out(512)
    if not json.loads(answer)["ok"]:
        raise RuntimeError("signed request refused: %s" % answer)


def field(buf, n, name):
    """The whole number after `name` in buf[:n]."""
    i = buf.find(name, 0, n)
    if i < 0:  # an error answer (a MemoryError inside the request is answered "internal")
        raise RuntimeError("log.read answered: %s" % bytes(buf[:n]))
    i += len(name)
    j = i
    while 48 <= buf[j] <= 57:
        j += 1
    return int(bytes(buf[i:j]))


def main():
    flash, actions, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if len(sys.argv) > 4 and sys.argv[4] == "--frozen":  # only the firmware frozen into this port
        sys.path[:] = [".frozen"]
    elif len(sys.argv) > 4:
        import vfs

        with open(sys.argv[4], "rb") as f:
            image = f.read()
        vfs.mount(vfs.VfsRom(image), "/rom")
        sys.path.insert(0, "/rom")
        phase("romfs")
    from sagatfw.app.main import App
    from sagatfw.boards import sim, simulator
    from sagatfw.link.server import Server

    phase("imported")
    from sagatfw.app import main as A

    print("FROM %s" % A.__file__)
    sim.mount_flash(flash)
    if start == 0:  # the first boot: an arbiter key is set, so the log is keyed and changes need it
        with open("/flash/key", "wb") as f:
            f.write(KEY)
    board = sim.Board(sim.TICKS_MAX - 30000, False, Sink())
    app = App(board)
    board.vt = start
    srv = Server(app, {"uid": "sim-probe"}, board.ticks())  # before the boot, as app.run makes it
    app.boot(board.ticks())
    phase("booted")
    step = app.step

    def watched(now):
        step(now)
        PEAK[1] += 1
        if PEAK[1] % 10 == 0:  # the live heap between steps, every 10th step
            gc.collect()
            a = gc.mem_alloc()
            if a > PEAK[0]:
                PEAK[0] = a

    app.step = watched
    n = 0

    def script():
        nonlocal n
        for item in simulator.read_actions(actions):
            n += 1
            if n % 50 == 0:
                ask(srv, board.ticks(), b'{"id":%d,"cmd":"state"}\n' % n)
            yield item

    simulator.run_virtual(app, board, script(), start)
    phase("played")
    # the arbiter's PC: identify, the log's extent, the settings, and a pause and a resume signed
    # with the key (each loads the protocol's rarer half, and auth, for the request)
    now = board.ticks()
    for cmd in (b"identify", b"log.info", b"settings.get"):
        line = b'{"id":"x","cmd":"%s"}\n' % cmd
        if not ask(srv, now, line):
            raise RuntimeError("no answer to %s" % cmd)
    signed(srv, now, {"id": "p", "cmd": "pause", "by": "arbiter"})
    signed(srv, now, {"id": "r", "cmd": "resume"})
    if app.clock.state != 1 and start == 0:  # running again after the signed resume
        raise RuntimeError("the signed pause and resume did not run: state %d" % app.clock.state)
    seq = 0
    records = 0
    head = bytearray(512)  # the answer's first piece: its fields, before the base64 data
    while True:
        srv.feed(b'{"id":"pull","cmd":"log.read","from_seq":%d,"max_records":32}\n' % seq, board.ticks())
        n = 0
        while srv.pending():  # as the serial link writes it: piece by piece, nothing kept
            piece = srv.peek(512)
            if not n:
                n = len(piece)
                head[:n] = piece
            srv.sent(len(piece))
        count = field(head, n, b'"count":')
        seq = field(head, n, b'"next":')
        records += count
        if not count:
            break
    phase("pulled")
    print("RECORDS %d" % records)
    print("FRAMES %d" % board.frames)
    print("LIVE_MAX %d" % PEAK[0])
    micropython.qstr_info()
    print("DONE")


main()
