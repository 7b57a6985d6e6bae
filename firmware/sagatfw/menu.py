# sagat: the on-clock menu: set up a game, change settings and make the arbiter's corrections with
# the four control buttons, no PC needed.
#
# Pure state machine: it never reads the time (every call takes the button event's ticks) and never
# touches files; every action goes through actions.py's table (new, settings.set, adjust, extend,
# late_install, adjourn, resume_adjourned, result), so it is validated, refused and logged exactly
# as from the host or a script. `Menu(app)` attaches itself as `app.menu`; the app forwards each control-button
# event to `button(button, kind, ticks)`, which returns True if the menu consumed it.
#
# Buttons (kinds from buttons.py: SHORT, or LONG once held long_ms):
#   MENU short   menu closed and the clock stopped: open it. In the menu: back one level (the time
#                editor: back one field; at the top: close).
#   MENU long    leave the menu from anywhere (nothing pending is applied).
#   PLUS/MINUS   next / previous choice, or +1 / -1 on the value or field being edited; wraps round.
#                LONG: +10 / -10 (minutes, seconds, hours, moves; lists longer than 10 entries).
#   START        enter / confirm (short or long). While the menu is open START never starts or
#                resumes the clock; leave the menu first.
# While the clock RUNS the menu never opens (the app's START pauses it first), so no correction can
# touch a running game; in a match, neither while its time runs (a period, a break, a lot, time
# over): the referee's START stops it first (a stoppage). If the clock starts while the menu is
# open (the host, a resume from the menu itself) the menu closes: at the app's next step (App.step,
# MatchApp.step), or at the next button, which then goes to the app.
#
# Levels:
#   PRESET    built-in presets (presets.py), then the user presets (settings); then FIRST left/right;
#             START sets up the game (app.new_game) and closes the menu.
#   CUSTOM    MIN L 1..600, BONUS L none/+/d/b, SEC L 0..60 (with a bonus), SAME R? yes/no (no: the
#             same three for the right side), FIRST; builds "300+2" or "300+2|180+2", checked with
#             timecontrol.parse_sides (a bad one, e.g. "+0", shows NO and stays).
#             A new game (PRESET, CUSTOM) while one is in progress (paused, flagged, adjourned) needs
#             ABORT? YES first; in SETUP or after a result it goes straight on.
#   SETTINGS  FREEZE auto/on/off, TENTHS off/10/20/30/60 s, DEFAULT off/15/30/60 min (TK-C6), LOW
#             off/1/2/5/10 min (TK-C17), SOUND on/off, BRIGHT 0..7: START on a value applies it with
#             app.set_settings (the app allows this between games only: NO otherwise).
#   ARBITER   the clock is stopped (the menu opens nowhere else) and opens here when a game is in
#             progress. TIME L / TIME R: edit H (0..99), MM, SS field by field (START: next field,
#             after SS apply); MOVES L/R 0..999; STAGE L/R; EXTEND (TK-C14, once a flag is down);
#             LATE minutes already played (TK-C11, before the start); ADJOURN (TK-A1..A3), shown as
#             RESUME while adjourned (TK-A4); RESULT 1-0, 0-1, 1/2, +/-, -/+ (TK-R2, TK-R4).
#   MATCH     a field game's match (docs/match.md): KOK-BORU, then LEAD 0..99 (OFF: no lead ends
#             the bout; KB-14); or KILITHAT, then FIRST left/right (the team entering first, KT-4.4),
#             CHANGE 1..60 s (the changeover, KT-4.4) and TIE sudden/lot/draw/referee (KT-4.6).
#             START on the last sets the match up (the referee's START then starts it); the menu
#             opens here while a match is set up. A match or game in progress needs ABORT? YES.
#             A value confirmed unchanged is not applied (nothing logged). After TIME, MOVES or
#             STAGE the list moves on to the next item, so START walks the DGT order: time, moves,
#             stage, left then right.
# After an action: "OK" (or "NO" and the reason in `detail`, when the app refuses) for MSG_MS or
# until the next button, which then acts as usual. Nothing raises out of `button()`: a refusal is a
# ValueError or False from the app; anything else unexpected closes the menu and is counted in
# `errors` (and noted on the board).
#
# RAM: the module takes about 18 KB of heap on the unix port (menu.mpy; less on a 32-bit board). An app
# short of heap can load it on the first MENU press, `Menu(app, transient=True)`, forward that press,
# and drop the module again once `close()` has set app.menu back to None.
#
# Display: `view(now)` returns (left_text, right_text), at most 8 characters (OLED, sim; a preset's
# TimeControl label, "40/90+30:30+30", may be longer): the left
# face names what is being edited ("TIME L"), the right face shows the value ("1:23:45", "NO",
# "+5:00"); `field` = (start, stop) in right_text is the field being edited, to blink. `view4(now)`
# gives the same for a TM1637 (at most 4 cells, see faces.text4) with `field4`; `detail` is a
# longer line or None (a preset's name, why NO). faces.text4 and faces.menu_items draw them.

