# sagat: the clock's rules, which the engine (clock.py) applies: a game set up under its two
# controls and its settings (TK-C5), what a control's stage does at a move and when a face reaches
# zero (stage advance by moves or by flag, increments, delays, byo-yomi: TK-C13, TK-C16), and the
# arbiter's operations on a clock (the tie extension TK-C14, corrections TK-C13, late installation
# TK-C11, adjournment TK-A1..A4, the result, the power restore TK-C18).
#
# Pure module, below clock.py: it imports nothing of it. Each function takes the Clock `c` and
# works on its state through its fields and the time base's public methods, which are the whole
# seam between the two files (clock.py's "the time base" section; nothing named with a leading _ of
# the Clock is used here, tests/test_firmware_interfaces.py holds this): `advance` (the clock
# brought to `now`), `commit` (the running side's time folded into its face), `credit` (time
# added to a face, up to its bound), `arm_low` (the low-time mark set by the face), `emit` (an
# event queued), `restart` (the side to move runs again), `counts_up`. clock.py binds the public
# functions as Clock's methods (`Clock.adjust is rules.adjust`), so they cost no method of their
# own. The words both modules use (sides, states,
# events, fields) are clock.py's public consts, copied here as private consts (`_LEFT` for
# `LEFT`): those take no RAM on MicroPython, and tests/firmware/engine/test_clock_props.py checks that each is its
# clock.py twin. The rules' own words (MAX_MS, REASON_NAMES, RESULT_NAMES, Settings, ...) live
# here, and clock.py imports them, so `clock.MAX_MS` and the rest still work.
#
# Only `after_move`, `turn_delay` and `out_of_time` are on the tick path (a press, a turn's start,
# a face at zero): they allocate nothing.

from sagatfw import Refused
from sagatfw.core import timecontrol as tcm

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# clock.py's words (see there), as private consts
_LEFT = const(0)
_RIGHT = const(1)
_NONE = const(-1)
_SETUP = const(0)
_RUNNING = const(1)
_PAUSED = const(2)
_FLAGGED = const(3)
_ADJOURNED = const(4)
_FINISHED = const(5)
_EV_FLAG = const(4)
_EV_STAGE = const(5)
_EV_ADJUST = const(6)
_EV_EXTENSION = const(7)
_EV_ADJOURN = const(10)
_EV_RESUME_ADJOURNED = const(11)
_EV_RESULT = const(12)
_EV_POWER_RESTORE = const(13)
_F_BEFORE_MS = const(9)
_F_BEFORE_MOVES = const(10)
_F_BEFORE_STAGE = const(11)
_F_AFTER_MS = const(12)
_F_AFTER_MOVES = const(13)
_F_AFTER_STAGE = const(14)
_MAX_GAME_MS = const(864000000)

# Results (F_ARG of result).
RESULT_NAMES = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-")  # left-right; -/-: both absent (TK-R4)

# Why an adjustment was made (F_ARG of adjust).
REASON_CORRECTION = const(0)
REASON_LATE_INSTALL = const(1)
REASON_NAMES = ("correction", "late_install")

LATE_INSTALL_FLOOR_MS = const(900000)  # TK-C11: at least 15 min each
MAX_MS = const(360000000)  # 100 h: the most a correction may put on a face
MAX_MOVES = const(9999)


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


# ---------------------------------------------------------------------- setup


