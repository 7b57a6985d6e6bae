# sagat: the two-face game clock, a state machine fed with explicit ms timestamps.
#
# Pure module (contract 2 of docs/design.md; docs/clock.md). It never reads the time itself: every operation takes
# `now`, a ticks_ms() value of the board (wrapping at 2^30, see ticks.py). From those it keeps
# `t`, the game time in ms since the clock was started (pauses included), and computes every
# time on the faces from timestamps, never from counting polls.
#
# What happens at an instant between two calls (a flag, a low-time crossing, a stage added at a
# flag, the default time) is found by computing that instant, so it is logged at its exact `t`
# however rarely the clock is polled. Events (contract 3) go into a preallocated queue of ints;
# the caller drains it after each call (`events`, `n_events`, `clear_events`, `event`).
#
# Nothing on the tick path (advance, press, ms, remaining, and the event queue) allocates on
# MicroPython: per-side state lives in two-item lists of small ints, events in an array.
#
# This is the engine: the state, its time base, the instants of `advance`, the players' operations
# (start, press, pause, resume), the queries and the event queue. The rules it applies are
# rules.py's (imported here, never importing this): a game's set-up, what a stage does at a move
# and at zero (increments, delays, byo-yomi, stage advance: TK-C13, TK-C16), and the arbiter's
# operations (extension TK-C14, corrections, late installation TK-C11, adjournment, the result,
# the power restore), bound below as the Clock's methods.

from array import array

from sagatfw.core import timecontrol as tcm
from sagatfw.core.ticks import ticks_diff
from sagatfw.engine import rules
from sagatfw.engine.rules import (  # noqa: F401 - the rules' words, which importers read here
    LATE_INSTALL_FLOOR_MS,
    MAX_MOVES,
    MAX_MS,
    REASON_CORRECTION,
    REASON_LATE_INSTALL,
    REASON_NAMES,
    RESULT_NAMES,
    Settings,
)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# Sides: the physical faces.
LEFT = const(0)
RIGHT = const(1)
NONE = const(-1)
SIDE_NAMES = ("left", "right")

# Clock states.
SETUP = const(0)  # game set up, clock not started (TK-C5)
RUNNING = const(1)  # a side is running
PAUSED = const(2)  # stopped by a player, the arbiter or the host (TK-C15, TK-C18)
FLAGGED = const(3)  # stopped by a flag with freeze on
ADJOURNED = const(4)  # adjourned (TK-A1..A4)
FINISHED = const(5)  # result entered
STATE_NAMES = ("setup", "running", "paused", "flagged", "adjourned", "finished")

# Event types (contract 3). The order is part of the log format: append, never reorder.
EV_GAME_START = const(0)
EV_PRESS = const(1)
EV_PAUSE = const(2)
EV_RESUME = const(3)
EV_FLAG = const(4)
EV_STAGE = const(5)
EV_ADJUST = const(6)
EV_EXTENSION = const(7)
EV_LOW_TIME = const(8)
EV_DEFAULT = const(9)
EV_ADJOURN = const(10)
EV_RESUME_ADJOURNED = const(11)
EV_RESULT = const(12)
EV_POWER_RESTORE = const(13)
EV_TIME_SYNC = const(14)
EV_SETTINGS = const(15)
EVENT_NAMES = (
    "game_start",
    "press",
    "pause",
    "resume",
    "flag",
    "stage",
    "adjust",
    "extension",
    "low_time",
    "default",
    "adjourn",
    "resume_adjourned",
    "result",
    "power_restore",
    "time_sync",
    "settings",
)

# Fields of one queued event (each an int).
F_TYPE = const(0)
F_T = const(1)
F_LEFT_MS = const(2)
F_RIGHT_MS = const(3)
F_LEFT_MOVES = const(4)
F_RIGHT_MOVES = const(5)
F_RUNNING = const(6)  # side or NONE
F_SIDE = const(7)  # side or NONE
F_ARG = const(8)  # by (pause), order (flag), stage (stage), result, reason (adjust), first (start)
F_BEFORE_MS = const(9)
F_BEFORE_MOVES = const(10)
F_BEFORE_STAGE = const(11)
F_AFTER_MS = const(12)
F_AFTER_MOVES = const(13)
F_AFTER_STAGE = const(14)
EV_SIZE = const(15)
EV_CAPACITY = const(16)  # 960 B: four operations' worth (the sink drains it as it fills)
# One instant of `advance` emits at most 2 events (the default time, for both sides), an operation
# at most 2 more (a press and its stage): `advance` takes the next instant only while this much room
# is left, else it hands the queue to the sink (or stops there, whole, without one: no event is lost).
_EV_ROOM = const(4)

