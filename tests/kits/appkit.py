# The App's fake board for the MicroPython tests that run the App on littlefs in RAM (flash.py):
# a board that keeps what the App shows, beeps and notes; the ticks offset so that every test runs
# across the 2^30 wrap; a button's tap and a lever's press through the real button path (IRQ
# edges, App.step). Used by the app's tests (test_app_mp), the log's (boots, long games), the
# match's buttons and menu (ui), and protocolrig.py's ticks. Runs under MicroPython and CPython
# (no pytest here). The CPython App rig, on a directory, is apprig.py.
from sagatfw.core.ticks import TICKS_MAX, ticks_add

BASE = TICKS_MAX - 5000  # the ticks wrap 5 s into every test


def T(ms):
    return ticks_add(BASE, ms)


class FakeBoard:
    name = "test"
    root = "/flash/"

    def __init__(self):
        self.buttons = None
        self.shows = []
        self.beeps = []
        self.notes = []

    def ticks(self):
        return 0

    def attach(self, buttons):
        self.buttons = buttons

    def show(self, app, now):
        self.shows.append(now)

    def beep(self, ms, now, enabled):
        if enabled:
            self.beeps.append((now, ms))

    def note(self, text):
        self.notes.append(text)


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
