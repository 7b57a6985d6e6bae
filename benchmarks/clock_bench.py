# sagat: clock engine benchmark (docs/design.md, "Budgets": the time error the software adds over a
# simulated 6-hour game, across a ticks_ms wrap, is 0 ms).
#
#   micropython benchmarks/clock_bench.py [--quick] [--seed N] [--only NAME]
#   python benchmarks/clock_bench.py [...]   (the same scenarios; CPython's random generator differs
#                                             from MicroPython's, so the games differ in detail)
#
# Plays whole games on sagatfw.engine.clock.Clock in simulated time, as the firmware's loop would: the loop
# polls the clock at random intervals (1..120 ms) and asks both faces (`remaining`); presses, pauses
# and resumes happen at random instants inside those intervals and are handed to the clock with their
# own timestamps (the IRQ stamps), before the next poll. Every tick value is (base + t) & 0x3FFFFFFF
# with `base` chosen so that the ticks wrap in the middle of each game.
#
# An exact reference model, written here from contract 2 (docs/design.md, docs/clock.md) and
# independent of engine/clock.py, works in absolute integer ms (no ticks, no wrap) from totals:
# a face is the time credited to the
# side (stage times, increments, Bronstein refunds, hourglass gains, extensions) minus the time
# charged for its turns (a turn charges its running time, less the simple delay). It predicts every
# event (type, t, both faces, both move counts, running side, side, argument) and every face at
# every poll; the benchmark compares them with the clock's and reports the largest error in ms.
#
# Games (scenarios): a 6-hour Fischer two-stage game of 300+ moves a side with pauses, whose first
# move outlasts the default time (TK-C6); simple delay with a repeating stage; Bronstein with a
# handicap; hourglass, ending with a flag (no freeze); and two flag games, with and without freeze,
# where flags fall at exactly computed instants (one by a press stamped at the flag instant, one
# found by a poll), with a press 1 ms before a flag and a tie extension (TK-C14). Presses by the
# side not running and during pauses (they must do nothing) are sprinkled in. --quick plays shorter
# games (a 20-minute main game) as a smoke test.
#
# Exit status 0 only if every value matched (largest error 0 ms) and every game did what it is for.

import random
import sys
import time


def _firmware_dir():
    """<repo>/firmware, from this file's path (MicroPython has no os.path)."""
    f = __file__
    i = f.rfind("/")
    j = f.rfind("\\")
    if j > i:
        i = j
    if i < 0:
        here = "."
    elif i == 0:
        here = "/"
    else:
        here = f[:i]
    return here + "/../firmware"


sys.path.insert(0, _firmware_dir())

from sagatfw.engine.clock import (  # noqa: E402
    EV_SIZE,
    EVENT_NAMES,
    F_ARG,
    F_LEFT_MOVES,
    F_LEFT_MS,
    F_RIGHT_MOVES,
    F_RIGHT_MS,
    F_RUNNING,
    F_SIDE,
    F_T,
    F_TYPE,
    LEFT,
    NONE,
    RIGHT,
    SIDE_NAMES,
    Clock,
    Settings,
)
from sagatfw.log.read import event_dict  # noqa: E402  (a failure's report only)

MICROPYTHON = sys.implementation.name == "micropython"

# The benchmark times only the clock's calls: ticks_us under MicroPython, perf_counter_ns elsewhere.
if hasattr(time, "ticks_us"):
    _timer = time.ticks_us
    _elapsed = time.ticks_diff  # (later, earlier)
    _UNITS_PER_US = 1
else:
    _timer = time.perf_counter_ns

    def _elapsed(later, earlier):
        return later - earlier

    _UNITS_PER_US = 1000

TICKS_MASK = 0x3FFFFFFF  # the boards' ticks_ms period is 2^30 ms
SEC = 1000
MIN = 60 * SEC
HOUR = 60 * MIN
DEFAULT_SEED = 20240601
POLL_MIN_MS = 1
POLL_MAX_MS = 120

# ---------------------------------------------------------------------------------------------------
# The reference model. Its own description of the controls (not tcparse), its own states.

SUDDEN = 0
FISCHER = 1
DELAY = 2
BRONSTEIN = 3

R_SETUP = 0
R_RUNNING = 1
R_PAUSED = 2
R_FLAGGED = 3
R_FINISHED = 4

# What the next instant inside an interval is (catch_up).
_K_NONE = 0
_K_DEFAULT = 1
_K_LOW = 2
_K_FLAG = 3


class Control:
    """One side's control for the reference: stages of (moves, ms, mode, bonus_ms); moves 0 in the
    final stage: the rest of the game; a final stage with moves repeats. Hourglass: one stage."""

    def __init__(self, stages, hourglass=False):
        self.stages = stages
        self.hourglass = hourglass

    def stage(self, k):
        n = len(self.stages)
        return self.stages[(k if k < n else n) - 1]

    def has_next(self, k):
        return k < len(self.stages) or self.stages[-1][0] > 0


