# sagat: the on-clock menu's value editors: the levels of menu.py where PLUS/MINUS change a value
# or a choice and START applies it (an action of actions.py's table) or goes on to the next one.
#
#   FIRST     left/right: the side that moves first in a new game (a preset's control or the
#             custom one); START sets the game up (actions.py's `new`) and closes the menu.
#   CUSTOM    the TimeControl builder: MIN L 1..600, BONUS L none/+/d/b, SEC L 0..60 (with a bonus),
#             SAME R? yes/no (no: the same three for the right side), then FIRST; builds "300+2" or
#             "300+2|180+2", checked with tcparse.parse_sides (a bad one, e.g. "+0", shows NO and
#             stays). It starts from the current control where that is a simple one.
#   SETTINGS  one setting's values (SETTINGS below): FREEZE auto/on/off, TENTHS off/10/20/30/60 s,
#             DEFAULT off/15/30/60 min (TK-C6), LOW off/1/2/5/10 min (TK-C17), SOUND on/off, BRIGHT
#             0..7; START applies the value shown (settings.set: between games only, NO otherwise).
#   TIME L/R  the time editor: H (0..99), MM, SS field by field (START: next field, after SS apply;
#             MENU: back one field).
#   MOVES L/R 0..999; STAGE L/R 1..the last stage clock.adjust accepts; LATE minutes already played
#             (TK-C11). A value confirmed unchanged is not applied (nothing logged); after TIME,
#             MOVES or STAGE the arbiter's list moves on to the next item (the DGT order).
#   RESULT    1-0, 0-1, 1/2, +/-, -/+, -/- (TK-R2, TK-R4); START enters a forfeit and closes the menu. A game
#             played goes on to KAZAN L: "--" (no counts) or 0..162, then KAZAN R 0..162 (it starts at the
#             board's rest, 162 less left's); START enters the result with them (TK-R1, TK-R5, TK-R7: NO and
#             why, back on the list, for counts that make no sense, engine/kazans.py).
#   MATCH     KOK-BORU, then LEAD 0..99 (OFF: no lead ends the bout; KB-14); or KILITHAT, then FIRST
#             left/right (the team entering first, KT-4.4), CHANGE 1..60 s (the changeover, KT-4.4)
#             and TIE sudden/lot/draw/referee (KT-4.6); START on the last sets the match up (the
#             referee's START then starts it).
#
# Functions of the menu (menu.Menu, `mn`), not a class of their own: menu.py opens an editor with
# first(), custom(), match(), setting(), edit_time/moves/stage/late() or result(), and hands the
# editors' levels its buttons and its view through count(), change(), start(), back() and render().
# The seam is the Menu's public interface, and nothing else of it: the state an editor edits
# (mode, i, side, stack, hms, f, orig, value, hi, cust, same, tc, mo, app) and the means of moving
# and answering: mn.enter (a level down), mn.back (one up), mn.act (an action of actions.py's
# table), mn.say and mn.say_no (a message: OK, or NO and why), mn.show (the faces' texts),
# mn.arbiter_label, mn.choices, mn.close. What is named with a leading _ in menu.py is its own
# (tests/test_firmware_interfaces.py holds this). menu.py imports this module, never the other way
# round; the app forgets both when the menu closes (app/main.py, app/matchmode.py).

from sagatfw import T
from sagatfw.core import timecontrol as tcm
from sagatfw.engine import clock as C

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# The editors' levels (modes): one numbering with menu.py's levels (no two alike).
M_FIRST = const(3)
M_CMIN = const(4)
M_CBONUS = const(5)
M_CSEC = const(6)
M_CSAME = const(7)
M_SETVAL = const(9)
M_TIME = const(11)
M_MOVES = const(12)
M_STAGE = const(13)
M_LATE = const(15)
M_RESULT = const(16)
M_MODE = const(17)
M_LEAD = const(18)
M_MFIRST = const(19)
M_CHANGE = const(20)
M_METHOD = const(21)
M_KAZAN = const(22)  # the final kazans of a result (mn.side: whose; mn.orig: left's once given)

