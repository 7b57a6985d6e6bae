# A match mode (docs/match.md) on the sim board, as memory_probe.py runs a game:
#
#     micropython -X heapsize=N match_probe.py FLASH ACTIONS START [--frozen] [--info]
#
# mounts the littlefs image, boots the app (restoring an interrupted match: its records are
# replayed through the engine; a finished one: its final state read from its result record),
# after a match's restore asks what the arbiter's PC asks first (identify, log.info,
# settings.get: ANSWERED_BOOT 111 if each was answered ok), plays the script in virtual time with the
# faces drawn (to a sink) and the protocol server attached, asking for `state` every 20 actions,
# asks the three again (ANSWERED_PLAYED), then prints the heap in use at each phase, the heap
# free after the boot (FREE_BOOT; --info prints micropython.mem_info(1) there: its "max free sz"
# is in 16-byte blocks) and the highest heap seen after every 10th step. Exit status 0 and a last
# line "DONE" only if everything ran. tests/test_benchmarks.py runs it on the frozen port in 64 KB.
import gc
import sys

PEAK = [0, 0]


def phase(name):
    gc.collect()
    print("MEM %s %d" % (name, gc.mem_alloc()))


class Sink:
    def write(self, text):
        pass


def ask(srv, now, cmd):
    """One request, as the serial link feeds it: 1 if it was answered ok, else 0."""
    srv.feed(b'{"id":"a","cmd":"%s"}\n' % cmd, now)
    ok = 0
    first = True
    while srv.pending() or srv.has_work():
        piece = srv.peek(512)  # as the board's link takes it (link/stream.py): a view, no copy
        if first and len(piece):
            ok = bytes(piece[:24]).find(b'"ok":true') >= 0  # '{"id":"a","ok":true': the line's head
            first = False
        srv.sent(len(piece))
        piece = None
        srv.feed(b"", now)
    return ok


def main():
    flash, actions, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if len(sys.argv) > 4 and sys.argv[4] == "--frozen":
        sys.path[:] = [".frozen"]
    from sagatfw.app.main import App
    from sagatfw.boards import sim, simulator
    from sagatfw.link.server import Server

    phase("imported")
    sim.mount_flash(flash)
    board = sim.Board(sim.TICKS_MAX - 30000, False, Sink())
    app = App(board)
    board.vt = start
    srv = Server(app, {"uid": "sim-probe"}, board.ticks())
    app.boot(board.ticks())
    phase("booted")
    m = app.match
    print("MATCH %s\nMATCH_STATE_BOOT %s\nFREE_BOOT %d" % (m is not None, m and m.m.state, gc.mem_free()))
    if "--info" in sys.argv:
        __import__("micropython").mem_info(1)
    asks = (b"identify", b"log.info", b"settings.get")
    if m is not None:  # a match restored: what the arbiter's PC asks first
        print("ANSWERED_BOOT %d%d%d" % tuple(ask(srv, board.ticks(), c) for c in asks))
    m = None
    step = app.step

    def watched(now):
        step(now)
        PEAK[1] += 1
        if PEAK[1] % 10 == 0:
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
            if n % 20 == 0:
                ask(srv, board.ticks(), b"state")
            yield item

    simulator.run_virtual(app, board, script(), start)
    phase("played")
    print("ANSWERED_PLAYED %d%d%d" % tuple(ask(srv, board.ticks(), c) for c in asks))
    print("LIVE_MAX %d" % PEAK[0])
    print("MATCH_STATE %s" % (app.match.m.state if app.match is not None else None))
    print("DONE")


main()