class Ref:
    """Exact reference of contract 2 in absolute integer ms since the start (no ticks, no wrap).

    face = credit - spent, minus the charge of the turn in progress; a turn charges its running time
    (pauses excluded) less its simple delay, capped at the side's time. Credits: first stage time,
    later stage times, Fischer increments and Bronstein refunds (never after the side's flag),
    hourglass gains, extensions. Every event the clock must log is appended to `expected` as
    (type name, t, left_ms, right_ms, left_moves, right_moves, running, side, arg)."""

    def __init__(self, left, right, first, freeze, low_ms=300000, default_ms=1800000, extension_ms=300000):
        self.ctl = (left, right)
        self.hourglass = left.hourglass
        self.freeze = freeze
        self.low = low_ms
        self.default_ms = default_ms
        self.extension = extension_ms
        self.credit = [left.stages[0][1], right.stages[0][1]]
        self.spent = [0, 0]
        self.moves = [0, 0]
        self.stage = [1, 1]
        self.stage_moves = [0, 0]
        self.flag = [0, 0]  # 0, or the order of the side's flag
        self.flags = 0
        self.has_run = [0, 0]
        self.above = [0, 0]
        self._set_above(LEFT)
        self._set_above(RIGHT)
        self.default_pending = default_ms > 0
        self.state = R_SETUP
        self.running = NONE
        self.turn = first  # whose turn it is: the running side, or the side to move while stopped
        self.seg = 0  # instant the running segment began
        self.run_before = 0  # running time of the turn before `seg`, not yet charged
        self.turn_run = 0  # running time of the whole turn before `seg` (Bronstein)
        self.delay = 0  # the turn's simple delay not yet used by a charge
        self.expected = []
        self.counts = {}

    # --- faces and instants

    def base(self, s):
        return self.credit[s] - self.spent[s]

    def face(self, s, q):
        """Side s's face at instant q (no earlier than the last call)."""
        base = self.credit[s] - self.spent[s]
        st = self.state
        if st != R_RUNNING and st != R_PAUSED:
            return base
        u = self.run_before
        if st == R_RUNNING:
            u += q - self.seg
        r = self.turn
        if s == r:
            d = self.delay
            f = base - (u - d if u > d else 0)
            return f if f > 0 else 0
        if self.hourglass and not self.flag[s]:  # a flagged side gains nothing (contract 2)
            rb = self.credit[r] - self.spent[r]
            return base + (u if u < rb else rb)
        return base

    def _reaches(self, r, v):
        """Instant at which running side r's face comes down to v (< its face at `seg`)."""
        return self.seg - self.run_before + self.delay + self.credit[r] - self.spent[r] - v

    def first_flag(self):
        f0 = self.flag[LEFT]
        f1 = self.flag[RIGHT]
        if f0 and (not f1 or f0 < f1):
            return LEFT
        if f1:
            return RIGHT
        return NONE

    # --- bookkeeping

    def _emit(self, name, at, side, arg):
        self.expected.append(
            (
                name,
                at,
                self.face(LEFT, at),
                self.face(RIGHT, at),
                self.moves[LEFT],
                self.moves[RIGHT],
                self.running,
                side,
                arg,
            )
        )
        self.counts[name] = self.counts.get(name, 0) + 1

    def _set_above(self, s):
        # TK-C17: the mark counts only below the time the side starts with (its first stage)
        counts = self.low and self.low < self.ctl[s].stages[0][1]
        self.above[s] = 1 if counts and self.credit[s] - self.spent[s] > self.low else 0

    def _fold(self, q):
        """Charge the turn so far to the side whose turn it is; the turn goes on from q."""
        r = self.turn
        u = self.run_before
        if self.state == R_RUNNING:
            step = q - self.seg
            u += step
            self.turn_run += step
            self.seg = q
        d = self.delay
        c = u - d if u > d else 0
        base = self.credit[r] - self.spent[r]
        if c > base:
            c = base
        self.spent[r] += c
        if self.hourglass and not self.flag[1 - r]:
            self.credit[1 - r] += c
        self.delay = d - u if u < d else 0
        self.run_before = 0

    def _begin(self, s, q):
        self.seg = q
        self.run_before = 0
        self.turn_run = 0
        self.has_run[s] = 1
        moves, ms, mode, bonus = self.ctl[s].stage(self.stage[s])
        self.delay = bonus if mode == DELAY else 0

    def catch_up(self, q):
        """Log what happens by itself up to instant q: default time, low-time crossings, flags;
        at the same instant in that order."""
        while True:
            kind = _K_NONE
            best = 0
            st = self.state
            if self.default_pending and st != R_SETUP and st != R_FINISHED:
                kind = _K_DEFAULT
                best = self.default_ms
            if st == R_RUNNING:
                r = self.running
                if self.above[r]:
                    x = self._reaches(r, self.low)
                    if kind == _K_NONE or x < best:
                        kind = _K_LOW
                        best = x
                if not self.flag[r]:
                    x = self._reaches(r, 0)
                    if kind == _K_NONE or x < best:
                        kind = _K_FLAG
                        best = x
            if kind == _K_NONE or best > q:
                return
            if kind == _K_DEFAULT:
                self.default_pending = False
                for s in (LEFT, RIGHT):
                    if self.has_run[s] and self.moves[s] == 0:
                        self._emit("default", best, s, 0)
            elif kind == _K_LOW:
                self.above[r] = 0
                self._emit("low_time", best, r, 0)
            else:
                self._fold(best)  # charges exactly what was left
                self.flags += 1
                self.flag[r] = self.flags
                self.above[r] = 0
                if self.freeze:
                    self.running = NONE
                    self.state = R_FLAGGED
                self._emit("flag", best, r, self.flags)

    # --- operations (each returns what the clock's call must return)

    def start(self, q):
        self.state = R_RUNNING
        self.running = self.turn
        self._begin(self.turn, q)
        self._emit("game_start", q, NONE, self.turn)
        return True

    def press(self, s, q):
        self.catch_up(q)
        if self.state != R_RUNNING or s != self.running:
            return False
        self._fold(q)
        total = self.turn_run
        self.moves[s] += 1
        self.stage_moves[s] += 1
        added = 0
        ctl = self.ctl[s]
        k = self.stage[s]
        moves, ms, mode, bonus = ctl.stage(k)
        if not self.flag[s]:
            if mode == FISCHER:
                self.credit[s] += bonus
            elif mode == BRONSTEIN:
                self.credit[s] += total if total < bonus else bonus
        if moves and self.stage_moves[s] >= moves and ctl.has_next(k):
            # the stage count follows the moves; its time only without a flag (contract 2)
            added = k + 1
            self.stage[s] = added
            self.stage_moves[s] = 0
            if not self.flag[s]:
                self.credit[s] += ctl.stage(added)[1]
        o = 1 - s
        self._set_above(s)
        self._set_above(o)
        self.running = o
        self.turn = o
        self._begin(o, q)
        self._emit("press", q, s, 0)
        if added:
            self._emit("stage", q, s, added)
        return True

    def pause(self, by, q):
        self.catch_up(q)
        if self.state != R_RUNNING:
            return False
        step = q - self.seg
        self.run_before += step
        self.turn_run += step
        self.seg = q
        self.running = NONE
        self.state = R_PAUSED
        self._emit("pause", q, NONE, by)
        return True

    def resume(self, q):
        self.catch_up(q)
        if self.state != R_PAUSED:
            return False
        self.state = R_RUNNING
        self.running = self.turn
        self.seg = q
        self.has_run[self.turn] = 1
        self._emit("resume", q, NONE, 0)
        return True

    def extend(self, q):
        self.catch_up(q)
        if not (self.flag[LEFT] or self.flag[RIGHT]):
            return False
        if self.state != R_RUNNING and self.state != R_PAUSED and self.state != R_FLAGGED:
            return False
        self._fold(q)
        for s in (LEFT, RIGHT):
            self.credit[s] += self.extension
            self.flag[s] = 0
            self._set_above(s)
        if self.state == R_FLAGGED:
            self.state = R_RUNNING
            self.running = self.turn
            self.seg = q
        self._emit("extension", q, NONE, 0)
        return True

    def result(self, code, q):
        self.catch_up(q)
        if self.state == R_RUNNING or self.state == R_PAUSED:
            self._fold(q)
        self.state = R_FINISHED
        self.running = NONE
        self.default_pending = False
        self._emit("result", q, NONE, code)
        return True