from sagatfw import buttons as B
from sagatfw import clock as C
from sagatfw import forget
from sagatfw import timecontrol as tcm
from sagatfw.ticks import ticks_add, ticks_diff

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


MSG_MS = const(1500)  # how long "OK" / "NO" stays up (or until the next button)
BIG = const(10)  # the LONG step

# Levels (modes).
M_TOP = const(0)
M_ABORT = const(1)
M_PRESET = const(2)
M_FIRST = const(3)
M_CMIN = const(4)
M_CBONUS = const(5)
M_CSEC = const(6)
M_CSAME = const(7)
M_SETTINGS = const(8)
M_SETVAL = const(9)
M_ARB = const(10)
M_TIME = const(11)
M_MOVES = const(12)
M_STAGE = const(13)
M_CONFIRM = const(14)
M_LATE = const(15)
M_RESULT = const(16)
M_MODE = const(17)
M_LEAD = const(18)
M_MFIRST = const(19)
M_CHANGE = const(20)
M_METHOD = const(21)

# Top level.
T_PRESET = const(0)
T_CUSTOM = const(1)
T_SETTINGS = const(2)
T_ARBITER = const(3)
T_MATCH = const(4)
TOP = (("PRESET", "PRES"), ("CUSTOM", "CUST"), ("SETTINGS", "SET"), ("ARBITER", "ARB"), ("MATCH", "MTCH"))

# A match (docs/match.md): the mode, then its options (actions.py's `new` with a mode).
MODES = (("KOK-BORU", "KOKB", "kokboru"), ("KILITHAT", "KILI", "kilithattu"))
METHODS = (("SUDDEN", "SUDN", "sudden"), ("LOT", "LOT", "lot"), ("DRAW", "DRAW", "draw"),
           ("REFEREE", "REF", "referee"))  # kilithattu's further tie (KT-4.6): modes.kilithattu.METHOD_NAMES
METHOD_NAMES = ("the next pazham wins", "drawn by lot on the clock", "a draw", "the referee decides")
MAX_LEAD = const(99)
MAX_CHANGE_S = const(60)  # KT-4.4: the changeover is at most 1:00

# Arbiter items (the side of the first six is index % 2).
A_TIME_L = const(0)
A_TIME_R = const(1)
A_MOVES_L = const(2)
A_MOVES_R = const(3)
A_STAGE_L = const(4)
A_STAGE_R = const(5)
A_EXTEND = const(6)
A_LATE = const(7)
A_ADJOURN = const(8)
A_RESULT = const(9)
ARB = (
    ("TIME L", "TI.L"),
    ("TIME R", "TI.R"),
    ("MOVES L", "MO.L"),
    ("MOVES R", "MO.R"),
    ("STAGE L", "ST.L"),
    ("STAGE R", "ST.R"),
    ("EXTEND", "EXT"),
    ("LATE", "LATE"),
    ("ADJOURN", "ADJ"),
    ("RESULT", "RSLT"),
)
RESUME = ("RESUME", "RES")  # the ADJOURN item while adjourned (TK-A4)

