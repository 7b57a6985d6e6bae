# The on-clock menu's rig (firmware/sagatfw/ui/menu.py): a REAL App with a Menu on a tiny fake
# board whose flash is a fresh temporary directory; every button goes through the real Buttons
# path (IRQ edges, debounce, SHORT and LONG) and App.step. A short press takes 0.4 s, a long one
# 1.2 s (held past buttons' long_ms of 1 s): the rig's time advances by exactly that per press.
# And the fewest presses that take a menu's value where it must go. Used by the menu's tests
# (tests/firmware/ui/test_menu.py), the settings guard's (log/test_settings_guard.py, its board)
# and the forfeit's (engine/test_clock_setup_result.py). Runs under CPython and MicroPython (no
# pytest here).
import os
import random
import time

from appkit import RootBoard

from sagatfw.app.main import App
from sagatfw.log import boot as journalboot
from sagatfw.ui import buttons as B
from sagatfw.ui import menu as MN

SHORT_MS = 400
LONG_MS = 1200
_dirs = [0]  # the rig's directories so far


def rmtree(path):
    try:
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        p = path + "/" + name
        if os.stat(p)[0] & 0x4000:
            rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def _fresh_dir():
    _dirs[0] += 1
    # a random part too: other checkouts' test runs on the same machine start in the same second
    path = "/tmp/sagat_menu_%d_%d_%d" % (int(time.time()), random.getrandbits(30), _dirs[0])
    rmtree(path)
    os.mkdir(path)
    return path + "/"


class Board(RootBoard):
    """A board in a fresh folder of its own that draws the menu when it is open."""

    def __init__(self):
        RootBoard.__init__(self, _fresh_dir())

    def show(self, app, now):
        if app.menu is not None and app.menu.active:
            app.menu.view(now)


class Rig:
    """A real App with a Menu; `press` drives a control button through the Buttons IRQ path."""

    def __init__(self, tc="420", first="left", settings=None):
        self.board = Board()
        self.app = App(self.board)
        self.app.boot(0)
        self.menu = MN.Menu(self.app)
        self.t = 1000
        if settings:
            self.app.set_settings(settings, self.t)
        self.app.new_game(tc, first, self.t)
        self.app.step(self.t)
        self.presses = 0

    def close(self):
        rmtree(self.board.root[:-1])

    def press(self, button, long=False):
        app = self.app
        t = self.t
        app.buttons.edge(button, t, True)
        if long:
            app.step(t + 1050)  # LONG is reported while the button is still held
            app.buttons.edge(button, t + 1100, False)
            self.t = t + LONG_MS
        else:
            app.buttons.edge(button, t + 100, False)
            self.t = t + SHORT_MS
        app.step(self.t - 10)
        self.presses += 1
        assert self.menu.errors == 0, self.board.notes

    def presses_of(self, seq):
        for button, long in seq:
            self.press(button, long)

    def lever(self, side, after_ms=2000):
        self.t += after_ms
        self.app.buttons.edge(side, self.t, True)
        self.app.buttons.edge(side, self.t + 100, False)
        self.t += 200
        self.app.step(self.t)

    def wait(self, ms):
        self.t += ms
        self.app.step(self.t)

    def view(self):
        return self.menu.view(self.t)

    def log(self, kind=None):
        return [e for e in journalboot.game_events(self.app.journal) if kind is None or e["type"] == kind]

    def state(self):
        return self.app.clock.state


def shortest(cur, target, lo, hi, big=True):
    """The fewest-seconds presses taking a wrapping value from cur to target: a list of (button,
    long). Presses commute, so: some LONG steps of 10 and some short steps of 1, each one way."""
    n = hi - lo + 1
    delta = (target - cur) % n
    best = None
    kmax = n // 10 + 2 if big else 0
    for k in range(-kmax, kmax + 1):
        r = (delta - 10 * k) % n
        for s in (r, r - n):
            cost = abs(k) * LONG_MS + abs(s) * SHORT_MS
            if best is None or cost < best[0]:
                best = (cost, k, s)
    _, k, s = best
    out = []
    out += [(B.PLUS if k > 0 else B.MINUS, True)] * abs(k)
    out += [(B.PLUS if s > 0 else B.MINUS, False)] * abs(s)
    return out


def cost(seq):
    return sum(LONG_MS if long else SHORT_MS for _, long in seq)


def go_to(rig, index):
    """Move a list's choice to `index` with the fewest presses."""
    n = rig.menu.choices()
    return rig.presses_of(shortest(rig.menu.i, index, 0, n - 1, n > MN.BIG))


def open_arbiter(rig, item):
    rig.press(B.MENU)
    if rig.menu.i != MN.T_ARBITER:
        go_to(rig, MN.T_ARBITER)
    rig.press(B.START)
    go_to(rig, item)