# ---------------------------------------------------------------------------------------------------
# Players and arbiters: what happens in a game, decided from the reference's state only.

A_PRESS = 0
A_PAUSE = 1
A_RESUME = 2
A_EXTEND = 3
A_RESULT = 4
ACTION_NAMES = ("press", "pause", "resume", "extend", "result")


def think_ms(mean):
    """A move's thinking time: instant replies (several presses inside one poll interval), quick
    moves, ordinary moves around `mean`, long thinks."""
    k = random.randint(0, 99)
    if k < 8:
        return random.randint(0, 250)
    if k < 18:
        return random.randint(250, 3000)
    if k < 90:
        return random.randint(0, 2 * mean)
    return random.randint(2 * mean, 6 * mean)


class Plan:
    """Plays until `target_ms` of game time and `target_moves` moves a side, never letting a flag
    fall (thinking leaves at least 1 ms), then enters a result. With `end_flag` (no freeze), the
    side to move then runs out of time, and play goes on at zero for `after_flag` more moves."""

    def __init__(
        self,
        mean_ms,
        target_ms,
        target_moves,
        pause_pm=15,
        pause_ms=(5 * SEC, 5 * MIN),
        noise_pm=40,
        end_flag=False,
        after_flag=6,
        first_think_ms=None,
    ):
        self.mean = mean_ms if isinstance(mean_ms, tuple) else (mean_ms, mean_ms)  # (left, right)
        self.target_ms = target_ms
        self.target_moves = target_moves
        self.pause_pm = pause_pm  # per mille of turns with a pause (TK-C15, TK-C18)
        self.pause_ms = pause_ms
        self.noise_pm = noise_pm  # per mille of turns where the other side presses too (TK-C9)
        self.end_flag = end_flag
        self.after_flag = after_flag
        self.expect_flags = 1 if end_flag else 0
        self.ending = False
        self.first_think = first_think_ms  # the first move's thinking time, e.g. past the default time
        self.seq = 0
        self.done = False

    def next(self, ref, at):
        """The next actions after instant `at` (the queue is empty); None: the game is over."""
        if self.done or ref.state == R_FINISHED:
            return None
        if ref.state == R_RUNNING:
            if self.over(ref, at):
                if self.end_flag and not self.ending:
                    self.ending = True  # this turn outlasts the face: the flag falls between polls
                    return self.turn(ref, at, ref.base(ref.running) + ref.delay + random.randint(1, 5 * SEC))
                if self.end_flag and self.after_flag > 0:
                    self.after_flag -= 1
                    return self.turn(ref, at, self.think(ref))
                self.done = True
                wait = self.safe(ref, random.randint(SEC, 10 * SEC))  # the clock runs until the result
                return self._sorted([(at + wait, A_RESULT, self.result_code(ref))])
            return self.turn(ref, at, self.think(ref))
        return self.stopped(ref, at)

    def over(self, ref, at):
        return at >= self.target_ms and ref.moves[LEFT] >= self.target_moves and ref.moves[RIGHT] >= self.target_moves

    def result_code(self, ref):
        f = ref.first_flag()
        if f == LEFT:
            return 1  # 0-1
        if f == RIGHT:
            return 0  # 1-0
        return 2  # 1/2-1/2

    def safe(self, ref, x):
        """x, but leaving the running side at least 1 ms (no flag), unless it has flagged."""
        if ref.flag[ref.running]:
            return x
        cap = ref.base(ref.running) + ref.delay - 1
        if x > cap:
            x = cap
        return x if x > 0 else 0

    def think(self, ref):
        if self.first_think is not None:
            x = self.first_think
            self.first_think = None
            return self.safe(ref, x)
        return self.safe(ref, think_ms(self.mean[ref.running]))

    def stopped(self, ref, at):
        raise RuntimeError("plan %s: no action for reference state %d" % (type(self).__name__, ref.state))

    def _sorted(self, acts):
        out = []
        for a in acts:
            self.seq += 1
            out.append((a[0], self.seq, a[1], a[2]))
        out.sort()
        return out

    def turn(self, ref, at, think):
        """The running side thinks `think` ms of running time, maybe with a pause inside (and a
        press of its own lever during the pause), maybe with a press by the other side, then
        presses."""
        r = ref.running
        acts = []
        end = at + think
        if random.randint(0, 999) < self.pause_pm:
            a = at + random.randint(0, think)
            p = random.randint(self.pause_ms[0], self.pause_ms[1])
            acts.append((a, A_PAUSE, random.randint(0, 3)))
            if p >= 2 and random.randint(0, 1):
                acts.append((a + random.randint(1, p - 1), A_PRESS, r))  # does nothing: paused
            acts.append((a + p, A_RESUME, 0))
            end += p
        if end > at and random.randint(0, 999) < self.noise_pm:
            acts.append((random.randint(at, end - 1), A_PRESS, 1 - r))  # does nothing (TK-C9)
        acts.append((end, A_PRESS, r))
        return self._sorted(acts)


