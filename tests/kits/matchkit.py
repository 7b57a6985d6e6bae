# Test kit for the match engines (sagatfw/engine): drives an engine in test time (ms since the
# start), with the ticks offset by `base` so any test can run across the 2^30 ticks wrap, and
# keeps every event as a dict. Runs under CPython and MicroPython alike (no pytest here).
from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine.matchwords import (
    BY_CLOCK,
    EV_SIZE,
    EVENT_NAMES,
    F_ARG,
    F_LEFT,
    F_PERIOD,
    F_PMS,
    F_RIGHT,
    F_SIDE,
    F_STOPPED,
    F_T,
    F_TYPE,
    F_VAL,
    WHY_REFEREE,
    Refused,
)

NEAR_WRAP = TICKS_MAX - 10000  # ticks 10 s before the wrap
MIN = 60000


class Run:
    def __init__(self, engine, base=0):
        self.m = engine
        self.base = base
        self.log = []  # every event so far

    def now(self, t):
        return ticks_add(self.base, t)

    def _drain(self):
        m = self.m
        ev = m.events
        for i in range(m.n_events):
            e = i * EV_SIZE
            self.log.append({
                "type": EVENT_NAMES[ev[e + F_TYPE]],
                "t": ev[e + F_T],
                "period": ev[e + F_PERIOD],
                "pms": ev[e + F_PMS],
                "stopped": ev[e + F_STOPPED],
                "left": ev[e + F_LEFT],
                "right": ev[e + F_RIGHT],
                "side": ev[e + F_SIDE],
                "arg": ev[e + F_ARG],
                "val": ev[e + F_VAL],
            })
        m.clear_events()

    def do(self, name, t, *args):
        """Call the engine's operation `name`(*args, now); the events are drained either way.
        Raises AssertionError if it was refused (refused() expects that)."""
        n = len(self.log)
        try:
            getattr(self.m, name)(*(args + (self.now(t),)))
        except Refused as e:
            self._drain()
            raise AssertionError("%s at %d refused: %s" % (name, t, e.args)) from None
        self._drain()
        return self.log[n:]

    def refused(self, name, t, *args):
        """Assert `name` at t is refused and changes nothing but the advance to t; its reason."""
        self.poll(t)
        before = self.snapshot()
        try:
            getattr(self.m, name)(*(args + (self.now(t),)))
        except ValueError as e:  # Refused (the state) or a bad value
            self._drain()
            assert self.snapshot() == before, (name, before, self.snapshot())
            return e.args[0]  # (a Refused's reason code follows its text)
        raise AssertionError("%s at %d was not refused" % (name, t))

    def snapshot(self):
        m = self.m
        return (m.state, m.period, m.t, list(m.scores), list(m.warnings), list(m.reds), m.undoable, m.n_ent,
                m.winner, m.why, m.lot_due, m.entering, m.elapsed_ms(), m.stopped_ms(), m.break_ms(), len(self.log))

    def poll(self, t):
        ok = self.m.advance(self.now(t))
        self._drain()
        return ok

    def restore(self, t):
        """The board rebooted and the engine is back where it was: power_restore at ticks t."""
        self.m.power_restore(self.now(t))
        self._drain()

    def of(self, kind):
        return [e for e in self.log if e["type"] == kind]

    def types(self):
        return [e["type"] for e in self.log]

    def brief(self, since=0):
        return [(e["type"], e["t"]) for e in self.log[since:]]


def replay(engine, log):
    """Rebuild a match from its events alone, as the journal's restore and `sagat logs verify`
    will: the referee's operations are applied at their t (ticks = t), the events the engine
    derives by itself come from advancing; returns the replayed events, which must equal `log`."""
    r = Run(engine)
    i = 0
    while i < len(log):
        ev = log[i]
        kind = ev["type"]
        t = ev["t"]
        side = ev["side"]
        r.poll(t)
        if len(r.log) > i:  # derived: advancing to t made it (and what follows at t)
            i = len(r.log)
            continue
        if kind == "period_start" and ev["arg"] != BY_CLOCK or kind == "break_end" and ev["arg"] == 1:
            r.do("start", t)
        elif kind == "score" or kind == "late_score":
            r.do("score", t, side, ev["arg"])
        elif kind == "card" or kind == "late_card":
            r.do("card", t, side, ev["arg"])
        elif kind == "restart":
            r.do("restart", t)
        elif kind == "adjust":
            r.do("adjust", t, ev["val"])
        elif kind == "undo":
            r.do("undo", t)
        elif kind == "stoppage_start":
            r.do("stoppage", t)
        elif kind == "stoppage_end":
            r.do("resume", t)
        elif kind == "lot":
            r.do("draw_lot", t, side)
        elif kind == "result" and ev["arg"] == WHY_REFEREE:
            r.do("result", t, side)
        elif kind == "power_restore":
            r.restore(t)
        else:
            raise AssertionError("the engine did not derive %r" % (ev,))
        i = len(r.log)
    return r.log


def refuses(fn, *args):
    """Assert fn(*args) raises Refused; return its reason."""
    try:
        fn(*args)
    except Refused as e:
        return e.args[0]  # (its reason code follows its text)
    raise AssertionError("expected Refused")


def bad_value(fn, *args):
    """Assert fn(*args) raises a plain ValueError (a bad value), not Refused (the state); its text."""
    try:
        fn(*args)
    except Refused:
        raise AssertionError("a bad value refused as if the state did not allow it") from None
    except ValueError as e:
        return str(e)
    raise AssertionError("expected ValueError")
