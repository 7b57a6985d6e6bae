# The faces of a match (sagatfw/faces/matchfaces.py): TM1637 bytes, LEDs and OLED items from
# the engines' view, under CPython and MicroPython. Rule IDs where a face shows a rule's state.
from matchkit import MIN, NEAR_WRAP, Run

from sagatfw.engine.kilithattu import Kilithattu
from sagatfw.engine.kokboru import KokBoru
from sagatfw.engine.matchwords import BREAK, CARD_RED, CARD_WARNING, LEFT, RIGHT, RUNNING
from sagatfw.faces import game as F
from sagatfw.faces import matchfaces as MF


def _tm(m, side, blink=1):
    return bytes(MF.tm1637(bytearray(4), m, side, blink))


def _seg(text):
    """TM1637 bytes of a short text as faces/game.py's text4 draws it: " 3:48" (the colon on
    byte 1), " 4-0" (a dash), "H1" (right-aligned)."""
    return bytes(F.text4(bytearray(4), text))


def _at(r, m, t, phase):
    """Poll the engine to the next t (>= t) where the faces' 2 s phase (m.t // 2000 % 4) is `phase`."""
    t += (phase - (t // 2000) % 4) % 4 * 2000
    r.poll(t)
    assert m.t // 2000 % 4 == phase
    return t


def _bout(lead=8, base=NEAR_WRAP):
    m = KokBoru()
    m.new_match(lead=lead)
    return Run(m, base), m


def _texts(items):
    return [it[3] for it in items if it[0] == "text"]


def test_tm1637_left_face_is_the_match_time_right_face_the_score_kb_5():
    r, m = _bout()
    assert _tm(m, LEFT) == _seg(" 4:00") and _tm(m, RIGHT) == _seg(" 0-0")  # KB-5: 4:00 a half
    r.do("start", 0)
    r.poll(12300)
    assert _tm(m, LEFT) == _seg(" 3:48")  # 227.7 s left: rounded up, never 0:00 while time remains
    r.do("score", 12300, LEFT, 4)
    r.do("score", 13000, RIGHT, 2)
    r.do("score", 13500, LEFT, 4)
    assert _at(r, m, 16000, 0) and _tm(m, RIGHT) == _seg(" 8-2")  # left 8 - right 2
    r.poll(239500)
    assert _tm(m, LEFT) == _seg(" 0:01")


def test_the_score_face_never_lights_the_colon_nor_reads_as_a_time_kb_7_kt_5_5():
    # a score is never a time: no colon, and a dash between the scores where it fits (" 4-0" is
    # not the time 4:00 beside it); the time face always lights its colon
    r, m = _bout(lead=0)
    r.do("start", 0)
    want = {(0, 0): " 0-0", (4, 0): " 4-0", (4, 12): "4-12", (12, 8): "12-8", (12, 10): "1210", (99, 99): "9999",
            (150, 3): "99-3"}
    for (a, b), text in want.items():
        m.scores[LEFT] = a  # (the view the faces read: any score, however reached)
        m.scores[RIGHT] = b
        face = _tm(m, RIGHT)
        assert face == _seg(text), (a, b)
        assert not face[1] & F.SEG_DP and face != _seg(text[:2] + ":" + text[2:])
    for t in range(0, 16000, 500):  # the time face: a time with its colon, whatever alternates
        r.poll(t)
        assert _tm(m, LEFT)[1] & F.SEG_DP


def test_the_score_face_alternates_with_the_period_code_every_2_s_kb_5_kb_17():
    r, m = _bout()
    assert _tm(m, RIGHT) == _seg(" 0-0")  # set up: the score alone (t has not started)
    r.do("start", 0)
    r.do("score", 500, LEFT, 4)
    seen = []
    for t in range(1000, 9000, 1000):  # 2 s the score, 2 s "H1", 2 s the score, 2 s "H1" ...
        r.poll(t)
        seen.append(_tm(m, RIGHT))
    assert seen == [_seg(" 4-0"), _seg("H1"), _seg("H1"), _seg(" 4-0"), _seg(" 4-0"), _seg("H1"), _seg("H1"),
                    _seg(" 4-0")]
    t = _at(r, m, 4 * MIN + 30000, 1)  # KB-6: the rest
    assert _tm(m, RIGHT) == _seg("rESt") and _tm(m, LEFT)[0] == F.seg_char(ord("b"))
    t = _at(r, m, 5 * MIN, 1)  # the 2nd half waits for the referee: its code
    assert _tm(m, RIGHT) == _seg("H2") and _tm(m, LEFT) == _seg(" 4:00")
    r.do("start", t)
    r.do("score", t + 10, RIGHT, 4)  # level at the end of time: golden score (KB-17)
    t = _at(r, m, t + 4 * MIN + 10, 1)
    r.do("start", t)
    t = _at(r, m, t + 1, 1)
    assert _tm(m, RIGHT) == _seg("GOLd") and _tm(m, LEFT) == _seg(" 0:00")
    t = _at(r, m, t, 0)
    assert _tm(m, RIGHT) == _seg(" 4-4")
    r.do("score", t, LEFT, 1)
    for at in range(t, t + 8000, 1000):  # finished: the score steady (the result code alternates: the board's)
        r.poll(at)
        assert _tm(m, RIGHT) == _seg(" 5-4") and _tm(m, LEFT) == _seg("End")


def test_kt_4_5_stopped_time_on_the_tm1637_faces():
    # a stoppage: the time face shows the match time and, every other 2 s, "P" and the
    # stoppage's length; the score face the time added back to the period ("A" and seconds)
    m = Kilithattu()
    m.new_match(first=LEFT)
    r = Run(m, NEAR_WRAP)
    r.do("start", 0)
    r.do("score", 1000, LEFT, 1)
    t = _at(r, m, 3000, 2)
    assert _tm(m, RIGHT) == _seg(" 1-0")
    t = _at(r, m, t, 3)  # no stopped time yet: the code again in the added time's place
    assert _tm(m, RIGHT) == _seg("In 1")
    r.do("stoppage", 8000)
    r.poll(8000 + 1500)  # phase 0: the match time, frozen, with its colon
    assert m.t // 2000 % 4 == 0 and _tm(m, LEFT) == _seg(" 6:52") and _tm(m, RIGHT) == _seg(" 1-0")
    r.poll(8000 + 2500)  # phase 1: the stoppage so far, and the innings' code
    assert _tm(m, LEFT) == _seg("P0:02") and _tm(m, RIGHT) == _seg("In 1")
    r.poll(8000 + 4500)  # phase 2: the time again; phase 3: the time added back so far
    assert _tm(m, LEFT) == _seg(" 6:52")
    r.poll(8000 + 6500)
    assert _tm(m, LEFT) == _seg("P0:06") and _tm(m, RIGHT) == _seg("A  6")
    r.poll(8000 + 70500)  # a stoppage of more than a minute
    assert m.t // 2000 % 4 == 3 and _tm(m, LEFT) == _seg("P1:10") and _tm(m, RIGHT) == _seg("A 70")
    r.do("resume", 80000)
    t = _at(r, m, 80001, 3)  # running again: the time face the match time only, the added time stays
    assert _tm(m, LEFT) == _seg(" 6:46") and _tm(m, RIGHT) == _seg("A 72")  # 8 s and 6 s ran
    r.do("stoppage", t)
    r.poll(t + 20 * MIN)  # a 20-minute stoppage: "P9:59" at most, "A" in seconds up to 999
    assert _tm(m, LEFT) in (_seg(" 6:46"), _seg("P9:59")) and _tm(m, RIGHT) in (
        _seg(" 1-0"), _seg("In 1"), _seg("A999"))
    t = _at(r, m, t + 20 * MIN, 3)
    assert _tm(m, LEFT) == _seg("P9:59") and _tm(m, RIGHT) == _seg("A999")
    r.do("resume", t)
    t = _at(r, m, t + 406000 + 20000, 1)  # the changeover after it (KT-4.4): its code
    assert m.state == BREAK and _tm(m, RIGHT) == _seg("ChAn")
    t = _at(r, m, t, 3)  # and the innings' added time, still (KT-4.5)
    assert m.state == BREAK and _tm(m, RIGHT) == _seg("A999")


def test_every_kilithattu_period_has_its_code_kt_4_4_kt_4_6():
    m = Kilithattu()
    m.new_match(first=LEFT, method=0)  # M_SUDDEN
    want = (b"In 1", b"In 2", b"Et 1", b"Et 2", b"Sudn")
    for p in range(5):
        m.period = p  # (the view: each period's code)
        m.state = RUNNING
        assert MF.period_code(m) == want[p]
    m.state = BREAK
    assert MF.period_code(m) == b"ChAn"
    k = KokBoru()
    k.new_match()
    codes = []
    for p in range(3):
        k.period = p
        codes.append(MF.period_code(k))
    assert codes == [b"H1", b"H2", b"GOLd"]


def test_a_stoppage_blinks_the_running_leds_and_the_oled_says_it_kb_16():
    r, m = _bout()
    r.do("start", 0)
    r.poll(5000)
    assert MF.leds(m, LEFT) & F.LED_RUNNING and MF.leds(m, RIGHT) & F.LED_RUNNING
    r.do("stoppage", 5000)
    r.poll(8500)  # phase 0: the match time, its colon steady (blink or not)
    assert _tm(m, LEFT, 1) == _seg(" 3:55") and _tm(m, LEFT, 0) == _seg(" 3:55")
    r.poll(10500)  # phase 1: "P" and the stoppage so far
    assert _tm(m, LEFT) == _seg("P0:05")
    assert MF.leds(m, LEFT, 1) & F.LED_RUNNING and not MF.leds(m, LEFT, 0) & F.LED_RUNNING
    oled = MF.oled(m, LEFT)
    assert "STOP 0:05 3:55" in _texts(oled) and "STOPPED 0:05" in _texts(oled)


def test_the_rest_counts_down_by_itself_kb_6():
    r, m = _bout()
    r.do("start", 0)
    r.poll(4 * MIN + 15000)  # the half ended at 4:00: 15 s into the 1:00 rest
    want = bytearray(4)
    want[0] = F.seg_char(ord("b"))
    want[2] = F.DIGITS[4]
    want[3] = F.DIGITS[5]
    assert _tm(m, LEFT) == bytes(want)  # "b 45"
    assert "REST" in _texts(MF.oled(m, LEFT)) and "REST 0:45" in _texts(MF.oled(m, RIGHT))
    assert not MF.leds(m, LEFT) & F.LED_RUNNING


def test_golden_score_counts_up_and_the_winner_is_marked_kb_17():
    r, m = _bout()
    r.do("start", 0)
    r.poll(5 * MIN)  # the 1st half and the rest
    r.do("start", 5 * MIN)
    r.poll(9 * MIN)  # level at the end of time: golden score waits for the referee
    r.do("start", 9 * MIN)
    r.poll(9 * MIN + 5400)
    assert _tm(m, LEFT) == _seg(" 0:05")  # counting up, rounded down
    assert "GOLDEN SCORE" in _texts(MF.oled(m, LEFT))
    r.do("score", 9 * MIN + 5400, RIGHT, 1)  # the first score wins at once
    assert MF.leds(m, RIGHT) & F.LED_STAGE and not MF.leds(m, LEFT) & F.LED_STAGE
    assert "WIN GOLDEN" in _texts(MF.oled(m, RIGHT)) and "LOSS GOLDEN" in _texts(MF.oled(m, LEFT))
    assert _tm(m, LEFT) == bytes(F.text4(bytearray(4), "End"))


def test_cards_on_the_leds_and_the_top_line_kb_11_kb_12():
    r, m = _bout()
    r.do("start", 0)
    r.do("card", 1000, LEFT, CARD_WARNING)
    assert MF.leds(m, LEFT) & F.LED_LOW and not MF.leds(m, LEFT) & F.LED_FLAG
    assert MF.cards_text(m, LEFT) == "W" and MF.cards_text(m, RIGHT) == ""
    r.do("card", 2000, RIGHT, CARD_RED)  # KB-12: removed at once, left wins
    assert MF.leds(m, RIGHT) & F.LED_FLAG and MF.leds(m, LEFT) & F.LED_STAGE
    assert "RED" in _texts(MF.oled(m, RIGHT)) and "WIN REMOVAL" in _texts(MF.oled(m, LEFT))


def test_a_lead_win_says_so_kb_14():
    r, m = _bout(lead=8)
    r.do("start", 0)
    for i in range(3):
        r.do("score", 1000 + i, LEFT, 4)  # 12-0: a lead of more than 8
    assert "WIN BY LEAD" in _texts(MF.oled(m, LEFT)) and _tm(m, RIGHT) == _seg("12-0")


def test_a_finished_match_says_why_in_its_own_word_not_the_menus_value_kb_14():
    # the reason after WIN / LOSS is a word of its own in the case that goes there (kk АЙЫРМАМЕН "by the lead"),
    # never the menu's value LEAD (АЙЫРМА, РАЗНИЦА: a noun in the nominative beside ЖЕҢІС, ПОБЕДА)
    import sagatfw
    from sagatfw.ui import editors as E

    menu_values = {row[0] for row in E.SETTINGS} | {row[0] for row in E.MODES + E.METHODS} | {"LEAD"}  # (its editor)
    assert not {w for w in MF._WHY if w} & menu_values
    r, m = _bout(lead=8)
    r.do("start", 0)
    for i in range(3):
        r.do("score", 1000 + i, LEFT, 4)  # 12-0: a lead of more than 8
    try:
        said = {}
        for code in ("kk", "ru", "ky"):
            sagatfw.use(code)
            said[code] = MF.run_text(m, LEFT), MF.run_text(m, RIGHT)
    finally:
        sagatfw.use("en")
    assert said["kk"] == ("ЖЕҢІС АЙЫРМАМЕН", "ЖЕҢІЛІС АЙЫРМАМЕН")
    assert said["ru"] == ("ПОБЕДА ПО РАЗНИЦЕ", "ПРОИГРЫШ ПО РАЗНИЦЕ")
    assert said["ky"] == ("ЖЕҢИШ АЙЫРМА МЕНЕН", "ЖЕҢИЛҮҮ АЙЫРМА МЕНЕН")


def test_kilithattu_marks_the_entering_team_and_the_stopped_total_kt_4_4_kt_4_5():
    m = Kilithattu()
    m.new_match(first=RIGHT)
    r = Run(m, NEAR_WRAP)
    assert _tm(m, LEFT) == _seg(" 7:00")  # KT-4.4: 7:00 an innings
    # before the start the entering team's running LED blinks: who enters is on every face kind
    assert MF.leds(m, RIGHT, 1) & F.LED_RUNNING and not MF.leds(m, RIGHT, 0) & F.LED_RUNNING
    assert not MF.leds(m, LEFT, 1) & F.LED_RUNNING
    r.do("start", 0)
    assert "IN" in _texts(MF.oled(m, RIGHT)) and "IN" not in _texts(MF.oled(m, LEFT))
    assert MF.leds(m, RIGHT) & F.LED_RUNNING and not MF.leds(m, LEFT) & F.LED_RUNNING
    r.do("score", 3000, RIGHT, 1)  # KT-5.5
    r.do("stoppage", 4000)
    r.do("resume", 9000)
    r.poll(10000)
    assert "STOPPED 0:05" in _texts(MF.oled(m, LEFT))  # KT-4.5: the innings' stopped time
    assert _tm(m, LEFT) == _seg(" 6:55")  # 5 s ran, 5 s stopped
    r.poll(12000)
    assert _tm(m, RIGHT) == _seg(" 0-1")
    r.poll(7 * MIN + 5000 + 20000)  # the innings ran 7:00 of match time: 20 s into the changeover
    assert "CHANGEOVER" in _texts(MF.oled(m, LEFT)) and "CHANGEOVER 0:40" in _texts(MF.oled(m, LEFT))


def test_every_oled_line_fits_the_face():
    r, m = _bout()
    r.do("start", 0)
    r.do("stoppage", 1000)
    r.poll(599 * 1000)
    for side in (LEFT, RIGHT):
        for it in MF.oled(m, side, "A MESSAGE LONGER THAN A LINE"):
            if it[0] != "fill":  # the text font 6 px a character, the big digits 8
                assert it[1] >= 0 and it[1] + len(it[3]) * (8 if it[0] == "big" else 6) * it[4] <= F.OLED_W, it


def test_the_oled_faces_rows_exactly():
    # faces/game.py's rows: the period (and the cards, right-aligned at 6 px a character) on the top
    # line, the score in the big digits at scale 3 (24 px a digit) centred at y 14, the run row at
    # y 40 framed while the period runs, the bottom line at y 52
    m = KokBoru()
    m.new_match(lead=0)  # no lead rule: 12-0 plays on
    m.start(0)
    m.score(LEFT, 4, 1000)
    m.card(RIGHT, CARD_WARNING, 2000)
    m.advance(12300)
    clear = ("fill", 0, 0, 128, 64, 0)
    frame = [("fill", 0, 40, 128, 12, 1), ("fill", 1, 41, 126, 10, 0)]
    run = ("text", (128 - 8 * 6) // 2, 40, "> 3:48 <", 1)
    assert MF.oled(m, LEFT) == [clear, ("text", 0, 0, "1ST HALF", 1), ("big", 52, 14, "4", 3)] + frame + [run]
    assert MF.oled(m, RIGHT) == [clear, ("text", 0, 0, "1ST HALF", 1), ("text", 128 - 6, 0, "W", 1),
                                 ("big", 52, 14, "0", 3)] + frame + [run]
    for i in range(2):
        m.score(LEFT, 4, 3000 + i)  # 12: two digits, (128 - 2 * 24) // 2
    m.stoppage(13000)
    m.advance(18000)  # stopped: the run row not framed; the stopped time on the bottom line, or a message
    assert MF.oled(m, LEFT) == [clear, ("text", 0, 0, "1ST HALF", 1), ("big", 40, 14, "12", 3),
                                ("text", (128 - 14 * 6) // 2, 40, "STOP 0:05 3:47", 1),
                                ("text", 0, 52, "STOPPED 0:05", 1)]
    assert MF.oled(m, LEFT, "A MESSAGE LONGER THAN A LINE")[-1] == ("text", 0, 52, "A MESSAGE LONGER THAN", 1)