# Who paused (F_ARG of pause; TK-C15 tells a player's stop from the arbiter's). At the clock: START pressed
# short is BY_PLAYER (a player stops the clock to call the arbiter, TK-C15: whoever pressed it, the clock was
# stopped at the table), START held is BY_ARBITER; over the link the request's `by` (the hall's: host).
BY_LEFT = const(0)
BY_RIGHT = const(1)
BY_ARBITER = const(2)
BY_HOST = const(3)
BY_PLAYER = const(4)
BY_NAMES = ("left", "right", "arbiter", "host", "player")  # the log's order: append, never reorder

# Results (F_ARG of result): RESULT_NAMES; why an adjustment was made (F_ARG of adjust):
# REASON_CORRECTION, REASON_LATE_INSTALL, REASON_NAMES. All rules.py's, imported above.

# What the next instant in `advance` is.
_NEXT_NONE = const(0)
_NEXT_DEFAULT = const(1)
_NEXT_LOW = const(2)
_NEXT_OUT = const(3)
_NEXT_END = const(4)  # the game's time reaches MAX_GAME_MS

# LATE_INSTALL_FLOOR_MS (TK-C11), MAX_MS (the most a correction may put on a face) and MAX_MOVES
# are rules.py's, imported above.

# The range of every time the clock keeps and logs. The events are an int array (signed
# 32-bit: at most 2^31 - 1 ms, 24.8 days) and a record holds u32 ms (records.py); past them a value
# wraps (MicroPython) or raises (CPython), the restore fails and the game is lost. Both bounds are
# below 2^30 too, so every stored time stays a small int on every port (no allocation on the tick
# path), and a face plus the game time (the engine adds them) still fits the array.
#   MAX_FACE_MS  no face ever holds more. The parser's stages together stay below it (8 x 24 h) and
#                a correction (MAX_MS) too; what only accumulates - Fischer and Bronstein credits,
#                repeating stages (at most 1 h a move, tcparse), tie extensions (TK-C14), an
#                hourglass's gain, a count-up face - is added up to it and no further (`credit`).
#                The record of the move shows the face as it is.
#   MAX_GAME_MS  a game's time t (pauses included) stops there: a clock running or paused at that
#                instant adjourns itself (an `adjourn` event at t = MAX_GAME_MS, which a replay
#                derives like a flag), and it cannot be resumed or extended; corrections and the
#                result still work. A game adjourned for longer is set up again (TK-A4: the arbiter
#                puts the times used back with corrections).
MAX_FACE_MS = const(864000000)  # 240 h
MAX_LOG_MOVES = const(65535)  # a record's move counts are u16: a side's count stops there
MAX_GAME_MS = const(864000000)  # 10 days
PROTEST_MS = const(1800000)  # TK-P1, TK-P9: 30 min from the end of the game (its first result) to protest or sign