def new_game(c, left, right=None, first=_LEFT, settings=None):
    """Set up a game: `left`/`right` are TimeControl objects or strings (right defaults to
    left). The clock waits for `start` (TK-C5). Raises ValueError on bad input."""
    if isinstance(left, str) or isinstance(right, str):
        from sagatfw.core import tcparse  # a string is parsed (tests, the host); the board hands objects

        if isinstance(left, str):
            left = tcparse.parse(left)
        if isinstance(right, str):
            right = tcparse.parse(right)
    if right is None:
        right = left
    if not isinstance(left, tcm.TimeControl) or not isinstance(right, tcm.TimeControl):
        raise ValueError("a game needs a TimeControl for each side")
    if (left.kind == tcm.HOURGLASS) != (right.kind == tcm.HOURGLASS):
        raise ValueError("hourglass needs hourglass on both sides")
    if first not in (_LEFT, _RIGHT):
        raise ValueError("first must be left or right")
    if settings is None:
        settings = Settings()
    c.settings = settings
    c.freeze = settings.freeze
    if c.freeze is None:  # contract 2: on with an increment or delay, as DGT and FIDE
        c.freeze = left.freeze_default() or right.freeze_default()
    c.by_flag = settings.stage_advance == "flag"
    c.tc[_LEFT] = left
    c.tc[_RIGHT] = right
    for s in (_LEFT, _RIGHT):
        c.rem[s] = c.tc[s].first_ms()
        c.moves[s] = 0
        c.stage[s] = 1
        c.stage_moves[s] = 0
        c.delay_left[s] = 0
        c.turn_used[s] = 0
        c.flag[s] = 0
        c.has_run[s] = 0
        c.default_mark[s] = 0
        c.stage_mark[s] = 0
        c.arm_low(s)
    c.state = _SETUP
    c.running = _NONE
    c.to_move = first
    c.first = first
    c.t = 0
    c.last = 0
    c.seg_start = 0
    c.flags_down = 0
    c.default_done = settings.default_ms == 0
    c.n_events = 0


# --------------------------------------------------------------- the stages


def in_byo(c, s):
    tc = c.tc[s]
    return tc.byo != tcm.BYO_NONE and c.stage[s] > len(tc.stages)


def turn_delay(c, s):
    """The simple delay side s's turn begins with: its stage's; none in byo-yomi."""
    if in_byo(c, s):
        return 0
    stage = c.tc[s].stage(c.stage[s])
    return stage.bonus_ms if stage.mode == tcm.DELAY else 0


def after_move(c, side):
    """`side` has just completed a move (its count is up): its increment or refund, a byo-yomi
    period or block started again, the next stage once this one's moves are done (TK-C16).
    Returns the stage added, or 0."""
    tc = c.tc[side]
    stage = c.stage[side]
    added = 0
    # Never credit time after this side's flag (FIDE; the Chronos flaw); the stage count
    # follows the moves all the same (contract 2), so no stage's time is credited late.
    flagged = c.flag[side]
    if tc.kind == tcm.STAGES:
        if in_byo(c, side):
            if not flagged:
                if tc.byo == tcm.BYO_JAPANESE:
                    c.rem[side] = tc.byo_ms  # a move inside the period resets it
                elif c.stage_moves[side] >= tc.byo_count:
                    c.rem[side] = tc.byo_ms  # Canadian: block done, a new one starts
                    c.stage_moves[side] = 0
        else:
            st = tc.stage(stage)
            if flagged:
                pass  # no increment, no refund
            elif st.mode == tcm.FISCHER:
                c.credit(side, st.bonus_ms)
            elif st.mode == tcm.BRONSTEIN:
                used = c.turn_used[side]
                c.credit(side, used if used < st.bonus_ms else st.bonus_ms)
            if (
                not c.by_flag
                and st.moves
                and c.stage_moves[side] >= st.moves
                and tc.has_next(stage)
            ):
                # TK-C16: the stage's moves are done; its time left carries over. Logged
                # with a flag down too; its time only while this side's flag is not.
                added = stage + 1
                c.stage[side] = added
                c.stage_moves[side] = 0
                if not flagged:
                    c.credit(side, tc.stage(added).time_ms)
    return added


def out_of_time(c, at):
    """The running side's face reached zero at game time `at`."""
    r = c.running
    c.commit(at)
    if _time_out(c, r, at):
        return
    c.flags_down += 1
    c.flag[r] = c.flags_down
    c.above_low[r] = 0
    if c.freeze:  # contract 2: both faces stop, presses do nothing
        c.to_move = r
        c.running = _NONE
        c.state = _FLAGGED
    c.emit(_EV_FLAG, at, r, c.flags_down)


