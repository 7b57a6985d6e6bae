# A match mode (issue 14) on the sim board, as memory_probe.py runs a game:
#
#     micropython -X heapsize=N match_probe.py FLASH ACTIONS START [--frozen]
#
# mounts the littlefs image, boots the app (restoring an interrupted match: its records are
# replayed through the engine), plays the script in virtual time with the faces drawn (to a sink)
# and the protocol server attached, asking for `state` every 20 actions, then prints the heap in
# use at each phase and the highest heap seen after every 10th step. Exit status 0 and a last line
# "DONE" only if everything ran. tests/test_benchmarks.py runs it on the frozen port in 64 KB.
import gc
import sys

PEAK = [0, 0]


def phase(name):
    gc.collect()
    print("MEM %s %d" % (name, gc.mem_alloc()))


class Sink:
    def write(self, text):
        pass


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
    print("LIVE_MAX %d" % PEAK[0])
    print("MATCH_STATE %s" % (app.match.m.state if app.match is not None else None))
    print("DONE")


main()
