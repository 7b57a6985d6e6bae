# sagat: TimeControl strings <-> stages, increments, delays, byo-yomi, presets.
#
# Pure module: runs unchanged under CPython (the host imports it) and MicroPython.
# Contract 1 of docs/design.md (docs/timecontrol.md). The grammar (times in whole seconds, as in PGN's TimeControl tag):
#
#   control   := "-"                      no limit: both faces count up
#              | "*" SECONDS              hourglass: time one side uses is added to the other
#              | stage (":" stage)*       one or more stages
#   stage     := [MOVES "/"] SECONDS [bonus] [byoyomi]
#   bonus     := "+" SECONDS              Fischer increment per completed move
#              | "d" SECONDS              simple (US) delay at the start of each turn
#              | "b" SECONDS              Bronstein: give back the time used, at most SECONDS
#   byoyomi   := "j" SECONDS "x" COUNT    Japanese byo-yomi: COUNT periods of SECONDS (extension)
#              | "c" MOVES "/" SECONDS    Canadian byo-yomi: MOVES moves in SECONDS, repeated
#                                         (extension)
#
# Every stage but the last needs a move count (the stage ends when it is completed, TK-C16).
# A final stage with a move count repeats: each further MOVES moves add SECONDS.
# Byo-yomi may only end the final stage, which then has no move count and no bonus.
# A handicap (a control per side) is written "LEFT|RIGHT", e.g. "300+2|180+2".

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# How a stage credits time at a move (Stage.mode).
SUDDEN = const(0)
FISCHER = const(1)
DELAY = const(2)
BRONSTEIN = const(3)

# What kind of control it is (TimeControl.kind).
STAGES = const(0)
HOURGLASS = const(1)
COUNTUP = const(2)

# Byo-yomi after the final stage (TimeControl.byo).
BYO_NONE = const(0)
BYO_JAPANESE = const(1)
BYO_CANADIAN = const(2)

MAX_SECONDS = const(86400)  # one value: 24 h (8 stages of it stay below clock.MAX_FACE_MS, 240 h)
MAX_BONUS = const(3600)
MAX_MOVES = const(999)
MAX_STAGES = const(8)
MAX_PERIODS = const(99)

_BONUS_CHARS = const("+db")  # the bonus marks; core/tcparse.py keeps its twin (a const: no global here)


class Stage:
    """One stage: `moves` moves (0: the rest of the game) in `time_ms`, with a bonus."""

    def __init__(self, moves, time_ms, mode=SUDDEN, bonus_ms=0):
        self.moves = moves
        self.time_ms = time_ms
        self.mode = mode
        self.bonus_ms = bonus_ms

    def __eq__(self, other):
        return (
            isinstance(other, Stage)
            and self.moves == other.moves
            and self.time_ms == other.time_ms
            and self.mode == other.mode
            and self.bonus_ms == other.bonus_ms
        )

    def __repr__(self):
        return "Stage(%d, %d, %d, %d)" % (self.moves, self.time_ms, self.mode, self.bonus_ms)


class TimeControl:
    """A parsed control for one side. Build it with `tcparse.parse`; `str()` gives the canonical string."""

    def __init__(self, kind, stages=(), byo=BYO_NONE, byo_ms=0, byo_count=0):
        self.kind = kind
        self.stages = list(stages)
        self.byo = byo
        self.byo_ms = byo_ms  # Japanese: one period; Canadian: one block
        self.byo_count = byo_count  # Japanese: number of periods; Canadian: moves per block

    # --- questions the clock asks (no allocation) ---

    def stage(self, n):
        """Stage number n (counted from 1); past the list, the final stage (it repeats)."""
        stages = self.stages
        if n > len(stages):
            return stages[len(stages) - 1]
        return stages[n - 1]

    def is_final(self, n):
        """True if running out of stage n's time is a flag, not the start of another stage."""
        stages = self.stages
        return n >= len(stages)

    def repeats(self):
        """True if the final stage has a move count and repeats."""
        stages = self.stages
        return len(stages) > 0 and stages[len(stages) - 1].moves > 0

    def has_next(self, n):
        """True if completing stage n's move count adds another stage's time."""
        return n < len(self.stages) or self.repeats()

    def moves_before(self, n):
        """Moves a side must complete to reach stage n."""
        total = 0
        last = len(self.stages)
        for i in range(1, n):
            total += self.stages[(i if i < last else last) - 1].moves
        return total

    def first_ms(self):
        """Time on the face at the start: the first stage's time (or the hourglass time)."""
        if self.kind == COUNTUP:
            return 0
        return self.stages[0].time_ms

    def freeze_default(self):
        """Contract 2: freeze is on by default for controls with an increment or delay."""
        for s in self.stages:
            if s.mode != SUDDEN:
                return True
        return False

    # --- text ---

    def __str__(self):
        return format(self)

    def __repr__(self):
        return "TimeControl(%r)" % format(self)

    def __eq__(self, other):
        return (
            isinstance(other, TimeControl)
            and self.kind == other.kind
            and self.stages == other.stages
            and self.byo == other.byo
            and self.byo_ms == other.byo_ms
            and self.byo_count == other.byo_count
        )


def _seconds(ms):
    return str(ms // 1000)


def format(tc):
    """The canonical string of a TimeControl: tcparse.parse(format(tc)) == tc."""
    if tc.kind == COUNTUP:
        return "-"
    if tc.kind == HOURGLASS:
        return "*" + _seconds(tc.stages[0].time_ms)
    parts = []
    for s in tc.stages:
        text = ""
        if s.moves:
            text = str(s.moves) + "/"
        text += _seconds(s.time_ms)
        if s.mode != SUDDEN:
            text += _BONUS_CHARS[s.mode - 1] + _seconds(s.bonus_ms)
        parts.append(text)
    text = ":".join(parts)
    if tc.byo == BYO_JAPANESE:
        text += "j" + _seconds(tc.byo_ms) + "x" + str(tc.byo_count)
    elif tc.byo == BYO_CANADIAN:
        text += "c" + str(tc.byo_count) + "/" + _seconds(tc.byo_ms)
    return text


def format_sides(left, right):
    """The canonical string for a pair of controls: "TC" if equal, else "LEFT|RIGHT"."""
    if left == right:
        return format(left)
    return format(left) + "|" + format(right)
