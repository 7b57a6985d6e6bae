# Attacks on the faces' languages (sagatfw.T, sagatfw.use; faces/game.py, faces/matchfaces.py, ui/menu.py,
# ui/editors.py):
# the real engines driven into the states whose OLED lines are longest, in every language (faces/words.py CODES),
# each "text" item checked: inside the 128 px, every character in the font (faces/glyphs.py: none drawn as '?'), and
# not cut where the code would cut silently (what the code composed is drawn whole). The TM1637 faces must not change
# with the language. Runs under CPython (pytest) and MicroPython (tests/mprun.py).
import sys

from boardkit import FakeApp
from matchkit import MIN, Run

import sagatfw
from clockkit import Game, L, R
from sagatfw import T
from sagatfw.engine import clock as C
from sagatfw.engine import matchwords as M
from sagatfw.engine.kilithattu import Kilithattu
from sagatfw.engine.kokboru import KokBoru
from sagatfw.faces import game as F
from sagatfw.faces import glyphs
from sagatfw.faces import matchfaces as MF
from sagatfw.faces import words as FW

CODES = FW.CODES
PX = 128
COLS = 21


def _in_each_language(fn):
    """fn(code) in every language; the failures of all (a list of tuples), English restored whatever happens."""
    bad = []
    try:
        for code in CODES:
            sagatfw.use(code)
            fn(code, bad)
    finally:
        sagatfw.use("en")
    return bad


def _fits(items, code, where, bad):
    """Every drawn text inside the face, every character in its font; the texts drawn (for more checks)."""
    texts = []
    for it in items:
        if it[0] == "fill":
            continue
        kind, x, y, text, scale = it
        cell = 8 if kind == "big" else glyphs.W
        if x < 0 or x + len(text) * cell * scale > PX or y < 0 or y + (8 if kind == "big" else glyphs.H) * scale > 64:
            bad.append((code, where, "outside", text, x, y, scale))
        for c in text:
            if kind == "big" and not 32 <= ord(c) < 127 or kind != "big" and not glyphs.has(c):
                bad.append((code, where, "no glyph", text, c))
        texts.append(it)
    return texts


def _at_y(texts, y):
    return [it[3] for it in texts if it[2] == y]


# ----------------------------------------------------------------------------------------------- game faces