def _time_out(c, r, at):
    """Side r's time is out at `at`: its next stage (stage_advance "flag") or byo-yomi period
    starts there and True is returned; False when nothing follows and the flag is due."""
    tc = c.tc[r]
    stage = c.stage[r]
    n = len(tc.stages)
    if c.by_flag and stage < n:
        _stage_at_flag(c, r, at)
        return True
    if tc.byo == tcm.BYO_JAPANESE and stage - n < tc.byo_count:
        _byo_period(c, r, at, stage + 1)  # into the first / the next period
        return True
    if tc.byo == tcm.BYO_CANADIAN and stage == n:
        c.stage_moves[r] = 0
        _byo_period(c, r, at, stage + 1)  # into the first block
        return True
    return False


def _stage_at_flag(c, r, at):
    """stage_advance "flag": side r's stage time is out at `at`; the next stage's time is added
    now and the face is marked for the arbiter to check the move count, as DGT clocks do
    (TK-C13, TK-C16)."""
    stage = c.stage[r] + 1
    c.stage[r] = stage
    c.stage_moves[r] = 0
    c.credit(r, c.tc[r].stage(stage).time_ms)
    c.stage_mark[r] = 1
    c.arm_low(r)
    c.emit(_EV_STAGE, at, r, stage)


def _byo_period(c, r, at, stage):
    c.stage[r] = stage
    c.rem[r] = c.tc[r].byo_ms
    c.arm_low(r)
    c.emit(_EV_STAGE, at, r, stage)


def max_stage(c, side):
    """The highest stage a correction may set for `side` (clock.adjust accepts 1..this)."""
    tc = c.tc[side]
    n = len(tc.stages)
    if tc.byo == tcm.BYO_JAPANESE:
        return n + tc.byo_count
    if tc.byo == tcm.BYO_CANADIAN:
        return n + 1
    if tc.repeats():
        return 99
    return n if n else 1


# ------------------------------------------------------- the arbiter's hand


def extend(c, now):
    """TK-C14 tie extension: once a flag is down, add extension_ms to both sides, clear the
    flags; a clock stopped by the flag runs the side to move again."""
    if not c.advance(now) or not (c.flag[_LEFT] or c.flag[_RIGHT]):
        return False
    if c.state not in (_RUNNING, _PAUSED, _FLAGGED) or c.t >= _MAX_GAME_MS:
        return False  # at the game's bound nothing runs again
    at = c.t
    c.commit(at)
    for s in (_LEFT, _RIGHT):
        if in_byo(c, s):
            # the extension is main time (contract 2): a side in byo-yomi goes back to its
            # final stage with what its face holds; the periods start again after it
            c.stage[s] = len(c.tc[s].stages)
            c.stage_moves[s] = 0
        c.credit(s, c.settings.extension_ms)
        c.flag[s] = 0
        c.arm_low(s)
    if c.state == _FLAGGED:
        c.state = _RUNNING
        c.running = c.to_move
        c.to_move = _NONE
        c.seg_start = at
    c.emit(_EV_EXTENSION, at, _NONE, 0)
    return True


