# The faces of a match (sagatfw/faces/match.py): TM1637 bytes, LEDs and OLED items from
# the engines' view, under CPython and MicroPython. Rule IDs where a face shows a rule's state.
from matchkit import MIN, NEAR_WRAP, Run

from sagatfw.engine.kilithattu import Kilithattu
from sagatfw.engine.kokboru import KokBoru
from sagatfw.engine.match import CARD_RED, CARD_WARNING, LEFT, RIGHT
from sagatfw.faces import game as F
from sagatfw.faces import match as MF


def _tm(m, side, blink=1):
    return bytes(MF.tm1637(bytearray(4), m, side, blink))


def _text(t, colon=True):
    """TM1637 bytes of a 4-cell time/score text like " 3:48" (the colon on byte 1)."""
    b = bytearray(4)
    cells = t.replace(":", "")[-4:]
    for i, ch in enumerate(" " * (4 - len(cells)) + cells):
        b[i] = F.DIGITS[int(ch)] if ch != " " else 0
    if colon:
        b[1] |= F.SEG_DP
    return bytes(b)


def _bout(lead=8, base=NEAR_WRAP):
    m = KokBoru()
    m.new_match(lead=lead)
    return Run(m, base), m


def _texts(items):
    return [it[3] for it in items if it[0] == "text"]


def test_tm1637_left_face_is_the_match_time_right_face_the_score_kb_5():
    r, m = _bout()
    assert _tm(m, LEFT) == _text(" 4:00") and _tm(m, RIGHT) == _text(" 0:00")  # KB-5: 4:00 a half
    r.do("start", 0)
    r.poll(12300)
    assert _tm(m, LEFT) == _text(" 3:48")  # 227.7 s left: rounded up, never 0:00 while time remains
    r.do("score", 12300, LEFT, 4)
    r.do("score", 13000, RIGHT, 2)
    r.do("score", 13500, LEFT, 4)
    assert _tm(m, RIGHT) == _text(" 8:02")  # left 8 : right 2
    r.poll(239500)
    assert _tm(m, LEFT) == _text(" 0:01")


def test_a_stoppage_blinks_the_colon_and_the_running_leds_kb_16():
    r, m = _bout()
    r.do("start", 0)
    r.poll(5000)
    assert MF.leds(m, LEFT) & F.LED_RUNNING and MF.leds(m, RIGHT) & F.LED_RUNNING
    r.do("stoppage", 5000)
    r.poll(9000)
    assert _tm(m, LEFT, 1) == _text(" 3:55") and _tm(m, LEFT, 0) == _text(" 3:55", colon=False)
    assert MF.leds(m, LEFT, 1) & F.LED_RUNNING and not MF.leds(m, LEFT, 0) & F.LED_RUNNING
    oled = MF.oled(m, LEFT)
    assert "STOP 0:04 3:55" in _texts(oled) and "STOPPED 0:04" in _texts(oled)


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
    assert _tm(m, LEFT) == _text(" 0:05")  # counting up, rounded down
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
    assert "WIN LEAD" in _texts(MF.oled(m, LEFT)) and _tm(m, RIGHT) == _text("12:00")


def test_kilithattu_marks_the_entering_team_and_the_stopped_total_kt_4_4_kt_4_5():
    m = Kilithattu()
    m.new_match(first=RIGHT)
    r = Run(m, NEAR_WRAP)
    assert _tm(m, LEFT) == _text(" 7:00")  # KT-4.4: 7:00 an innings
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
    assert _tm(m, LEFT) == _text(" 6:55") and _tm(m, RIGHT) == _text(" 0:01")  # 5 s ran, 5 s stopped
    r.poll(7 * MIN + 5000 + 20000)  # the innings ran 7:00 of match time: 20 s into the changeover
    assert "CHANGEOVER" in _texts(MF.oled(m, LEFT)) and "CHANGEOVER 0:40" in _texts(MF.oled(m, LEFT))


def test_every_oled_line_fits_the_face():
    r, m = _bout()
    r.do("start", 0)
    r.do("stoppage", 1000)
    r.poll(599 * 1000)
    for side in (LEFT, RIGHT):
        for it in MF.oled(m, side, "A MESSAGE LONGER THAN A LINE"):
            if it[0] == "text":
                assert it[1] >= 0 and it[1] + len(it[3]) * 8 * it[4] <= F.OLED_W, it
