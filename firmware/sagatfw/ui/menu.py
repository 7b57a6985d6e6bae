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
# Levels (here: the lists and the confirmations; editors.py: the value editors, their ranges):
#   PRESET    built-in presets (presets.py), then the user presets (settings); then FIRST left/right
#             (editors.py), where START sets up the game (actions.py's `new`) and closes the menu.
#   CUSTOM    the custom TimeControl builder (editors.py): MIN, BONUS, SEC per side, SAME R?, FIRST.
#             A new game (PRESET, CUSTOM) while one is in progress (paused, flagged, adjourned) needs
#             ABORT? YES first; in SETUP or after a result it goes straight on.
#   SETTINGS  FREEZE, TENTHS, DEFAULT (TK-C6), LOW (TK-C17), SOUND, BRIGHT: START opens the values
#             (editors.py); the app applies one between games only (NO otherwise).
#   ARBITER   the clock is stopped (the menu opens nowhere else) and opens here when a game is in
#             progress. TIME L/R (H, MM, SS), MOVES L/R, STAGE L/R, LATE (TK-C11, before the start)
#             and RESULT (TK-R2, TK-R4) are editors.py's; EXTEND (TK-C14, once a flag is down) and
#             ADJOURN (TK-A1..A3), shown as RESUME while adjourned (TK-A4), ask for START again.
#             After TIME, MOVES or STAGE the list moves on to the next item, so START walks the DGT
#             order: time, moves, stage, left then right.
#   MATCH     a field game's match (docs/match.md), set up in editors.py: KOK-BORU and its LEAD
#             (KB-14), or KILITHAT and its FIRST, CHANGE (KT-4.4) and TIE (KT-4.6). The menu opens
#             here while a match is set up; a match or game in progress needs ABORT? YES.
# After an action: "OK" (or "NO" and the reason in `detail`, when the app refuses) for MSG_MS or
# until the next button, which then acts as usual. Nothing raises out of `button()`: a refusal is a
# ValueError or False from the app; anything else unexpected closes the menu and is counted in
# `errors` (and noted on the board).
#
# RAM: with editors.py about 21 KB of heap on the 64-bit unix port from .mpy files, 4.5 KB frozen (less on
# a 32-bit board). An app short of heap loads it on the first MENU press, `Menu(app, transient=True)`,
# forwards that press and forgets both modules once `close()` has set app.menu back to None.
#
# Display: `view(now)` returns (left_text, right_text), at most 8 characters (OLED, sim; a preset's
# TimeControl label, "40/90+30:30+30", may be longer): the left
# face names what is being edited ("TIME L"), the right face shows the value ("1:23:45", "NO",
# "+5:00"); `field` = (start, stop) in right_text is the field being edited, to blink. `view4(now)`
# gives the same for a TM1637 (at most 4 cells, see faces.text4) with `field4`; `detail` is a
# longer line or None (a preset's name, why NO). faces.text4 and faces.menu_items draw them.

from sagatfw import T, forget
from sagatfw.core import timecontrol as tcm
from sagatfw.core.ticks import ticks_add, ticks_diff
from sagatfw.engine import clock as C
from sagatfw.ui import buttons as B
from sagatfw.ui import editors as E  # the value editors (menu.py imports them, not the other way round)
from sagatfw.ui.editors import BONUS_CHARS, NO_YES, SETTINGS

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


MSG_MS = const(1500)  # how long "OK" / "NO" stays up (or until the next button)
BIG = const(10)  # the LONG step

# The menu's own levels (modes); editors.py numbers its levels in the same sequence (no two alike).
M_TOP = const(0)
M_ABORT = const(1)
M_PRESET = const(2)
M_SETTINGS = const(8)
M_ARB = const(10)
M_CONFIRM = const(14)