class FlagFreezePlan(Plan):
    """Fischer with freeze: a press 1 ms before a flag (gets its increment), then a press stamped at
    the flag instant (after the flag: does nothing), presses and a pause while flagged (nothing),
    the arbiter's tie extension (TK-C14), play on, a second flag found by a poll, a result."""

    def __init__(self, mean_ms, **kw):
        Plan.__init__(self, mean_ms, 0, 0, **kw)
        self.expect_flags = 2
        self.phase = 0
        self.extended = False

    def over(self, ref, at):
        return False  # the second flag ends it (stopped)

    def think(self, ref):
        r = ref.running
        base = ref.base(r)
        if self.phase == 0:
            if base < 20 * SEC:
                self.phase = 1
                return base + ref.delay - 1  # 1 ms before the flag instant
            return self.safe(ref, think_ms(self.mean[r]))
        if self.phase == 1:
            if base < 20 * SEC:
                self.phase = 2
                return base + ref.delay  # stamped at the flag instant
            return self.safe(ref, think_ms(self.mean[r]))
        if self.phase == 3 and base < 30 * SEC:
            self.phase = 4
            return base + ref.delay + random.randint(1, 10 * SEC)  # flag falls between polls
        return think_ms(3 * self.mean[r])

    def stopped(self, ref, at):
        if ref.state != R_FLAGGED:
            return Plan.stopped(self, ref, at)
        if not self.extended:
            self.extended = True
            self.phase = 3
            e = at + random.randint(15 * SEC, 40 * SEC)
            return self._sorted(
                [
                    (at + random.randint(0, 3 * SEC), A_PRESS, ref.turn),  # flagged: does nothing
                    (at + random.randint(0, 3 * SEC), A_PRESS, 1 - ref.turn),
                    (at + random.randint(3 * SEC, 10 * SEC), A_PAUSE, 2),  # nothing to pause
                    (e, A_EXTEND, 0),
                ]
            )
        self.done = True
        return self._sorted(
            [(at + random.randint(0, 2 * SEC), A_PRESS, 1 - ref.turn), (at + 5 * SEC, A_RESULT, self.result_code(ref))]
        )