def adjust(c, side, now, ms=None, moves=None, stage=None, reason=REASON_CORRECTION):
    """Arbiter correction of one side's time, move count and stage, only while the clock is
    stopped. Logged with before and after. Returns True; ValueError on bad values."""
    if not c.advance(now):
        raise Refused("the clock's events wait to be logged: try again in a moment", "events_pending")
    if c.state == _RUNNING or c.state == _FINISHED:
        raise Refused("corrections need the clock stopped (pause first)", "correction_running")
    if side not in (_LEFT, _RIGHT):
        raise ValueError("side must be left or right")
    tc = c.tc[side]
    if ms is not None and (not isinstance(ms, int) or ms < 0 or ms > MAX_MS):
        raise ValueError("ms must be 0..%d" % MAX_MS)
    if moves is not None and (not isinstance(moves, int) or moves < 0 or moves > MAX_MOVES):
        raise ValueError("moves must be 0..%d" % MAX_MOVES)
    if stage is not None and (not isinstance(stage, int) or stage < 1 or stage > max_stage(c, side)):
        raise ValueError("stage must be 1..%d" % max_stage(c, side))
    b_ms = c.rem[side]
    b_moves = c.moves[side]
    b_stage = c.stage[side]
    # A move count or a stage given unchanged is as not given: the log keeps only the values
    # before and after, and a replay (restore, verify) must do what the clock did.
    if moves == b_moves:
        moves = None
    if stage == b_stage:
        stage = None
    c.stage_mark[side] = 0  # the arbiter has corrected this side (TK-C13)
    if ms is not None:
        c.rem[side] = ms
    if moves is not None:
        c.moves[side] = moves
    if stage is not None:
        c.stage[side] = stage
    if moves is not None or stage is not None:
        n = len(tc.stages)
        if c.stage[side] > n and tc.byo != tcm.BYO_NONE:
            c.stage_moves[side] = 0
        else:
            done = c.moves[side] - tc.moves_before(c.stage[side])
            c.stage_moves[side] = done if done > 0 else 0
    c.arm_low(side)
    if c.flag[side] and c.rem[side] > 0:
        c.flag[side] = 0  # time given back: the flag is lifted
        if c.state == _FLAGGED and not c.flag[1 - side]:
            c.state = _PAUSED  # resume runs the side to move
    e = c.emit(_EV_ADJUST, c.t, side, reason)
    ev = c.events
    ev[e + _F_BEFORE_MS] = b_ms
    ev[e + _F_BEFORE_MOVES] = b_moves
    ev[e + _F_BEFORE_STAGE] = b_stage
    ev[e + _F_AFTER_MS] = c.rem[side]
    ev[e + _F_AFTER_MOVES] = c.moves[side]
    ev[e + _F_AFTER_STAGE] = c.stage[side]
    if c.rem[side] == 0 and not c.flag[side] and (tc.kind == tcm.STAGES or not c.by_flag):
        # a correction to 0:00 ends that side's time now, as its running out would: a
        # non-final stage by flag gives the next stage's time and the mark, a byo-yomi period
        # starts (Japanese: the next one too), logged after the adjust, so the paused faces
        # show what will run and a resume changes no time (TK-C13); nothing follows: the flag
        # falls on the resume
        _time_out(c, side, c.t)
    return True


def late_install(c, elapsed_ms, now, moves=None):
    """TK-C11: the game began without a clock and `elapsed_ms` have been played (`moves` each, if
    given, else the move counts set before). The time the whole control gives each side for the moves
    made (the stages they reach, and a Fischer increment per move) is shared out: each side gets that
    time less half the elapsed, at least min(that time, 15 min), at the stage its moves reach. Before
    the start only."""
    if c.state != _SETUP:
        raise Refused("late installation is set before the clock is started", "late_started")
    if not isinstance(elapsed_ms, int) or elapsed_ms < 0 or elapsed_ms > MAX_MS:
        raise ValueError("elapsed_ms must be 0..%d" % MAX_MS)
    if moves is not None and (not isinstance(moves, int) or moves < 0 or moves > MAX_MOVES):
        raise ValueError("moves must be 0..%d" % MAX_MOVES)
    for s in (_LEFT, _RIGHT):
        if c.counts_up(s):
            raise Refused("late installation needs a time limit, not a count-up", "late_countup")
    for s in (_LEFT, _RIGHT):
        made = c.moves[s] if moves is None else moves
        if c.tc[s].kind == tcm.STAGES:
            given, stage = _control_for(c.tc[s], made, max_stage(c, s))
        else:  # an hourglass: its one time
            given, stage = c.tc[s].first_ms(), None
        floor = given if given < LATE_INSTALL_FLOOR_MS else LATE_INSTALL_FLOOR_MS
        ms = given - elapsed_ms // 2
        adjust(c, s, now, ms=ms if ms > floor else floor, moves=made, stage=stage, reason=REASON_LATE_INSTALL)
    return True


def _control_for(tc, made, top):
    """(ms the control gives a side for its first `made` moves, the stage those moves reach)."""
    stage = 1
    given = tc.stage(1).time_ms
    while stage < top and tc.has_next(stage) and tc.stage(stage).moves and made >= tc.moves_before(stage + 1):
        stage += 1
        given += tc.stage(stage).time_ms
    for n in range(1, stage + 1):  # a Fischer increment for each move made in a stage that has one
        st = tc.stage(n)
        if st.mode == tcm.FISCHER:
            last = tc.moves_before(n + 1) if n < stage else made
            given += st.bonus_ms * (min(made, last) - tc.moves_before(n))
    return (given if given < MAX_MS else MAX_MS), stage


