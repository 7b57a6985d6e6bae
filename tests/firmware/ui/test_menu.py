# The on-clock menu (firmware/sagatfw/ui/menu.py, its value editors in editors.py) driving a REAL
# App on a tiny fake board (tests/kits/menukit.py's rig): every button goes through the real Buttons
# path (IRQ edges, debounce, SHORT and LONG) and App.step, every action through the App, so it is
# logged in a real journal (a temporary directory). Runs under CPython (pytest) and MicroPython
# (tests/mprun.py). Press costs: a short press takes 0.4 s, a long one 1.2 s (held past buttons'
# long_ms of 1 s): the rig's time advances by exactly that per press.
from menukit import LONG_MS, SHORT_MS, Rig, cost, go_to, open_arbiter, shortest

from sagatfw import T, use
from sagatfw.engine import clock as C
from sagatfw.faces import game as F
from sagatfw.ui import buttons as B
from sagatfw.ui import editors as E
from sagatfw.ui import menu as MN


def hms(s):
    return "%d:%02d:%02d" % (s // 3600, (s // 60) % 60, s % 60)


# ----------------------------------------------------------------------- opening, closing


def test_the_menus_levels_and_its_editors_levels_are_numbered_apart():
    # menu.py and editors.py number their levels (modes) in one sequence: a number in both would
    # hand a button meant for one level to the other
    mine = [getattr(MN, n) for n in dir(MN) if n.startswith("M_")]
    theirs = [getattr(E, n) for n in dir(E) if n.startswith("M_")]
    assert sorted(mine + theirs) == list(range(len(mine) + len(theirs))), (mine, theirs)


def test_menu_opens_only_while_stopped_and_closes():
    rig = Rig("420")
    try:
        assert not rig.menu.active and rig.app.menu is rig.menu
        rig.press(B.MENU)
        assert rig.menu.active and rig.view() == ("MENU", "PRESET")  # SETUP: on PRESET
        assert rig.menu.view4() == ("MENU", "PRES")
        rig.press(B.START)  # into the presets: START never starts the clock from the menu
        assert rig.state() == C.SETUP and rig.menu.mode == MN.M_PRESET
        rig.press(B.MENU)  # back one level
        assert rig.menu.mode == MN.M_TOP
        rig.press(B.MENU)  # back from the top: closed
        assert not rig.menu.active
        rig.press(B.MENU)
        rig.press(B.PLUS)
        rig.press(B.START)  # CUSTOM, one level down
        rig.press(B.MENU, long=True)  # leaves from anywhere
        assert not rig.menu.active and rig.state() == C.SETUP
        rig.press(B.START)  # menu closed: START goes to the app and starts the game
        assert rig.state() == C.RUNNING
        rig.press(B.MENU)  # never opens while the clock runs
        rig.press(B.PLUS)
        rig.press(B.MENU, long=True)
        assert not rig.menu.active and rig.state() == C.RUNNING
        rig.press(B.START)  # pauses (the app)
        assert rig.state() == C.PAUSED
        rig.press(B.MENU)
        assert rig.menu.active and rig.view() == ("MENU", "ARBITER")  # a game in progress: ARBITER
        rig.press(B.MENU, long=True)
        rig.press(B.START)  # resumes
        assert rig.state() == C.RUNNING and not rig.menu.active
    finally:
        rig.close()


def test_menu_gives_way_when_the_clock_starts_elsewhere():
    rig = Rig("420")
    try:
        rig.press(B.MENU)
        rig.app.start(rig.t)  # the host starts the game while the menu is open
        rig.press(B.START)  # the menu closes, the START goes to the app: a pause
        assert not rig.menu.active and rig.state() == C.PAUSED
    finally:
        rig.close()


def test_messages_expire_or_give_way_to_the_next_button():
    rig = Rig("420")
    try:
        open_arbiter(rig, MN.A_EXTEND)
        rig.press(B.START)
        assert rig.view() == ("EXTEND?", "+5:00")
        rig.press(B.START)  # no flag is down: refused
        assert rig.view() == ("NO", "EXTEND") and "flag" in rig.menu.detail
        assert rig.menu.view4() == ("NO", "EXT")
        assert rig.menu.view(rig.t + MN.MSG_MS) == ("ARBITER", "EXTEND")  # gone after MSG_MS
        rig.press(B.START)
        rig.press(B.START)
        assert rig.view()[0] == "NO"
        rig.press(B.PLUS)  # the next button acts as usual
        assert rig.view() == ("ARBITER", "LATE")
    finally:
        rig.close()


# -------------------------------------------------------------------------------- presets


def test_preset_sets_up_the_control_and_the_first_side():
    rig = Rig("420")
    try:
        rig.press(B.MENU)
        rig.press(B.START)
        assert rig.view() == ("PRE 1", "7") and rig.menu.detail == "tk-blitz"  # on the current control
        rig.press(B.PLUS)
        assert rig.view() == ("PRE 2", "20") and rig.menu.detail == "tk-rapid"
        rig.press(B.START)
        assert rig.view() == ("FIRST", "LEFT")
        rig.press(B.PLUS)
        assert rig.view() == ("FIRST", "RIGHT") and rig.menu.view4() == ("1ST", "RGHT")
        rig.press(B.START)
        assert not rig.menu.active
        assert rig.app.store.values["tc"] == "1200" and rig.app.store.values["first"] == "right"
        c = rig.app.clock
        assert c.state == C.SETUP and c.first == C.RIGHT and c.ms(C.LEFT) == c.ms(C.RIGHT) == 1200000
        rig.press(B.START)  # TK-C5: starting the game starts the first player's face
        assert c.running == C.RIGHT
        start = rig.log("game_start")[-1]
        assert start["tc"] == "1200" and start["first"] == "right"
    finally:
        rig.close()


def test_user_presets_follow_the_built_in_ones():
    rig = Rig("420")
    try:
        rig.app.store.set_preset(0, "club", "900+5")
        rig.app.store.set_preset(1, "odds", "300|180")
        rig.press(B.MENU)
        rig.press(B.START)
        rig.press(B.MINUS)  # wraps from the first to the last: the user presets
        assert rig.view()[1] == "5|3" and rig.menu.detail == "odds"
        rig.press(B.MINUS)
        assert rig.view()[1] == "15+5" and rig.menu.detail == "club"
        n = rig.menu.choices()
        rig.press(B.PLUS, long=True)  # a long list: LONG steps by 10
        assert rig.menu.i == (n - 2 + 10) % n
        rig.press(B.MINUS, long=True)
        rig.press(B.START)
        rig.press(B.START)
        assert rig.app.store.values["tc"] == "900+5"
        assert rig.app.clock.tc_field() == "900+5"
    finally:
        rig.close()


def test_every_preset_label_is_short_and_parses():
    from sagatfw.core.presets import PRESETS

    for name, tc, _ in PRESETS:
        label = MN.tc_label(tc)
        assert label != "?" and 0 < len(label) <= 14, (name, label)
    assert MN.tc_label("40/5400+30:1800+30") == "40/90+30:30+30"
    assert MN.tc_label("600j30x5") == "10j30x5"
    assert MN.tc_label("1200c25/300") == "20c25/5"
    assert MN.tc_label("*60") == "HG1" and MN.tc_label("-") == "UP" and MN.tc_label("90") == "1:30"
    assert MN.tc_label("300d5|180b2") == "5d5|3b2" and MN.tc_label("x") == "?"


def test_new_game_while_one_is_in_progress_needs_abort():
    rig = Rig("420")
    try:
        rig.press(B.START)
        rig.lever(C.LEFT)
        rig.press(B.START)  # paused mid-game
        rig.press(B.MENU)
        rig.press(B.PLUS)  # ARBITER -> MATCH
        rig.press(B.PLUS)  # -> PRESET (wraps)
        rig.press(B.START)
        assert rig.view() == ("ABORT?", "NO")
        rig.press(B.START)  # NO: back to the top, nothing changed
        assert rig.menu.mode == MN.M_TOP and rig.state() == C.PAUSED
        rig.press(B.START)
        rig.press(B.PLUS)
        assert rig.view() == ("ABORT?", "YES")
        rig.press(B.START)
        assert rig.menu.mode == MN.M_PRESET
        rig.press(B.MENU)  # back from the list goes to the top, not to ABORT?
        assert rig.menu.mode == MN.M_TOP
        rig.press(B.START)
        rig.press(B.PLUS)
        rig.press(B.START)  # YES
        rig.press(B.PLUS)  # tk-rapid
        rig.press(B.START)
        rig.press(B.START)
        assert not rig.menu.active and rig.state() == C.SETUP and rig.app.clock.ms(C.LEFT) == 1200000
    finally:
        rig.close()


def test_new_game_after_a_result_needs_no_abort():
    rig = Rig("420")
    try:
        rig.press(B.START)
        rig.press(B.START)
        rig.app.result("1-0", rig.t)
        rig.press(B.MENU)
        assert rig.view() == ("MENU", "PRESET")
        rig.press(B.START)
        assert rig.menu.mode == MN.M_PRESET
        rig.press(B.START)
        rig.press(B.START)
        assert rig.state() == C.SETUP
    finally:
        rig.close()


# --------------------------------------------------------------------------------- custom


def test_custom_handicap_control():
    rig = Rig("420")
    try:
        rig.press(B.MENU)
        rig.press(B.PLUS)
        rig.press(B.START)
        assert rig.view() == ("MIN L", "7 MIN")  # from the current control
        rig.presses_of([(B.MINUS, False)] * 2)
        rig.press(B.START)
        assert rig.view() == ("BONUS L", "NONE")
        rig.press(B.PLUS)
        assert rig.view() == ("BONUS L", "+") and rig.menu.detail == "Fischer increment"
        rig.press(B.START)
        assert rig.view() == ("SEC L", "2 S")
        rig.press(B.START)
        assert rig.view() == ("SAME R?", "YES")
        rig.press(B.MINUS)
        rig.press(B.START)
        assert rig.view() == ("MIN R", "7 MIN")
        rig.presses_of([(B.MINUS, False)] * 4)
        rig.press(B.START)
        rig.press(B.PLUS)
        rig.press(B.START)
        rig.press(B.START)
        assert rig.view() == ("FIRST", "LEFT") and rig.menu.detail == "300+2|180+2"
        rig.press(B.START)
        assert not rig.menu.active
        assert rig.app.store.values["tc"] == "300+2|180+2"
        c = rig.app.clock
        assert c.tc_field() == {"left": "300+2", "right": "180+2"}
        assert (c.ms(C.LEFT), c.ms(C.RIGHT)) == (300000, 180000)
    finally:
        rig.close()


def test_custom_same_for_both_with_delay_and_long_steps():
    rig = Rig("420")
    try:
        rig.press(B.MENU)
        rig.press(B.PLUS)
        rig.press(B.START)
        rig.press(B.PLUS, long=True)  # 7 -> 17
        rig.press(B.PLUS, long=True)  # 27
        rig.press(B.MINUS, False)  # 26
        assert rig.view() == ("MIN L", "26 MIN")
        rig.press(B.MINUS, long=True)
        rig.press(B.MINUS, long=True)
        rig.press(B.MINUS, long=True)  # 26 - 30 wraps: 596
        assert rig.view() == ("MIN L", "596 MIN")
        rig.press(B.PLUS, long=True)  # 606 wraps to 6
        rig.presses_of([(B.PLUS, False)] * 4)
        assert rig.view() == ("MIN L", "10 MIN")
        rig.press(B.START)
        rig.press(B.PLUS)
        rig.press(B.PLUS)
        assert rig.view() == ("BONUS L", "D")
        rig.press(B.START)
        rig.presses_of([(B.PLUS, False)] * 3)
        rig.press(B.START)
        rig.press(B.START)  # SAME R? YES
        rig.press(B.START)  # FIRST left
        assert rig.app.store.values["tc"] == "600d5" and rig.app.clock.tc_field() == "600d5"
    finally:
        rig.close()


def test_bad_custom_control_is_refused():
    rig = Rig("420")
    try:
        rig.press(B.MENU)
        rig.press(B.PLUS)
        rig.press(B.START)
        rig.press(B.START)
        rig.press(B.PLUS)  # +
        rig.press(B.START)
        rig.presses_of([(B.MINUS, False)] * 2)  # 0 s
        assert rig.view() == ("SEC L", "0 S")
        rig.press(B.START)
        rig.press(B.START)  # SAME R? YES: "420+0" is built and refused
        assert rig.view() == ("NO", "BAD TC") and "out of range" in rig.menu.detail
        assert rig.menu.active and rig.menu.mode == E.M_CSAME
        assert rig.app.store.values["tc"] == "420" and rig.app.clock.tc_field() == "420"
        rig.press(B.MENU)  # back to the seconds, fix them
        rig.press(B.PLUS)
        rig.press(B.START)
        rig.press(B.START)
        rig.press(B.START)
        assert rig.app.store.values["tc"] == "420+1"
    finally:
        rig.close()


# ------------------------------------------------------------------------------- settings


def test_each_setting():
    rig = Rig("420")
    try:
        values = rig.app.store.values
        for k in range(len(MN.SETTINGS)):
            label, label4, key, choices, texts = MN.SETTINGS[k]
            for j in range(len(choices)):
                want = (j + 1) % len(choices)  # every value, ending where it began
                rig.press(B.MENU)
                go_to(rig, MN.T_SETTINGS)
                rig.press(B.START)
                go_to(rig, k)
                # (in the faces' language: LANGUAGE changes it as the loop goes, kk, ru, ky, back to English)
                assert rig.view() == (T("SETTINGS"), T(label))
                rig.press(B.START)
                assert rig.view()[0] == T(label) and rig.menu.view4()[0] == label4
                go_to(rig, want)
                assert rig.view() == (T(label), T(texts[want]))
                assert F.cells4(rig.menu.view4()[1]) <= 4
                rig.press(B.START)
                assert rig.view() == (T("OK"), T(label)), (key, rig.view(), rig.menu.detail)
                got = values[key]
                assert got is choices[want] or (got == choices[want] and type(got) is type(choices[want])), key
                if key == "lang" and got != "en":
                    assert T("OK") != "OK"  # the menu speaks the language chosen at once
                rig.press(B.MENU, long=True)
        assert len(rig.log("settings")) >= 1 and values["lang"] == "en"
    finally:
        use("en")
        rig.close()


def test_settings_reach_the_clock_and_refused_mid_game():
    rig = Rig("420")
    try:
        rig.press(B.MENU)
        go_to(rig, MN.T_SETTINGS)
        rig.press(B.START)
        go_to(rig, 3)  # LOW
        rig.press(B.START)
        assert rig.view() == ("LOW", "5 MIN")  # the current value
        rig.press(B.MINUS)
        rig.press(B.START)
        assert rig.app.clock.settings.low_time_ms == 120000  # the game not started takes it now
        rig.press(B.MENU, long=True)
        rig.press(B.START)
        rig.press(B.START)  # paused mid-game
        rig.press(B.MENU)
        go_to(rig, MN.T_SETTINGS)
        rig.press(B.START)
        go_to(rig, 4)  # SOUND
        rig.press(B.START)
        rig.press(B.PLUS)
        rig.press(B.START)
        assert rig.view() == ("NO", "SOUND") and "between games" in rig.menu.detail
        assert rig.app.store.values["sound"] is True and rig.state() == C.PAUSED
    finally:
        rig.close()


# -------------------------------------------------------------------------------- arbiter


def test_moves_and_stage_corrections():
    rig = Rig("40/5400:1800")
    try:
        rig.press(B.START)
        for _ in range(3):
            rig.lever(C.LEFT)
            rig.lever(C.RIGHT)
        rig.press(B.START)
        c = rig.app.clock
        assert c.moves == [3, 3] and rig.state() == C.PAUSED
        open_arbiter(rig, MN.A_MOVES_L)
        rig.press(B.START)
        assert rig.view() == ("MOVES L", "3") and rig.menu.field == (0, 1)
        rig.press(B.PLUS, long=True)
        rig.press(B.PLUS, long=True)
        rig.press(B.PLUS, long=True)
        rig.press(B.PLUS, long=True)
        rig.press(B.MINUS)
        rig.press(B.MINUS)
        rig.press(B.MINUS)
        assert rig.view() == ("MOVES L", "40")
        rig.press(B.START)
        assert rig.view() == ("OK", "MOVES L") and c.moves == [40, 3]
        assert rig.menu.view(rig.t + MN.MSG_MS) == ("ARBITER", "MOVES R")  # on to the next item
        rig.press(B.START)
        rig.press(B.START)  # unchanged: nothing applied, on to STAGE L
        assert rig.view() == ("ARBITER", "STAGE L")
        rig.press(B.START)
        assert rig.view() == ("STAGE L", "1")
        rig.press(B.PLUS)
        assert rig.view() == ("STAGE L", "2")
        rig.press(B.PLUS)  # 2 stages, no repeat: wraps to 1
        assert rig.view() == ("STAGE L", "1")
        rig.press(B.MINUS)
        rig.press(B.START)
        assert c.stage == [2, 1]
        adj = rig.log("adjust")
        assert len(adj) == 2
        assert adj[0]["side"] == "left" and adj[0]["before"]["moves"] == 3 and adj[0]["after"]["moves"] == 40
        assert adj[1]["before"]["stage"] == 1 and adj[1]["after"]["stage"] == 2
        assert adj[1]["reason"] == "correction"
    finally:
        rig.close()


def test_time_editor_fields_wrap_and_go_back():
    rig = Rig("420")
    try:
        rig.press(B.START)
        rig.press(B.START)
        open_arbiter(rig, MN.A_TIME_R)
        rig.press(B.START)
        assert rig.view() == ("TIME R", "0:07:00") and rig.menu.field == (0, 1)
        assert rig.menu.view4() == ("TI.R", "0:07") and rig.menu.field4 == (0, 1)
        rig.press(B.MINUS)
        assert rig.view() == ("TIME R", "99:07:00") and rig.menu.field == (0, 2)
        rig.press(B.PLUS)
        rig.press(B.PLUS)
        rig.press(B.START)
        assert rig.menu.field == (2, 4) and rig.menu.field4 == (2, 4)
        rig.press(B.MINUS, long=True)  # 07 - 10 wraps: 57
        assert rig.view() == ("TIME R", "1:57:00")
        rig.press(B.START)
        assert rig.menu.field == (5, 7) and rig.menu.view4() == ("TI.R", "57:00") and rig.menu.field4 == (3, 5)
        rig.press(B.MINUS)
        assert rig.view() == ("TIME R", "1:57:59")
        rig.press(B.MENU)  # back one field: minutes again
        assert rig.menu.field == (2, 4)
        rig.press(B.MENU)
        rig.press(B.MENU)  # back from hours: the list, nothing applied
        assert rig.view() == ("ARBITER", "TIME R") and rig.log("adjust") == []
        rig.press(B.START)
        assert rig.view() == ("TIME R", "0:07:00")  # begins again from the face
    finally:
        rig.close()


def test_time_correction_moves_on_to_the_other_side_after_seconds():
    """After TIME L's seconds, START applies it and the list shows TIME R (the DGT order), not
    TIME L's editor again."""
    rig = Rig("420")
    try:
        rig.press(B.START)
        rig.press(B.START)
        open_arbiter(rig, MN.A_TIME_L)
        rig.press(B.START)
        assert rig.view() == ("TIME L", "0:07:00")
        rig.press(B.START)
        rig.press(B.START)
        rig.press(B.MINUS)  # 0:06:59
        rig.press(B.START)
        assert len(rig.log("adjust")) == 1 and rig.log("adjust")[0]["side"] == "left"
        assert rig.menu.mode == MN.M_ARB and rig.menu.i == MN.A_TIME_R  # "OK" shown over the list
        rig.press(B.START)  # the next button acts as usual: TIME R's editor
        assert rig.view() == ("TIME R", "0:07:00") and rig.menu.field == (0, 1)
    finally:
        rig.close()


def _correct(rig, side, start_s, target_s):
    """Set `side` to start_s (directly), then correct it to target_s with the menu, fewest presses.
    Returns the seconds of presses the correction took."""
    app = rig.app
    app.adjust(side, start_s * 1000, None, None, rig.t)
    t0 = rig.t
    open_arbiter(rig, MN.A_TIME_L + side)
    rig.press(B.START)
    assert rig.view() == (("TIME L", "TIME R")[side], hms(start_s))
    fields = (start_s // 3600, (start_s // 60) % 60, start_s % 60)
    want = (target_s // 3600, (target_s // 60) % 60, target_s % 60)
    for f in range(3):
        rig.presses_of(shortest(fields[f], want[f], 0, E.MAX_H if f == 0 else 59))
        rig.press(B.START)
    rig.press(B.MENU, long=True)
    took = rig.t - t0
    assert not rig.menu.active and rig.state() == C.PAUSED
    return took


def _lcg(seed):
    state = [seed]

    def rand(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n

    return rand


def test_time_correction_takes_under_60_s_of_presses():
    """FIDE (Handbook C.02.03): the arbiter corrects time and moves within 60 s."""
    rig = Rig("7200")
    try:
        rig.press(B.START)
        rig.lever(C.LEFT)
        rig.press(B.START)
        pairs = [
            (0, 7199),  # 0:00:00 -> 1:59:59
            (7200, 1),  # 2:00:00 -> 0:00:01
            (3599, 3600),
            (3600, 3599),
            (5400, 300),
            (60, 0),
            (35999, 18000),
            (0, 99 * 3600 + 59 * 60 + 59),
        ]
        rand = _lcg(2026)
        for _ in range(40):
            a = rand(10 * 3600)
            b = rand(10 * 3600)
            if a != b:
                pairs.append((a, b))
        worst = 0
        total = 0
        checked = []
        for k in range(len(pairs)):
            a, b = pairs[k]
            side = k % 2
            took = _correct(rig, side, a, b)
            assert took < 60000, (a, b, took)
            worst = took if took > worst else worst
            total += took
            c = rig.app.clock
            assert c.ms(side) == b * 1000
            assert F.face_text(c, side) == F.time_text(b * 1000)
            checked.append((side, a, b))
        # The journal has each correction: the direct one, then the menu's, with before and after.
        adj = rig.log("adjust")
        menu_adj = [adj[i] for i in range(1, len(adj), 2)]
        assert len(menu_adj) == len(checked)
        for k in range(len(checked)):
            e = menu_adj[k]
            side, a, b = checked[k]
            assert e["side"] == C.SIDE_NAMES[side] and e["reason"] == "correction"
            assert e["before"]["ms"] == a * 1000 and e["after"]["ms"] == b * 1000
            assert e[C.SIDE_NAMES[side] + "_ms"] == b * 1000
        assert F.time_text(7199000) == "1:59:59"
        assert worst < 60000
        assert total // len(pairs) < 20000
    finally:
        rig.close()


def test_worst_case_time_correction_bound():
    """Over every start and target: fixed presses plus the worst of each field (fields are
    independent and wrap), well under FIDE's 60 s."""
    fixed = 6 * SHORT_MS + LONG_MS  # MENU, START (ARBITER), PLUS (TIME R), START, 3 x START, MENU long
    fixed = fixed + SHORT_MS
    worst_h = max(cost(shortest(0, d, 0, E.MAX_H)) for d in range(E.MAX_H + 1))
    worst_60 = max(cost(shortest(0, d, 0, 59)) for d in range(60))
    assert worst_60 == 4800  # 26 (or 34): two LONG +10 and six +1
    assert worst_h == 7200  # 46 (or 54): four LONG +10 and six +1
    assert fixed + worst_h + 2 * worst_60 < 60000
    assert fixed + worst_h + 2 * worst_60 == 20800


def test_extend_after_a_flag_tk_c14():
    rig = Rig("60+1")  # an increment: freeze on by default, the flag stops both faces
    try:
        rig.press(B.START)
        rig.wait(61000)
        c = rig.app.clock
        assert rig.state() == C.FLAGGED and c.flag[C.LEFT] == 1
        rig.press(B.MENU)
        assert rig.view() == ("MENU", "ARBITER")
        rig.press(B.START)
        go_to(rig, MN.A_EXTEND)
        rig.press(B.START)
        assert rig.view() == ("EXTEND?", "+5:00")
        rig.press(B.START)
        assert not rig.menu.active  # the side to move runs again
        assert rig.state() == C.RUNNING and c.running == C.LEFT and c.flag == [0, 0]
        ext = rig.log("extension")
        assert len(ext) == 1 and ext[0]["left_ms"] == 300000 and ext[0]["right_ms"] == 360000
    finally:
        rig.close()


def test_late_installation_tk_c11():
    rig = Rig("3600")
    try:
        open_arbiter(rig, MN.A_LATE)
        rig.press(B.START)
        assert rig.view() == ("LATE", "0 MIN")
        for _ in range(4):
            rig.press(B.PLUS, long=True)
        assert rig.view() == ("LATE", "40 MIN")
        rig.press(B.START)
        assert rig.view() == ("OK", "LATE")
        c = rig.app.clock
        assert c.ms(C.LEFT) == c.ms(C.RIGHT) == 2400000  # 60 min - 40 / 2
        adj = rig.log("adjust")
        assert [e["reason"] for e in adj] == ["late_install", "late_install"]
        rig.press(B.MENU, long=True)
        rig.press(B.START)
        rig.press(B.START)  # paused mid-game: too late for a late installation
        open_arbiter(rig, MN.A_LATE)
        rig.press(B.START)
        rig.press(B.PLUS)
        rig.press(B.START)
        assert rig.view() == ("NO", "LATE") and "before the clock is started" in rig.menu.detail
        assert len(rig.log("adjust")) == 2
    finally:
        rig.close()


def test_adjourn_and_resume_tk_a1_a4():
    rig = Rig("600")
    try:
        open_arbiter(rig, MN.A_ADJOURN)
        rig.press(B.START)
        rig.press(B.START)  # in SETUP there is nothing to adjourn
        assert rig.view() == ("NO", "ADJOURN")
        rig.press(B.MENU, long=True)
        rig.press(B.START)
        rig.lever(C.LEFT, 5000)
        rig.wait(3000)
        rig.press(B.START)
        c = rig.app.clock
        times = (c.ms(C.LEFT), c.ms(C.RIGHT))
        open_arbiter(rig, MN.A_ADJOURN)
        rig.press(B.START)
        assert rig.view() == ("ADJOURN?", "OK?")
        rig.press(B.START)
        assert rig.state() == C.ADJOURNED and rig.view() == ("OK", "ADJOURN")
        assert rig.menu.view(rig.t + MN.MSG_MS) == ("ARBITER", "RESUME")
        rig.press(B.MENU, long=True)
        rig.wait(600000)  # the adjournment is not game time for either side
        assert (c.ms(C.LEFT), c.ms(C.RIGHT)) == times
        open_arbiter(rig, MN.A_ADJOURN)
        rig.press(B.START)
        assert rig.view() == ("RESUME?", "OK?")
        rig.press(B.START)
        assert not rig.menu.active and rig.state() == C.RUNNING and c.running == C.RIGHT
        assert [e["type"] for e in rig.log() if e["type"] in ("adjourn", "resume_adjourned")] == [
            "adjourn",
            "resume_adjourned",
        ]
    finally:
        rig.close()


def test_results_tk_r():
    for k in range(len(E.RESULTS)):
        rig = Rig("420")
        try:
            if k < 3:
                rig.press(B.START)
                rig.lever(C.LEFT)
                rig.press(B.START)
            # else: a forfeit before the start (TK-R4)
            open_arbiter(rig, MN.A_RESULT)
            rig.press(B.START)
            assert rig.view() == ("RESULT", "1-0")
            go_to(rig, k)
            assert rig.view() == ("RESULT", E.RESULTS[k])
            rig.press(B.START)
            if k < 3:  # a game played: its final kazans first (TK-R7), "--" for none
                assert rig.view() == ("KAZAN L", "--")
                rig.press(B.START)
            assert not rig.menu.active and rig.state() == C.FINISHED
            res = rig.log("result")
            assert len(res) == 1 and res[0]["result"] == C.RESULT_NAMES[k]
        finally:
            rig.close()


def test_corrections_need_the_clock_stopped():
    rig = Rig("420")
    try:
        rig.press(B.START)
        rig.press(B.MENU)  # running: the menu does not open, nothing can be corrected
        for button in (B.PLUS, B.START):
            rig.press(button)
            assert not rig.menu.active
        assert rig.state() == C.PAUSED  # that START was the app's pause
        rig.press(B.START)
        assert rig.state() == C.RUNNING and rig.log("adjust") == []
    finally:
        rig.close()


def test_result_after_finished_game_refused_for_corrections():
    rig = Rig("420")
    try:
        rig.press(B.START)
        rig.press(B.START)
        rig.app.result("0-1", rig.t)
        open_arbiter(rig, MN.A_TIME_L)
        rig.press(B.START)
        rig.press(B.PLUS)
        for _ in range(3):
            rig.press(B.START)
        assert rig.view() == ("NO", "TIME L") and "stopped" in rig.menu.detail
        assert rig.log("adjust") == []
    finally:
        rig.close()


# ---------------------------------------------------------------------------- robustness


def test_random_buttons_never_raise_and_never_run_in_the_menu():
    rig = Rig("300+2")
    try:
        rand = _lcg(7)
        buttons = (B.START, B.MENU, B.PLUS, B.MINUS, B.PLUS, B.MINUS, B.START, B.MENU)
        modes = {}
        for _ in range(2500):
            r = rand(20)
            if r < 2:
                rig.lever(rand(2), 50 + rand(3000))
            else:
                rig.press(buttons[rand(len(buttons))], rand(6) == 0)
            m = rig.menu
            assert not (m.active and rig.state() == C.RUNNING)
            if m.active:
                modes[m.mode] = 1
                left, right = m.view(rig.t)
                left4, right4 = m.view4(rig.t)
                assert len(left) <= 8 and F.cells4(left4) <= 4, (left, left4)
                if m.mode != MN.M_PRESET and m.mode != E.M_FIRST:  # TimeControl labels may be longer
                    assert len(right) <= 8 and F.cells4(right4) <= 4, (m.mode, right, right4)
                if m.field is not None:
                    assert 0 <= m.field[0] < m.field[1] <= len(right)
            if rig.state() == C.FINISHED and rand(4) == 0:
                rig.app.new_game("300+2", "left", rig.t)
        assert rig.menu.errors == 0 and rig.board.notes == []
        assert len(modes) >= 10, sorted(modes)
    finally:
        rig.close()


def test_an_unexpected_error_closes_the_menu_and_is_noted():
    rig = Rig("420")
    try:
        rig.press(B.MENU)
        rig.menu.presets = None
        rig.menu.mode = MN.M_PRESET  # a list with no entries loaded: fails inside the menu
        assert rig.menu.button(B.PLUS, B.SHORT, rig.t) is True
        assert not rig.menu.active and rig.menu.errors == 1 and rig.board.notes[0].startswith("menu error")
    finally:
        rig.close()


def test_a_transient_menu_detaches_when_it_closes():
    rig = Rig("420")
    try:
        app = rig.app
        app.menu = None
        menu = MN.Menu(app, transient=True)
        assert app.menu is menu
        assert menu.button(B.MENU, B.SHORT, rig.t) is True and menu.active
        assert menu.button(B.MENU, B.LONG, rig.t) is True
        assert not menu.active and app.menu is None
        rig.press(B.START)  # the app goes on without a menu: START starts the game
        assert rig.state() == C.RUNNING
    finally:
        rig.close()
