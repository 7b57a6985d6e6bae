# The sim board in virtual time, as `sagat sim --virtual` drives it, for the MicroPython tests of a
# flash the game fills (tests/firmware/log: test_logfull_mp, test_logfull_geometry_mp,
# test_checkpoint_file_mp) and for make_full_image.py: the sim's board (no faces) and its App
# booted at a virtual instant, a script's actions played on them, and a game's events replayed
# through the clock's engine (log/replay.py). Runs under MicroPython (no pytest here).
from sagatfw.app.main import App
from sagatfw.boards import sim, simulator
from sagatfw.log.replay import Replay

BASE = 1000  # virtual ticks at the first boot


def boot(vt):
    """A board (the sim's, in virtual time, no faces) and its app, booted at virtual ms vt."""
    board = sim.Board(BASE, quiet=True)
    board.vt = vt
    app = App(board)
    restored = app.boot(board.ticks())
    return app, board, restored


def play(app, board, actions):
    """Run (at, action) dicts the way `sagat sim --virtual` does; stops at a power cut."""
    return simulator.run_virtual(app, board, [(i + 1, a) for i, a in enumerate(actions)], board.vt)


def replays(events, game):
    rp = Replay()
    for e in events:
        if e["game"] == game:
            rp.feed(e)  # raises Mismatch where the engine and the log disagree
    return rp
