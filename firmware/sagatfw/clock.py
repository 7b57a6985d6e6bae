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

from array import array

from sagatfw import Refused
from sagatfw import timecontrol as tcm
from sagatfw.ticks import ticks_diff

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
EV_CAPACITY = const(32)
# One instant of `advance` emits at most 2 events (the default time, for both sides), an operation
# at most 2 more (a press and its stage): `advance` takes the next instant only while this much room
# is left, else it hands the queue to the sink (or stops there, whole, without one: no event is lost).
_EV_ROOM = const(4)

# Who paused (F_ARG of pause).
BY_LEFT = const(0)
BY_RIGHT = const(1)
BY_ARBITER = const(2)
BY_HOST = const(3)
BY_NAMES = ("left", "right", "arbiter", "host")

# Results (F_ARG of result).
RESULT_NAMES = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+")

# Why an adjustment was made (F_ARG of adjust).
REASON_CORRECTION = const(0)
REASON_LATE_INSTALL = const(1)
REASON_NAMES = ("correction", "late_install")

# What the next instant in `advance` is.
_NEXT_NONE = const(0)
_NEXT_DEFAULT = const(1)
_NEXT_LOW = const(2)
_NEXT_OUT = const(3)
_NEXT_END = const(4)  # the game's time reaches MAX_GAME_MS

LATE_INSTALL_FLOOR_MS = const(900000)  # TK-C11: at least 15 min each
MAX_MS = const(360000000)  # 100 h: the most a correction may put on a face
MAX_MOVES = const(9999)

# The range of every time the clock keeps and logs. The events are an int array (signed
# 32-bit: at most 2^31 - 1 ms, 24.8 days) and a record holds u32 ms (records.py); past them a value
# wraps (MicroPython) or raises (CPython), the restore fails and the game is lost. Both bounds are
# below 2^30 too, so every stored time stays a small int on every port (no allocation on the tick
# path), and a face plus the game time (the engine adds them) still fits the array.
#   MAX_FACE_MS  no face ever holds more. The parser's stages together stay below it (8 x 24 h) and
#                a correction (MAX_MS) too; what only accumulates - Fischer and Bronstein credits,
#                repeating stages (at most 1 h a move, tcparse), tie extensions (TK-C14), an
#                hourglass's gain, a count-up face - is added up to it and no further (`_credit`).
#                The record of the move shows the face as it is.
#   MAX_GAME_MS  a game's time t (pauses included) stops there: a clock running or paused at that
#                instant adjourns itself (an `adjourn` event at t = MAX_GAME_MS, which a replay
#                derives like a flag), and it cannot be resumed or extended; corrections and the
#                result still work. A game adjourned for longer is set up again (TK-A4: the arbiter
#                puts the times used back with corrections).
MAX_FACE_MS = const(864000000)  # 240 h
MAX_LOG_MOVES = const(65535)  # a record's move counts are u16: a side's count stops there
MAX_GAME_MS = const(864000000)  # 10 days