# Settings: (label, label4, key, values, texts); a text's first word is its 4-cell form.
SETTINGS = (
    ("FREEZE", "FRZ", "freeze", (None, True, False), ("AUTO", "ON", "OFF")),
    ("TENTHS", "TNTH", "tenths_below_ms", (0, 10000, 20000, 30000, 60000), ("OFF", "10 S", "20 S", "30 S", "60 S")),
    ("DEFAULT", "DEF", "default_ms", (0, 900000, 1800000, 3600000), ("OFF", "15 MIN", "30 MIN", "60 MIN")),
    ("LOW", "LOW", "low_time_ms", (0, 60000, 120000, 300000, 600000), ("OFF", "1 MIN", "2 MIN", "5 MIN", "10 MIN")),
    ("SOUND", "SND", "sound", (True, False), ("ON", "OFF")),
    ("BRIGHT", "BRI", "brightness", (0, 1, 2, 3, 4, 5, 6, 7), ("0", "1", "2", "3", "4", "5", "6", "7")),
)

RESULTS = ("1-0", "0-1", "1/2", "+/-", "-/+")  # as shown
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


def _mins(ms):
    """A stage time for a label: whole minutes "90", else "1:30"."""
    s = ms // 1000
    if s % 60:
        return "%d:%02d" % (s // 60, s % 60)
    return "%d" % (s // 60)


def side_label(tc):
    """A short label of one side's TimeControl: "7", "5+3", "5d5", "40/90:30", "10j30x5", "UP"."""
    if tc.kind == tcm.COUNTUP:
        return "UP"
    if tc.kind == tcm.HOURGLASS:
        return "HG" + _mins(tc.first_ms())
    out = []
    for st in tc.stages:
        s = "%d/" % st.moves if st.moves else ""
        s += _mins(st.time_ms)
        if st.mode != tcm.SUDDEN:
            s += BONUS_CHARS[st.mode] + "%d" % (st.bonus_ms // 1000)
        out.append(s)
    text = ":".join(out)
    if tc.byo == tcm.BYO_JAPANESE:
        text += "j%dx%d" % (tc.byo_ms // 1000, tc.byo_count)
    elif tc.byo == tcm.BYO_CANADIAN:
        text += "c%d/%s" % (tc.byo_count, _mins(tc.byo_ms))
    return text


def tc_label(text):
    """A short label of a TimeControl string ("LEFT|RIGHT" for a handicap); "?" if it is bad."""
    try:
        left, right = tcm.parse_sides(text)
    except ValueError:
        return "?"
    if left == right:
        return side_label(left)
    return side_label(left) + "|" + side_label(right)


def _short(text):
    """A value's 4-cell form: its first word ("15 MIN" -> "15")."""
    i = text.find(" ")
    return text if i < 0 else text[:i]


class Menu:
    def __init__(self, app, transient=False):
        self.app = app
        app.menu = self
        self.transient = transient  # close() detaches it (app.menu = None), so the app can drop the module
        self.active = False
        self.mode = M_TOP
        self.i = 0  # the choice in a list
        self.side = C.LEFT
        self.stack = []  # (mode, i, side) of the levels above
        self.hms = [0, 0, 0]  # the time editor's fields
        self.f = 0  # the field being edited: 0 H, 1 MM, 2 SS
        self.orig = 0  # the value when editing began (seconds, moves, stage)
        self.value = 0  # moves, stage, late minutes
        self.hi = 1  # the value's upper bound (stage)
        self.cust = [[5, 0, 2], [5, 0, 2]]  # custom control per side: minutes, bonus (index of BONUS), seconds
        self.same = True
        self.target = M_PRESET  # where ABORT? YES goes
        self.tc = None  # the control chosen, for FIRST
        self.presets = None  # (name, tc) while choosing one
        self.mo = [0, 8, 0, MAX_CHANGE_S, 1]  # a match: mode, lead, first team, changeover s, method (lot)
        self.msg = None  # (left, right, left4, right4, detail) while a message is up
        self.msg_until = 0
        self.errors = 0  # unexpected exceptions caught in button()
        self.left = ""
        self.right = ""
        self.left4 = ""
        self.right4 = ""
        self.field = None
        self.field4 = None
        self.detail = None

    # ------------------------------------------------------------------ buttons

    def button(self, button, kind, ticks):
        """A control-button event (buttons.py). True if the menu consumed it. Never raises."""
        try:
            return self._button(button, kind, ticks)
        except Exception as e:  # noqa: BLE001 - the clock's loop must go on whatever the menu does
            self.errors += 1
            self.close()
            try:
                self.app.board.note("menu error: %r" % (e,))
            except Exception:  # noqa: BLE001
                pass
            return True

    def _button(self, button, kind, ticks):
        if kind != B.SHORT and kind != B.LONG:
            return False
        if button != B.START and button != B.MENU and button != B.PLUS and button != B.MINUS:
            return False
        running = self._running()
        if not self.active:
            if button == B.MENU and kind == B.SHORT and not running:
                self.open()
                return True
            return False
        if running:  # started from elsewhere (the host): the menu gives way
            self.close()
            return False
        self.msg = None
        if button == B.MENU:
            if kind == B.LONG:
                self.close()
                return True
            self._back()
        elif button == B.START:
            self._start(ticks)
        else:
            d = 1 if button == B.PLUS else -1
            self._change(d * BIG if kind == B.LONG else d)
        if self.active:
            self._render()
        return True

    def open(self):
        """Open at the top level: on MATCH while a match is set up, on ARBITER while a game is in
        progress, else on PRESET."""
        self.active = True
        self.stack = []
        self.mode = M_TOP
        if self.app.match is not None:
            self.i = T_MATCH
        else:
            self.i = T_ARBITER if self._in_progress() else T_PRESET
        self.msg = None
        self._render()

    def close(self):
        self.active = False
        self.stack = []
        self.presets = None
        self.msg = None
        self.mode = M_TOP
        if self.transient and self.app.menu is self:
            self.app.menu = None

    def _in_progress(self):
        """A game or a match has begun and has no result: a new one needs ABORT? YES."""
        ma = self.app.match
        if ma is not None:
            from sagatfw.modes import base as MB  # loaded with the match

            return MB.SETUP < ma.m.state < MB.FINISHED
        st = self.app.clock.state
        return st == C.PAUSED or st == C.FLAGGED or st == C.ADJOURNED

    def _running(self):
        """The game's clock runs, or the match's time (a period, a break, a lot, time over): the
        menu neither opens nor stays open then."""
        ma = self.app.match
        if ma is not None:
            from sagatfw.modes import base as MB

            st = ma.m.state
            return st == MB.RUNNING or st == MB.BREAK or st == MB.LOT or st == MB.OVER
        return self.app.clock.state == C.RUNNING

    def _push(self, mode, i=0):
        self.stack.append((self.mode, self.i, self.side))
        self.mode = mode
        self.i = i

    def _back(self):
        if self.mode == M_TIME and self.f > 0:
            self.f -= 1
            return
        if not self.stack:
            self.close()
            return
        self.mode, self.i, self.side = self.stack.pop()
        if self.mode == M_TOP:
            self.presets = None

    def _say(self, left, right, ticks, left4=None, right4=None, detail=None):
        self.msg = (left, right, left4 or left, right4 or right, detail)
        self.msg_until = ticks_add(ticks, MSG_MS)

    def _no(self, what, what4, ticks, reason=None):
        self._say("NO", what, ticks, "NO", what4, reason)

    # ------------------------------------------------------------ plus, minus

    def _count(self):
        m = self.mode
        if m == M_TOP:
            return len(TOP)
        if m == M_PRESET:
            return len(self.presets)
        if m == M_SETTINGS:
            return len(SETTINGS)
        if m == M_SETVAL:
            return len(SETTINGS[self.stack[-1][1]][3])
        if m == M_ARB:
            return len(ARB)
        if m == M_MODE or m == M_MFIRST:
            return 2
        if m == M_METHOD:
            return len(METHODS)
        if m == M_RESULT:
            return len(RESULTS)
        if m == M_CBONUS:
            return len(BONUS)
        if m == M_ABORT or m == M_FIRST or m == M_CSAME:
            return 2
        return 0

    def _change(self, d):
        m = self.mode
        n = self._count()
        if n:
            if n <= BIG and (d > 1 or d < -1):
                d = 1 if d > 0 else -1
            self.i = (self.i + d) % n
            if m == M_CBONUS:
                self.cust[self.side][1] = self.i
            return
        if m == M_TIME:
            f = self.f
            self.hms[f] = _wrap(self.hms[f], d, 0, MAX_H if f == 0 else 59)
        elif m == M_MOVES:
            self.value = _wrap(self.value, d, 0, MAX_MOVES)
        elif m == M_STAGE:
            self.value = _wrap(self.value, d, 1, self.hi)
        elif m == M_LATE:
            self.value = _wrap(self.value, d, 0, MAX_MIN)
        elif m == M_LEAD:
            self.value = _wrap(self.value, d, 0, MAX_LEAD)
        elif m == M_CHANGE:
            self.value = _wrap(self.value, d, 1, MAX_CHANGE_S)
        elif m == M_CMIN:
            c = self.cust[self.side]
            c[0] = _wrap(c[0], d, 1, MAX_MIN)
        elif m == M_CSEC:
            c = self.cust[self.side]
            c[2] = _wrap(c[2], d, 0, MAX_SEC)

    # ------------------------------------------------------------------ start

    def _start(self, ticks):
        m = self.mode
        if m == M_TOP:
            if self.i == T_SETTINGS:
                self._push(M_SETTINGS)
            elif self.i == T_ARBITER:
                self._push(M_ARB)
            else:
                self.target = (M_PRESET, M_CMIN, 0, 0, M_MODE)[self.i]
                self._push(M_ABORT)
                if not self._in_progress():
                    self._enter_game(self.target)  # nothing to abort: straight on
        elif m == M_ABORT:
            if self.i == 1:
                self._enter_game(self.target)  # in place of ABORT?: back goes to the top
            else:
                self._back()
        elif m == M_PRESET:
            self.tc = self.presets[self.i][1]
            self._push(M_FIRST, 0 if self.app.store.values["first"] == "left" else 1)
        elif m == M_FIRST:
            try:
                self._act("new", ticks, tc=self.tc, first="left" if self.i == 0 else "right")
            except ValueError as e:
                self._no("NEW GAME", "NEW", ticks, str(e))
                return
            self.close()
        elif m == M_CMIN:
            self._push(M_CBONUS, self.cust[self.side][1])
        elif m == M_CBONUS:
            if self.i:
                self._push(M_CSEC)
            else:
                self._side_done(ticks)
        elif m == M_CSEC:
            self._side_done(ticks)
        elif m == M_CSAME:
            self.same = self.i == 1
            if self.same:
                self._custom_done(ticks)
            else:
                self._push(M_CMIN)
                self.side = C.RIGHT
        elif m == M_SETTINGS:
            self._push(M_SETVAL, self._setting_index(SETTINGS[self.i]))
        elif m == M_SETVAL:
            self._apply_setting(ticks)
        elif m == M_ARB:
            self._arbiter(ticks)
        elif m == M_TIME:
            if self.f < 2:
                self.f += 1
                return
            h, mm, s = self.hms
            total = (h * 60 + mm) * 60 + s
            self._adjust(ticks, total != self.orig, total * 1000, None, None)
        elif m == M_MOVES:
            self._adjust(ticks, self.value != self.orig, None, self.value, None)
        elif m == M_STAGE:
            self._adjust(ticks, self.value != self.orig, None, None, self.value)
        elif m == M_CONFIRM:
            self._confirm(ticks)
        elif m == M_LATE:
            try:
                self._act("late_install", ticks, elapsed_ms=self.value * 60000)
            except ValueError as e:
                self._back()
                self._no("LATE", "LATE", ticks, str(e))
                return
            self._back()
            self._say("OK", "LATE", ticks)
        elif m == M_RESULT:
            try:
                self._act("result", ticks, result=C.RESULT_NAMES[self.i])
            except ValueError as e:
                self._no("RESULT", "RSLT", ticks, str(e))
                return
            self.close()
        elif m == M_MODE:
            self.mo[0] = self.i
            if self.i == 0:
                self.value = self.mo[1]
                self._push(M_LEAD)
            else:
                self._push(M_MFIRST, self.mo[2])
        elif m == M_LEAD:
            self.mo[1] = self.value
            self._new_match(ticks)
        elif m == M_MFIRST:
            self.mo[2] = self.i
            self.value = self.mo[3]
            self._push(M_CHANGE)
        elif m == M_CHANGE:
            self.mo[3] = self.value
            self._push(M_METHOD, self.mo[4])
        elif m == M_METHOD:
            self.mo[4] = self.i
            self._new_match(ticks)

    def _new_match(self, ticks):
        """Set up the match chosen (actions.py's `new` with a mode): the referee starts it."""
        mo = self.mo
        try:
            if mo[0] == 0:
                self._act("new", ticks, mode="kokboru", lead=mo[1])  # KB-14
            else:  # KT-4.4, KT-4.6
                self._act("new", ticks, mode="kilithattu", first=C.SIDE_NAMES[mo[2]], changeover_ms=mo[3] * 1000,
                          method=METHODS[mo[4]][2])
        except ValueError as e:
            self._no("MATCH", "MTCH", ticks, str(e))
            return
        self.close()

    # -------------------------------------------------------------- new game

    def _enter_game(self, target):
        """The level after the top: the preset list or the custom control's first value."""
        if target == M_MODE:
            self.mode = M_MODE
            self.i = self.mo[0]
            return
        if target == M_PRESET:
            from sagatfw.presets import PRESETS  # only while choosing: the loop does not keep them

            self.presets = [(p[0], p[1]) for p in PRESETS]
            for p in self.app.store.presets:
                self.presets.append((p["name"], p["tc"]))
            tc = self.app.store.values["tc"]
            self.i = 0
            for k in range(len(self.presets)):
                if self.presets[k][1] == tc:
                    self.i = k
                    break
            self.mode = M_PRESET
        else:
            self._init_custom()
            self.mode = M_CMIN
            self.i = 0
            self.side = C.LEFT

    def _init_custom(self):
        """Start from the current control where it is a simple one (one stage, whole minutes)."""
        try:
            sides = tcm.parse_sides(self.app.store.values["tc"])
        except ValueError:
            sides = (None, None)
        for s in (C.LEFT, C.RIGHT):
            tc = sides[s]
            c = self.cust[s]
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
        self.same = sides[0] == sides[1]

    def _side_tc(self, s):
        c = self.cust[s]
        text = "%d" % (c[0] * 60)
        if c[1]:
            text += BONUS_CHARS[c[1]] + "%d" % c[2]
        return text

    def _side_done(self, ticks):
        if self.side == C.LEFT:
            self._push(M_CSAME, 1 if self.same else 0)
        else:
            self._custom_done(ticks)

    def _custom_done(self, ticks):
        tc = self._side_tc(C.LEFT)
        if not self.same:
            right = self._side_tc(C.RIGHT)
            if right != tc:
                tc = tc + "|" + right
        try:
            tcm.parse_sides(tc)
        except ValueError as e:
            self._no("BAD TC", "BAD", ticks, str(e))
            return
        self.tc = tc
        self._push(M_FIRST, 0 if self.app.store.values["first"] == "left" else 1)

    # -------------------------------------------------------------- settings

    def _setting_index(self, spec):
        v = self.app.store.values[spec[2]]
        values = spec[3]
        for k in range(len(values)):
            if values[k] is v or (values[k] == v and type(values[k]) is type(v)):
                return k
        return 0  # a value set from the host that the menu does not offer

    def _apply_setting(self, ticks):
        spec = SETTINGS[self.stack[-1][1]]
        try:
            self._act("settings.set", ticks, values={spec[2]: spec[3][self.i]})
        except ValueError as e:
            self._back()
            self._no(spec[0], spec[1], ticks, str(e))
            return
        self._back()
        self._say("OK", spec[0], ticks, "OK", spec[1])

    # --------------------------------------------------------------- arbiter

    def _arbiter(self, ticks):
        item = self.i
        c = self.app.clock
        side = item % 2
        if item <= A_TIME_R:
            ms = c.ms(side)
            tc = c.tc[side]
            s = ms // 1000 if tc is not None and tc.kind == tcm.COUNTUP else (ms + 999) // 1000
            if s > MAX_H * 3600 + 3599:
                s = MAX_H * 3600 + 3599
            self.orig = s
            self.hms[0] = s // 3600
            self.hms[1] = (s // 60) % 60
            self.hms[2] = s % 60
            self.f = 0
            self._push(M_TIME)
        elif item <= A_MOVES_R:
            self.orig = self.value = c.moves[side]
            if self.value > MAX_MOVES:
                self.value = MAX_MOVES
            self._push(M_MOVES)
        elif item <= A_STAGE_R:
            self.hi = self._max_stage(c, side)
            self.orig = self.value = c.stage[side]
            if self.value > self.hi:
                self.value = self.hi
            self._push(M_STAGE)
        elif item == A_LATE:
            self.value = 0
            self._push(M_LATE)
        elif item == A_RESULT:
            self._push(M_RESULT)
        else:
            self._push(M_CONFIRM)
            return
        self.side = side

    def _max_stage(self, c, side):
        if c.tc[side] is None:
            return 1
        return c.max_stage(side)  # the stages clock.adjust accepts

    def _adjust(self, ticks, changed, ms, moves, stage):
        item = self.stack[-1][1]
        label = ARB[item]
        self.f = 0  # the TIME editor is done: _back leaves it, not its previous field
        if changed:
            try:
                self._act("adjust", ticks, side=self.side, ms=ms, moves=moves, stage=stage)
            except ValueError as e:
                self._back()
                self._no(label[0], label[1], ticks, str(e))
                return
            self._say("OK", label[0], ticks, "OK", label[1])
        self._back()
        self.i = (item + 1) % len(ARB)  # on to the next correction (DGT: time, moves, period)

    def _confirm(self, ticks):
        item = self.stack[-1][1]
        label = self._arb_label(item)
        app = self.app
        reason = None
        try:
            if item == A_EXTEND:
                self._act("extend", ticks)
            elif app.clock.state == C.ADJOURNED:
                self._act("resume_adjourned", ticks)
            else:
                self._act("adjourn", ticks)
        except ValueError as e:  # Refused: why
            reason = str(e)
        if app.clock.state == C.RUNNING:
            self.close()  # the extension or the resumption runs the side to move
            return
        self._back()
        if reason is None:
            self._say("OK", label[0], ticks, "OK", label[1])
        else:
            self._no(label[0], label[1], ticks, reason)

    def _act(self, name, ticks, **vals):
        """An action of actions.py's table with the menu's values (of the table's kinds): the same
        code and the same refusals as the protocol's and the scripts'. ValueError (Refused: why)."""
        from sagatfw import actions

        try:
            for s in actions.ACTIONS[name][3]:
                if s[0] not in vals:
                    vals[s[0]] = None
            actions.do(self.app, name, vals, ticks)
        finally:
            forget("sagatfw.actions")

    def _arb_label(self, item):
        if item == A_ADJOURN and self.app.clock.state == C.ADJOURNED:
            return RESUME
        return ARB[item]

    # --------------------------------------------------------------- display

    def view(self, now=None):
        """(left_text, right_text) for the two faces; `field` names the part of right_text being
        edited. `now` (ticks) ends a message after MSG_MS."""
        self._expire(now)
        return (self.left, self.right)

    def view4(self, now=None):
        """(left, right) for 4-digit faces (faces.text4); `field4` as `field`."""
        self._expire(now)
        return (self.left4, self.right4)

    def _expire(self, now):
        if self.msg is not None and now is not None and ticks_diff(now, self.msg_until) >= 0:
            self.msg = None
            self._render()

    def _set(self, left, right, left4, right4, field=None, field4=None, detail=None):
        self.left = left
        self.right = right
        self.left4 = left4
        self.right4 = right4
        self.field = field
        self.field4 = field4
        self.detail = detail

    def _render(self):
        if not self.active:
            return
        if self.msg is not None:
            m = self.msg
            self._set(m[0], m[1], m[2], m[3], None, None, m[4])
            return
        m = self.mode
        i = self.i
        side = "LR"[self.side]
        if m == M_TOP:
            self._set("MENU", TOP[i][0], "MENU", TOP[i][1])
        elif m == M_ABORT:
            self._set("ABORT?", NO_YES[i], "ABRT", NO_YES[i], None, None, "a game is in progress")
        elif m == M_PRESET:
            name, tc = self.presets[i]
            label = tc_label(tc)
            self._set("PRE %d" % (i + 1), label, "P%d" % (i + 1), label, None, None, name)
        elif m == M_FIRST:
            self._set("FIRST", SIDES[i], "1ST", SIDES4[i], None, None, self.tc)
        elif m == M_CMIN:
            v = "%d" % self.cust[self.side][0]
            self._set("MIN " + side, v + " MIN", "MI." + side, v)
        elif m == M_CBONUS:
            self._set("BONUS " + side, BONUS[i], "BO." + side, BONUS[i], None, None, BONUS_NAMES[i])
        elif m == M_CSEC:
            v = "%d" % self.cust[self.side][2]
            self._set("SEC " + side, v + " S", "SE." + side, v)
        elif m == M_CSAME:
            self._set("SAME R?", NO_YES[i], "SA.R", NO_YES[i])
        elif m == M_SETTINGS:
            self._set("SETTINGS", SETTINGS[i][0], "SET", SETTINGS[i][1])
        elif m == M_SETVAL:
            spec = SETTINGS[self.stack[-1][1]]
            text = spec[4][i]
            self._set(spec[0], text, spec[1], _short(text))
        elif m == M_ARB:
            label = self._arb_label(i)
            self._set("ARBITER", label[0], "ARB", label[1])
        elif m == M_TIME:
            label = ARB[self.stack[-1][1]]
            h, mm, s = self.hms
            hh = "%d" % h
            n = len(hh)
            text = "%s:%02d:%02d" % (hh, mm, s)
            field = ((0, n), (n + 1, n + 3), (n + 4, n + 6))[self.f]
            if self.f < 2:  # 4 digits: H:MM while editing hours or minutes, MM:SS for seconds
                self._set(label[0], text, label[1], "%s:%02d" % (hh, mm), field, field)
            else:
                self._set(label[0], text, label[1], "%02d:%02d" % (mm, s), field, (3, 5))
        elif m == M_MOVES or m == M_STAGE:
            label = ARB[self.stack[-1][1]]
            v = "%d" % self.value
            self._set(label[0], v, label[1], v, (0, len(v)), (0, len(v)))
        elif m == M_CONFIRM:
            item = self.stack[-1][1]
            label = self._arb_label(item)
            if item == A_EXTEND:
                ms = self.app.store.values["extension_ms"]
                v = "%d:%02d" % (ms // 60000, (ms // 1000) % 60)
                self._set("EXTEND?", "+" + v, "EXT", v, None, None, "both sides (TK-C14)")
            else:
                self._set(label[0] + "?", "OK?", label[1], "OK")
        elif m == M_LATE:
            v = "%d" % self.value
            self._set("LATE", v + " MIN", "LATE", v, (0, len(v)), (0, len(v)), "minutes played (TK-C11)")
        elif m == M_RESULT:
            self._set("RESULT", RESULTS[i], "RSLT", RESULTS[i])
        elif m == M_MODE:
            self._set("MATCH", MODES[i][0], "MTCH", MODES[i][1], None, None,
                      ("kok-boru one-on-one", "kilithattu")[i])
        elif m == M_LEAD:
            v = "%d" % self.value if self.value else "OFF"
            self._set("LEAD", v, "LEAD", v, (0, len(v)), (0, len(v)), "a lead of more than this wins (KB-14)")
        elif m == M_MFIRST:
            self._set("FIRST", SIDES[i], "1ST", SIDES4[i], None, None, "the team entering first (KT-4.4)")
        elif m == M_CHANGE:
            v = "%d" % self.value
            self._set("CHANGE", v + " S", "CHNG", v, (0, len(v)), (0, len(v)), "the changeover, at most 60 s (KT-4.4)")
        elif m == M_METHOD:
            self._set("TIE", METHODS[i][0], "TIE", METHODS[i][1], None, None, METHOD_NAMES[i] + " (KT-4.6)")