# A match (docs/match.md): the mode, then its options (actions.py's `new` with a mode).
MODES = (("KOK-BORU", "KOKB", "kokboru"), ("KILITHAT", "KILI", "kilithattu"))
METHODS = (("SUDDEN", "SUDN", "sudden"), ("LOT", "LOT", "lot"), ("DRAW", "DRAW", "draw"),
           ("REFEREE", "REF", "referee"))  # kilithattu's further tie (KT-4.6): engine/kilithattu.py METHOD_NAMES
METHOD_NAMES = ("the next pazham wins", "drawn by lot on the clock", "a draw", "the referee decides")
MAX_LEAD = const(99)
MAX_CHANGE_S = const(60)  # KT-4.4: the changeover is at most 1:00

# Settings: (label, label4, key, values, texts); a text's first word is its 4-cell form.
SETTINGS = (
    ("FREEZE", "FRZ", "freeze", (None, True, False), ("AUTO", "ON", "OFF")),
    ("TENTHS", "TNTH", "tenths_below_ms", (0, 10000, 20000, 30000, 60000), ("OFF", "10 S", "20 S", "30 S", "60 S")),
    ("DEFAULT", "DEF", "default_ms", (0, 900000, 1800000, 3600000), ("OFF", "15 MIN", "30 MIN", "60 MIN")),
    ("LOW", "LOW", "low_time_ms", (0, 60000, 120000, 300000, 600000), ("OFF", "1 MIN", "2 MIN", "5 MIN", "10 MIN")),
    ("SOUND", "SND", "sound", (True, False), ("ON", "OFF")),
    ("BRIGHT", "BRI", "brightness", (0, 1, 2, 3, 4, 5, 6, 7), ("0", "1", "2", "3", "4", "5", "6", "7")),
    ("LANGUAGE", "LANG", "lang", ("en", "kk", "ru", "ky"), ("English", "Қазақша", "Русский", "Кыргызча")),
)

RESULTS = ("1-0", "0-1", "1/2", "+/-", "-/+", "-/-")  # as shown (-/-: both absent, TK-R4)
BONUS = ("NONE", "+", "D", "B")  # custom bonus: none, Fischer, simple delay, Bronstein
BONUS_CHARS = " +db"
BONUS_NAMES = (None, "Fischer increment", "simple delay", "Bronstein delay")
NO_YES = ("NO", "YES")
SIDES = ("LEFT", "RIGHT")
SIDES4 = ("LEFT", "RGHT")

MAX_H = const(99)  # the time editor's hours: 0..99 (clock.MAX_MS is 100 h)
MAX_MOVES = const(999)
MAX_MIN = const(600)  # custom minutes and late-installation minutes
MAX_SEC = const(60)  # custom bonus seconds


def _wrap(v, d, lo, hi):
    """v + d wrapped round into lo..hi."""
    return lo + (v - lo + d) % (hi - lo + 1)


def _short(text):
    """A value's 4-cell form: its first word ("15 MIN" -> "15")."""
    i = text.find(" ")
    return text if i < 0 else text[:i]


# ------------------------------------------------------------------ opening an editor


def first(mn, tc):
    """FIRST for a new game with the control `tc` (a preset's or the custom one's text)."""
    mn.tc = tc
    mn.enter(M_FIRST, 0 if mn.app.store.values["first"] == "left" else 1)


def custom(mn):
    """The custom control's first value, in place of the level the menu is on (ABORT?)."""
    _init_custom(mn)
    mn.mode = M_CMIN
    mn.i = 0
    mn.side = C.LEFT


def match(mn):
    """A match's mode, in place of the level the menu is on (ABORT?)."""
    mn.mode = M_MODE
    mn.i = mn.mo[0]


