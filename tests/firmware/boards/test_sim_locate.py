# The sim board during the arbiter's `locate`: its terminal faces say LOCATE for the 5 s and it
# beeps once a second whatever the sound setting; headless (a quiet run) it shows and beeps nothing.
# Both runtimes.
import io

from boardkit import FakeApp

from clockkit import Game
from sagatfw.boards.sim import Board
from sagatfw.core.ticks import ticks_add


def _located(quiet=False):
    board = Board(None, quiet, io.StringIO())
    app = FakeApp(Game("300").clock)
    app.store.values["sound"] = False
    app.locate_until = ticks_add(1000, 5000)  # link/commands.py locate, at ticks 1000
    frames = []
    for now in range(1000, 7100, 100):
        board.out = io.StringIO()  # (MicroPython's has no truncate)
        board.show(app, now)
        frames.append((now, board.out.getvalue()))
    return board, app, frames


def test_the_sim_faces_say_locate_while_it_lasts_and_beep_each_second():
    board, app, frames = _located()
    said = [now for now, text in frames if "LOCATE" in text]
    assert said[0] == 1000 and said[-1] < 6000, said  # (a frame is written when it changed)
    assert "LOCATE" not in frames[-1][1] and "LOCATE" not in "".join(t for n, t in frames if n >= 6000)
    assert board.beeps == 5 and app.locate_until is None  # at 0, 1, 2, 3 and 4 s


def test_a_headless_sim_shows_no_locate():
    board, app, frames = _located(quiet=True)
    assert board.beeps == 0 and all(text == "" for now, text in frames)
