# sagat: the shared base of the match modes, the pure engines of the field games:
# kokboru.py (one-on-one kok-boru, KB-*) and kilithattu.py (KT-*). docs/match.md is the reference.
#
# Pure module, built like clock.py (docs/clock.md): it never reads the time, every operation takes
# `now`, a ticks_ms() value (wrapping at 2^30, ticks.py); from those it keeps `t`, ms since the
# referee started the first period (breaks and stoppages included). Every instant the engine acts
# on by itself (a period's end, a break's end, the next period started by the clock) is computed,
# so it is logged at its exact `t` however rarely `advance` is called. Events go into a
# preallocated int array; nothing on the tick path (advance, the operations when they succeed, the
# queries) allocates. Only the active mode's module is imported (RAM: docs/match.md).
#
# Using an engine (the app, the replay, the sim):
#   m = KokBoru()                  # once: allocates every buffer
#   m.new_match(lead=8)            # each match (Kilithattu: first=, changeover_ms=, method=); Refused
#   m.start(now)                   # the referee starts a period, the first one at t = 0
#   m.advance(now)                 # every loop: the instants up to now; then drain the events
#   m.next_instant()               # t of the next instant the engine acts on by itself, -1: none
# Drain the queue after EVERY call, refused or not (a refused operation first advanced to `now`):
# `n_events`, `field(i, F_...)`, `clear_events()`. One call emits at most 8 events (the queue
# holds EV_CAPACITY = 16). Every operation returns None or raises Refused(reason).
#
# Operations (side: LEFT 0, RIGHT 1; each first advances to `now`):
#   start(now)                 SETUP/READY: the period runs (period_start, arg BY_REFEREE). In a
#                              break: kilithattu ends the changeover early (break_end arg 1 +
#                              period_start); kok-boru refuses (KB-6: the rest is 1:00).
#   stoppage(now)              RUNNING: match time stops (KB-16, KT-4.5): stoppage_start.
#   resume(now)                STOPPED: match time runs again: stoppage_end, val = its length.
#   score(side, points, now)   RUNNING or STOPPED: score; then maybe result (KB-14, KB-17, sudden).
#                              kok-boru 4, 2 or 1 (KB-7..10); kilithattu 1, entering team only (KT-5.5).
#   card(side, kind, now)      kok-boru, RUNNING or STOPPED: card; a 2nd warning (KB-11) or a red
#                              (KB-12) removes the rider: result (the other wins, WHY_REMOVAL).
#   undo(now)                  RUNNING or STOPPED: undoes the last standing entry (score or card)
#                              of this period: undo (never erasing). FINISHED by an entry (lead,
#                              golden score, sudden, removal): undoing that entry withdraws the
#                              result, the period comes back stopped (undo, then stoppage_start
#                              if it was running: a stoppage from the result's instant, so the
#                              time between the result and the undo is stopped time, KB-16, KT-4.5).
#   draw_lot(side, now)        kilithattu, LOT: the caller's random bit as a side; lot (KT-4.6).
#   result(winner, now)        any state: the referee's result (LEFT, RIGHT, NONE = draw); the last
#                              one counts; before the start it is at t = 0 (a forfeit).
#   power_restore(now)         after a reboot replayed the match: a running period comes back
#                              stopped at its last durable time (a stoppage: power_restore arg =
#                              its number), a stoppage stays, a break goes on (it runs by itself).
#   restore_result(...)        after a reboot, a finished match from its result record alone.
#
# Refusals: Refused(reason) (sagatfw.Refused, a ValueError; M.Refused) whose str() is a short text for the
# faces ("break running", "nothing to undo", "match over", ...) when the state does not allow the
# operation; a plain ValueError for a bad value (a side, points, a card kind, an option). Either
# changes nothing but the advance to now.
#
# The view (no allocation; at the last call): scores[s], warnings[s], reds[s], state (STATE_NAMES),
# period, period_name(), counts_up(), match_ms() (down in a timed period, up in golden score),
# elapsed_ms(), break_ms(), stoppage_ms() (the one running), stopped_ms() (the period's total,
# KT-4.5), entering (kilithattu: the team entering, else NONE), lot_due (0, or which lot: 1, 2),
# undoable (entries undo can take back), winner, why (-1 before a result), t.
#
# The codes (sides, states, the events' types and fields, BY_*, CARD_*, WHY_*, their names) are
# match.py's, with what each event carries: `from sagatfw.engine import match as M`.

from array import array

from sagatfw.core.ticks import ticks_diff
from sagatfw.engine import match as M  # (one name: each imported name is a global, and costs RAM)

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