def setting(mn):
    """The values of the setting chosen in the SETTINGS list, on the current one."""
    mn.enter(M_SETVAL, _setting_index(mn, SETTINGS[mn.i]))


def edit_time(mn, side):
    """TIME L/R: the side's time, rounded up to whole seconds (down for a count-up) as the faces show it."""
    c = mn.app.clock
    ms = c.ms(side)
    tc = c.tc[side]
    s = ms // 1000 if tc is not None and tc.kind == tcm.COUNTUP else (ms + 999) // 1000
    if s > MAX_H * 3600 + 3599:
        s = MAX_H * 3600 + 3599
    mn.orig = s
    mn.hms[0] = s // 3600
    mn.hms[1] = (s // 60) % 60
    mn.hms[2] = s % 60
    mn.f = 0
    mn.enter(M_TIME)


def edit_moves(mn, side):
    mn.orig = mn.value = mn.app.clock.moves[side]
    if mn.value > MAX_MOVES:
        mn.value = MAX_MOVES
    mn.enter(M_MOVES)


def edit_stage(mn, side):
    c = mn.app.clock
    mn.hi = 1 if c.tc[side] is None else c.max_stage(side)  # the stages clock.adjust accepts
    mn.orig = mn.value = c.stage[side]
    if mn.value > mn.hi:
        mn.value = mn.hi
    mn.enter(M_STAGE)


def edit_late(mn):
    mn.value = 0
    mn.enter(M_LATE)


def result(mn):
    mn.enter(M_RESULT)


# ------------------------------------------------------------ buttons in an editor


def count(mn):
    """The choices of an editor that is a list; 0 for one that steps a value."""
    m = mn.mode
    if m == M_SETVAL:
        return len(SETTINGS[mn.stack[-1][1]][3])
    if m == M_MODE or m == M_MFIRST:
        return 2
    if m == M_METHOD:
        return len(METHODS)
    if m == M_RESULT:
        return len(RESULTS)
    if m == M_CBONUS:
        return len(BONUS)
    if m == M_FIRST or m == M_CSAME:
        return 2
    return 0


def change(mn, d):
    """PLUS/MINUS after the menu moved a list's choice (mn.i): a value steps by d, wrapping round."""
    m = mn.mode
    if m == M_CBONUS:
        mn.cust[mn.side][1] = mn.i
    elif m == M_TIME:
        f = mn.f
        mn.hms[f] = _wrap(mn.hms[f], d, 0, MAX_H if f == 0 else 59)
    elif m == M_MOVES:
        mn.value = _wrap(mn.value, d, 0, MAX_MOVES)
    elif m == M_STAGE:
        mn.value = _wrap(mn.value, d, 1, mn.hi)
    elif m == M_LATE:
        mn.value = _wrap(mn.value, d, 0, MAX_MIN)
    elif m == M_KAZAN:  # left's from -1 ("--": none), right's from 0
        mn.value = _wrap(mn.value, d, -1 if mn.side == C.LEFT else 0, 162)
    elif m == M_LEAD:
        mn.value = _wrap(mn.value, d, 0, MAX_LEAD)
    elif m == M_CHANGE:
        mn.value = _wrap(mn.value, d, 1, MAX_CHANGE_S)
    elif m == M_CMIN:
        c = mn.cust[mn.side]
        c[0] = _wrap(c[0], d, 1, MAX_MIN)
    elif m == M_CSEC:
        c = mn.cust[mn.side]
        c[2] = _wrap(c[2], d, 0, MAX_SEC)


def back(mn):
    """MENU in the time editor: back one field (True); anywhere else the menu goes back a level."""
    if mn.mode == M_TIME and mn.f > 0:
        mn.f -= 1
        return True
    return False


def start(mn, ticks):
    """START in an editor: on to the next value, or apply."""
    m = mn.mode
    if m == M_FIRST:
        try:
            mn.act("new", ticks, tc=mn.tc, first="left" if mn.i == 0 else "right")
        except ValueError as e:
            mn.say_no("NEW GAME", "NEW", ticks, e.args[0])
            return
        mn.close()
    elif m == M_CMIN:
        mn.enter(M_CBONUS, mn.cust[mn.side][1])
    elif m == M_CBONUS:
        if mn.i:
            mn.enter(M_CSEC)
        else:
            _side_done(mn, ticks)
    elif m == M_CSEC:
        _side_done(mn, ticks)
    elif m == M_CSAME:
        mn.same = mn.i == 1
        if mn.same:
            _custom_done(mn, ticks)
        else:
            mn.enter(M_CMIN)
            mn.side = C.RIGHT
    elif m == M_SETVAL:
        _apply_setting(mn, ticks)
    elif m == M_TIME:
        if mn.f < 2:
            mn.f += 1
            return
        h, mm, s = mn.hms
        total = (h * 60 + mm) * 60 + s
        _adjust(mn, ticks, total != mn.orig, total * 1000, None, None)
    elif m == M_MOVES:
        _adjust(mn, ticks, mn.value != mn.orig, None, mn.value, None)
    elif m == M_STAGE:
        _adjust(mn, ticks, mn.value != mn.orig, None, None, mn.value)
    elif m == M_LATE:
        try:
            mn.act("late_install", ticks, elapsed_ms=mn.value * 60000)  # TK-C11
        except ValueError as e:
            mn.back()
            mn.say_no("LATE", "LATE", ticks, e.args[0])
            return
        mn.back()
        mn.say("OK", "LATE", ticks)
    elif m == M_RESULT:
        if mn.i <= 2:  # a game played: its kazans first (TK-R7)
            mn.enter(M_KAZAN, mn.i)
            mn.side = C.LEFT
            mn.value = -1
            return
        _result(mn, ticks, mn.i, -1, -1)  # a forfeit (TK-R4)
    elif m == M_KAZAN:
        if mn.side == C.LEFT and mn.value >= 0:
            mn.orig = mn.value
            mn.side = C.RIGHT
            mn.value = 162 - mn.value  # the board's rest (a board played out)
            return
        _result(mn, ticks, mn.stack[-1][1], mn.orig if mn.value >= 0 else -1, mn.value)
    elif m == M_MODE:
        mn.mo[0] = mn.i
        if mn.i == 0:
            mn.value = mn.mo[1]
            mn.enter(M_LEAD)
        else:
            mn.enter(M_MFIRST, mn.mo[2])
    elif m == M_LEAD:
        mn.mo[1] = mn.value
        _new_match(mn, ticks)
    elif m == M_MFIRST:
        mn.mo[2] = mn.i
        mn.value = mn.mo[3]
        mn.enter(M_CHANGE)
    elif m == M_CHANGE:
        mn.mo[3] = mn.value
        mn.enter(M_METHOD, mn.mo[4])
    elif m == M_METHOD:
        mn.mo[4] = mn.i
        _new_match(mn, ticks)


def _new_match(mn, ticks):
    """Set up the match chosen (actions.py's `new` with a mode): the referee starts it."""
    mo = mn.mo
    try:
        if mo[0] == 0:
            mn.act("new", ticks, mode="kokboru", lead=mo[1])  # KB-14
        else:  # KT-4.4, KT-4.6
            mn.act("new", ticks, mode="kilithattu", first=C.SIDE_NAMES[mo[2]], changeover_ms=mo[3] * 1000,
                    method=METHODS[mo[4]][2])
    except ValueError as e:
        mn.say_no("MATCH", "MTCH", ticks, e.args[0])
        return
    mn.close()


# ------------------------------------------------------------------ custom control


def _init_custom(mn):
    """Start from the current control where it is a simple one (one stage, whole minutes)."""
    from sagatfw.core import tcparse  # the menu forgets the parser with itself

    try:
        sides = tcparse.parse_sides(mn.app.store.values["tc"])
    except ValueError:
        sides = (None, None)
    for s in (C.LEFT, C.RIGHT):
        tc = sides[s]
        c = mn.cust[s]
        if tc is None or tc.kind != tcm.STAGES or len(tc.stages) != 1 or tc.byo != tcm.BYO_NONE:
            continue
        st = tc.stages[0]
        if st.moves or st.time_ms % 60000 or not 1 <= st.time_ms // 60000 <= MAX_MIN:
            continue
        if st.bonus_ms % 1000 or st.bonus_ms > MAX_SEC * 1000:
            continue
        c[0] = st.time_ms // 60000
        c[1] = st.mode  # SUDDEN, FISCHER, DELAY, BRONSTEIN = the indexes of BONUS
        c[2] = st.bonus_ms // 1000 if st.mode != tcm.SUDDEN else 2
    mn.same = sides[0] == sides[1]


def _side_tc(mn, s):
    c = mn.cust[s]
    text = "%d" % (c[0] * 60)
    if c[1]:
        text += BONUS_CHARS[c[1]] + "%d" % c[2]
    return text


def _side_done(mn, ticks):
    if mn.side == C.LEFT:
        mn.enter(M_CSAME, 1 if mn.same else 0)
    else:
        _custom_done(mn, ticks)


def _custom_done(mn, ticks):
    tc = _side_tc(mn, C.LEFT)
    if not mn.same:
        right = _side_tc(mn, C.RIGHT)
        if right != tc:
            tc = tc + "|" + right
    from sagatfw.core import tcparse

    try:
        tcparse.parse_sides(tc)
    except ValueError as e:
        mn.say_no("BAD TC", "BAD", ticks, e.args[0])
        return
    first(mn, tc)


# -------------------------------------------------------------------- settings


def _setting_index(mn, spec):
    v = mn.app.store.values[spec[2]]
    values = spec[3]
    for k in range(len(values)):
        if values[k] is v or (values[k] == v and type(values[k]) is type(v)):
            return k
    return 0  # a value set from the host that the menu does not offer


def _apply_setting(mn, ticks):
    spec = SETTINGS[mn.stack[-1][1]]
    try:
        mn.act("settings.set", ticks, values={spec[2]: spec[3][mn.i]})
    except ValueError as e:
        mn.back()
        mn.say_no(spec[0], spec[1], ticks, e.args[0])
        return
    mn.back()
    mn.say("OK", spec[0], ticks, "OK", spec[1])


# --------------------------------------------------------------------- arbiter


def _result(mn, ticks, i, lk, rk):
    """Enter result RESULT_NAMES[i] with kazans lk-rk (-1: none) and close; NO and why (back on the list)."""
    try:
        if lk < 0:
            mn.act("result", ticks, result=C.RESULT_NAMES[i])  # TK-R2, TK-R4
        else:
            mn.act("result", ticks, result=C.RESULT_NAMES[i], left_kazan=lk, right_kazan=rk)  # TK-R7
    except ValueError as e:
        if mn.mode == M_KAZAN:
            mn.back()
        mn.say_no("RESULT", "RSLT", ticks, e.args[0])
        return
    mn.close()


def _adjust(mn, ticks, changed, ms, moves, stage):
    item = mn.stack[-1][1]
    label = mn.arbiter_label(item)
    mn.f = 0  # the TIME editor is done: back() leaves it, not its previous field
    if changed:
        try:
            mn.act("adjust", ticks, side=mn.side, ms=ms, moves=moves, stage=stage)
        except ValueError as e:
            mn.back()
            mn.say_no(label[0], label[1], ticks, e.args[0])
            return
        mn.say("OK", label[0], ticks, "OK", label[1])
    mn.back()
    mn.i = (item + 1) % mn.choices()  # back on the arbiter's list: on to the next correction (DGT: time, moves, period)


# --------------------------------------------------------------------- display


def render(mn):
    """The faces' texts of an editor (menu.py's show: what is edited on the left, the value on the right)."""
    m = mn.mode
    i = mn.i
    side = "LR"[mn.side]
    if m == M_FIRST:
        mn.show("FIRST", SIDES[i], "1ST", SIDES4[i], None, None, mn.tc)
    elif m == M_CMIN:
        v = "%d" % mn.cust[mn.side][0]
        mn.show("MIN " + side, v + " " + T("MIN"), "MI." + side, v)
    elif m == M_CBONUS:
        mn.show("BONUS " + side, BONUS[i], "BO." + side, BONUS[i], None, None, BONUS_NAMES[i])
    elif m == M_CSEC:
        v = "%d" % mn.cust[mn.side][2]
        mn.show("SEC " + side, v + " " + T("S"), "SE." + side, v)
    elif m == M_CSAME:
        mn.show("SAME R?", NO_YES[i], "SA.R", NO_YES[i])
    elif m == M_SETVAL:
        spec = SETTINGS[mn.stack[-1][1]]
        text = spec[4][i]
        mn.show(spec[0], text, spec[1], spec[3][i] if spec[2] == "lang" else _short(text))
    elif m == M_TIME:
        label = mn.arbiter_label(mn.stack[-1][1])
        h, mm, s = mn.hms
        hh = "%d" % h
        n = len(hh)
        text = "%s:%02d:%02d" % (hh, mm, s)
        field = ((0, n), (n + 1, n + 3), (n + 4, n + 6))[mn.f]
        if mn.f < 2:  # 4 digits: H:MM while editing hours or minutes, MM:SS for seconds
            mn.show(label[0], text, label[1], "%s:%02d" % (hh, mm), field, field)
        else:
            mn.show(label[0], text, label[1], "%02d:%02d" % (mm, s), field, (3, 5))
    elif m == M_MOVES or m == M_STAGE:
        label = mn.arbiter_label(mn.stack[-1][1])
        v = "%d" % mn.value
        mn.show(label[0], v, label[1], v, (0, len(v)), (0, len(v)))
    elif m == M_LATE:
        v = "%d" % mn.value
        mn.show("LATE", v + " " + T("MIN"), "LATE", v, (0, len(v)), (0, len(v)), "minutes played (TK-C11)")
    elif m == M_RESULT:
        mn.show("RESULT", RESULTS[i], "RSLT", RESULTS[i])
    elif m == M_KAZAN:
        v = "%d" % mn.value if mn.value >= 0 else "--"
        mn.show("KAZAN " + side, v, "KA." + side, v, (0, len(v)), (0, len(v)),
                "no kumalak counts" if mn.value < 0
                else ("kumalaks in left's kazan", "kumalaks in right's kazan")[mn.side])
    elif m == M_MODE:
        mn.show("MATCH", MODES[i][0], "MTCH", MODES[i][1], None, None,
                ("kok-boru one-on-one", "kilithattu")[i])
    elif m == M_LEAD:
        v = "%d" % mn.value if mn.value else "OFF"
        w = T(v)  # (the four digits keep OFF)
        mn.show("LEAD", w, "LEAD", v, (0, len(w)), (0, len(v)), "a lead of more than this wins (KB-14)")
    elif m == M_MFIRST:
        mn.show("FIRST", SIDES[i], "1ST", SIDES4[i], None, None, "the team entering first (KT-4.4)")
    elif m == M_CHANGE:
        v = "%d" % mn.value
        mn.show("CHANGE", v + " " + T("S"), "CHNG", v, (0, len(v)), (0, len(v)),
                "the changeover, at most 60 s (KT-4.4)")
    elif m == M_METHOD:
        mn.show("TIE", METHODS[i][0], "TIE", METHODS[i][1], None, None, METHOD_NAMES[i] + " (KT-4.6)")