class Clock:
    """The two-face clock. Create once; `new_game` sets up each game and reuses every buffer."""

    def __init__(self):
        self.events = array("i", bytes(4 * EV_SIZE * EV_CAPACITY))
        self.n_events = 0
        # what drains the queue when it fills inside a call: an object with `_log(now)` (the app,
        # whose journal takes the events; the replay), or None (advance then stops, see there)
        self.sink = None  # type: object
        self.tc = [None, None]  # type: list
        self.rem = [0, 0]  # ms on the face when the side's segment began (count-up: elapsed)
        self.moves = [0, 0]  # moves completed
        self.stage = [1, 1]  # current stage, from 1 (past the list: repeats or byo-yomi periods)
        self.stage_moves = [0, 0]  # moves completed in the current stage (Canadian: in the block)
        self.delay_left = [0, 0]  # unused simple delay of the current turn
        self.turn_used = [0, 0]  # ms used in the current turn (Bronstein refund)
        self.flag = [0, 0]  # 0, or the order of this side's flag (1 = fell first)
        self.above_low = [0, 0]  # 1 while the face is above the low-time mark (TK-C17)
        self.has_run = [0, 0]  # 1 once the side's clock has run (TK-C6)
        self.default_mark = [0, 0]  # 1 if the default time found this side without a move
        self.stage_mark = [0, 0]  # 1 after a stage was added at a flag: arbiter checks moves (TK-C13)
        self.settings = Settings()
        self.freeze = False
        self.by_flag = False
        self.state = SETUP
        self.running = NONE
        self.to_move = NONE  # the side to move while stopped
        self.first = LEFT
        self.t = 0  # game time: ms since the start, pauses included
        self.last = 0  # ticks of the last call
        self.seg_start = 0  # t at which the running side's current segment began
        self.flags_down = 0  # flags so far in this game (order of the next is +1)
        self.default_done = True
        self._next_kind = _NEXT_NONE

    # The rules' operations (rules.py), bound as methods: `clock.adjust(side, now, ...)`.
    new_game = rules.new_game  # TK-C5: set up a game, reusing every buffer
    extend = rules.extend  # TK-C14
    adjust = rules.adjust  # TK-C13: an arbiter's correction
    late_install = rules.late_install  # TK-C11
    adjourn = rules.adjourn  # TK-A1..A3
    resume_adjourned = rules.resume_adjourned  # TK-A4
    result = rules.result  # TK-R4 before the start
    power_restore = rules.power_restore  # TK-C18
    max_stage = rules.max_stage

    # ------------------------------------------------------------- time base
    # What rules.py works with (with `advance`, `restart` and `emit` below): the public methods here
    # are the seam between the two files, the private ones the engine's own.

    def _sync(self, now):
        """Advance `t` to ticks `now`. A `now` older than the last call counts as no time."""
        if self.state == SETUP:
            return
        dt = ticks_diff(now, self.last)
        if dt > 0:
            room = MAX_GAME_MS - self.t  # t stops at the game's bound (no big int on the way)
            self.t += dt if dt < room else room
            self.last = now

    def counts_up(self, s):
        """Side s's control is a count-up ("-"): its face shows the time used."""
        return self.tc[s].kind == tcm.COUNTUP

    def _hourglass(self):
        return self.tc[LEFT].kind == tcm.HOURGLASS

    def _ms_at(self, s, at):
        """Side s's face at game time `at` (>= the running segment's start)."""
        r = self.running
        rem = self.rem[s]
        if r == NONE:
            return rem
        used = at - self.seg_start
        if s != r:
            if self._hourglass() and not self.flag[s]:  # what the running side loses goes to this one
                lost = self.rem[r]
                rem += used if used < lost else lost
                return rem if rem < MAX_FACE_MS else MAX_FACE_MS
            return rem
        if self.counts_up(s):
            rem += used
            return rem if rem < MAX_FACE_MS else MAX_FACE_MS
        d = self.delay_left[s]
        if d:
            used = used - d if used > d else 0
        rem -= used
        return rem if rem > 0 else 0

    def commit(self, at):
        """Fold the running side's segment up to game time `at` into its stored state."""
        r = self.running
        if r == NONE:
            return
        used = at - self.seg_start
        self.seg_start = at
        if used <= 0:
            return
        self.turn_used[r] += used
        if self.counts_up(r):
            self.credit(r, used)
            return
        d = self.delay_left[r]
        if d:
            if used <= d:
                self.delay_left[r] = d - used
                return
            self.delay_left[r] = 0
            used -= d
        rem = self.rem[r]
        if used > rem:
            used = rem
        self.rem[r] = rem - used
        if self._hourglass() and not self.flag[1 - r]:  # a flagged side stays at zero (contract 2)
            self.credit(1 - r, used)

    def credit(self, s, ms):
        """Add ms to side s's face, up to MAX_FACE_MS (the log's range, see there)."""
        rem = self.rem[s]
        room = MAX_FACE_MS - rem
        self.rem[s] = rem + ms if ms < room else MAX_FACE_MS

    def arm_low(self, s):
        """Set side s's low-time mark by its face now: armed (its low_time event still to come) while the
        face is above the mark and the mark counts (TK-C17); after anything that changed the face."""
        self.above_low[s] = 1 if (self.low_counts(s) and self.rem[s] > self.settings.low_time_ms) else 0

    def low_counts(self, s):
        """TK-C17: the low-time mark counts for side s only if it is below the time the side starts
        with (its control's first stage): a 5-minute blitz under the default 5-minute mark never
        shows LOW nor logs low_time, a 10-minute game does from 5:00 down. No allocation."""
        low = self.settings.low_time_ms
        tc = self.tc[s]
        return low > 0 and tc is not None and low < tc.first_ms()  # (a count-up's first is 0)

    # --------------------------------------------------------------- advance

    def _next_instant(self):
        """The earliest pending instant (game time), its kind in self._next_kind; -1 if none."""
        kind = _NEXT_NONE
        best = -1
        state = self.state
        if not self.default_done and state != SETUP and state != FINISHED and state != ADJOURNED:  # TK-A: none then
            kind = _NEXT_DEFAULT
            best = self.settings.default_ms + 1  # TK-C6: *more than* the default time (a move at 30:00.000 is on time)
        r = self.running
        if state == RUNNING and not self.counts_up(r):
            base = self.seg_start + self.delay_left[r]
            if self.above_low[r]:
                at = base + self.rem[r] - self.settings.low_time_ms
                if kind == _NEXT_NONE or at < best:
                    kind = _NEXT_LOW
                    best = at
            if not self.flag[r]:
                at = base + self.rem[r]
                if kind == _NEXT_NONE or at < best:
                    kind = _NEXT_OUT
                    best = at
        if (state == RUNNING or state == PAUSED) and (kind == _NEXT_NONE or MAX_GAME_MS < best):
            kind = _NEXT_END  # last at its instant: a flag at the bound comes first
            best = MAX_GAME_MS
        self._next_kind = kind
        return best

    def advance(self, now):
        """Bring the clock to ticks `now`: log every flag, stage, low-time crossing and default
        that fell since the last call, each at its exact instant. When the queue fills on the way
        the sink drains it (`sink._log(now)`); without a sink the clock stops, whole, at the
        instant it could not log (t and its ticks there) and returns False: drain the queue and
        call again. True once the clock is at `now`. Never raises."""
        self._sync(now)
        while True:
            at = self._next_instant()
            kind = self._next_kind
            if kind == _NEXT_NONE or at > self.t:
                return True
            if self.n_events > EV_CAPACITY - _EV_ROOM:
                if self.sink is not None:
                    self.sink._log(now)  # type: ignore[attr-defined]  # the app's, the replay's
                if self.n_events > EV_CAPACITY - _EV_ROOM:  # no room: the next call goes on from `at`
                    self.last = (self.last + at - self.t) & 0x3FFFFFFF  # ticks_add (ticks.TICKS_MAX)
                    self.t = at
                    return False
            if kind == _NEXT_DEFAULT:
                self._default(at)
            elif kind == _NEXT_LOW:
                self.above_low[self.running] = 0  # TK-C17: the face equals the mark now
                self.emit(EV_LOW_TIME, at, self.running, 0)
            elif kind == _NEXT_END:
                self._game_bound(at)
            else:
                rules.out_of_time(self, at)  # a flag, a stage added at a flag, a byo-yomi period

    def _game_bound(self, at):
        """The game's time reached MAX_GAME_MS: the clock adjourns itself (TK-A1's adjournment, made
        by the clock's range) and t goes no further."""
        if self.state == RUNNING:
            self.commit(at)
            self.to_move = self.running
            self.running = NONE
        self.state = ADJOURNED
        self.emit(EV_ADJOURN, at, NONE, 0)

    def _default(self, at):
        """TK-C6, TK-R4: at the default time, mark each side whose clock ran without a move."""
        self.default_done = True
        for s in (LEFT, RIGHT):
            if self.has_run[s] and self.moves[s] == 0:
                self.default_mark[s] = 1
                self.emit(EV_DEFAULT, at, s, 0)

    # ------------------------------------------------------------ operations

    def start(self, now):
        """Start the first player's face (TK-C5); logs game_start at t = 0."""
        if self.state != SETUP:
            return False
        self.state = RUNNING
        self.last = now
        self.t = 0
        self.running = self.first
        self.to_move = NONE
        self._begin_turn(self.first, 0)
        self.emit(EV_GAME_START, 0, NONE, self.first)
        return True

    def _begin_turn(self, s, at):
        self.seg_start = at
        self.turn_used[s] = 0
        self.has_run[s] = 1
        self.delay_left[s] = 0 if self.counts_up(s) else rules.turn_delay(self, s)  # its stage's

    def press(self, side, now):
        """A press of `side`'s lever at ticks `now` (its IRQ timestamp). Only the running side's
        press counts (TK-C7, TK-C9); it completes one move. Returns True if it switched."""
        # whatever fell before the press comes first (a clock that could not log it all refuses)
        if not self.advance(now) or self.state != RUNNING or side != self.running:
            return False  # TK-C9, or stopped: the press does nothing
        at = self.t
        self.commit(at)
        if self.moves[side] < MAX_LOG_MOVES:  # a record holds moves as u16: the count stops there
            self.moves[side] += 1
        self.stage_moves[side] += 1
        added = rules.after_move(self, side)  # increment, refund, byo-yomi, the next stage (TK-C16)
        self.arm_low(side)  # an increment may lift the face back over the mark (TK-C17)
        other = 1 - side
        self.running = other
        self.arm_low(other)  # hourglass: the other face has grown
        self._begin_turn(other, at)
        self.emit(EV_PRESS, at, side, 0)
        if added:
            self.emit(EV_STAGE, at, side, added)
        return True

    def pause(self, by, now):
        """Stop the running face (TK-C15, TK-C18); `by` is BY_LEFT/RIGHT/ARBITER/HOST/PLAYER."""
        if not self.advance(now) or self.state != RUNNING:
            return False
        self.commit(self.t)
        self.to_move = self.running
        self.running = NONE
        self.state = PAUSED
        self.emit(EV_PAUSE, self.t, NONE, by)
        return True

    def resume(self, now):
        """Continue the side that was running before the pause."""
        if not self.advance(now) or self.state != PAUSED:
            return False
        self.restart(EV_RESUME)
        return True

    def restart(self, ev):
        """The side to move runs again from `t`, logged as `ev` (a resume, a resumption after adjournment)."""
        self.state = RUNNING
        self.running = self.to_move
        self.to_move = NONE
        self.seg_start = self.t
        self.has_run[self.running] = 1
        self.emit(ev, self.t, NONE, 0)

    # --------------------------------------------------------------- queries

    def ms(self, side):
        """Side's face in ms at the last call (count-up: elapsed). No allocation."""
        return self._ms_at(side, self.t)

    def remaining(self, side, now):
        """Advance to `now`, then side's face in ms. No allocation."""
        self.advance(now)
        return self._ms_at(side, self.t)

    def delay_remaining(self, side):
        """Unused simple delay of `side`'s current turn at the last call."""
        d = self.delay_left[side]
        if side == self.running:
            d -= self.t - self.seg_start
        return d if d > 0 else 0

    def first_flag(self):
        """The side whose flag fell first among those still down, or NONE."""
        f0 = self.flag[LEFT]
        f1 = self.flag[RIGHT]
        if f0 and (not f1 or f0 < f1):
            return LEFT
        if f1:
            return RIGHT
        return NONE

    def next_instant(self):
        """Game time of the next instant the clock will act on by itself (a flag, a stage added at
        a flag, a byo-yomi period, a low-time crossing, the default time), or -1 if none."""
        at = self._next_instant()
        return at if self._next_kind != _NEXT_NONE else -1

    def side_to_move(self):
        return self.running if self.running != NONE else self.to_move

    # ---------------------------------------------------------------- events

    def emit(self, kind, at, side, arg):
        """Queue an event of `kind` at game time `at` with both faces and move counts as they are then; its
        fields from F_BEFORE_MS on are 0 for the caller to fill. Returns its offset in `events`."""
        n = self.n_events
        if n >= EV_CAPACITY:
            raise RuntimeError("clock event queue full: drain it after every call")
        e = n * EV_SIZE
        ev = self.events
        ev[e + F_TYPE] = kind
        ev[e + F_T] = at
        ev[e + F_LEFT_MS] = self._ms_at(LEFT, at)
        ev[e + F_RIGHT_MS] = self._ms_at(RIGHT, at)
        ev[e + F_LEFT_MOVES] = self.moves[LEFT]
        ev[e + F_RIGHT_MOVES] = self.moves[RIGHT]
        ev[e + F_RUNNING] = self.running
        ev[e + F_SIDE] = side
        ev[e + F_ARG] = arg
        for i in range(F_BEFORE_MS, EV_SIZE):
            ev[e + i] = 0
        self.n_events = n + 1
        return e

    def clear_events(self):
        self.n_events = 0

    def tc_field(self):
        """The game_start `tc` field: one string, or {"left", "right"} for a handicap."""
        left = self.tc[LEFT]
        right = self.tc[RIGHT]
        if left == right:
            return tcm.format(left)
        return {"left": tcm.format(left), "right": tcm.format(right)}