class Settings:
    """The settings the clock obeys (contract 4 names). freeze None: the control's default."""

    def __init__(
        self,
        freeze=None,
        stage_advance="moves",
        extension_ms=300000,
        default_ms=1800000,
        low_time_ms=300000,
    ):
        if stage_advance not in ("moves", "flag"):
            raise ValueError("stage_advance must be 'moves' or 'flag', not %r" % (stage_advance,))
        for name, value in (
            ("extension_ms", extension_ms),
            ("default_ms", default_ms),
            ("low_time_ms", low_time_ms),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value > MAX_MS:
                raise ValueError("%s must be a whole number of ms in 0..%d, not %r" % (name, MAX_MS, value))
        if freeze is not None and not isinstance(freeze, bool):
            raise ValueError("freeze must be true, false or null, not %r" % (freeze,))
        self.freeze = freeze
        self.stage_advance = stage_advance
        self.extension_ms = extension_ms  # TK-C14
        self.default_ms = default_ms  # TK-C6, TK-R4; 0: no default mark
        self.low_time_ms = low_time_ms  # TK-C17; 0: no low-time mark


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

    # ------------------------------------------------------------------ setup

    def new_game(self, left, right=None, first=LEFT, settings=None):
        """Set up a game: `left`/`right` are TimeControl objects or strings (right defaults to
        left). The clock waits for `start` (TK-C5). Raises ValueError on bad input."""
        if isinstance(left, str):
            left = tcm.parse(left)
        if right is None:
            right = left
        elif isinstance(right, str):
            right = tcm.parse(right)
        if not isinstance(left, tcm.TimeControl) or not isinstance(right, tcm.TimeControl):
            raise ValueError("a game needs a TimeControl for each side")
        if (left.kind == tcm.HOURGLASS) != (right.kind == tcm.HOURGLASS):
            raise ValueError("hourglass needs hourglass on both sides")
        if first not in (LEFT, RIGHT):
            raise ValueError("first must be left or right")
        if settings is None:
            settings = Settings()
        self.settings = settings
        self.freeze = settings.freeze
        if self.freeze is None:  # contract 2: on with an increment or delay, as DGT and FIDE
            self.freeze = left.freeze_default() or right.freeze_default()
        self.by_flag = settings.stage_advance == "flag"
        self.tc[LEFT] = left
        self.tc[RIGHT] = right
        for s in (LEFT, RIGHT):
            self.rem[s] = self.tc[s].first_ms()
            self.moves[s] = 0
            self.stage[s] = 1
            self.stage_moves[s] = 0
            self.delay_left[s] = 0
            self.turn_used[s] = 0
            self.flag[s] = 0
            self.has_run[s] = 0
            self.default_mark[s] = 0
            self.stage_mark[s] = 0
            self._set_low(s)
        self.state = SETUP
        self.running = NONE
        self.to_move = first
        self.first = first
        self.t = 0
        self.last = 0
        self.seg_start = 0
        self.flags_down = 0
        self.default_done = settings.default_ms == 0
        self.n_events = 0

    # ------------------------------------------------------------- time base

    def _sync(self, now):
        """Advance `t` to ticks `now`. A `now` older than the last call counts as no time."""
        if self.state == SETUP:
            return
        dt = ticks_diff(now, self.last)
        if dt > 0:
            room = MAX_GAME_MS - self.t  # t stops at the game's bound (no big int on the way)
            self.t += dt if dt < room else room
            self.last = now

    def _countup(self, s):
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
        if self._countup(s):
            rem += used
            return rem if rem < MAX_FACE_MS else MAX_FACE_MS
        d = self.delay_left[s]
        if d:
            used = used - d if used > d else 0
        rem -= used
        return rem if rem > 0 else 0

    def _commit(self, at):
        """Fold the running side's segment up to game time `at` into its stored state."""
        r = self.running
        if r == NONE:
            return
        used = at - self.seg_start
        self.seg_start = at
        if used <= 0:
            return
        self.turn_used[r] += used
        if self._countup(r):
            self._credit(r, used)
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
            self._credit(1 - r, used)

    def _credit(self, s, ms):
        """Add ms to side s's face, up to MAX_FACE_MS (the log's range, see there)."""
        rem = self.rem[s]
        room = MAX_FACE_MS - rem
        self.rem[s] = rem + ms if ms < room else MAX_FACE_MS

    def _set_low(self, s):
        low = self.settings.low_time_ms
        self.above_low[s] = 1 if (low and not self._countup(s) and self.rem[s] > low) else 0

    def _in_byo(self, s):
        tc = self.tc[s]
        return tc.byo != tcm.BYO_NONE and self.stage[s] > len(tc.stages)

    # --------------------------------------------------------------- advance

    def _next_instant(self):
        """The earliest pending instant (game time), its kind in self._next_kind; -1 if none."""
        kind = _NEXT_NONE
        best = -1
        state = self.state
        if not self.default_done and state != SETUP and state != FINISHED:
            kind = _NEXT_DEFAULT
            best = self.settings.default_ms
        r = self.running
        if state == RUNNING and not self._countup(r):
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
                self._emit(EV_LOW_TIME, at, self.running, 0)
            elif kind == _NEXT_END:
                self._game_bound(at)
            else:
                self._out_of_time(at)

    def _game_bound(self, at):
        """The game's time reached MAX_GAME_MS: the clock adjourns itself (TK-A1's adjournment, made
        by the clock's range) and t goes no further."""
        if self.state == RUNNING:
            self._commit(at)
            self.to_move = self.running
            self.running = NONE
        self.state = ADJOURNED
        self._emit(EV_ADJOURN, at, NONE, 0)

    def _default(self, at):
        """TK-C6, TK-R4: at the default time, mark each side whose clock ran without a move."""
        self.default_done = True
        for s in (LEFT, RIGHT):
            if self.has_run[s] and self.moves[s] == 0:
                self.default_mark[s] = 1
                self._emit(EV_DEFAULT, at, s, 0)

    def _out_of_time(self, at):
        """The running side's face reached zero at game time `at`."""
        r = self.running
        self._commit(at)
        tc = self.tc[r]
        stage = self.stage[r]
        n = len(tc.stages)
        if self.by_flag and stage < n:
            self._stage_at_flag(r, at)
            return
        if tc.byo == tcm.BYO_JAPANESE and stage - n < tc.byo_count:
            self._byo_period(r, at, stage + 1)  # into the first / the next period
            return
        if tc.byo == tcm.BYO_CANADIAN and stage == n:
            self.stage_moves[r] = 0
            self._byo_period(r, at, stage + 1)  # into the first block
            return
        self.flags_down += 1
        self.flag[r] = self.flags_down
        self.above_low[r] = 0
        if self.freeze:  # contract 2: both faces stop, presses do nothing
            self.to_move = r
            self.running = NONE
            self.state = FLAGGED
        self._emit(EV_FLAG, at, r, self.flags_down)

    def _stage_at_flag(self, r, at):
        """stage_advance "flag": side r's stage time is out at `at`; the next stage's time is added
        now and the face is marked for the arbiter to check the move count, as DGT clocks do
        (TK-C13, TK-C16)."""
        stage = self.stage[r] + 1
        self.stage[r] = stage
        self.stage_moves[r] = 0
        self._credit(r, self.tc[r].stage(stage).time_ms)
        self.stage_mark[r] = 1
        self._set_low(r)
        self._emit(EV_STAGE, at, r, stage)

    def _byo_period(self, r, at, stage):
        self.stage[r] = stage
        self.rem[r] = self.tc[r].byo_ms
        self._set_low(r)
        self._emit(EV_STAGE, at, r, stage)

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
        self._emit(EV_GAME_START, 0, NONE, self.first)
        return True

    def _begin_turn(self, s, at):
        self.seg_start = at
        self.turn_used[s] = 0
        self.has_run[s] = 1
        self.delay_left[s] = 0
        if self._countup(s) or self._in_byo(s):
            return
        stage = self.tc[s].stage(self.stage[s])
        if stage.mode == tcm.DELAY:
            self.delay_left[s] = stage.bonus_ms

    def press(self, side, now):
        """A press of `side`'s lever at ticks `now` (its IRQ timestamp). Only the running side's
        press counts (TK-C7, TK-C9); it completes one move. Returns True if it switched."""
        # whatever fell before the press comes first (a clock that could not log it all refuses)
        if not self.advance(now) or self.state != RUNNING or side != self.running:
            return False  # TK-C9, or stopped: the press does nothing
        at = self.t
        self._commit(at)
        tc = self.tc[side]
        stage = self.stage[side]
        if self.moves[side] < MAX_LOG_MOVES:  # a record holds moves as u16: the count stops there
            self.moves[side] += 1
        self.stage_moves[side] += 1
        added = 0
        # Never credit time after this side's flag (FIDE; the Chronos flaw); the stage count
        # follows the moves all the same (contract 2), so no stage's time is credited late.
        flagged = self.flag[side]
        if tc.kind == tcm.STAGES:
            if self._in_byo(side):
                if not flagged:
                    if tc.byo == tcm.BYO_JAPANESE:
                        self.rem[side] = tc.byo_ms  # a move inside the period resets it
                    elif self.stage_moves[side] >= tc.byo_count:
                        self.rem[side] = tc.byo_ms  # Canadian: block done, a new one starts
                        self.stage_moves[side] = 0
            else:
                st = tc.stage(stage)
                if flagged:
                    pass  # no increment, no refund
                elif st.mode == tcm.FISCHER:
                    self._credit(side, st.bonus_ms)
                elif st.mode == tcm.BRONSTEIN:
                    used = self.turn_used[side]
                    self._credit(side, used if used < st.bonus_ms else st.bonus_ms)
                if (
                    not self.by_flag
                    and st.moves
                    and self.stage_moves[side] >= st.moves
                    and tc.has_next(stage)
                ):
                    # TK-C16: the stage's moves are done; its time left carries over. Logged
                    # with a flag down too; its time only while this side's flag is not.
                    added = stage + 1
                    self.stage[side] = added
                    self.stage_moves[side] = 0
                    if not flagged:
                        self._credit(side, tc.stage(added).time_ms)
        self._set_low(side)  # an increment may lift the face back over the mark (TK-C17)
        other = 1 - side
        self.running = other
        self._set_low(other)  # hourglass: the other face has grown
        self._begin_turn(other, at)
        self._emit(EV_PRESS, at, side, 0)
        if added:
            self._emit(EV_STAGE, at, side, added)
        return True

    def pause(self, by, now):
        """Stop the running face (TK-C15, TK-C18); `by` is BY_LEFT/RIGHT/ARBITER/HOST."""
        if not self.advance(now) or self.state != RUNNING:
            return False
        self._commit(self.t)
        self.to_move = self.running
        self.running = NONE
        self.state = PAUSED
        self._emit(EV_PAUSE, self.t, NONE, by)
        return True

    def resume(self, now):
        """Continue the side that was running before the pause."""
        if not self.advance(now) or self.state != PAUSED:
            return False
        self._restart(EV_RESUME)
        return True

    def _restart(self, ev):
        self.state = RUNNING
        self.running = self.to_move
        self.to_move = NONE
        self.seg_start = self.t
        self.has_run[self.running] = 1
        self._emit(ev, self.t, NONE, 0)

    def extend(self, now):
        """TK-C14 tie extension: once a flag is down, add extension_ms to both sides, clear the
        flags; a clock stopped by the flag runs the side to move again."""
        if not self.advance(now) or not (self.flag[LEFT] or self.flag[RIGHT]):
            return False
        if self.state not in (RUNNING, PAUSED, FLAGGED) or self.t >= MAX_GAME_MS:
            return False  # at the game's bound nothing runs again
        at = self.t
        self._commit(at)
        for s in (LEFT, RIGHT):
            if self._in_byo(s):
                # the extension is main time (contract 2): a side in byo-yomi goes back to its
                # final stage with what its face holds; the periods start again after it
                self.stage[s] = len(self.tc[s].stages)
                self.stage_moves[s] = 0
            self._credit(s, self.settings.extension_ms)
            self.flag[s] = 0
            self._set_low(s)
        if self.state == FLAGGED:
            self.state = RUNNING
            self.running = self.to_move
            self.to_move = NONE
            self.seg_start = at
        self._emit(EV_EXTENSION, at, NONE, 0)
        return True

    def adjust(self, side, now, ms=None, moves=None, stage=None, reason=REASON_CORRECTION):
        """Arbiter correction of one side's time, move count and stage, only while the clock is
        stopped. Logged with before and after. Returns True; ValueError on bad values."""
        if not self.advance(now):
            raise Refused("the clock's events wait to be logged: drain them first")
        if self.state == RUNNING or self.state == FINISHED:
            raise Refused("corrections need the clock stopped (pause first)")
        if side not in (LEFT, RIGHT):
            raise ValueError("side must be left or right")
        tc = self.tc[side]
        if ms is not None and (not isinstance(ms, int) or ms < 0 or ms > MAX_MS):
            raise ValueError("ms must be 0..%d" % MAX_MS)
        if moves is not None and (not isinstance(moves, int) or moves < 0 or moves > MAX_MOVES):
            raise ValueError("moves must be 0..%d" % MAX_MOVES)
        if stage is not None and (not isinstance(stage, int) or stage < 1 or stage > self._max_stage(tc)):
            raise ValueError("stage must be 1..%d" % self._max_stage(tc))
        b_ms = self.rem[side]
        b_moves = self.moves[side]
        b_stage = self.stage[side]
        # A move count or a stage given unchanged is as not given: the log keeps only the values
        # before and after, and a replay (restore, verify) must do what the clock did.
        if moves == b_moves:
            moves = None
        if stage == b_stage:
            stage = None
        self.stage_mark[side] = 0  # the arbiter has corrected this side (TK-C13)
        if ms is not None:
            self.rem[side] = ms
        if moves is not None:
            self.moves[side] = moves
        if stage is not None:
            self.stage[side] = stage
        if moves is not None or stage is not None:
            n = len(tc.stages)
            if self.stage[side] > n and tc.byo != tcm.BYO_NONE:
                self.stage_moves[side] = 0
            else:
                done = self.moves[side] - tc.moves_before(self.stage[side])
                self.stage_moves[side] = done if done > 0 else 0
        self._set_low(side)
        if self.flag[side] and self.rem[side] > 0:
            self.flag[side] = 0  # time given back: the flag is lifted
            if self.state == FLAGGED and not self.flag[1 - side]:
                self.state = PAUSED  # resume runs the side to move
        e = self._emit(EV_ADJUST, self.t, side, reason)
        ev = self.events
        ev[e + F_BEFORE_MS] = b_ms
        ev[e + F_BEFORE_MOVES] = b_moves
        ev[e + F_BEFORE_STAGE] = b_stage
        ev[e + F_AFTER_MS] = self.rem[side]
        ev[e + F_AFTER_MOVES] = self.moves[side]
        ev[e + F_AFTER_STAGE] = self.stage[side]
        if self.by_flag and self.rem[side] == 0 and tc.kind == tcm.STAGES and self.stage[side] < len(tc.stages):
            # a correction to 0:00 in a non-final stage ends that stage now, as its time running
            # out would: the next stage's time and the mark at the correction, logged after it, so
            # the paused faces show what will run and a resume changes no time (TK-C13)
            self._stage_at_flag(side, self.t)
        return True

    def _max_stage(self, tc):
        n = len(tc.stages)
        if tc.byo == tcm.BYO_JAPANESE:
            return n + tc.byo_count
        if tc.byo == tcm.BYO_CANADIAN:
            return n + 1
        if tc.repeats():
            return 99
        return n if n else 1

    def late_install(self, elapsed_ms, now):
        """TK-C11: the game began without a clock and `elapsed_ms` have been played. Before the
        start, each side gets max(first-stage time - elapsed/2, min(first-stage time, 15 min))."""
        if self.state != SETUP:
            raise Refused("late installation is set before the clock is started")
        if not isinstance(elapsed_ms, int) or elapsed_ms < 0 or elapsed_ms > MAX_MS:
            raise ValueError("elapsed_ms must be 0..%d" % MAX_MS)
        for s in (LEFT, RIGHT):
            if self._countup(s):
                raise Refused("late installation needs a time limit, not a count-up")
        for s in (LEFT, RIGHT):
            first = self.tc[s].first_ms()
            floor = first if first < LATE_INSTALL_FLOOR_MS else LATE_INSTALL_FLOOR_MS
            ms = first - elapsed_ms // 2
            self.adjust(s, now, ms=ms if ms > floor else floor, reason=REASON_LATE_INSTALL)
        return True

    def adjourn(self, now):
        """TK-A1..A3: stop the clock keeping both times, move counts and the side to move."""
        if not self.advance(now) or (self.state != RUNNING and self.state != PAUSED):
            return False
        if self.state == RUNNING:
            self._commit(self.t)
            self.to_move = self.running
            self.running = NONE
        self.state = ADJOURNED
        self._emit(EV_ADJOURN, self.t, NONE, 0)
        return True

    def resume_adjourned(self, now):
        """TK-A4: put the adjourned times back and start the side to move."""
        if not self.advance(now) or self.state != ADJOURNED or self.t >= MAX_GAME_MS:
            return False  # adjourned by the game's bound: its time is used up (MAX_GAME_MS)
        self._restart(EV_RESUME_ADJOURNED)
        return True

    def result(self, code, now):
        """Enter the result (index into RESULT_NAMES); the game is over and the clock stops."""
        if not isinstance(code, int) or code < 0 or code >= len(RESULT_NAMES):
            raise ValueError("result must be one of %s" % ", ".join(RESULT_NAMES))
        if not self.advance(now):
            return False
        if self.state == SETUP:
            # A result before the start (a forfeit, TK-R4): the game never started, so it is at
            # t = 0, and the time base starts at this instant - not at ticks 0 of the boot, which
            # would make t the board's uptime and misdate the wall time the journal derives from
            # it (the protest window of TK-P1 runs from the result).
            self.t = 0
            self.last = now
        elif self.state == RUNNING:
            self._commit(self.t)
            self.to_move = self.running
            self.running = NONE
        self.state = FINISHED
        self.default_done = True
        self._emit(EV_RESULT, self.t, NONE, code)
        return True

    def power_restore(self, now):
        """After a reboot restored this game's state: the clock is paused (a running side stops
        at its last durable time) and `t` goes on from there; ticks restart at `now`. The
        arbiter decides about the gap (TK-C18)."""
        if self.state == RUNNING:
            self._commit(self.t)
            self.to_move = self.running
            self.running = NONE
            self.state = PAUSED
        self.last = now
        self._emit(EV_POWER_RESTORE, self.t, NONE, 0)

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

    def max_stage(self, side):
        """The highest stage a correction may set for `side` (clock.adjust accepts 1..this)."""
        return self._max_stage(self.tc[side])

    def side_to_move(self):
        return self.running if self.running != NONE else self.to_move

    # ---------------------------------------------------------------- events

    def _emit(self, kind, at, side, arg):
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

    def event(self, i):
        """Queued event i as a contract 3 dict (allocates: for the log and tests, not the tick
        path). `game`, `seq` and `wall` are the journal's to add."""
        from sagatfw.logread import event_dict  # not on the board's loop: tests, replay, the host

        return event_dict(self.events, i * EV_SIZE, self.tc_field)

    def take_events(self):
        """All queued events as dicts, and clear the queue (allocates)."""
        out = [self.event(i) for i in range(self.n_events)]
        self.n_events = 0
        return out