def _marks(c, side):
    """The bottom line's marks the face has, the most needed first: the time used while adjourned (TK-A3, the
    envelope's figure), then FLAG, 1ST, LOW, ST>, DEF and the delay."""
    out = []
    if c.state == C.ADJOURNED:
        from sagatfw.engine.envelope import used_ms

        if used_ms(c, side) >= 0:
            out.append(T("USED") + " " + F.time_text(used_ms(c, side), 0, True))
    if c.flag[side]:
        out.append(T("FLAG"))
        if F.first_of_two(c, side):
            out.append(T("1ST"))
    if F.is_low(c, side):
        out.append(T("LOW"))
    if c.stage_mark[side]:
        out.append(T("ST>"))
    if c.default_mark[side]:
        out.append(T("DEF"))
    if c.side_to_move() == side and c.state in (C.RUNNING, C.PAUSED, C.ADJOURNED):
        d = c.delay_remaining(side)
        if d > 0:
            out.append("d%d" % ((d + 999) // 1000))
    return out


def _line_of(marks):
    """The line the marks make: each whole while the 21 characters have room for it, none cut."""
    line = []
    for m in marks:
        if len(" ".join(line + [m])) <= COLS:
            line.append(m)
    return " ".join(line)


def _check_game(c, code, where, bad, message=None, result=None):
    for side in (L, R):
        items = F.oled(c, side, 20000, 100, False, 1, message, result)
        texts = _fits(items, code, (where, side), bad)
        bottom = _at_y(texts, 52)
        marks = _marks(c, side)
        want = message or _line_of(marks)
        if want and bottom != [want]:
            bad.append((code, where, side, "bottom cut", want, bottom))
        if not message and marks and marks[0].startswith(T("USED")) and not bottom[0].startswith(marks[0]):
            bad.append((code, where, side, "the time used not whole", marks[0], bottom))  # TK-A3
        st = F.state_text(c, result)
        run = _at_y(texts, 40)
        if st and c.running != side and not [r for r in run if st in r]:
            bad.append((code, where, side, "run row", st, run))


def _every_mark_at_once():
    """Left: FLAG (fell first), ST> (a stage added at its flag, TK-C13), DEF (no move at the default time,
    TK-C6) and its simple delay (d5) as the side to move; right: FLAG and ST>. Reached with the clock's own
    rules: a 2-stage control with a delay, stage_advance "flag", no freeze."""
    g = Game("1/60d5:60d5", stage_advance="flag", freeze=False, default_ms=900000)
    g.start(0)
    g.poll(200000)  # left's stage 1 out at 65 s (ST>), stage 2 out at 130 s: FLAG 1
    g.poll(900002)  # the default time: left ran without a move (DEF)
    g.press(L, 900100)
    g.poll(1100100)  # right: ST>, then FLAG 2
    g.press(R, 1100200)  # left to move, its delay running (d5)
    return g


def test_every_mark_of_a_game_face_at_once_fits_its_line_in_every_language():
    # "FLAG 1ST ST> DEF d5" (19) fits 21 characters, its translations do not (kk 25, ru 22, ky 24: test_words'
    # LIMITS bound each mark alone): marks_text leaves out whole the marks the line has no room for, never cuts one
    def run(code, bad):
        g = _every_mark_at_once()
        c = g.clock
        assert c.flag == [1, 2] and c.stage_mark == [1, 1] and c.default_mark == [1, 0], (c.flag, c.stage_mark)
        assert c.delay_remaining(L) == 5000
        _check_game(c, code, "running, every mark", bad)
        g.pause(1100300)
        _check_game(c, code, "paused, every mark", bad)

    bad = _in_each_language(run)
    assert not bad, bad


def _played(g, left_ms):
    """A 90-minute game (no freeze) with a move each, then left's clock runs until it has `left_ms` (0: on past
    its flag) and the arbiter adjourns it (TK-A1): no default mark (both moved)."""
    g.start(0)
    g.press(L, 1000)
    g.press(R, 2000)
    t = 2000 + 5399000 - left_ms + (1000 if not left_ms else 0)
    g.poll(t)
    g.pause(t)
    assert g.call("adjourn", t + 1)
    return g.clock


def test_an_adjourned_face_with_a_flag_and_the_time_used_fits_in_every_language():
    # TK-A3: "USED 1:30:00" beside the flag of a 90-minute game adjourned after the flag fell (no freeze): in ru
    # "ИСПОЛЬЗ. 1:30:00 ФЛАЖОК" (23) and ky (27) were cut in the time used, the envelope's figure: it comes first
    def run(code, bad):
        c = _played(Game("5400", freeze=False), 0)
        assert c.flag[L] and not c.default_mark[L]
        _check_game(c, code, "adjourned after a flag", bad)

    bad = _in_each_language(run)
    assert not bad, bad


def test_an_adjourned_face_under_the_low_time_mark_fits_in_every_language():
    # TK-C17 and TK-A3: a 90-minute game adjourned with left at 4:00 (under the 5:00 mark): ru (23) and ky (26)
    # were cut in the time used; it comes first, whole, and the low mark only where the line has room
    def run(code, bad):
        c = _played(Game("5400", freeze=False), 240000)
        assert F.is_low(c, L) and not c.flag[L] and not c.default_mark[L]
        _check_game(c, code, "adjourned, low", bad)

    bad = _in_each_language(run)
    assert not bad, bad


def test_an_adjourned_face_with_every_mark_and_the_time_used_fits_in_every_language():
    # the same marks adjourned: "FLAG 1ST ST> DEF d5 USED 2:00" is 29 characters even in English
    def run(code, bad):
        g = _every_mark_at_once()
        g.pause(1100300)
        assert g.call("adjourn", 1100400)
        _check_game(g.clock, code, "adjourned, every mark", bad)

    bad = _in_each_language(run)
    assert not bad, bad


def test_the_run_row_of_every_stopped_state_fits_in_every_language():
    # READY, "> PAUSE <" and "> ADJ <" framed on the side to move, END with every result (as an index and as
    # text): state_text is not cut at all, so it must fit whole
    def run(code, bad):
        g = Game("5400d30", freeze=False)
        _check_game(g.clock, code, "setup", bad)
        g.start(0)
        g.press(L, 1000)
        g.poll(20000)
        g.pause(20000)
        _check_game(g.clock, code, "paused", bad)  # "> PAUSE <" on the side to move, its delay "d11"
        g.call("adjourn", 20001)
        _check_game(g.clock, code, "adjourned", bad)  # "> ADJ <", "d11 USED 0:01" ...
        for i in range(len(C.RESULT_NAMES)):
            g2 = Game("420")
            g2.start(0)
            g2.call("result", 1000, i)
            _check_game(g2.clock, code, "end", bad, None, i)
            _check_game(g2.clock, code, "end text", bad, None, C.RESULT_NAMES[i])
            _check_game(g2.clock, code, "end none", bad)

    bad = _in_each_language(run)
    assert not bad, bad


def test_every_status_line_with_board_999_fits_in_every_language():
    def run(code, bad):
        g = Game("300")
        app = FakeApp(g.clock)
        app.store.values["board"] = 999
        text = F.status_text(app)
        if text != T("BOARD") + " 999":
            bad.append((code, "board", text))
        _check_game(g.clock, code, "board 999", bad, text)
        for s in range(2, len(F.STATUS_TEXT)):  # the messages
            app.status = s
            text = F.status_text(app)
            if text != T(F.STATUS_TEXT[s]):
                bad.append((code, "message", F.STATUS_TEXT[s], text))
            _check_game(g.clock, code, F.STATUS_TEXT[s], bad, text)
        g.start(0)
        g.call("result", 4000, 2)  # c.t // 3000 is odd: the protest window's turn
        app.status = 1
        app.code_text = "CODE 042917"
        app.protest_ms = 1800000  # the app's view of TK-P1's window: all of it left (App.protest_left)
        text = F.status_text(app)
        if text != T("PROTEST") + " 30:00":
            bad.append((code, "protest", text))
        _check_game(g.clock, code, "protest", bad, text, 2)
        app.protest_ms = 0
        text = F.status_text(app)
        if text != "B999 " + T("CODE") + " 042917":
            bad.append((code, "code", text))
        _check_game(g.clock, code, "code", bad, text, 2)

    bad = _in_each_language(run)
    assert not bad, bad


def test_the_status_lines_cache_follows_a_change_of_language_while_a_code_is_shown():
    g = Game("300")
    app = FakeApp(g.clock)
    app.store.values["board"] = 8
    app.status = 1
    app.code_text = "CODE 042917"
    try:
        assert F.status_text(app) == "B8 CODE 042917"
        for code in ("kk", "kk", "ru", "ky", "en", "ru", "en"):  # again the same one too: its table made anew
            sagatfw.use(code)
            assert F.status_text(app) == "B8 " + T("CODE") + " 042917", (code, F.status_text(app))
            app.status = 0
            assert F.status_text(app) == T("BOARD") + " 8", code
            app.status = 1
        app.store.values["board"] = 0
        sagatfw.use("ky")
        assert F.status_text(app) == T("CODE") + " 042917"
    finally:
        sagatfw.use("en")


# ----------------------------------------------------------------------------------------------- match faces


def _check_match(m, code, where, bad, message=None):
    for side in (M.LEFT, M.RIGHT):
        items = MF.oled(m, side, message)
        texts = _fits(items, code, (where, side), bad)
        st = m.state
        top = T((m.BREAK_NAME if st == M.BREAK else m.period_name()).upper())
        if _at_y(texts, 0)[:1] != [top]:
            bad.append((code, where, side, "top cut", top, _at_y(texts, 0)))
        run = MF.run_text(m, side)
        if st == M.RUNNING:
            run = "> " + run + " <"
        if _at_y(texts, 40) != [run]:
            bad.append((code, where, side, "run row cut", run, _at_y(texts, 40)))
        if message and _at_y(texts, 52) != [message]:
            bad.append((code, where, side, "message cut", message, _at_y(texts, 52)))


def _kokboru_bouts(code, bad):
    m = KokBoru()
    m.new_match(lead=8)
    r = Run(m)
    _check_match(m, code, "kb setup", bad)
    r.do("start", 0)
    r.do("card", 1000, L, M.CARD_WARNING)
    _check_match(m, code, "kb 1st half, W", bad, "+:4 -:2 L:1 M:W")
    r.do("stoppage", 2000)
    r.poll(2000 + 99 * MIN + 59000)  # a long stoppage: "STOP 99:59 3:58"
    _check_match(m, code, "kb long stoppage", bad)
    r.do("resume", 2000 + 99 * MIN + 59000)
    t = 2000 + 99 * MIN + 59000 + 4 * MIN
    r.poll(t)
    assert m.state == M.BREAK, m.state
    _check_match(m, code, "kb rest", bad)
    t += MIN
    r.poll(t)
    assert m.state == M.READY and m.period == 1
    _check_match(m, code, "kb 2nd half ready", bad)
    r.do("start", t)
    r.poll(t + 4 * MIN)
    assert m.state == M.READY and m.period == 2  # level: golden score
    _check_match(m, code, "kb golden ready", bad)
    t += 4 * MIN
    r.do("start", t)
    r.poll(t + 99 * MIN)
    _check_match(m, code, "kb golden long", bad)
    r.do("stoppage", t + 99 * MIN)
    r.poll(t + 99 * MIN + 59 * MIN)
    _check_match(m, code, "kb golden stoppage", bad)
    r.do("resume", t + 158 * MIN)
    r.do("score", t + 158 * MIN, R, 1)
    assert m.state == M.FINISHED and m.winner == R, (m.state, m.winner)
    _check_match(m, code, "kb golden won", bad)
    for kind in ("lead", "removal", "red", "referee", "draw", "points"):
        m = KokBoru()
        m.new_match(lead=1)
        r = Run(m)
        r.do("start", 0)
        if kind == "lead":
            r.do("score", 1000, L, 4)
        elif kind == "removal":
            r.do("card", 1000, R, M.CARD_WARNING)
            r.do("card", 2000, R, M.CARD_WARNING)
        elif kind == "red":
            r.do("card", 1000, L, M.CARD_RED)
        elif kind == "referee":
            r.do("result", 1000, L)
        elif kind == "draw":
            r.do("result", 1000, M.NONE)
        else:
            r.do("score", 1000, L, 1)
            r.poll(4 * MIN)
            r.poll(5 * MIN)
            r.do("start", 5 * MIN)
            r.poll(9 * MIN)
        assert m.state == M.FINISHED, (kind, m.state)
        _check_match(m, code, "kb " + kind, bad)


def _kilithattu_matches(code, bad):
    for method in range(4):
        for first in (L, R):
            m = Kilithattu()
            m.new_match(first=first, changeover_ms=60000, method=method)
            r = Run(m)
            _check_match(m, code, "kt setup", bad)
            r.do("start", 0)
            _check_match(m, code, "kt innings 1", bad)
            r.do("score", 1000, first, 1)
            r.do("stoppage", 2000)
            r.poll(2000 + 59 * MIN + 59000)
            _check_match(m, code, "kt stoppage", bad)
            t = 2000 + 59 * MIN + 59000
            r.do("resume", t)
            _check_match(m, code, "kt stopped time", bad)
            t += 7 * MIN
            r.poll(t)
            assert m.state == M.BREAK, m.state
            _check_match(m, code, "kt changeover", bad)
            _check_match(m, code, "kt start?", bad, T("START? again:cut"))
            t += MIN
            r.poll(t)
            assert m.state == M.RUNNING and m.period == 1
            _check_match(m, code, "kt innings 2", bad)
            r.do("score", t, 1 - first, 1)
            t += 7 * MIN
            r.poll(t)
            assert m.state == M.LOT, m.state
            _check_match(m, code, "kt lot 1", bad)
            _check_match(m, code, "kt toss?", bad, T("TOSS? lever=won"))
            r.do("draw_lot", t, first)
            _check_match(m, code, "kt extra ready", bad)
            r.do("start", t)
            _check_match(m, code, "kt extra 1", bad)
            t += 5 * MIN
            r.poll(t)
            _check_match(m, code, "kt extra break", bad)
            t += MIN
            r.poll(t)
            _check_match(m, code, "kt extra 2", bad)
            t += 5 * MIN
            r.poll(t)
            _check_match(m, code, "kt after extra (method %d)" % method, bad)
            if method == 0:  # sudden
                assert m.state == M.READY
                r.do("start", t)
                r.poll(t + 99 * MIN)
                _check_match(m, code, "kt sudden long", bad)
                r.do("score", t + 99 * MIN, first, 1)
            elif method == 1:  # a second lot: its winner
                assert m.state == M.LOT
                r.do("draw_lot", t, 1 - first)
            elif method == 3:  # time over: the referee
                assert m.state == M.OVER
                _check_match(m, code, "kt time over", bad)
                r.do("result", t, first)
            assert m.state == M.FINISHED, (method, m.state)
            _check_match(m, code, "kt finished (method %d)" % method, bad)


def test_every_match_face_fits_in_every_language():
    def run(code, bad):
        _kokboru_bouts(code, bad)
        _kilithattu_matches(code, bad)

    bad = _in_each_language(run)
    assert not bad, bad


def test_a_refusal_on_a_match_face_is_shown_whole():
    # app/matchmode.py note(): the engine's reason for a refused button, on the bottom line, cut at 21 by
    # faces/matchfaces.py. MENU held in a stoppage after a score (KB-3's restart, a button of the referee's): the
    # reason was "scores made: undo first" (23), drawn as "scores made: undo fir"
    def run(code, bad):
        m = KokBoru()
        m.new_match(lead=8)
        r = Run(m)
        r.do("start", 0)
        r.do("score", 1000, L, 4)
        r.do("stoppage", 2000)
        why = r.refused("restart", 3000)
        _check_match(m, code, "restart refused", bad, why)

    bad = _in_each_language(run)
    assert not bad, bad


# ----------------------------------------------------------------------------------------------------- menu


class _Store:
    def __init__(self):
        from sagatfw.log.settings import defaults

        self.values = defaults()
        self.presets = [{"name": "sixteen-chars-16", "tc": "40/5400+30:1800+30"}]


class _Clock:
    state = C.PAUSED


class _App:
    def __init__(self):
        self.store = _Store()
        self.clock = _Clock()
        self.match = None
        self.menu = None


def _menu_views():
    """Every view the real menu renders (ui/menu.py, ui/editors.py), at the values that make it longest:
    (where, left, right, field, detail, left4, right4, field4)."""
    from sagatfw.core.presets import PRESETS
    from sagatfw.ui import editors as E
    from sagatfw.ui import menu as MN

    app = _App()
    mn = MN.Menu(app)
    mn.active = True
    out = []

    def grab(where):
        mn._render()
        out.append((where, mn.left, mn.right, mn.field, mn.detail, mn.left4, mn.right4, mn.field4))

    for i in range(len(MN.TOP)):
        mn.mode, mn.i = MN.M_TOP, i
        grab("top %d" % i)
    for i in range(2):
        mn.mode, mn.i = MN.M_ABORT, i
        grab("abort %d" % i)
    for i in range(len(E.SETTINGS)):
        mn.mode, mn.i, mn.stack = MN.M_SETTINGS, i, []
        grab("settings %d" % i)
        mn.stack = [(MN.M_SETTINGS, i, 0)]
        for k in range(len(E.SETTINGS[i][3])):
            mn.mode, mn.i = E.M_SETVAL, k
            grab("setting %d %d" % (i, k))
    for state in (C.PAUSED, C.ADJOURNED):
        app.clock.state = state
        for i in range(len(MN.ARB)):
            mn.mode, mn.i, mn.stack = MN.M_ARB, i, []
            grab("arbiter %d" % i)
            mn.stack = [(MN.M_ARB, i, 0)]
            if i == MN.A_EXTEND or i == MN.A_ADJOURN:
                mn.mode = MN.M_CONFIRM
                grab("confirm %d" % i)
            mn.mode, mn.hms = E.M_TIME, [99, 59, 59]
            for f in range(3):
                mn.f = f
                grab("time %d" % f)
            for mode in (E.M_MOVES, E.M_STAGE):
                mn.mode, mn.value = mode, 999
                grab("value %d" % mode)
    app.clock.state = C.PAUSED
    mn.stack = [(E.M_RESULT, 0, 0)]
    for side in (L, R):
        mn.side = side
        mn.cust = [[600, 1, 60], [600, 1, 60]]
        mn.mode = E.M_CMIN
        grab("custom min")
        for i in range(len(E.BONUS)):
            mn.mode, mn.i = E.M_CBONUS, i
            grab("custom bonus %d" % i)
        mn.mode = E.M_CSEC
        grab("custom sec")
        for v in (-1, 0, 162):
            mn.mode, mn.value = E.M_KAZAN, v
            grab("kazan %d" % v)
    for i in range(2):
        mn.i = i
        for mode in (E.M_CSAME, E.M_MODE, E.M_MFIRST, E.M_FIRST):
            mn.mode, mn.tc = mode, "5400+30"
            grab("choice %d %d" % (mode, i))
    for v in (0, 600):
        mn.mode, mn.value = E.M_LATE, v
        grab("late %d" % v)
    for i in range(len(E.RESULTS)):
        mn.mode, mn.i = E.M_RESULT, i
        grab("result %d" % i)
    for v in (0, 1, 99):
        mn.mode, mn.value = E.M_LEAD, v
        grab("lead %d" % v)
    for v in (1, 60):
        mn.mode, mn.value = E.M_CHANGE, v
        grab("change %d" % v)
    for i in range(len(E.METHODS)):
        mn.mode, mn.i = E.M_METHOD, i
        grab("method %d" % i)
    mn.presets = [(p[0], p[1]) for p in PRESETS] + [(p["name"], p["tc"]) for p in app.store.presets]
    for i in range(len(mn.presets)):
        mn.mode, mn.i = MN.M_PRESET, i
        grab("preset %d" % i)
    reason = "corrections need the clock stopped (pause first)"  # an engine's reason, as it is
    for label in MN.ARB + (MN.RESUME,):
        mn.say("OK", label[0], 0, "OK", label[1])
        grab("ok " + label[0])
        mn.say_no(label[0], label[1], 0, reason)
        grab("no " + label[0])
    for spec in E.SETTINGS:
        mn.say("OK", spec[0], 0, "OK", spec[1])
        grab("ok " + spec[0])
        mn.say_no(spec[0], spec[1], 0, reason)
        grab("no " + spec[0])
    for what, what4 in (
        ("NEW GAME", "NEW"),
        ("BAD TC", "BAD"),
        ("MATCH", "MTCH"),
        ("RESULT", "RSLT"),
        ("LATE", "LATE"),
    ):
        mn.say_no(what, what4, 0, reason)
        grab("no " + what)
    mn.say("OK", "LATE", 0)
    grab("ok late")
    mn.msg = None
    return out


def _wrap_broken(text, lines):
    """Why `lines` are not `text` word-wrapped as menu_oled promises, or None: every line at most 21 characters,
    the words in order and whole (one longer than a line alone, in pieces), no line that could have taken the
    next line's first word. Checked on its properties, not by wrapping again."""
    if not lines or len(lines) > 4:
        return "%d lines" % len(lines)
    if any(len(line) > COLS or not line.strip() for line in lines):
        return "a line too long or empty"
    if "".join(" ".join(lines).split()) != "".join(text.split()):
        return "not the words of the reason"
    words = text.split()
    if any(len(w) <= COLS and w not in " ".join(lines).split() for w in words):
        return "a word split"
    for i in range(1, len(lines)):
        first = lines[i].split()[0]
        if len(lines[i - 1]) + 1 + len(first) <= COLS and len(lines[i - 1]) < COLS:
            return "line %d could have taken %r" % (i, first)
    return None


def test_every_menu_face_fits_in_every_language():
    def run(code, bad):
        for where, left, right, field, detail, _l4, _r4, _f4 in _menu_views():
            for blink in (0, 1):
                faces = F.menu_items(left, right, field, blink, detail)
                for side in (0, 1):
                    _fits(faces[side], code, (where, side, blink), bad)
            if detail and len(detail) > COLS:
                shown = [it[3] for it in faces[0] if it[0] == "text" and it[2] >= 12]
                why = _wrap_broken(detail, shown)
                if why:
                    bad.append((code, where, "reason", why, detail, shown))
                if _at_y([it for it in faces[0] if it[0] == "text"], 0) != [left]:
                    bad.append((code, where, "label beside a reason", left))
            if field is not None and field[1] > len(right):
                bad.append((code, where, "field past the value", right, field))

    bad = _in_each_language(run)
    assert not bad, bad


def test_the_menus_four_digit_texts_do_not_change_with_the_language():
    # the TM1637 keeps its codes in every language (faces/words.py); editors.py's LEAD (kok-boru, KB-14) at 0 puts
    # T("OFF") in right4: "ӨШІК" / "ВЫКЛ" / "ӨЧҮК", which text4 draws as four blank cells
    english = _menu_views()

    def run(code, bad):
        views = _menu_views()
        for k in range(len(views)):
            if views[k][5:] != english[k][5:]:
                bad.append((code, views[k][0], english[k][5:], views[k][5:]))
            for text in views[k][5:7]:
                if [c for c in text if ord(c) >= 128]:
                    bad.append((code, views[k][0], "not ASCII on a TM1637", text))

    bad = _in_each_language(run)
    assert not bad, bad


def test_the_menus_words_are_all_translated():
    # every word the menu shows is the language's (none left in English), none turned twice
    def run(code, bad):
        for where, left, right, _field, detail, _l4, _r4, _f4 in _menu_views():
            if T(left) != left:
                bad.append((code, where, "left turned again", left))
            for key in FW.KEYS:
                if code != "en" and T(key) != key and (left == key or right == key or detail == key):
                    bad.append((code, where, "an English word left", key))

    bad = _in_each_language(run)
    assert not bad, bad


def _preset_faces(name, tc):
    from sagatfw.ui import menu as MN

    app = _App()
    app.store.presets = [{"name": name, "tc": tc}]
    mn = MN.Menu(app)
    mn.active = True
    mn.presets = [(p["name"], p["tc"]) for p in app.store.presets]
    mn.mode, mn.i = MN.M_PRESET, 0
    mn._render()
    return mn, F.menu_items(mn.left, mn.right, mn.field, 1, mn.detail)


def test_a_user_preset_named_like_a_word_keeps_its_name():
    # a preset's name is the user's text (log/settings.py: 1..16 characters), shown "as it is" (sagatfw.T's
    # promise); menu.py _set runs the detail through T, so a preset named DEFAULT, CUSTOM or DRAW is shown
    # translated ("КЕШІГУ", "ӨЗІНДІК", "ТЕҢ ОЙЫН")
    def run(code, bad):
        for name in ("DEFAULT", "CUSTOM", "DRAW", "blitz-5"):
            mn, faces = _preset_faces(name, "300")
            if mn.detail != name:
                bad.append((code, name, mn.detail))

    bad = _in_each_language(run)
    assert not bad, bad


def test_a_handicap_presets_label_fits_the_menu_face():
    # a user preset may be a handicap ("LEFT|RIGHT", log/settings.py checks it with parse_sides): menu.tc_label
    # makes "40/90+30:30+30|40/120:60" (24 characters), drawn at scale 1 from x 0: 144 px on a 128 px face, in
    # every language (menu_oled now puts what a line cannot hold on the next one)
    def run(code, bad):
        mn, faces = _preset_faces("fide-vs-old", "40/5400+30:1800+30|40/7200:3600")
        _fits(faces[1], code, "handicap preset", bad)

    bad = _in_each_language(run)
    assert not bad, bad


# ------------------------------------------------------------------------------------------- the TM1637 faces


def _tm_bytes():
    """Every TM1637 face of the game and match scenarios, as bytes: none may depend on the language."""
    out = []
    buf = bytearray(4)
    g = _every_mark_at_once()
    c = g.clock
    for side in (L, R):
        out.append(bytes(F.tm1637(buf, c, side)))
    app = FakeApp(c)
    app.store.values["board"] = 8
    for s in range(len(F.STATUS_TEXT)):
        app.status = s
        app.code_text = "CODE 042917"
        t4 = F.status_text(app, True)
        out.append(bytes(F.text4(buf, t4 or "")))
    m = KokBoru()
    m.new_match(lead=8)
    r = Run(m)
    r.do("start", 0)
    for t in range(0, 8000, 1000):
        r.poll(t)
        for side in (L, R):
            out.append(bytes(MF.tm1637(buf, m, side)))
    return out


def test_the_tm1637_faces_do_not_change_with_the_language():
    english = _tm_bytes()

    def run(code, bad):
        if _tm_bytes() != english:
            bad.append(code)

    bad = _in_each_language(run)
    assert not bad, bad


# ----------------------------------------------------------------------------------------------------- T, use


def test_t_gives_anything_that_is_no_key_back_as_it_is():
    try:
        for code in CODES:
            sagatfw.use(code)
            assert T(None) is None and T("") == "" and T(5) == 5 and T(0) == 0 and T(1.5) == 1.5
            assert T(("PAUSE",)) == ("PAUSE",) and T(["PAUSE"]) == ["PAUSE"]
            assert T("pause") == "pause" and T(" PAUSE") == " PAUSE" and T("PAUSE ") == "PAUSE "
            for key in FW.KEYS:
                word = T(key)
                assert T(word) == word, (code, key, word)  # a word shown is never turned again
                assert T(T(T(key))) == word, (code, key)
            for other in CODES:  # another language's word is no key: as it is
                if other != "en":
                    table = __import__("sagatfw.faces.words_" + other, None, None, ("WORDS",)).WORDS
                    for i in range(1, len(table), 2):
                        if table[i] not in FW.KEYS:
                            assert T(table[i]) == table[i], (code, other, table[i])
                    sagatfw.forget("sagatfw.faces.words_" + other)
    finally:
        sagatfw.use("en")


def test_a_word_two_keys_share_stays_as_it_is():
    # kk: ARBITER and REFEREE are both ТӨРЕШІ, NO and NONE ЖОҚ, CHANGE and CHANGEOVER АУЫСУ; ky: PRESET and PRE
    # ШАБЛОН ...: the shared word is turned into nothing else
    try:
        for code in CODES[1:]:
            sagatfw.use(code)
            seen = {}
            for key in FW.KEYS:
                seen.setdefault(T(key), []).append(key)
            for word, keys in seen.items():
                assert T(word) == word, (code, word, keys)
    finally:
        sagatfw.use("en")


def test_use_takes_an_unknown_code_as_english_and_may_be_called_again_and_again():
    try:
        for bad in ("xx", "", None, 1, "KK", "en ", ["kk"], ("kk",)):
            sagatfw.use("kk")
            sagatfw.use(bad)
            assert T("PAUSE") == "PAUSE", bad
        for _ in range(3):
            sagatfw.use("ru")
            sagatfw.use("ru")
            assert T("PAUSE") == "ПАУЗА"
        for code in CODES * 5:
            sagatfw.use(code)
            assert (T("PAUSE") == "PAUSE") == (code == "en"), code
            assert "sagatfw.faces.words_" + code not in sys.modules, code  # its module let go: the table alone
    finally:
        sagatfw.use("en")


def test_switching_languages_a_hundred_times_leaks_no_heap():
    try:
        for code in CODES * 2:  # warm: every table's strings interned once (MicroPython's qstrs are kept)
            sagatfw.use(code)
        sagatfw.use("en")
        if sys.implementation.name != "micropython":
            return
        import gc

        gc.collect()
        before = gc.mem_alloc()
        for i in range(100):
            sagatfw.use(CODES[i % len(CODES)])
        sagatfw.use("en")
        gc.collect()
        after = gc.mem_alloc()
        assert after - before < 512, (before, after)
    finally:
        sagatfw.use("en")


def test_t_allocates_nothing_for_a_word_nor_for_any_other_text():
    # sagatfw.T's docstring: "No allocation: a search of the table's tuple". A key is found without allocating; any
    # other text (a name, a preset's label "5+3", an engine's reason, "1-0": menu.py _set passes them all through T)
    # makes tuple.index raise ValueError, an exception object on the heap: 128 B a call on the unix port, in every
    # language but English. (Under a locked heap T still answers: MicroPython's exception then needs no heap.)
    # MicroPython only.
    if sys.implementation.name != "micropython":
        return
    import gc

    import micropython

    grown = []
    try:
        for code in CODES:
            sagatfw.use(code)
            for text in ("PAUSE", "5+3", "Айгерим"):
                want = T(text)
                gc.collect()
                before = gc.mem_alloc()
                for _ in range(8):
                    T(text)
                after = gc.mem_alloc()
                if after - before >= 64:
                    grown.append((code, text, after - before))
                gc.collect()
                micropython.heap_lock()
                try:
                    got = T(text)
                finally:
                    micropython.heap_unlock()
                assert got == want, (code, text, got)
    finally:
        sagatfw.use("en")
    assert not grown, grown


def test_the_fonts_extra_letters_are_found_by_character_not_by_byte():
    # glyphs.at finds a Kazakh / Kyrgyz letter with EXTRA.find: a character's index on both runtimes
    for i in range(len(glyphs.EXTRA)):
        c = glyphs.EXTRA[i]
        assert glyphs.at(c) == (159 + i) * 12 and glyphs.has(c), (i, c)
    assert glyphs.at("А") == 95 * 12 and glyphs.at("я") == (95 + 63) * 12
    assert glyphs.at("\u0450") == glyphs.at("?") and not glyphs.has("\u0450")  # ѐ: no glyph
    assert glyphs.at("\u04d9") == glyphs.at("ә") and len("әғқ") == 3


# -------------------------------------------------------------------------------------- the sim's terminal


def test_the_sims_terminal_faces_keep_cyrillic_whole():
    # boards/sim.py _face_lines: a face's rows of text by characters (not by UTF-8 bytes on MicroPython); the
    # run row framed as [ ... ] in 21 columns
    from sagatfw.boards.sim import _face_lines

    def run(code, bad):
        g = Game("5400", freeze=False)
        g.start(0)
        g.poll(5400000 + 1000)
        g.pause(5400000 + 2000)
        g.call("adjourn", 5400000 + 3000)
        for side in (L, R):
            items = F.oled(g.clock, side, 20000, 100, False, 1, None)
            rows = _face_lines(items)
            for _y, text in rows:
                if len(text) > COLS:
                    bad.append((code, side, "row past 21", text))
            run_row = [t for y, t in rows if y == 40]
            st = "> " + T("ADJ") + " <"
            if side == L and not (
                len(run_row) == 1
                and run_row[0][:1] == "["
                and run_row[0][-1:] == "]"
                and st in run_row[0]
                and len(run_row[0]) == COLS
            ):
                bad.append((code, side, "framed", run_row))
        m = Kilithattu()
        m.new_match(first=L)
        r = Run(m)
        r.do("start", 0)
        r.do("stoppage", 1000)
        for side in (L, R):
            rows = _face_lines(MF.oled(m, side, None))
            top = [t for y, t in rows if y == 0]
            name = T("INNINGS 1")
            if not top or not top[0].startswith(name) or (side == L and not top[0].rstrip().endswith(T("IN"))):
                bad.append((code, side, "top", top))

    bad = _in_each_language(run)
    assert not bad, bad