class FlagNoFreezePlan(Plan):
    """Without freeze: a press stamped at the flag instant (the flag first, then the move counts,
    with no increment), the flagged side plays on at zero, the other flag falls between polls
    (order 2), a few more moves, a result."""

    def __init__(self, mean_ms, after_moves=6, **kw):
        Plan.__init__(self, mean_ms, 0, 0, **kw)
        self.expect_flags = 2
        self.phase = 0
        self.after = after_moves

    def over(self, ref, at):
        if ref.flags == 2:
            self.after -= 1
        return self.after < 0

    def think(self, ref):
        r = ref.running
        base = ref.base(r)
        if self.phase == 0:
            if base < 15 * SEC:
                self.phase = 1
                return base + ref.delay  # stamped at the flag instant
            return self.safe(ref, think_ms(self.mean[r]))
        if self.phase == 1 and not ref.flag[r] and base < 20 * SEC:
            self.phase = 2
            return base + ref.delay + random.randint(1, 8 * SEC)  # falls between polls
        return think_ms(self.mean[r])


# ---------------------------------------------------------------------------------------------------
# Scenarios


class Scenario:
    """One game: the TimeControl string the clock gets ("LEFT|RIGHT" for a handicap), the
    reference's own description of it (one Control, or a (left, right) pair), the first player,
    the freeze setting (None: contract 2's default) and the freeze the reference applies, the game
    time at which the ticks wrap, the plan."""

    def __init__(self, name, tc, control, first, freeze, wrap_at_ms, plan, setting=None):
        self.name = name
        self.setting = setting
        self.tc = tc
        if isinstance(control, tuple):
            self.left, self.right = control
        else:
            self.left = self.right = control
        self.first = first
        self.freeze = freeze
        self.wrap_at_ms = wrap_at_ms
        self.plan = plan


def scenarios(quick):
    q = quick
    fide = Control([(40, 5400 * SEC, FISCHER, 30 * SEC), (0, 1800 * SEC, FISCHER, 30 * SEC)])
    delay = Control([(20, 1200 * SEC, DELAY, 5 * SEC), (5, 300 * SEC, DELAY, 5 * SEC)])
    bronstein = (Control([(0, 1200 * SEC, BRONSTEIN, 10 * SEC)]), Control([(0, 900 * SEC, BRONSTEIN, 5 * SEC)]))
    glass = Control([(0, 600 * SEC, SUDDEN, 0)], hourglass=True)
    blitz = Control([(0, 180 * SEC, FISCHER, 2 * SEC)])
    fischer_5 = Control([(0, 300 * SEC, FISCHER, 2 * SEC)])
    # Plan(mean thinking ms, at least this game time, at least these moves a side, pauses per mille of turns)
    pm = 150 if q else 40
    # The main game's first move takes longer than the default time (TK-C6): a `default` event at 30 min.
    main_plan = Plan(30 * SEC, 20 * MIN if q else 6 * HOUR, 15 if q else 300, pause_pm=pm if q else 15)
    main_plan.first_think = None if q else 30 * MIN + 37 * SEC
    delay_plan = Plan(55 * SEC, 8 * MIN if q else 60 * MIN, 5 if q else 40, pause_pm=pm)
    bronstein_plan = Plan(30 * SEC, 8 * MIN if q else 50 * MIN, 8 if q else 50, pause_pm=pm)
    glass_plan = Plan((18 * SEC, 12 * SEC), 6 * MIN if q else 40 * MIN, 10 if q else 60, pause_pm=pm, end_flag=True)
    return [
        Scenario("fischer-6h", "40/5400+30:1800+30", fide, LEFT, True, 10 * MIN if q else 3 * HOUR, main_plan),
        Scenario("delay", "20/1200d5:5/300d5", delay, RIGHT, True, 4 * MIN if q else 30 * MIN, delay_plan),
        Scenario("bronstein", "1200b10|900b5", bronstein, LEFT, True, 4 * MIN if q else 25 * MIN, bronstein_plan),
        Scenario("hourglass", "*600", glass, RIGHT, False, 3 * MIN if q else 20 * MIN, glass_plan),
        Scenario("flag-freeze", "180+2", blitz, LEFT, True, 5 * MIN, FlagFreezePlan(6 * SEC)),
        Scenario("flag-nofreeze", "300+2", fischer_5, RIGHT, False, 5 * MIN, FlagNoFreezePlan(8 * SEC), False),
    ]


