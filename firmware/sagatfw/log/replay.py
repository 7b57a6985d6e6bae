# sagat: replay one game's logged events through the clock engine.
#
# Pure module, used twice: the journal restores an interrupted game after a reboot by replaying
# its records (then the clock is exactly where the last durable record left it), and the host
# re-checks a log: every event the engine derives by itself (flags, stages, low time, default) must
# come out at the same `t` with the same times as the log says. So the log proves who flagged
# first (TK-C13, TK-C14), and a log that the engine cannot reproduce is reported.
#
# Events are the dicts of logread.decode / logread.Reader, in order, for one game: they start with
# the game's setup record (a `settings` event with `tc` and `first`). Checkpoints (in logs written
# before they got a file of their own) advance the clock and must show the engine's faces. At a
# `gap` record (the clock dropped records: its log was full) the replay stops: what follows cannot
# be reproduced without them; `gap` says where (the verifier names it, the restore refuses).

from sagatfw.core.ticks import TICKS_HALF
from sagatfw.engine import clock as C
from sagatfw.log.read import take_events

# Events the engine derives from time alone: replay advances the clock to their `t`.
DERIVED = ("flag", "stage", "low_time", "default")
_SKIP = ("time_sync", "settings")
_SIDES = {"left": C.LEFT, "right": C.RIGHT}
_KEYS = ("type", "t", "left_ms", "right_ms", "left_moves", "right_moves", "running", "side", "by", "order",
         "stage", "result", "reason", "before", "after", "first")


class Mismatch(Exception):
    """The log and the engine disagree; the message names the record."""


def settings_of(ev):
    s = ev["settings"]
    return C.Settings(s["freeze"], s["stage_advance"], s["extension_ms"], s["default_ms"], s["low_time_ms"])


def _tc_sides(tc):
    from sagatfw.core import tcparse  # the boot forgets it with the replay

    if isinstance(tc, dict):
        return tcparse.parse(tc["left"]), tcparse.parse(tc["right"])
    return tcparse.parse_sides(tc)


class Replay:
    """Feed a game's events one by one (`feed`); the clock follows. Raises Mismatch."""

    def __init__(self, clock=None):
        self.clock = clock if clock is not None else C.Clock()
        self.clock.sink = self  # many instants between two records: the queue drains here (`_log`)
        self.queue = []  # events the clock produced that the log has not shown yet
        self.started = False
        self.set_up = False
        self.last_t = 0
        self.gap = None  # the gap record the replay stopped at

    def feed(self, ev):
        kind = ev["type"]
        clock = self.clock
        if self.gap is not None:
            return
        if kind == "gap":
            self.gap = ev
            return
        if kind == "checkpoint":
            self._advance(ev["t"])
            self._check_faces(ev)
            return
        if kind == "settings":
            if ev.get("tc") is not None:
                left, right = _tc_sides(ev["tc"])
                clock.new_game(left, right, _SIDES[ev["first"]], settings_of(ev))
                self.set_up = True
                self.queue = []
            return
        if kind in _SKIP:
            return
        if not self.set_up:
            raise Mismatch("seq %s: %s before the game's setup record" % (ev.get("seq"), kind))
        if not self.queue:
            t = ev["t"]
            if kind in DERIVED or (kind == "adjourn" and t >= C.MAX_GAME_MS):  # the clock's own, at its bound
                self._advance(t)
            else:
                self._walk(t)
                if not self.queue:
                    self._apply(ev, t)
        if not self.queue:
            raise Mismatch("seq %s: the log has %s at t=%d, the engine has nothing" % (ev.get("seq"), kind, ev["t"]))
        mine = self.queue.pop(0)
        for key in _KEYS:
            if key in mine and mine[key] != ev.get(key):
                raise Mismatch(
                    "seq %s: %s at t=%d: %s is %r in the log, %r by the engine"
                    % (ev.get("seq"), kind, ev["t"], key, ev.get(key), mine[key])
                )
        self.last_t = ev["t"]

    def _advance(self, t):
        self._walk(t)
        self.clock.advance(t)
        self._take()

    def _walk(self, t):
        """Bring the clock towards game time t in steps the ticks can span: the engine takes `t` as
        ticks, and two events of a game paused or adjourned for days can be further apart than
        ticks_diff reaches (2^29 ms). What the engine derives on the way is queued."""
        clock = self.clock
        while clock.state != C.SETUP and t - clock.t >= TICKS_HALF:
            before = clock.t
            clock.advance(clock.t + TICKS_HALF - 1)
            self._take()
            if clock.t == before:  # at the game's bound: t goes no further
                return

    def _take(self):
        self.queue.extend(take_events(self.clock))

    def _log(self, now):  # the clock's sink
        self._take()

    def _check_faces(self, ev):
        clock = self.clock
        if self.queue:
            raise Mismatch("seq %s: checkpoint at t=%d, but the engine has a %s first"
                           % (ev.get("seq"), ev["t"], self.queue[0]["type"]))
        if (clock.ms(C.LEFT), clock.ms(C.RIGHT)) != (ev["left_ms"], ev["right_ms"]):
            raise Mismatch("seq %s: checkpoint at t=%d shows %d/%d, the engine %d/%d" % (
                ev.get("seq"), ev["t"], ev["left_ms"], ev["right_ms"], clock.ms(C.LEFT), clock.ms(C.RIGHT)))

    def _apply(self, ev, t):
        clock = self.clock
        kind = ev["type"]
        ok = True
        if kind == "game_start":
            ok = clock.start(t)
        elif kind == "press":
            ok = clock.press(_SIDES[ev["side"]], t)
        elif kind == "pause":
            ok = clock.pause(C.BY_NAMES.index(ev["by"]), t)
        elif kind == "resume":
            ok = clock.resume(t)
        elif kind == "extension":
            ok = clock.extend(t)
        elif kind == "adjourn":
            ok = clock.adjourn(t)
        elif kind == "resume_adjourned":
            ok = clock.resume_adjourned(t)
        elif kind == "result":
            ok = clock.result(C.RESULT_NAMES.index(ev["result"]), t)
        elif kind == "power_restore":
            clock.advance(t)
            clock.power_restore(t)
        elif kind == "adjust":
            a = ev["after"]
            reason = C.REASON_NAMES.index(ev["reason"])
            # a stage the correction left alone stays the engine's own (the log keeps at most 255)
            stage = a["stage"] if a["stage"] != ev["before"]["stage"] else None
            try:
                clock.adjust(_SIDES[ev["side"]], t, a["ms"], a["moves"], stage, reason)
            except ValueError as e:
                raise Mismatch("seq %s: adjust refused by the engine: %s" % (ev.get("seq"), e.args[0])) from None
        else:
            raise Mismatch("seq %s: unknown event %s" % (ev.get("seq"), kind))
        if not ok:
            raise Mismatch("seq %s: the engine refused %s at t=%d" % (ev.get("seq"), kind, t))
        self._take()


def replay(events, clock=None):
    """Replay a whole game; returns the Replay (its clock is where the log ends)."""
    r = Replay(clock)
    for ev in events:
        r.feed(ev)
    return r
