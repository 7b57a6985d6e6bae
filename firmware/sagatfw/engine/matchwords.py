# sagat: the words of a match: sides, states, the events' types and fields, how a period
# started, cards, why a match ended, and their names. The engine (matchbase.py: Match, the API at
# its top), the games on it (kokboru.py, KB-*; kilithattu.py, KT-*), the app, the faces, the link,
# the log's codec and the host all speak them: `from sagatfw.engine import matchwords as M` (one name:
# each imported name is a global, and costs RAM). docs/match.md is the reference.
#
# Constants and one check only: no state, nothing allocated after the import. Loaded with a match
# and forgotten after it, as the engine is (app/main.py, app/matchmode.py).
#
# Events: EV_SIZE ints each, EVENT_NAMES order is part of the log format (append, never reorder).
# Every event has: type, t (exact instant), period, pms (the period's match time elapsed, ms),
# stopped (the period's stopped time so far, ms), left, right (scores), side (or NONE), and:
#   type            side            arg (small, fits i16)         val (u32)
#   period_start    entering/NONE   how: BY_REFEREE, BY_CLOCK     the period's length (0: counts up)
#   period_end      NONE            0                             0
#   break_start     NONE            0                             the break's length
#   break_end       NONE            1 if cut short by start       the break's length as taken
#   score           scorer          points                        entry number (1, 2, ... per match)
#   undo            undone side     undone value: +points, -card  the undone entry's number
#   card            carded          kind: CARD_WARNING, CARD_RED  entry number
#   stoppage_start  NONE            stoppage number in the period its length so far: 0; after an undo
#                                                                 that withdrew a result, since the result
#   stoppage_end    NONE            stoppage number               its length (stopped: the new total)
#   lot             drawn side      which lot: 1 (extra order), 2 (further tie)  0: the clock's draw;
#                                                                 1: the toss's winner, entered
#   result          winner/NONE     why: WHY_NAMES                0
#   power_restore   NONE            the stoppage it opened, or 0  1 if it ended a break (its length
#                                                                 unknown: the next period waits)
#   late_score      scorer          points                        entry number
#   late_card       carded          kind                          entry number
#     (a score or card entered after the period ended by time, for that period: t is the entry's
#     instant, period the ended one, pms its length, stopped its stopped total)
#   restart         NONE            0                             the match time it threw away (KB-3)
#   adjust          NONE            0                             the period's face as set: left in a
#                                                                 timed period, elapsed counting up
# A 64-byte record fits them: t, pms and stopped as u32, the scores as u16, side i8, arg i16,
# val u32 (e.g. left_ms = pms, right_ms = val, moves = scores, running = period, payload = stopped).

from sagatfw import Refused  # noqa: F401 - the games raise it as B.Refused, the tests import it from here

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


LEFT = const(0)
RIGHT = const(1)
NONE = const(-1)
SIDE_NAMES = ("left", "right")

# States.
SETUP = const(0)  # set up, the first period not started
READY = const(1)  # a period waits for the referee's start
RUNNING = const(2)  # a period's match time runs
STOPPED = const(3)  # a stoppage: match time stopped (KB-16, KT-4.5)
BREAK = const(4)  # a break between periods runs by itself (KB-6, KT-4.4)
LOT = const(5)  # a lot is due (KT-4.6): draw_lot
OVER = const(6)  # time is over and the referee enters the result (kilithattu method "referee")
FINISHED = const(7)  # result
STATE_NAMES = ("setup", "ready", "running", "stopped", "break", "lot", "over", "finished")

# Event types (the order is part of the log format: append, never reorder).
EV_PERIOD_START = const(0)
EV_PERIOD_END = const(1)
EV_BREAK_START = const(2)
EV_BREAK_END = const(3)
EV_SCORE = const(4)
EV_UNDO = const(5)
EV_CARD = const(6)
EV_STOPPAGE_START = const(7)
EV_STOPPAGE_END = const(8)
EV_LOT = const(9)
EV_RESULT = const(10)
EV_POWER_RESTORE = const(11)
# 12 late_score, 13 late_card, 14 restart, 15 adjust: a private const where used (matchbase.py,
# kokboru.py, app/setup.py; log/matchrecords.py by name), as globals here they would cost RAM: this
# module's globals table, loaded with every match, grew a size with them
EVENT_NAMES = (
    "period_start",
    "period_end",
    "break_start",
    "break_end",
    "score",
    "undo",
    "card",
    "stoppage_start",
    "stoppage_end",
    "lot",
    "result",
    "power_restore",
    "late_score",
    "late_card",
    "restart",
    "adjust",
)

# Fields of one queued event (each an int).
F_TYPE = const(0)
F_T = const(1)
F_PERIOD = const(2)
F_PMS = const(3)
F_STOPPED = const(4)
F_LEFT = const(5)
F_RIGHT = const(6)
F_SIDE = const(7)
F_ARG = const(8)
F_VAL = const(9)
EV_SIZE = const(10)
EV_CAPACITY = const(16)  # the engine's queue (one call emits at most 8 events): drain it after each call

# How a period started (arg of period_start).
BY_REFEREE = const(0)
BY_CLOCK = const(1)  # the break before it ended by itself (kilithattu)
HOW_NAMES = ("referee", "clock")

# Cards (arg of card; undo's arg is -kind).
CARD_WARNING = const(1)
CARD_RED = const(2)
CARD_NAMES = ("", "warning", "red")

# Why a match ended (arg of result).
WHY_POINTS = const(0)  # more points at the end of time
WHY_LEAD = const(1)  # KB-14
WHY_GOLDEN = const(2)  # KB-17
WHY_REMOVAL = const(3)  # KB-11, KB-12
WHY_LOT = const(4)  # KT-4.6, method "lot"
WHY_DRAW = const(5)  # KT-4.6, method "draw"
WHY_REFEREE = const(6)  # the referee's entry
WHY_SUDDEN = const(7)  # KT-4.6, method "sudden"
WHY_NAMES = ("points", "lead", "golden_score", "removal", "lot", "draw", "referee", "sudden")


# Refused (sagatfw.Refused): an operation the state does not allow; args[0] is the reason, short
# enough for a face, then its reason code (and parts). A bad value (a side, points, a card, an option) is a
# plain ValueError.


def check_side(side):
    if side != LEFT and side != RIGHT:
        raise ValueError("side must be left or right")