# ---------------------------------------------------------------------------------------------------
# The driver: one game on the clock and the reference side by side.


class Mismatches:
    def __init__(self):
        self.max_err = 0
        self.count = 0  # mismatches of any kind
        self.values = 0  # values compared
        self.first_printed = False


def _event_text(e):
    name, t, lms, rms, lmov, rmov, running, side, arg = e
    return "%s t=%d left_ms=%d right_ms=%d moves=%d/%d running=%s side=%s arg=%d" % (
        name,
        t,
        lms,
        rms,
        lmov,
        rmov,
        _side_name(running),
        _side_name(side),
        arg,
    )


def _side_name(s):
    return SIDE_NAMES[s] if s >= 0 else "-"


class Game:
    def __init__(self, sc, clock, seed, mm, quick):
        self.sc = sc
        self.quick = quick
        self.clock = clock
        self.seed = seed
        self.mm = mm
        self.ref = Ref(sc.left, sc.right, sc.first, sc.freeze)
        self.base = ((TICKS_MASK + 1) - sc.wrap_at_ms) & TICKS_MASK
        self.last_ticks = self.base
        self.wrapped = False
        self.history = []  # the last actions, for a mismatch report
        self.polls = 0
        self.poll_units = 0
        self.presses = 0
        self.press_units = 0
        self.ignored = 0
        self.pauses = 0
        self.events = 0
        self.max_err = 0
        self.t = 0

    def ticks(self, at):
        now = (self.base + at) & TICKS_MASK
        if now < self.last_ticks:
            self.wrapped = True
        self.last_ticks = now
        return now

    # --- comparisons

    def _err(self, err):
        if err > self.max_err:
            self.max_err = err
        if err > self.mm.max_err:
            self.mm.max_err = err

    def fail(self, what, q, lines):
        mm = self.mm
        mm.count += 1
        if mm.first_printed:
            return
        mm.first_printed = True
        ref = self.ref
        clk = self.clock
        print("FIRST MISMATCH in game %r (%s), seed %d: %s" % (self.sc.name, self.sc.tc, self.seed, what))
        print("  at game time t=%d ms, ticks 0x%08x" % (q, (self.base + q) & TICKS_MASK))
        for line in lines:
            print("  " + line)
        print(
            "  reference: credit=%r spent=%r moves=%r stage=%r flag=%r running=%s turn=%s seg=%d run_before=%d "
            "delay=%d state=%d"
            % (
                ref.credit,
                ref.spent,
                ref.moves,
                ref.stage,
                ref.flag,
                _side_name(ref.running),
                _side_name(ref.turn),
                ref.seg,
                ref.run_before,
                ref.delay,
                ref.state,
            )
        )
        print(
            "  clock (read for this report only): t=%d rem=%r moves=%r stage=%r flag=%r running=%s seg_start=%d "
            "delay_left=%r state=%d"
            % (
                clk.t,
                clk.rem,
                clk.moves,
                clk.stage,
                clk.flag,
                _side_name(clk.running),
                clk.seg_start,
                clk.delay_left,
                clk.state,
            )
        )
        print("  last actions (t, action, arg, clock's answer):")
        for h in self.history[-10:]:
            print("    %d %s %d %r" % h)
        replay = "--seed %d --only %s%s" % (self.seed, self.sc.name, " --quick" if self.quick else "")
        print("  replay: micropython benchmarks/clock_bench.py " + replay)

    def check_events(self, what, q):
        clk = self.clock
        n = clk.n_events
        exp = self.ref.expected
        if n == 0 and not exp:
            return
        self.events += n
        ev = clk.events
        bad = None
        err = 0
        if n != len(exp):
            bad = "%d events logged, %d expected" % (n, len(exp))
        for i in range(n if n < len(exp) else len(exp)):
            e = i * EV_SIZE
            x = exp[i]
            got = (
                EVENT_NAMES[ev[e + F_TYPE]],
                ev[e + F_T],
                ev[e + F_LEFT_MS],
                ev[e + F_RIGHT_MS],
                ev[e + F_LEFT_MOVES],
                ev[e + F_RIGHT_MOVES],
                ev[e + F_RUNNING],
                ev[e + F_SIDE],
                ev[e + F_ARG],
            )
            self.mm.values += 9
            if got != x:
                for k in (1, 2, 3):  # t, left_ms, right_ms
                    d = got[k] - x[k]
                    if d < 0:
                        d = -d
                    if d > err:
                        err = d
                if bad is None:
                    bad = "event %d differs" % i
        if bad is not None:
            self._err(err)
            lines = [bad + (" (largest ms error %d)" % err)]
            for i in range(n):
                lines.append("clock:    %r" % (event_dict(clk.events, i * EV_SIZE, clk.tc_field),))
            for x in exp:
                lines.append("expected: " + _event_text(x))
            self.fail("events after " + what, q, lines)
        clk.clear_events()
        exp.clear()

    def compare_faces(self, q, a, b):
        ref = self.ref
        fl = ref.face(LEFT, q)
        fr = ref.face(RIGHT, q)
        clk = self.clock
        self.mm.values += 5
        if (
            a == fl
            and b == fr
            and clk.moves[LEFT] == ref.moves[LEFT]
            and clk.moves[RIGHT] == ref.moves[RIGHT]
            and clk.running == ref.running
        ):
            return
        err = max(abs(a - fl), abs(b - fr))
        self._err(err)
        self.fail(
            "poll",
            q,
            [
                "remaining(left)=%d expected %d; remaining(right)=%d expected %d (error %d ms)" % (a, fl, b, fr, err),
                "moves %r expected %r; running %s expected %s"
                % (clk.moves, ref.moves, _side_name(clk.running), _side_name(ref.running)),
            ],
        )

    # --- the game

    def act(self, a):
        at, _, kind, arg = a
        clk = self.clock
        ref = self.ref
        now = self.ticks(at)
        if kind == A_PRESS:
            t0 = _timer()
            ok = clk.press(arg, now)
            dt = _elapsed(_timer(), t0)
            want = ref.press(arg, at)
            if ok:
                self.presses += 1
                self.press_units += dt
            else:
                self.ignored += 1
        elif kind == A_PAUSE:
            ok = clk.pause(arg, now)
            want = ref.pause(arg, at)
            if ok:
                self.pauses += 1
        elif kind == A_RESUME:
            ok = clk.resume(now)
            want = ref.resume(at)
        elif kind == A_EXTEND:
            ok = clk.extend(now)
            want = ref.extend(at)
        else:
            ok = clk.result(arg, now)
            want = ref.result(arg, at)
        self.history.append((at, ACTION_NAMES[kind], arg, ok))
        if len(self.history) > 40:
            self.history = self.history[-20:]
        what = "%s(%d) at t=%d" % (ACTION_NAMES[kind], arg, at)
        self.mm.values += 1
        if ok != want:
            self.fail(what, at, ["the clock answered %r, expected %r" % (ok, want)])
        self.check_events(what, at)

    def poll(self, q):
        clk = self.clock
        ref = self.ref
        now = self.ticks(q)
        t0 = _timer()
        a = clk.remaining(LEFT, now)
        t1 = _timer()
        ref.catch_up(q)
        self.check_events("poll", q)
        t2 = _timer()
        b = clk.remaining(RIGHT, now)
        t3 = _timer()
        self.check_events("poll", q)
        self.polls += 1
        self.poll_units += _elapsed(t1, t0) + _elapsed(t3, t2)
        self.compare_faces(q, a, b)

    def play(self):
        sc = self.sc
        clk = self.clock
        ref = self.ref
        plan = sc.plan
        tcs = sc.tc.split("|")
        clk.new_game(tcs[0], tcs[-1], sc.first, Settings(freeze=sc.setting))
        clk.clear_events()
        ok = clk.start(self.ticks(0))
        want = ref.start(0)
        if ok != want:
            self.fail("start", 0, ["the clock answered %r, expected %r" % (ok, want)])
        self.check_events("start", 0)
        acts = plan.next(ref, 0)
        i = 0
        end_at = 0
        t = 0
        randint = random.randint
        while True:
            t += randint(POLL_MIN_MS, POLL_MAX_MS)
            while acts is not None and acts[i][0] <= t:
                a = acts[i]
                i += 1
                self.act(a)
                if i == len(acts):
                    acts = plan.next(ref, a[0])
                    i = 0
                    if acts is None:
                        end_at = a[0]
                    elif not acts:
                        raise RuntimeError("plan gave no action")
            self.poll(t)
            if acts is None and t >= end_at + 2 * SEC:
                break
        self.t = t