def adjourn(c, now):
    """TK-A1..A3: stop the clock keeping both times, move counts and the side to move (each side's time used for
    the envelope: used_ms)."""
    if not c.advance(now) or (c.state != _RUNNING and c.state != _PAUSED):
        return False
    if c.state == _RUNNING:
        c.commit(c.t)
        c.to_move = c.running
        c.running = _NONE
    c.state = _ADJOURNED
    c.emit(_EV_ADJOURN, c.t, _NONE, 0)
    return True


def resume_adjourned(c, now, *times):
    """TK-A4: put the adjourned times back and start the side to move. `times`, if given: left_ms, right_ms,
    left_used_ms, right_used_ms (None: not given), the envelope's (TK-A3; engine/envelope.py checks them and
    turns a time used into a face), each put on the face as a correction (an adjust event) before the
    resumption; none given: the times the clock kept. ValueError (nothing changed) for a side given both,
    or more used than its control gives."""
    if not c.advance(now) or c.state != _ADJOURNED or c.t >= _MAX_GAME_MS:
        return False  # adjourned by the game's bound: its time is used up (MAX_GAME_MS)
    if times:
        from sagatfw.engine import envelope  # loaded for the envelope's times only (RAM)

        faces = envelope.faces(c, *times)
        for s in (_LEFT, _RIGHT):
            if faces[s] is not None and faces[s] != c.rem[s]:
                adjust(c, s, now, ms=faces[s])
    if c.t >= c.settings.default_ms:
        c.default_done = True  # TK-C6 is about the round's start: its time passed during the adjournment
    c.restart(_EV_RESUME_ADJOURNED)
    return True


def result(c, code, now, *k):
    """Enter the result (index into RESULT_NAMES); the game is over and the clock stops. `k`: left's and
    right's final kazan counts, kept in the result's event (none, or -1: not given; kazans.check checks a new
    result's). (No defaults: a function's defaults are a tuple in RAM.)"""
    lk, rk = k if k else (-1, -1)
    if not isinstance(code, int) or code < 0 or code >= len(RESULT_NAMES):
        raise ValueError("result must be one of %s" % ", ".join(RESULT_NAMES))
    if (lk != -1 or rk != -1) and not (0 <= lk <= 162 and 0 <= rk <= 162 and lk + rk <= 162):  # TK-R1
        raise ValueError("kazans must be two counts 0..162 (left's, right's)")
    if not c.advance(now):
        return False
    if c.state == _SETUP:
        # A result before the start (a forfeit, TK-R4): the game never started, so it is at
        # t = 0, and the time base starts at this instant - not at ticks 0 of the boot, which
        # would make t the board's uptime and misdate the wall time the journal derives from
        # it (the protest window of TK-P1 runs from the result).
        c.t = 0
        c.last = now
    elif c.state == _RUNNING:
        c.commit(c.t)
        c.to_move = c.running
        c.running = _NONE
    c.state = _FINISHED
    c.default_done = True
    e = c.emit(_EV_RESULT, c.t, _NONE, code)
    if lk != -1:  # the kazans: a flag, then left's and right's count (records.pack_event)
        ev = c.events
        ev[e + _F_BEFORE_STAGE] = 1
        ev[e + _F_BEFORE_MOVES] = lk
        ev[e + _F_AFTER_MOVES] = rk
    return True


def power_restore(c, now):
    """After a reboot restored this game's state: the clock is paused (a running side stops
    at its last durable time) and `t` goes on from there; ticks restart at `now`. The
    arbiter decides about the gap (TK-C18)."""
    if c.state == _RUNNING:
        c.commit(c.t)
        c.to_move = c.running
        c.running = _NONE
        c.state = _PAUSED
    c.last = now
    c.emit(_EV_POWER_RESTORE, c.t, _NONE, 0)
