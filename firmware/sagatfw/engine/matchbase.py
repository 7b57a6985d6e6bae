# sagat: the shared base of the match modes, the pure engines of the field games:
# kokboru.py (one-on-one kok-boru, KB-*) and kilithattu.py (KT-*). docs/match.md is the reference.
#
# Pure module, built like clock.py (docs/clock.md): it never reads the time, every operation takes
# `now`, a ticks_ms() value (wrapping at 2^30, ticks.py); from those it keeps `t`, ms since the
# referee started the first period. Every instant the engine acts on by itself (a period's or a
# break's end, the next period started by the clock) is computed, so it is logged at its exact `t`
# however rarely `advance` is called. Nothing on the tick path (advance, the operations when they
# succeed, the view) allocates. Only the active mode's module is imported (RAM: docs/match.md).
#
# m = KokBoru() (once: every buffer), m.new_match(lead=8) (each match), m.start(now) (the first
# period at t = 0), m.advance(now) every loop, m.next_instant() (t of its next instant, -1: none).
# Drain the queue after EVERY call, refused or not: `n_events`, `field(i, F_...)`, `clear_events()`
# (one call emits at most 8 events; EV_CAPACITY = 16).
# Operations (side: LEFT 0, RIGHT 1; each first advances to `now`; docs/match.md gives each one's
# states and events): start, stoppage, resume, score(side, points), card(side, kind), undo, draw_lot
# (kilithattu: the clock's draw, or the toss), restart, adjust(ms), result(winner), power_restore,
# restore_result(...). A score or a card entered after a period ended by time, until the next
# period starts or the referee's result, counts for that period (late_score, late_card) and may
# change what its end decided; undo takes it back the same way. Each returns None, or raises
# Refused(reason) (sagatfw.Refused, a ValueError: a short text for the faces) when the state does
# not allow it, a plain ValueError for a bad value; either changes nothing but the advance to now.
# The view (docs/match.md "The view"): scores[s], warnings[s], reds[s], state, period,
# period_name(), counts_up(), match_ms(), elapsed_ms(), break_ms(), stoppage_ms(), stopped_ms(),
# entering, lot_due, undoable, winner, why, t. The codes are matchwords.py's: `... import matchwords as M`.

from array import array

from sagatfw.core.ticks import ticks_diff
from sagatfw.engine import matchwords as M  # (one name: each imported name is a global, and costs RAM)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# The engine's own limits: private consts (inlined, not kept as globals: RAM).
_INSTANT_ROOM = const(2)  # one instant of advance emits at most 2 events
_OP_ROOM = const(2)  # an operation at most 2 more
_MAX_T = const(864000000)  # t stops there (10 days), as clock.MAX_GAME_MS: a small int, a u32
_MAX_SCORE = const(999)
_MAX_ENTRIES = const(30000)  # entry numbers fit an i16
_UNDO_DEPTH = const(32)  # the entries of a period undo can take back, the latest first
_MAX_STOPS = const(9999)
_LAST = const(16)  # late_p's mark of the last period (its end decided the match)
_EV_LATE_SCORE = const(12)  # matchwords.py's EVENT_NAMES: late_score, restart, adjust (no globals there: RAM)
_EV_RESTART = const(14)
_EV_ADJUST = const(15)

# Why an operation is refused in each state (the index), when it is not allowed there.
_NOT_IN = ("not started", "period not started", "period running", "stoppage on", "break running", "lot due",
           "time over: result?", "match over")  # (a face's line holds 21 characters)