# Top level.
T_PRESET = const(0)
T_CUSTOM = const(1)
T_SETTINGS = const(2)
T_ARBITER = const(3)
T_MATCH = const(4)
TOP = (("PRESET", "PRES"), ("CUSTOM", "CUST"), ("SETTINGS", "SET"), ("ARBITER", "ARB"), ("MATCH", "MTCH"))

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
    from sagatfw.core import tcparse  # the menu forgets the parser with itself

    try:
        left, right = tcparse.parse_sides(text)
    except ValueError:
        return "?"
    if left == right:
        return side_label(left)
    return side_label(left) + "|" + side_label(right)


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
        self.target = T_PRESET  # where ABORT? YES goes: T_PRESET, T_CUSTOM or T_MATCH
        self.tc = None  # the control chosen, for FIRST
        self.presets = None  # (name, tc) while choosing one
        self.mo = [0, 8, 0, E.MAX_CHANGE_S, 1]  # a match: mode, lead, first team, changeover s, method (lot)
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
            self.back()
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
            from sagatfw.engine import matchwords as M  # loaded with the match

            return M.SETUP < ma.m.state < M.FINISHED
        st = self.app.clock.state
        return st == C.PAUSED or st == C.FLAGGED or st == C.ADJOURNED

    def _running(self):
        """The game's clock runs, or the match's time (a period, a break, a lot, time over): the
        menu neither opens nor stays open then."""
        ma = self.app.match
        if ma is not None:
            from sagatfw.engine import matchwords as M

            st = ma.m.state
            return st == M.RUNNING or st == M.BREAK or st == M.LOT or st == M.OVER
        return self.app.clock.state == C.RUNNING

    # ---------------------------------------- the editors' means (editors.py uses these, and the state)

    def enter(self, mode, i=0):
        """Go down to level `mode` on choice `i` (back() returns to this one)."""
        self.stack.append((self.mode, self.i, self.side))
        self.mode = mode
        self.i = i

    def back(self):
        """Up one level (the time editor: back one field); from the top, close."""
        if E.back(self):  # the time editor: back one field
            return
        if not self.stack:
            self.close()
            return
        self.mode, self.i, self.side = self.stack.pop()
        if self.mode == M_TOP:
            self.presets = None

    def say(self, left, right, ticks, left4=None, right4=None, detail=None):
        """A message on the faces for MSG_MS or until the next button ("OK" and what was done)."""
        self.msg = (left, right, left4 or left, right4 or right, detail)
        self.msg_until = ticks_add(ticks, MSG_MS)

    def say_no(self, what, what4, ticks, reason=None):
        """NO and what was refused, with the reason (an engine's or the table's) on the detail line."""
        self.say("NO", what, ticks, "NO", what4, reason)

    # ------------------------------------------------------------ plus, minus

    def choices(self):
        """The choices of a list level (the editors' lists included); 0 where a value is stepped."""
        m = self.mode
        if m == M_TOP:
            return len(TOP)
        if m == M_PRESET:
            return len(self.presets)
        if m == M_SETTINGS:
            return len(SETTINGS)
        if m == M_ARB:
            return len(ARB)
        if m == M_ABORT:
            return 2
        return E.count(self)

    def _change(self, d):
        n = self.choices()
        if n:
            if n <= BIG and (d > 1 or d < -1):
                d = 1 if d > 0 else -1
            self.i = (self.i + d) % n
        E.change(self, d)  # an editor's value steps (or it notes its list's choice)

    # ------------------------------------------------------------------ start

    def _start(self, ticks):
        m = self.mode
        if m == M_TOP:
            if self.i == T_SETTINGS:
                self.enter(M_SETTINGS)
            elif self.i == T_ARBITER:
                self.enter(M_ARB)
            else:
                self.target = self.i  # T_PRESET, T_CUSTOM or T_MATCH
                self.enter(M_ABORT)
                if not self._in_progress():
                    self._enter_game(self.target)  # nothing to abort: straight on
        elif m == M_ABORT:
            if self.i == 1:
                self._enter_game(self.target)  # in place of ABORT?: back goes to the top
            else:
                self.back()
        elif m == M_PRESET:
            E.first(self, self.presets[self.i][1])
        elif m == M_SETTINGS:
            E.setting(self)
        elif m == M_ARB:
            self._arbiter(ticks)
        elif m == M_CONFIRM:
            self._confirm(ticks)
        else:
            E.start(self, ticks)

    # -------------------------------------------------------------- new game

    def _enter_game(self, target):
        """The level after the top: the preset list, the custom control's first value or a match's mode."""
        if target == T_MATCH:
            E.match(self)
        elif target == T_PRESET:
            from sagatfw.core.presets import PRESETS  # only while choosing: the loop does not keep them

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
            E.custom(self)

    # --------------------------------------------------------------- arbiter

    def _arbiter(self, ticks):
        """START on an item of the arbiter's list: its editor, the result or a confirmation."""
        item = self.i
        side = item % 2
        if item <= A_TIME_R:
            E.edit_time(self, side)
        elif item <= A_MOVES_R:
            E.edit_moves(self, side)
        elif item <= A_STAGE_R:
            E.edit_stage(self, side)
        elif item == A_LATE:
            E.edit_late(self)  # TK-C11
        elif item == A_RESULT:
            E.result(self)  # TK-R2, TK-R4
        else:
            self.enter(M_CONFIRM)  # EXTEND (TK-C14), ADJOURN (TK-A1..A3) or RESUME (TK-A4)
            return
        self.side = side

    def _confirm(self, ticks):
        item = self.stack[-1][1]
        label = self.arbiter_label(item)
        app = self.app
        reason = None
        try:
            if item == A_EXTEND:
                self.act("extend", ticks)
            elif app.clock.state == C.ADJOURNED:
                self.act("resume_adjourned", ticks)
            else:
                self.act("adjourn", ticks)
        except ValueError as e:  # Refused: why
            reason = e.args[0]  # (a Refused carries its reason code after it)
        if app.clock.state == C.RUNNING:
            self.close()  # the extension or the resumption runs the side to move
            return
        self.back()
        if reason is None:
            self.say("OK", label[0], ticks, "OK", label[1])
        else:
            self.say_no(label[0], label[1], ticks, reason)

    def act(self, name, ticks, **vals):
        """An action of actions.py's table with the menu's values (of the table's kinds): the same
        code and the same refusals as the protocol's and the scripts'. ValueError (Refused: why)."""
        from sagatfw.ui import actions

        try:
            for s in actions.ACTIONS[name][3]:
                if s[0] not in vals:
                    vals[s[0]] = None
            actions.do(self.app, name, vals, ticks)
        finally:
            forget("sagatfw.ui.actions")

    def arbiter_label(self, item):
        """The arbiter's list item's (label, label4): ADJOURN is RESUME while adjourned (TK-A4)."""
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

    def show(self, left, right, left4, right4, field=None, field4=None, detail=None):
        """What the faces show (view, view4): the OLEDs' texts and the four-digit faces', the field edited."""
        # the OLED's words in the clock's language (a value being edited is digits: its field's places kept)
        self.left = T(left)
        self.right = right if field is not None else T(right)
        self.left4 = left4
        self.right4 = right4
        self.field = field
        self.field4 = field4
        self.detail = detail and T(detail)

    def _render(self):
        if not self.active:
            return
        if self.msg is not None:
            m = self.msg
            self.show(m[0], m[1], m[2], m[3], None, None, m[4])
            return
        m = self.mode
        i = self.i
        if m == M_TOP:
            self.show("MENU", TOP[i][0], "MENU", TOP[i][1])
        elif m == M_ABORT:
            self.show("ABORT?", NO_YES[i], "ABRT", NO_YES[i], None, None, "a game is in progress")
        elif m == M_PRESET:
            name, tc = self.presets[i]
            label = tc_label(tc)
            self.show(T("PRE") + " %d" % (i + 1), label, "P%d" % (i + 1), label)
            self.detail = name  # a preset's name as it was given: never turned into a word of the faces
        elif m == M_SETTINGS:
            self.show("SETTINGS", SETTINGS[i][0], "SET", SETTINGS[i][1])
        elif m == M_ARB:
            label = self.arbiter_label(i)
            self.show("ARBITER", label[0], "ARB", label[1])
        elif m == M_CONFIRM:
            item = self.stack[-1][1]
            label = self.arbiter_label(item)
            if item == A_EXTEND:
                ms = self.app.store.values["extension_ms"]
                v = "%d:%02d" % (ms // 60000, (ms // 1000) % 60)
                self.show("EXTEND?", "+" + v, "EXT", v, None, None, "both sides (TK-C14)")
            else:
                self.show(label[0] + "?", "OK?", label[1], "OK")
        else:
            E.render(self)
