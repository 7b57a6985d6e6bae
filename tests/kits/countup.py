# A fourth match mode, for the tests only: a count-up timer. It shows what a new mode is: this
# module (its engine, a Match of sagatfw/engine/matchbase.py with its rules, names and options) and
# one line in sagatfw.MODES (register() adds it, unregister() takes it away). Nothing else in the
# firmware or the host names it: the app, the log, the link, the faces and `sagat logs` take it
# from the registry (tests/firmware/app/test_mode_countup_mp.py, tests/host/log/test_mode_countup_host.py).
#
# One period, "time", counting up from 0:00 on the referee's start, with stoppages; a point at a
# time for either side; a lead of more than `lead` points ends it at once (0: only the referee's
# result does). Runs under CPython and MicroPython alike.

import sagatfw
from sagatfw.engine import matchwords as M
from sagatfw.engine.matchbase import Match

NAME = "countup"
LINE = ("countup", "CountUp", ("lead",))  # its line in sagatfw.MODES: its engine module (this one), class, options


class CountUp(Match):
    MODE = NAME
    PERIOD_NAMES = ("time",)
    LENGTHS = (0,)  # counts up: no end of its own
    OPTIONS = (("lead", 3, None),)  # (a large number's place, where kok-boru keeps none: each mode its own)
    POINTS = (1,)  # a lever scores a point at once
    lead = 0

    def new_match(self, lead=0):
        if not isinstance(lead, int) or isinstance(lead, bool) or lead < 0 or lead > 99:
            raise ValueError("lead must be 0..99")
        self.lead = lead
        self._reset()

    def _points(self, points):
        if points != 1:
            raise ValueError("a point is 1")

    def _scored(self, side, entry):
        d = self.scores[M.LEFT] - self.scores[M.RIGHT]
        if self.lead and (d > self.lead or -d > self.lead):
            self._finish(self.t, side, M.WHY_LEAD, entry)



def register():
    """Add the mode to sagatfw.MODES (once); returns its number in the log."""
    if LINE not in sagatfw.MODES:
        sagatfw.MODES = sagatfw.MODES + (LINE,)
    return sagatfw.MODES.index(LINE)


def unregister():
    sagatfw.MODES = tuple([e for e in sagatfw.MODES if e != LINE])
