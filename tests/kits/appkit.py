# The App's fake board for the MicroPython tests that run the App on littlefs in RAM (flash.py):
# a board that keeps what the App shows, beeps and notes; the ticks offset so that every test runs
# across the 2^30 wrap; a button's tap and a lever's press through the real button path (IRQ
# edges, App.step). Used by the app's tests (test_app_mp), the log's (boots, long games), the
# match's buttons and menu (ui), and protocolrig.py's ticks. Runs under MicroPython and CPython
# (no pytest here). The CPython App rig, on a directory, is apprig.py. RootBoard: the protocol
# rigs' board (protocolrig.py, apprig.py, menukit.py), on a root folder of its own, showing nothing.
from sagatfw.core.ticks import TICKS_MAX, ticks_add

BASE = TICKS_MAX - 5000  # the ticks wrap 5 s into every test


def T(ms):
    return ticks_add(BASE, ms)


class RootBoard:
    """A board on the folder `root` that shows nothing and keeps only its notes."""

    name = "test"

    def __init__(self, root):
        self.root = root
        self.buttons = None
        self.notes = []

    def ticks(self):
        return 0

    def attach(self, buttons):
        self.buttons = buttons

    def show(self, app, now):
        pass

    def beep(self, ms, now, enabled):
        pass

    def battery(self):
        return 87, False

    def note(self, text):
        self.notes.append(text)


class FakeBoard(RootBoard):
    """The App's board on /flash/ that keeps what it shows and beeps."""

    def __init__(self):
        RootBoard.__init__(self, "/flash/")
        self.shows = []
        self.beeps = []

    def show(self, app, now):
        self.shows.append(now)

    def beep(self, ms, now, enabled):
        if enabled:
            self.beeps.append((now, ms))


def tap(app, button, ms, hold=100):
    """A press at `ms` and its release `hold` ms later (LONG from 1000 ms), each step taken."""
    app.buttons.edge(button, T(ms), True)
    app.step(T(ms))
    app.buttons.edge(button, T(ms + hold), False)
    app.step(T(ms + hold))


def lever(app, side, ms):
    """A lever pressed at `ms` and released 80 ms later, the loop passing 1 ms after each edge."""
    app.buttons.edge(side, T(ms), True)
    app.step(T(ms + 1))
    app.buttons.edge(side, T(ms + 80), False)
    app.step(T(ms + 81))
