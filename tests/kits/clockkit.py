# Test kit for the clock: drives a Clock in test time (ms since the start), with the ticks
# offset by `base` so any test can be run across the 2^30 ticks wrap. Runs under CPython and
# MicroPython alike (no pytest here).
from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine.clock import LEFT, RIGHT, Clock, Settings
from sagatfw.log.read import take_events

L = LEFT
R = RIGHT
NEAR_WRAP = TICKS_MAX - 10000  # ticks 10 s before the wrap


class Game:
    def __init__(self, left, right=None, first=LEFT, base=0, **settings):
        self.clock = Clock()
        self.clock.new_game(left, right, first, Settings(**settings))
        self.base = base
        self.log = []  # every event so far, as contract 3 dicts
        self.clock.sink = self  # the clock drains its queue here when it fills (`_log`)

    def now(self, t):
        return ticks_add(self.base, t)

    def _drain(self):
        self.log.extend(take_events(self.clock))

    def _log(self, now):  # the clock's sink
        self._drain()

    def start(self, t=0):
        ok = self.clock.start(self.now(t))
        self._drain()
        return ok

    def press(self, side, t):
        ok = self.clock.press(side, self.now(t))
        self._drain()
        return ok

    def pause(self, t, by=2):
        ok = self.clock.pause(by, self.now(t))
        self._drain()
        return ok

    def resume(self, t):
        ok = self.clock.resume(self.now(t))
        self._drain()
        return ok

    def poll(self, t):
        self.clock.advance(self.now(t))
        self._drain()

    def ms(self, side, t):
        v = self.clock.remaining(side, self.now(t))
        self._drain()
        return v

    def both(self, t):
        return (self.ms(LEFT, t), self.ms(RIGHT, t))

    def call(self, name, t, *args, **kw):
        ok = getattr(self.clock, name)(*(args + (self.now(t),)), **kw)
        self._drain()
        return ok

    def of(self, kind):
        return [e for e in self.log if e["type"] == kind]

    def types(self):
        return [e["type"] for e in self.log]


def raises(exc, fn, *args, **kw):
    """Assert fn(*args) raises exc; return its message."""
    try:
        fn(*args, **kw)
    except exc as e:
        return str(e)
    raise AssertionError("expected %s" % exc.__name__)


def play(game, t0, side, durations):
    """Alternate presses starting with `side` at t0 + durations[0], ...; returns the last t."""
    t = t0
    s = side
    for d in durations:
        t += d
        assert game.press(s, t), "press of %d at %d did not switch" % (s, t)
        s = 1 - s
    return t
