# A match mode (issue 14) on the sim board, as memory_probe.py runs a game:
#
#     micropython -X heapsize=N match_probe.py FLASH ACTIONS START [--frozen] [--info]
#
# mounts the littlefs image, boots the app (restoring an interrupted match: its records are
# replayed through the engine; a finished one: its final state read from its result record),
# after a match's restore asks what the arbiter's PC asks first (identify, log.info,
# settings.get: ANSWERED_BOOT names those answered ok), plays the script in virtual time with the
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


def answered(srv, now):
    """identify, log.info and settings.get, as the arbiter's PC asks them: those answered ok."""
    said = ""
    for cmd in (b"identify", b"log.info", b"settings.get"):
        srv.feed(b'{"id":"a","cmd":"%s"}\n' % cmd, now)
        ok = None
        while srv.pending() or srv.has_work():
            piece = srv.take_out(512)
            if ok is None:
                ok = piece.find(b'"ok":true') >= 0
            srv.feed(b"", now)
        if ok:
            said += " " + cmd.decode()
    return said or " -"


def main():
    flash, actions, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if len(sys.argv) > 4 and sys.argv[4] == "--frozen":
        sys.path[:] = [".frozen"]
    from sagatfw.app import App
    from sagatfw.boards import sim
    from sagatfw.protocol import Server

    phase("imported")
    sim.mount_flash(flash)
    board = sim.Board(sim.TICKS_MAX - 30000, False, Sink())
    app = App(board)
    board.vt = start
    srv = Server(app, {"uid": "sim-probe"}, board.ticks())
    app.boot(board.ticks())
    phase("booted")
    print("MATCH %s" % (app.match is not None))
    print("MATCH_STATE_BOOT %s" % (app.match.m.state if app.match is not None else None))
    print("FREE_BOOT %d" % gc.mem_free())
    if "--info" in sys.argv:
        import micropython

        micropython.mem_info(1)
    if app.match is not None:  # a match restored
        print("ANSWERED_BOOT%s" % answered(srv, board.ticks()))
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
        for item in sim.read_actions(actions):
            n += 1
            if n % 20 == 0:
                srv.feed(b'{"id":%d,"cmd":"state"}\n' % n, board.ticks())
                while srv.pending() or srv.has_work():
                    srv.take_out(512)
                    srv.feed(b"", board.ticks())
            yield item

    sim.run_virtual(app, board, script(), start)
    phase("played")
    print("ANSWERED_PLAYED%s" % answered(srv, board.ticks()))
    print("LIVE_MAX %d" % PEAK[0])
    print("MATCH_STATE %s" % (app.match.m.state if app.match is not None else None))
    print("DONE")


main()
