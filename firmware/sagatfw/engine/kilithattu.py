# sagat: the kilithattu match engine, KT-* of docs/rules.md.
#
# Pure module on matchbase.py (Match: the API at its top) and matchwords.py (the codes: sides, states, the
# events and their fields); the semantics in docs/match.md.
# Periods: 0 "innings 1" and 1 "innings 2", 7:00 each (KT-4.4): the team set at
# setup (`first`) enters in innings 1, the other in innings 2. The referee starts innings 1; the
# changeover after it runs by itself for `changeover_ms` (at most 1:00) and innings 2 starts by
# itself at its end (the referee may start it sooner). Level after innings 2 (KT-4.6): a lot is due
# (state LOT): the caller draws it with draw_lot(side, now) from its random source (the board's
# true one, the sim's seeded one); `side` is the team that enters first in the extra time. Then 2
# "extra 1" (5:00, the referee starts it), a changeover (KT-4.6's 1:00 break to change sides) and 3
# "extra 2" (5:00, started by the changeover's end). Still level (KT-4.6, "a method announced in
# advance"), by `method`:
#   M_SUDDEN   4 "sudden": a period counting up, on the referee's start; the first score (either
#              team) wins at once (WHY_SUDDEN)
#   M_LOT      a second lot is due (draw_lot): the side drawn wins (WHY_LOT)
#   M_DRAW     the match is a draw at once (result NONE, WHY_DRAW)
#   M_REFEREE  time is over (state OVER): the referee enters the result (WHY_REFEREE)
#
#   m = Kilithattu(); m.new_match(first=LEFT, changeover_ms=60000, method=M_LOT)
#   score(side, 1, now): one point per pazham (KT-5.5), for the entering team only (`entering`).
#   Stoppages (KT-4.5): the match time stops, so the time lost is played; stopped_ms() is the
#   innings' total, each stoppage_end carries its length.

from sagatfw.engine import matchwords as M  # (one name: each imported name is a global, and costs RAM)
from sagatfw.engine.matchbase import Match

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_INNINGS_MS = const(420000)  # KT-4.4
_EXTRA_MS = const(300000)  # KT-4.6
_MAX_CHANGEOVER_MS = const(60000)  # KT-4.4: at most 1 minute
_EXTRA_BREAK_MS = const(60000)  # KT-4.6: 1 minute to change sides before the extra time's 2nd half
SUDDEN = const(4)  # the sudden period (method M_SUDDEN)

# How a tie after the extra time is broken (KT-4.6): new_match's `method`.
M_SUDDEN = const(0)
M_LOT = const(1)
M_DRAW = const(2)
M_REFEREE = const(3)
METHOD_NAMES = ("sudden", "lot", "draw", "referee")


class Kilithattu(Match):
    MODE = "kilithattu"
    PERIOD_NAMES = ("innings 1", "innings 2", "extra 1", "extra 2", "sudden")
    LENGTHS = (_INNINGS_MS, _INNINGS_MS, _EXTRA_MS, _EXTRA_MS, 0)  # KT-4.4, KT-4.6
    BREAK_NAME = "changeover"
    AUTO_START = True  # KT-4.4: the changeover takes at most changeover_ms
    # new_match's (matchbase.Match.OPTIONS): the side entering first, the changeover a large number,
    # the method a small one (the second); the names are match.SIDE_NAMES and METHOD_NAMES, written
    # out so that the table is one constant (in flash when frozen)
    OPTIONS = (("first", 0, ("left", "right")), ("changeover_ms", 3, None),
               ("method", 2, ("sudden", "lot", "draw", "referee")))
    # POINTS: Match's (1,), KT-5.5's pazham: a lever scores it at once (one entry less in the class)
    changeover_ms = _MAX_CHANGEOVER_MS
    method = M_LOT

    def new_match(self, first=M.LEFT, changeover_ms=_MAX_CHANGEOVER_MS, method=M_LOT):
        """Set up a match: the team entering first (KT-4.4), the changeover (1..60 s, in ms) and
        the further tie's method (KT-4.6). Refused on a bad setting."""
        M.check_side(first)
        if not isinstance(changeover_ms, int) or changeover_ms < 1000 or changeover_ms > _MAX_CHANGEOVER_MS:
            raise ValueError("changeover must be 1000..60000 ms")
        if method != M_SUDDEN and method != M_LOT and method != M_DRAW and method != M_REFEREE:
            raise ValueError("method must be sudden, lot, draw or referee")
        self.first = first
        self.changeover_ms = changeover_ms
        self.method = method
        self._reset()

    def _entering(self, p):
        if p == 0:
            return self.first  # KT-4.4
        if p == 1:
            return 1 - self.first
        if p == 2:
            return self.lot_side  # KT-4.6: the lot's order
        if p == 3:
            return 1 - self.lot_side
        return M.NONE  # sudden: either team's score counts

    def _ended(self, at):
        p = self.period
        if p == 0:
            self._break(at, self.changeover_ms)  # KT-4.4
            return
        if p == 2:
            self._break(at, _EXTRA_BREAK_MS)  # KT-4.6: 1 minute, whatever the changeover
            return
        w = self._lead_side()
        if w != M.NONE:
            self._finish(at, w, M.WHY_POINTS, 0)
        elif p == 1:
            self.state = M.LOT  # KT-4.6: the order of the extra time by lot
            self.lot_due = 1
        elif self.method == M_SUDDEN:
            self._ready(SUDDEN)
        elif self.method == M_LOT:
            self.state = M.LOT
            self.lot_due = 2
        elif self.method == M_DRAW:
            self._finish(at, M.NONE, M.WHY_DRAW, 0)
        else:
            self.state = M.OVER

    def _points(self, points):
        if points != 1:
            raise ValueError("a pazham is 1 point")  # KT-5.5

    def _may_score(self, side, entering):
        if entering != M.NONE and side != entering:
            raise M.Refused("not the entering team", "not_entering_team")  # KT-5.5: the pazham is the entering team's

    def _scored(self, side, entry):
        if self.period == SUDDEN:
            self._finish(self.t, side, M.WHY_SUDDEN, entry)

    def draw_lot(self, side, now):
        """The lot that is due (KT-4.6), drawn by the caller: `side` from its random bit. Logged
        (lot) before anything shows it. Lot 1: the team entering first in the extra time; lot 2
        (method M_LOT): the winner. Once drawn, while it stands (extra 1 not started; lot 2's
        result), the referee's toss (a toss on the field) entered in its place: lot, val 1. One
        method for both (a method costs RAM)."""
        M.check_side(side)
        self._op(now)
        s = self.state
        entered = 1
        which = 1
        if s == M.LOT:
            which = self.lot_due
            entered = 0  # the clock's draw
        elif s == M.FINISHED and self.why == M.WHY_LOT:
            which = 2
        elif s != M.READY or self.period != 2:
            raise M.Refused("no lot due", "no_lot_due")
        self.lot_due = 0
        self._emit(M.EV_LOT, self.t, side, which, entered)
        if which == 1:
            self.lot_side = side
            if entered:
                self.entering = side  # (extra 1 waits as it was: a correction of its clock stands)
            else:
                self._ready(2)
        else:
            self._finish(self.t, side, M.WHY_LOT, 0)