class Match:
    """The shared engine; a game's class gives MODE, PERIOD_NAMES, LENGTHS, AUTO_START, OPTIONS,
    POINTS and the hooks (_ended, _scored, _points, _may_score, _entering) and its own new_match;
    a game that draws lots, draw_lot."""

    MODE = ""
    PERIOD_NAMES = ("",)  # type: tuple
    LENGTHS = (0,)  # type: tuple  # each period's match time in ms; 0: counts up (golden score)
    BREAK_NAME = ""
    AUTO_START = False  # a break that ends by itself starts the next period (kilithattu)
    # new_match's keywords, as sagatfw.MODES names them: (name, where a setup record keeps it: 0 the
    # side, 1 and 2 a small number (0..255), 3 a large one (0..2^32-1), its value names or None)
    OPTIONS = ()  # type: tuple
    POINTS = (1,)  # type: tuple  # what a score may be; one value: a lever scores it at once

    def __init__(self):
        self.events = array("i", bytes(4 * M.EV_SIZE * M.EV_CAPACITY))
        self.n_events = 0
        self.scores = [0, 0]
        self.warnings = [0, 0]
        self.reds = [0, 0]
        self._ent_code = array("h", bytes(2 * _UNDO_DEPTH))  # (value << 1) | side; value +points, -card
        self._ent_no = array("h", bytes(2 * _UNDO_DEPTH))
        self.first = M.LEFT
        self._reset()

    def _reset(self):
        self.n_events = 0
        for s in (M.LEFT, M.RIGHT):
            self.scores[s] = 0
            self.warnings[s] = 0
            self.reds[s] = 0
        self.t = 0
        self.last = 0  # ticks of the last call
        self.lot_due = 0
        self.lot_side = M.NONE
        self.n_ent = 0  # entries made in this match (their numbers)
        self.winner = M.NONE
        self.why = -1
        self._fin_entry = 0  # the entry whose result undo may withdraw
        self._fin_state = M.SETUP
        self.brk_t = 0
        self.brk_len = 0
        self.late_p = -1  # the period that ended by time while late entries count for it (+_LAST: its end decided)
        self.late_stopped = 0  # its stopped total at its end
        self.n_late = 0  # standing late entries (undo takes them back, the latest first)
        self._ready(0)
        self.state = M.SETUP

    # ------------------------------------------------------------ time base

    def _sync(self, now):
        """Advance `t` to ticks `now`. A `now` older than the last call counts as no time."""
        if self.state == M.SETUP:
            return
        dt = ticks_diff(now, self.last)
        if dt > 0:
            room = _MAX_T - self.t
            self.t += dt if dt < room else room
            self.last = now

    def _elapsed_at(self, at):
        if self.state == M.RUNNING:
            return self.elapsed + at - self.seg_t
        return self.elapsed

    def _stopped_at(self, at):
        if self.state == M.STOPPED:
            return self.p_stopped + at - self.stop_t
        return self.p_stopped

    def _next(self):
        s = self.state
        if s == M.RUNNING and self.length:
            return self.seg_t + self.length - self.elapsed
        if s == M.BREAK:
            return self.brk_t + self.brk_len
        return -1

    def next_instant(self):
        """t of the next instant the engine acts on by itself (a period's or a break's end), or -1."""
        return self._next()

    def advance(self, now):
        """Bring the match to ticks `now`, each period's and break's end at its exact t. Returns
        True; False if the queue had no room for the next instant: the match then stops whole at
        that instant (drain the queue and call again). Never raises."""
        self._sync(now)
        while True:
            at = self._next()
            if at < 0 or at > self.t:
                return True
            if self.n_events > M.EV_CAPACITY - _INSTANT_ROOM:
                self.last = (self.last + at - self.t) & 0x3FFFFFFF  # ticks_add (ticks.TICKS_MAX)
                self.t = at
                return False
            if self.state == M.RUNNING:
                self.elapsed = self.length
                self.seg_t = at
                self.state = M.READY  # until _ended says what follows
                self._emit(M.EV_PERIOD_END, at, M.NONE, 0, 0)
                self.late_p = self.period  # late entries count for it until the next start
                self.late_stopped = self.p_stopped
                self.n_late = 0
                self._ended(at)
                if self.state != M.BREAK:  # no break after it (2nd half, innings 2, extra 2): it decided
                    self.late_p += _LAST
            else:
                self._break_over(at, 0)

    def _op(self, now):
        if not self.advance(now) or self.n_events > M.EV_CAPACITY - _OP_ROOM:
            raise M.Refused("events not logged yet", "events_pending")

    # ----------------------------------------------------------- transitions

    def _ready(self, p):
        """Period p waits for its start."""
        self.state = M.READY
        self.period = p
        self.length = self.LENGTHS[p]
        self.elapsed = 0  # the period's match time, up to seg_t
        self.seg_t = 0
        self.stop_t = 0
        self.p_stopped = 0
        self.n_stops = 0
        self.entering = self._entering(p)
        if not self.n_late:  # (late entries stay undoable until the next period starts)
            self.undoable = 0  # the ring of this period's standing entries (_UNDO_DEPTH at most)
            self._pos = 0

    def _run(self, at, how):
        if self.late_p >= 0:  # the ended period takes no more late entries, nor undo its entries
            self.late_p = -1
            self.n_late = self.undoable = self._pos = 0
        self.state = M.RUNNING
        self.seg_t = at
        self._emit(M.EV_PERIOD_START, at, self.entering, how, self.length)

    def _break(self, at, ms):
        self.state = M.BREAK
        self.brk_t = at
        self.brk_len = ms
        self._emit(M.EV_BREAK_START, at, M.NONE, 0, ms)

    def _break_over(self, at, early):
        self._emit(M.EV_BREAK_END, at, M.NONE, early, at - self.brk_t)
        self._ready(self.period + 1)
        if early:
            self._run(at, M.BY_REFEREE)
        elif self.AUTO_START:
            self._run(at, M.BY_CLOCK)

    def _stop(self, at):
        self.elapsed += at - self.seg_t
        self.seg_t = at
        self.state = M.STOPPED
        self.stop_t = at
        if self.n_stops < _MAX_STOPS:
            self.n_stops += 1

    def _finish(self, at, winner, why, entry):
        if self.state == M.RUNNING:
            self.elapsed += at - self.seg_t
            self.seg_t = at
        self._fin_state = self.state
        self._fin_entry = entry
        self.state = M.FINISHED
        self.lot_due = 0
        self.winner = winner
        self.why = why
        self._emit(M.EV_RESULT, at, winner, why, 0)

    def _lead_side(self):
        d = self.scores[M.LEFT] - self.scores[M.RIGHT]
        return M.LEFT if d > 0 else (M.RIGHT if d < 0 else M.NONE)

    # ------------------------------------------------------------ the game's hooks

    def _entering(self, p):
        return M.NONE

    def _ended(self, at):
        """Period self.period's time ran out at `at` (period_end is logged): what follows."""

    def _scored(self, side, entry):
        """An entry changed the score: a result it decides."""

    def _points(self, points):
        raise M.Refused("no scores", "no_scores")

    def _may_score(self, side, entering):
        pass

    # ------------------------------------------------------------ operations

    def _on(self):
        """A period is on (running or in a stoppage), or a late entry counts: entries are taken.
        Returns whether the entry is late (for the period that ended by time)."""
        s = self.state
        late = self.late_p >= 0 and s != M.RUNNING and s != M.STOPPED and not (s == M.FINISHED and self._fin_entry)
        if not late and s != M.RUNNING and s != M.STOPPED:
            raise M.Refused(_NOT_IN[s], "match_state", {"state": M.STATE_NAMES[s]})
        if self.n_ent >= _MAX_ENTRIES:
            raise M.Refused("too many entries", "too_many_entries")
        return late

    def _late(self, kind, side, arg, n):
        """A late entry (kind: its event, at its instant, for the ended period: its length, its
        stopped total) or the undo of one (kind 0). Then, after the last period (_LAST), its end
        decided again with the late entries (not a card's: no points): a result (a new one), the next
        period (a tie: golden score, sudden) or a lot due; True. Else False: the caller's (KB-14)."""
        p = self.late_p % _LAST
        if kind:
            self.n_late += 1
            self._emit(kind, self.t, side, arg, n)
            e = (self.n_events - 1) * M.EV_SIZE
            ev = self.events
            ev[e + M.F_PERIOD] = p
            ev[e + M.F_PMS] = self.LENGTHS[p]
            ev[e + M.F_STOPPED] = self.late_stopped
            if kind != _EV_LATE_SCORE:
                return False
        if self.late_p < _LAST:
            return False
        self._ready(p)
        self.elapsed = self.length
        self.p_stopped = self.late_stopped
        self.winner = M.NONE
        self.why = -1
        self._fin_entry = 0
        self.lot_due = 0
        self._ended(self.t)
        return True

    def start(self, now):
        """The referee starts the period that waits (the first at t = 0); kilithattu: ends a
        changeover early (KT-4.4)."""
        if self.state == M.SETUP:
            if self.n_events > M.EV_CAPACITY - _OP_ROOM:
                raise M.Refused("events not logged yet", "events_pending")
            self.t = 0
            self.last = now
            self._run(0, M.BY_REFEREE)
            return
        self._op(now)
        s = self.state
        if s == M.READY:
            self._run(self.t, M.BY_REFEREE)
        elif s == M.BREAK and self.AUTO_START:
            self._break_over(self.t, 1)
        else:
            raise M.Refused(_NOT_IN[s], "match_state", {"state": M.STATE_NAMES[s]})

    def stoppage(self, now):
        """The referee stops play (KB-16, KT-4.5): the match time stops until resume."""
        self._op(now)
        if self.state != M.RUNNING:
            raise M.Refused(_NOT_IN[self.state], "match_state", {"state": M.STATE_NAMES[self.state]})
        self._stop(self.t)
        self._emit(M.EV_STOPPAGE_START, self.t, M.NONE, self.n_stops, 0)

    def resume(self, now):
        """The referee's signal: the match time runs again; the stoppage's length is logged, and
        the period's stopped total grows by it (KT-4.5: the time lost is not lost)."""
        self._op(now)
        if self.state != M.STOPPED:
            if self.state == M.RUNNING:
                raise M.Refused("no stoppage", "no_stoppage")
            raise M.Refused(_NOT_IN[self.state], "match_state", {"state": M.STATE_NAMES[self.state]})
        at = self.t
        ms = at - self.stop_t
        self.p_stopped += ms
        self.state = M.RUNNING
        self.seg_t = at
        self._emit(M.EV_STOPPAGE_END, at, M.NONE, self.n_stops, ms)

    def score(self, side, points, now):
        """Points for `side` while a period is on (running or stopped)."""
        M.check_side(side)
        self._points(points)
        self._op(now)
        late = self._on()
        self._may_score(side, self._entering(self.late_p % _LAST) if late else self.entering)
        if self.scores[side] + points > _MAX_SCORE:
            raise M.Refused("score limit", "score_limit")
        self.scores[side] += points
        n = self._push((points << 1) | side)
        if not late:
            self._emit(M.EV_SCORE, self.t, side, points, n)
            self._scored(side, n)
        elif not self._late(_EV_LATE_SCORE, side, points, n):  # (the last period's end decided again)
            self._scored(side, n)  # a period before a break: what an entry decides at once (KB-14)

    def card(self, side, kind, now):
        raise M.Refused("no cards in this game", "no_cards")

    def draw_lot(self, side, now):
        raise M.Refused("no lot in this game", "no_lot")

    def _push(self, code):
        self.n_ent += 1
        i = self._pos
        self._ent_code[i] = code
        self._ent_no[i] = self.n_ent
        self._pos = (i + 1) % _UNDO_DEPTH
        if self.undoable < _UNDO_DEPTH:
            self.undoable += 1
        return self.n_ent

    def undo(self, now):
        """Take back the last standing entry of this period (or the last late one): an undo event,
        the entry stays in the log. The entry that ended the match may be taken back too: the
        result is withdrawn, the period comes back stopped (docs/match.md)."""
        self._op(now)
        s = self.state
        i = (self._pos - 1) % _UNDO_DEPTH
        late = self.n_late and self.undoable and s != M.RUNNING and s != M.STOPPED
        if late:
            pass  # the last late entry (the latest in the ring)
        elif s == M.FINISHED:
            if not self._fin_entry or not self.undoable or self._ent_no[i] != self._fin_entry:
                raise M.Refused("match over", "match_state", {"state": "finished"})
        elif s != M.RUNNING and s != M.STOPPED:
            raise M.Refused(_NOT_IN[s], "match_state", {"state": M.STATE_NAMES[s]})
        elif not self.undoable:
            raise M.Refused("nothing to undo", "nothing_to_undo")
        code = self._ent_code[i]
        no = self._ent_no[i]
        self._pos = i
        self.undoable -= 1
        side = code & 1
        value = code >> 1
        if value > 0:
            self.scores[side] -= value
        elif value == -M.CARD_WARNING:
            self.warnings[side] -= 1
        else:
            self.reds[side] -= 1
        reopen = M.NONE
        if s == M.FINISHED and self._fin_entry == no:  # the entry that ended the match: result withdrawn
            reopen = self._fin_state
            self._fin_entry = 0
            self.winner = M.NONE
            self.why = -1
            self.state = reopen if late else M.STOPPED  # (late: the break, or the next period waiting)
            if reopen == M.RUNNING:  # KB-16, KT-4.5: stopped since the result (seg_t): a stoppage
                self.stop_t = self.seg_t  # (from a stoppage, that one goes on)
                self.n_stops += self.n_stops < _MAX_STOPS
        self._emit(M.EV_UNDO, self.t, side, value, no)
        if late:
            self.n_late -= 1  # (after the last period: its end decided again)
            if not self._late(0, 0, 0, 0) and self.state == M.BREAK and self.brk_t + self.brk_len <= self.t:
                self._break_over(self.t, 0)  # it ran out while the match was over: it ends now
        elif reopen == M.RUNNING:  # val: the stoppage's length so far (since the result)
            self._emit(M.EV_STOPPAGE_START, self.t, M.NONE, self.n_stops, self.t - self.stop_t)

    def result(self, winner, now):
        """The referee's result: LEFT, RIGHT or NONE (a draw), in any state; the last counts."""
        if winner != M.LEFT and winner != M.RIGHT and winner != M.NONE:
            raise ValueError("winner must be left, right or none")
        if self.state == M.SETUP:
            if self.n_events > M.EV_CAPACITY - _OP_ROOM:
                raise M.Refused("events not logged yet", "events_pending")
            self.t = 0  # a forfeit: the time base starts now (its wall time is the entry's)
            self.last = now
        else:
            self._op(now)
        self.late_p = -1  # the referee's result: no late entry counts after it, none is undone
        self.n_late = 0
        self._finish(self.t, winner, M.WHY_REFEREE, 0)

    def restart(self, now):
        """KB-3's false start: the period on (running or stopped) goes back to 0:00 and waits for
        the referee's start; only before its first standing entry (undo them first)."""
        self._op(now)
        s = self.state
        if s != M.RUNNING and s != M.STOPPED:
            raise M.Refused(_NOT_IN[s], "match_state", {"state": M.STATE_NAMES[s]})
        if self.undoable:
            raise M.Refused("undo the scores first", "undo_scores_first")
        gone = self._elapsed_at(self.t)
        self._ready(self.period)
        self._emit(_EV_RESTART, self.t, M.NONE, 0, gone)

    def adjust(self, ms, now):
        """The referee's correction of the period's clock while it stands still (a stoppage, or a
        period waiting for its start): `ms` is what the face shows, the time left in a timed
        period (1 .. its length), the time elapsed counting up (golden score, sudden)."""
        if not isinstance(ms, int) or isinstance(ms, bool):
            raise ValueError("ms must be a whole number")
        self._op(now)
        s = self.state
        if s != M.STOPPED and s != M.READY:
            if s == M.RUNNING:
                raise M.Refused("stop the period first", "stop_period_first")
            raise M.Refused(_NOT_IN[s], "match_state", {"state": M.STATE_NAMES[s]})
        n = self.length
        if not (0 < ms <= n if n else 0 <= ms <= _MAX_T):
            raise ValueError("ms must be 1..%d" % n if n else "ms must be 0..%d" % _MAX_T)
        self.elapsed = n - ms if n else ms
        self._emit(_EV_ADJUST, self.t, M.NONE, 0, ms)

    def power_restore(self, now):
        """After a reboot replayed this match: a running period stops at its last durable time
        (a stoppage, resumed by the referee); a stoppage stays; a break goes on from its last
        durable time; ticks restart at `now`."""
        arg = 0
        if self.state == M.RUNNING:
            self._stop(self.t)
            arg = self.n_stops
        self.last = now
        brk = self.state == M.BREAK
        self._emit(M.EV_POWER_RESTORE, self.t, M.NONE, arg, 1 if brk else 0)
        if brk:  # how long the power was off is not known: the break ends at its last durable time
            self._emit(M.EV_BREAK_END, self.t, M.NONE, 2, self.t - self.brk_t)  # (never longer than
            self._ready(self.period + 1)  # its length) and the referee starts the next period

    def restore_result(self, t, period, pms, stopped, scores, cards, entering, winner, why, now):
        """After a reboot, a finished match as its result record says it ended (no replay): its
        t, period, match and stopped time, scores, cards (warnings L, R, reds L, R), entering team,
        winner and why. Undo and late entries are refused ("match over": the entries' numbers are
        not kept); a result is taken. Call after new_match. ValueError if a value is out of range."""
        if not 0 <= period < len(self.LENGTHS) or not 0 <= why < len(M.WHY_NAMES) or not -1 <= winner <= 1:
            raise ValueError("not a result record")
        self._ready(period)
        self.elapsed = pms
        self.p_stopped = stopped
        self.entering = entering
        for s in (M.LEFT, M.RIGHT):
            self.scores[s] = scores[s]
            self.warnings[s] = cards[s]
            self.reds[s] = cards[2 + s]
        self.t = t
        self.last = now
        self._fin_state = M.READY
        self.state = M.FINISHED
        self.winner = winner
        self.why = why

    # ------------------------------------------------------------ the view (no allocation)

    def elapsed_ms(self):
        """The period's match time so far (stoppages not counted)."""
        return self._elapsed_at(self.t)

    def match_ms(self):
        """The match time the faces show: down in a timed period, up when it counts up."""
        e = self._elapsed_at(self.t)
        n = self.length
        return e if not n else (n - e if n > e else 0)

    def counts_up(self):
        return not self.length

    def period_name(self):
        return self.PERIOD_NAMES[self.period]

    def break_ms(self):
        """What is left of the running break, else 0."""
        r = self.brk_t + self.brk_len - self.t
        return r if r > 0 and self.state == M.BREAK else 0

    def stoppage_ms(self):
        """The running stoppage's length so far, else 0."""
        return self.t - self.stop_t if self.state == M.STOPPED else 0

    def stopped_ms(self):
        """The period's stopped time so far, the running stoppage included (KT-4.5)."""
        return self._stopped_at(self.t)

    # ------------------------------------------------------------ events

    def _emit(self, kind, at, side, arg, val):
        n = self.n_events
        if n >= M.EV_CAPACITY:
            raise RuntimeError("match event queue full: drain it after every call")
        e = n * M.EV_SIZE
        ev = self.events
        ev[e + M.F_TYPE] = kind
        ev[e + M.F_T] = at
        ev[e + M.F_PERIOD] = self.period
        ev[e + M.F_PMS] = self._elapsed_at(at)
        ev[e + M.F_STOPPED] = self._stopped_at(at)
        ev[e + M.F_LEFT] = self.scores[M.LEFT]
        ev[e + M.F_RIGHT] = self.scores[M.RIGHT]
        ev[e + M.F_SIDE] = side
        ev[e + M.F_ARG] = arg
        ev[e + M.F_VAL] = val
        self.n_events = n + 1

    def field(self, i, f):
        """Field f (F_TYPE ...) of queued event i."""
        return self.events[i * M.EV_SIZE + f]

    def clear_events(self):
        self.n_events = 0