# Why an operation is refused in each state (the index), when it is not allowed there.
_NOT_IN = ("not started", "period not started", "period running", "stoppage on", "break running", "lot due",
           "time over: enter the result", "match over")


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
                self._ended(at)
            else:
                self._break_over(at, 0)

    def _op(self, now):
        if not self.advance(now) or self.n_events > M.EV_CAPACITY - _OP_ROOM:
            raise M.Refused("events not logged yet")

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
        self.undoable = 0  # the ring of this period's standing entries (_UNDO_DEPTH at most)
        self._pos = 0

    def _run(self, at, how):
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
        raise M.Refused("no scores")

    def _may_score(self, side):
        pass

    # ------------------------------------------------------------ operations

    def _on(self):
        """A period is on (running or in a stoppage): entries are taken."""
        s = self.state
        if s != M.RUNNING and s != M.STOPPED:
            raise M.Refused(_NOT_IN[s])
        if self.n_ent >= _MAX_ENTRIES:
            raise M.Refused("too many entries")

    def start(self, now):
        """The referee starts the period that waits (the first at t = 0); kilithattu: ends a
        changeover early (KT-4.4)."""
        if self.state == M.SETUP:
            if self.n_events > M.EV_CAPACITY - _OP_ROOM:
                raise M.Refused("events not logged yet")
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
            raise M.Refused(_NOT_IN[s])

    def stoppage(self, now):
        """The referee stops play (KB-16, KT-4.5): the match time stops until resume."""
        self._op(now)
        if self.state != M.RUNNING:
            raise M.Refused(_NOT_IN[self.state])
        self._stop(self.t)
        self._emit(M.EV_STOPPAGE_START, self.t, M.NONE, self.n_stops, 0)

    def resume(self, now):
        """The referee's signal: the match time runs again; the stoppage's length is logged, and
        the period's stopped total grows by it (KT-4.5: the time lost is not lost)."""
        self._op(now)
        if self.state != M.STOPPED:
            raise M.Refused("no stoppage" if self.state == M.RUNNING else _NOT_IN[self.state])
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
        self._on()
        self._may_score(side)
        if self.scores[side] + points > _MAX_SCORE:
            raise M.Refused("score limit")
        self.scores[side] += points
        n = self._push((points << 1) | side)
        self._emit(M.EV_SCORE, self.t, side, points, n)
        self._scored(side, n)

    def card(self, side, kind, now):
        raise M.Refused("no cards in this game")

    def draw_lot(self, side, now):
        raise M.Refused("no lot in this game")

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
        """Take back the last standing entry of this period: an undo event, the entry stays in the
        log. The entry that ended the match (lead, golden score, sudden, removal) may be taken back
        too: the result is withdrawn and the period comes back stopped."""
        self._op(now)
        s = self.state
        i = (self._pos - 1) % _UNDO_DEPTH
        if s == M.FINISHED:
            if not self._fin_entry or not self.undoable or self._ent_no[i] != self._fin_entry:
                raise M.Refused("match over")
        elif s != M.RUNNING and s != M.STOPPED:
            raise M.Refused(_NOT_IN[s])
        elif not self.undoable:
            raise M.Refused("nothing to undo")
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
        if s == M.FINISHED:
            reopen = self._fin_state
            self._fin_entry = 0
            self.winner = M.NONE
            self.why = -1
            self.state = M.STOPPED
            if reopen == M.RUNNING:  # KB-16, KT-4.5: play was stopped at the result (its instant
                self.stop_t = self.seg_t  # is seg_t): the time since is this stoppage's, so it
                if self.n_stops < _MAX_STOPS:  # counts in the stopped total, not nowhere. From a
                    self.n_stops += 1  # stoppage, that stoppage goes on (it holds the time already)
        self._emit(M.EV_UNDO, self.t, side, value, no)
        if reopen == M.RUNNING:  # val: the stoppage's length so far (since the result)
            self._emit(M.EV_STOPPAGE_START, self.t, M.NONE, self.n_stops, self.t - self.stop_t)

    def result(self, winner, now):
        """The referee's result: LEFT, RIGHT or NONE (a draw), in any state; the last counts."""
        if winner != M.LEFT and winner != M.RIGHT and winner != M.NONE:
            raise ValueError("winner must be left, right or none")
        if self.state == M.SETUP:
            if self.n_events > M.EV_CAPACITY - _OP_ROOM:
                raise M.Refused("events not logged yet")
            self.t = 0  # a forfeit: the time base starts now (its wall time is the entry's)
            self.last = now
        else:
            self._op(now)
        self._finish(self.t, winner, M.WHY_REFEREE, 0)

    def power_restore(self, now):
        """After a reboot replayed this match: a running period stops at its last durable time
        (a stoppage, resumed by the referee); a stoppage stays; a break goes on from its last
        durable time; ticks restart at `now`."""
        arg = 0
        if self.state == M.RUNNING:
            self._stop(self.t)
            arg = self.n_stops
        self.last = now
        self._emit(M.EV_POWER_RESTORE, self.t, M.NONE, arg, 0)

    def restore_result(self, t, period, pms, stopped, scores, cards, entering, winner, why, now):
        """After a reboot, a finished match as its result record says it ended (no replay: the
        log's records before it are not read): `t`, the period, its match time and stopped time,
        the scores, the cards (left's and right's warnings, then reds), the entering team, the
        winner and why. The view is the finished match's; undo is refused ("match over": what
        it could take back is not kept), a referee's result is taken. Call after new_match.
        ValueError if a value is out of range."""
        if not 0 <= period < len(self.LENGTHS) or not 0 <= why < len(M.WHY_NAMES):
            raise ValueError("not a result record")
        if winner != M.LEFT and winner != M.RIGHT and winner != M.NONE:
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
        if not self.length:
            return e
        r = self.length - e
        return r if r > 0 else 0

    def counts_up(self):
        return not self.length

    def period_name(self):
        return self.PERIOD_NAMES[self.period]

    def break_ms(self):
        """What is left of the running break, else 0."""
        if self.state != M.BREAK:
            return 0
        r = self.brk_t + self.brk_len - self.t
        return r if r > 0 else 0

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
