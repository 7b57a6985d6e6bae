# sagat: the one-on-one kok-boru (ulak tartysh) match engine, KB-* of docs/rules.md.
#
# Pure module on matchbase.py (Match: the API at its top) and matchwords.py (the codes: sides, states, the
# events and their fields); the semantics in docs/match.md.
# Periods: 0 "1st half" and 1 "2nd half", 4:00 each (KB-5), the referee starts
# each; between them a 1:00 rest that runs by itself (KB-6) and cannot be cut short; then, if the
# riders are level, 2 "golden score", counting up from 0:00 on the referee's start (KB-17).
#
#   m = KokBoru(); m.new_match(lead=8)
#   lead: a lead of MORE than `lead` points wins at once (KB-14); 1..99, 0: no such rule.
#   score(side, points, now): 4, 2 or 1 (KB-7..KB-10). card(side, kind, now): CARD_WARNING, a
#   second one removes the rider (KB-11); CARD_RED removes at once (KB-12). A removal ends the
#   match: result, the other rider wins (WHY_REMOVAL).

from sagatfw.engine import matchwords as M  # (one name: each imported name is a global, and costs RAM)
from sagatfw.engine.matchbase import Match

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_HALF_MS = const(240000)  # KB-5
_REST_MS = const(60000)  # KB-6
_GOLDEN = const(2)  # the golden score period (KB-17)
_EV_LATE_CARD = const(13)  # matchwords.py's EVENT_NAMES: late_card (no global there: RAM)


class KokBoru(Match):
    MODE = "kokboru"
    PERIOD_NAMES = ("1st half", "2nd half", "golden score")
    LENGTHS = (_HALF_MS, _HALF_MS, 0)  # KB-5; golden score counts up (KB-17)
    BREAK_NAME = "rest"  # KB-6
    AUTO_START = False  # the referee starts each half
    OPTIONS = (("lead", 1, None),)  # new_match's (matchbase.Match.OPTIONS): the lead, a small number
    POINTS = (4, 2, 1)  # KB-7..KB-10: a lever opens an entry, PLUS 4, MINUS 2, the lever again 1
    lead = 8  # KB-14 (new_match sets the bout's)

    def new_match(self, lead=8):
        """Set up a bout; the referee's start begins the 1st half. Refused on a bad setting."""
        if not isinstance(lead, int) or isinstance(lead, bool) or lead < 0 or lead > 99:
            raise ValueError("lead must be 0..99")
        self.lead = lead  # KB-14
        self._reset()

    def _ended(self, at):
        if self.period == 0:
            self._break(at, _REST_MS)  # KB-6
            return
        w = self._lead_side()
        if w == M.NONE:
            self._ready(_GOLDEN)  # KB-17: level at the end of time
        else:
            self._finish(at, w, M.WHY_POINTS, 0)

    def _points(self, points):
        if points != 4 and points != 2 and points != 1:  # KB-7 .. KB-10
            raise ValueError("points must be 4, 2 or 1")

    def _scored(self, side, entry):
        if self.period == _GOLDEN:
            self._finish(self.t, side, M.WHY_GOLDEN, entry)  # KB-17: the first score wins at once
            return
        d = self.scores[M.LEFT] - self.scores[M.RIGHT]
        lead = self.lead
        if lead and (d > lead or -d > lead):
            self._finish(self.t, side, M.WHY_LEAD, entry)  # KB-14: only the scorer's lead can grow

    def card(self, side, kind, now):
        """A warning (KB-11: the second removes the rider) or a red card (KB-12: removal at once),
        while a half or golden score is on."""
        M.check_side(side)
        if kind != M.CARD_WARNING and kind != M.CARD_RED:
            raise ValueError("card must be warning or red")
        self._op(now)
        late = self._on()  # a card given after a half ended by time counts for that half
        n = self._push(((-kind) << 1) | side)
        if kind == M.CARD_WARNING:
            self.warnings[side] += 1
            out = self.warnings[side] >= 2  # KB-11
        else:
            self.reds[side] += 1
            out = True  # KB-12
        if late:
            self._late(_EV_LATE_CARD, side, kind, n)
        else:
            self._emit(M.EV_CARD, self.t, side, kind, n)
        if out:
            self._finish(self.t, 1 - side, M.WHY_REMOVAL, n)