# ---------------------------------------------------------------------------------------------------


def _us(units, n):
    if not n:
        return 0.0
    return units / _UNITS_PER_US / n


def _timer_overhead_us():
    n = 20000
    total = 0
    for _ in range(n):
        t0 = _timer()
        total += _elapsed(_timer(), t0)
    return total / _UNITS_PER_US / n


def _usage():
    print("usage: clock_bench.py [--quick] [--seed N] [--only NAME]")
    print("  --quick      short games (a 20-minute main game), for a smoke test")
    print("  --seed N     random seed (default %d); each game is seeded from it" % DEFAULT_SEED)
    print("  --only NAME  play one game: " + ", ".join(sc.name for sc in scenarios(False)))


def main(argv):
    seed = DEFAULT_SEED
    quick = False
    only = None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--quick":
            quick = True
        elif a in ("--seed", "--only") and i + 1 < len(argv):
            i += 1
            if a == "--seed":
                try:
                    seed = int(argv[i])
                except ValueError:
                    _usage()
                    return 2
            else:
                only = argv[i]
        elif a in ("-h", "--help"):
            _usage()
            return 0
        else:
            _usage()
            return 2
        i += 1

    games = scenarios(quick)
    names = [sc.name for sc in games]
    if only is not None and only not in names:
        _usage()
        return 2
    if MICROPYTHON:
        runtime = "MicroPython %d.%d.%d" % sys.implementation.version[:3]
        t_start = time.ticks_ms()
    else:
        runtime = "CPython %d.%d.%d" % tuple(sys.version_info[:3])
        t_start = time.time()
    print("sagat clock benchmark: %s, seed %d, %s run" % (runtime, seed, "quick" if quick else "full"))
    print("every poll: remaining() of both faces at a random 1..120 ms interval; presses at their own instants")
    print(
        "%-14s %-19s %7s %9s %7s %7s %7s %6s %4s %5s %5s %5s %4s %6s %7s"
        % (
            "game",
            "control",
            "hours",
            "moves L/R",
            "polls",
            "presses",
            "ignored",
            "pauses",
            "wrap",
            "flags",
            "stage",
            "low",
            "dflt",
            "events",
            "max err",
        )
    )
    mm = Mismatches()
    clock = Clock()  # one clock, reused for every game as on the board
    problems = []
    total = {"ms": 0, "polls": 0, "poll_units": 0, "presses": 0, "press_units": 0, "ignored": 0, "events": 0}
    all_wrapped = True
    main_game = None
    for n in range(len(games)):
        sc = games[n]
        if only is not None and sc.name != only:
            continue
        random.seed(seed * 100 + n)  # each game its own stream: --only replays it as in a full run
        g = Game(sc, clock, seed, mm, quick)
        try:
            g.play()
        except Exception:
            replay = "--seed %d --only %s%s" % (seed, sc.name, " --quick" if quick else "")
            print("game %r (%s): an exception; replay with %s" % (sc.name, sc.tc, replay))
            raise
        ref = g.ref
        counts = ref.counts
        print(
            "%-14s %-19s %7.2f %4d/%-4d %7d %7d %7d %6d %4s %5d %5d %5d %4d %6d %4d ms"
            % (
                sc.name,
                sc.tc,
                g.t / HOUR,
                ref.moves[LEFT],
                ref.moves[RIGHT],
                g.polls,
                g.presses,
                g.ignored,
                g.pauses,
                "yes" if g.wrapped else "NO",
                ref.flags,
                counts.get("stage", 0),
                counts.get("low_time", 0),
                counts.get("default", 0),
                g.events,
                g.max_err,
            )
        )
        if not g.wrapped:
            problems.append("%s: the ticks never wrapped" % sc.name)
        all_wrapped = all_wrapped and g.wrapped
        if ref.flags != sc.plan.expect_flags:
            problems.append("%s: %d flags fell, %d planned" % (sc.name, ref.flags, sc.plan.expect_flags))
        total["ms"] += g.t
        total["polls"] += g.polls
        total["poll_units"] += g.poll_units
        total["presses"] += g.presses
        total["press_units"] += g.press_units
        total["ignored"] += g.ignored
        total["events"] += g.events
        if main_game is None or sc.name == "fischer-6h":
            main_game = g
    if MICROPYTHON:
        elapsed_s = time.ticks_diff(time.ticks_ms(), t_start) / 1000
    else:
        elapsed_s = time.time() - t_start

    g = main_game
    ref = g.ref
    if g.sc.name == "fischer-6h" and not quick:
        if g.t < 6 * HOUR or ref.moves[LEFT] < 300 or ref.moves[RIGHT] < 300:
            problems.append("fischer-6h: shorter than 6 h or fewer than 300 moves a side")
    print()
    print(
        "%s game (%s, %s): %.2f h of game time, %d/%d moves, %d polls, %d presses, ticks wrap crossed: %s"
        % (
            "main" if g.sc.name == "fischer-6h" else "first",
            g.sc.name,
            g.sc.tc,
            g.t / HOUR,
            ref.moves[LEFT],
            ref.moves[RIGHT],
            g.polls,
            g.presses,
            "yes" if g.wrapped else "no",
        )
    )
    print(
        "all games: %.2f h of game time, %d polls, %d presses (+%d that did nothing), %d events; "
        "ticks wrap crossed in every game: %s"
        % (
            total["ms"] / HOUR,
            total["polls"],
            total["presses"],
            total["ignored"],
            total["events"],
            "yes" if all_wrapped else "no",
        )
    )
    print("largest time error: %d ms (%d values compared, %d mismatches)" % (mm.max_err, mm.values, mm.count))
    print(
        "us per press: %.2f   us per poll (remaining() of both sides): %.2f   (clock calls only; "
        "timer overhead %.2f us per measurement included)"
        % (_us(total["press_units"], total["presses"]), _us(total["poll_units"], total["polls"]), _timer_overhead_us())
    )
    print("runtime: %.1f s" % elapsed_s)
    for p in problems:
        print("PROBLEM: " + p)
    if mm.count or mm.max_err or problems:
        print("FAIL")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
