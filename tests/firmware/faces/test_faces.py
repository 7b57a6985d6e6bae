# What each face shows (faces/game.py, contract 2's "Display" bullet): exact TM1637 bytes, LED masks,
# OLED draw items and time texts, for clock states reached with real clock operations. Run by
# pytest under CPython and by tests/mprun.py under MicroPython.
from clockkit import Game, L, R
from sagatfw.engine.envelope import used_ms
from sagatfw.faces import game as F

# The TM1637 segment bytes, written out here independently of faces.DIGITS.
D0, D1, D2, D3, D4, D5, D6, D7, D8, D9 = 0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F
DP = 0x80  # decimal point; on byte 1 also the colon
CLEAR = ("fill", 0, 0, 128, 64, 0)
# The OLED's rows (faces/game.py, "OLED"): top line y 0, the time's box y 12..39, the run row y 40..51,
# the bottom line y 52; text 6 px a character ("text", the 6x12 font), the time's digits 8 px ("big").
RUN_BAR = ("fill", 0, 40, 128, 12, 1)
FRAME = [("fill", 0, 40, 128, 12, 1), ("fill", 1, 41, 126, 10, 0)]


def tm(game, side, tenths=20000, blink=0):
    buf = bytearray(4)
    assert F.tm1637(buf, game.clock, side, tenths, blink) is buf
    return list(buf)


def text(game, side, tenths=20000):
    return F.face_text(game.clock, side, tenths)


def at(game, t):
    game.poll(t)
    return game


# ------------------------------------------------------------------- time formats (TM1637)


def test_digit_table_is_the_standard_encoding():
    assert list(F.DIGITS) == [D0, D1, D2, D3, D4, D5, D6, D7, D8, D9]
    assert F.SEG_DP == DP


def test_hours_h_mm_rounded_up_tk_b10():
    g = Game("7200")
    g.start(0)
    at(g, 2175000)  # left: 1:23:45 exactly
    assert g.clock.ms(L) == 5025000
    assert text(g, L) == "1:23:45"  # TK-B10's h:mm:ss
    assert tm(g, L, blink=1) == [0, D1 | DP, D2, D4]  # 1:23:45 rounded up to the minute: 1.24
    assert tm(g, L, blink=0) == [0, D1, D2, D4]  # a running H.MM face blinks its separator
    assert tm(g, R, blink=0) == tm(g, R, blink=1) == [0, D2 | DP, D0, D0]  # stopped: steady
    assert text(g, R) == "2:00:00"


def test_one_hour_boundary_rounds_up_into_hours():
    g = Game("3600")
    assert tm(g, L) == [0, D1 | DP, D0, D0] and text(g, L) == "1:00:00"  # exactly 1 h, not started
    g.start(0)
    at(g, 999)  # 59:59.001 left: rounds up to 1:00:00, so the hours format
    assert g.clock.ms(L) == 3599001
    assert text(g, L) == "1:00:00"
    assert tm(g, L, blink=1) == [0, D1 | DP, D0, D0]
    at(g, 1000)  # 59:59.000
    assert text(g, L) == "59:59"
    assert tm(g, L, blink=0) == tm(g, L, blink=1) == [D5, D9 | DP, D5, D9]  # the colon is steady
    g = Game("3601")
    g.start(0)
    at(g, 999)  # 1:00:00.001
    assert text(g, L) == "1:00:01"
    assert tm(g, L, blink=1) == [0, D1 | DP, D0, D1]


def test_minutes_seconds_colon_and_blanked_leading_zero():
    g = Game("420")
    g.start(0)
    at(g, 113000)  # 5:07 exactly
    assert tm(g, L) == [0, D5 | DP, D0, D7] and text(g, L) == "5:07"
    at(g, 113999)  # 5:06.001 still shows 5:07
    assert tm(g, L) == [0, D5 | DP, D0, D7] and text(g, L) == "5:07"
    at(g, 114000)
    assert tm(g, L) == [0, D5 | DP, D0, D6] and text(g, L) == "5:06"
    g = Game("660")
    assert tm(g, L) == [D1, D1 | DP, D0, D0] and text(g, L) == "11:00"


def test_tenths_round_up_into_seconds_at_the_threshold():
    g = Game("60")
    g.start(0)
    at(g, 39999)  # 20.001 s: seconds, rounded up
    assert tm(g, L) == [0, D0 | DP, D2, D1] and text(g, L) == "0:21"
    at(g, 40000)  # exactly 20 s: not below the threshold
    assert tm(g, L) == [0, D0 | DP, D2, D0] and text(g, L) == "0:20"
    at(g, 40060)  # 19.94 s: rounds up to 20.0, which is not below 20 s: 0:20
    assert g.clock.ms(L) == 19940
    assert tm(g, L) == [0, D0 | DP, D2, D0] and text(g, L) == "0:20"
    at(g, 40100)  # 19.9 s exactly
    assert tm(g, L) == [0, D1, D9 | DP, D9] and text(g, L) == "19.9"
    at(g, 40199)  # 19.801 s rounds up to 19.9
    assert tm(g, L) == [0, D1, D9 | DP, D9] and text(g, L) == "19.9"
    at(g, 50950)  # 9.05 s: the tens of seconds are blanked
    assert tm(g, L) == [0, 0, D9 | DP, D1] and text(g, L) == "9.1"


def test_last_twentieth_of_a_second_shows_0_1_and_zero_shows_0_00_with_the_flag():
    g = Game("60")  # sudden death: freeze off by default
    g.start(0)
    at(g, 59950)  # 0.05 s
    assert tm(g, L) == [0, 0, D0 | DP, D1] and text(g, L) == "0.1"
    at(g, 59999)  # 1 ms: never zero while time remains
    assert tm(g, L) == [0, 0, D0 | DP, D1] and text(g, L) == "0.1"
    at(g, 60000)  # exactly zero: the flag falls
    assert g.clock.flag[L] == 1
    assert tm(g, L, blink=0) == tm(g, L, blink=1) == [0, D0 | DP, D0, D0]  # " 0:00"
    assert text(g, L) == "0:00"
    assert F.leds(g.clock, L, 0) == F.leds(g.clock, L, 1) == F.LED_RUNNING | F.LED_FLAG  # play goes on
    g = Game("60+1", low_time_ms=0)  # increment: freeze on by default
    g.start(0)
    at(g, 60000)
    assert tm(g, L) == [0, D0 | DP, D0, D0] and text(g, L) == "0:00"
    assert F.leds(g.clock, L, 0) == F.leds(g.clock, L, 1) == F.LED_FLAG  # one flag: steady
    assert F.leds(g.clock, R, 0) == 0


def test_count_up_rounds_down_and_never_shows_tenths():
    g = Game("-", default_ms=0)
    g.start(0)
    at(g, 999)
    assert tm(g, L) == [0, D0 | DP, D0, D0] and text(g, L) == "0:00"
    at(g, 65999)
    assert tm(g, L) == [0, D1 | DP, D0, D5] and text(g, L) == "1:05"
    at(g, 3659999)  # 1:00:59.999
    assert text(g, L) == "1:00:59"
    assert tm(g, L, blink=1) == [0, D1 | DP, D0, D0]
    assert text(g, R) == "0:00" and tm(g, R) == [0, D0 | DP, D0, D0]
    assert F.leds(g.clock, L, 1) == F.LED_RUNNING  # no low-time mark when counting up
    assert F.time_text(59999, 20000, True) == "0:59"


def test_tenths_disabled():
    g = Game("60")
    g.start(0)
    at(g, 40060)  # 19.94 s
    assert tm(g, L, tenths=0) == [0, D0 | DP, D2, D0] and text(g, L, 0) == "0:20"
    at(g, 59950)  # 0.05 s: seconds rounded up
    assert tm(g, L, tenths=0) == [0, D0 | DP, D0, D1] and text(g, L, 0) == "0:01"


def test_tenths_threshold_is_capped_at_one_minute():
    assert F.time_text(59900, 90000) == "59.9"
    assert F.time_text(59901, 90000) == "1:00"  # rounds up to 60.0: not S.t any more
    assert F.time_text(60000, 90000) == "1:00"
    assert F.time_text(25000, 30000) == "25.0"


def test_hours_above_nine():
    assert tm(Game("35940"), L) == [0, D9 | DP, D5, D9]  # 9:59:00
    g = Game("36000")  # 10:00:00
    assert tm(g, L) == [0, D9 | DP, D5, D9] and text(g, L) == "10:00:00"
    g = Game("86400")  # 24 h: TM1637 stops at 9.59, the text does not
    assert tm(g, L) == [0, D9 | DP, D5, D9] and text(g, L) == "24:00:00"


def test_time_text_table():
    cases = [
        (5025000, "1:23:45"),
        (3600000, "1:00:00"),
        (3599001, "1:00:00"),
        (3599000, "59:59"),
        (600000, "10:00"),
        (307000, "5:07"),
        (60000, "1:00"),
        (20000, "0:20"),
        (19901, "0:20"),  # rounds up to 20.0
        (19900, "19.9"),
        (10000, "10.0"),
        (50, "0.1"),
        (1, "0.1"),
        (0, "0:00"),
        (-5, "0:00"),
    ]
    for ms, want in cases:
        assert F.time_text(ms, 20000) == want, (ms, F.time_text(ms, 20000), want)
    assert F.time_text(5025999, 20000, True) == "1:23:45"
    assert F.time_text(1, 0) == "0:01"
    assert F.fmt_kind(19900) == F.K_TENTHS and F.fmt_kind(19901) == F.K_MINSEC
    assert F.fmt_kind(3599000) == F.K_MINSEC and F.fmt_kind(3599001) == F.K_HOURS


# -------------------------------------------------------------------------------------- LEDs


def test_led_running_side():
    g = Game("420", low_time_ms=0)
    assert F.leds(g.clock, L) == 0 and F.leds(g.clock, R) == 0  # not started
    g.start(0)
    assert F.leds(g.clock, L) == F.LED_RUNNING and F.leds(g.clock, R) == 0
    g.press(L, 1000)
    assert F.leds(g.clock, L) == 0 and F.leds(g.clock, R) == F.LED_RUNNING
    g.pause(2000)
    assert F.leds(g.clock, L) == 0 and F.leds(g.clock, R) == 0


def test_led_flags_the_first_blinks_while_both_are_down():
    g = Game("10", freeze=False, low_time_ms=0)
    g.start(0)
    at(g, 10000)  # left's flag: steady while it is the only one
    assert F.leds(g.clock, L, 0) == F.leds(g.clock, L, 1) == F.LED_RUNNING | F.LED_FLAG
    g.press(L, 12000)  # the flagged side completes its move (TK-B8)
    assert F.leds(g.clock, L, 0) == F.leds(g.clock, L, 1) == F.LED_FLAG
    at(g, 22000)  # right's flag: now both are down
    assert g.clock.flag == [1, 2]
    assert F.leds(g.clock, L, 0) == 0 and F.leds(g.clock, L, 1) == F.LED_FLAG  # first: blinks
    assert F.leds(g.clock, R, 0) == F.leds(g.clock, R, 1) == F.LED_RUNNING | F.LED_FLAG  # steady
    assert g.call("extend", 23000)  # TK-C14: flags cleared
    assert F.leds(g.clock, L, 1) == 0 and F.leds(g.clock, R, 1) == F.LED_RUNNING


def test_led_stage_mark_tk_c13():
    g = Game("1/10:60", stage_advance="flag", low_time_ms=0)
    g.start(0)
    at(g, 10000)  # stage 1's time is out: stage 2 added at the flag, the face is marked
    assert g.of("stage")[0]["t"] == 10000 and g.clock.stage_mark[L] == 1
    assert F.leds(g.clock, L, 0) == F.leds(g.clock, L, 1) == F.LED_RUNNING | F.LED_STAGE
    assert tm(g, L) == [0, D1 | DP, D0, D0]
    assert F.oled(g.clock, L)[-1] == ("text", 0, 52, "ST>", 1)
    assert F.oled(g.clock, L)[1] == ("text", 0, 0, "M0 S2", 1)


def test_led_low_time_tk_c17():
    g = Game("600")  # low_time_ms 300000
    g.start(0)
    at(g, 299999)  # 5:00.001
    assert F.leds(g.clock, L) == F.LED_RUNNING
    at(g, 300000)  # exactly the mark: the clock logs low_time at this instant
    assert g.of("low_time")[0]["t"] == 300000
    assert F.leds(g.clock, L) == F.LED_RUNNING | F.LED_LOW
    assert F.oled(g.clock, L)[-1] == ("text", 0, 52, "LOW", 1)
    at(g, 599999)
    assert F.leds(g.clock, L) == F.LED_RUNNING | F.LED_LOW
    at(g, 600000)  # zero: the flag, no low mark
    assert F.leds(g.clock, L) == F.LED_RUNNING | F.LED_FLAG
    g = Game("300")  # starts at the mark: the mark does not count (a 5-minute blitz: LOW all game)
    assert F.leds(g.clock, L) == F.leds(g.clock, R) == 0


def test_led_default_mark_tk_c6():
    g = Game("3600", default_ms=1800000, low_time_ms=0)
    g.start(0)
    at(g, 1800001)  # more than 30 min (TK-C6)
    assert g.clock.default_mark == [1, 0]
    assert F.leds(g.clock, L) == F.LED_RUNNING | F.LED_DEFAULT and F.leds(g.clock, R) == 0
    assert F.oled(g.clock, L)[-1] == ("text", 0, 52, "DEF", 1)


# -------------------------------------------------------------------------------------- OLED


def test_oled_running_game():
    g = Game("5400+30")
    g.start(0)
    g.press(L, 10000)  # left: 1:30:00 - 10 s + 30 s
    at(g, 12500)  # right: 1:29:57.5 shows 1:29:58
    assert F.oled(g.clock, R, battery=87) == [
        CLEAR,
        ("text", 0, 0, "M0 S1", 1),
        ("text", 128 - 5 * 6, 0, "B 87%", 1),  # right-aligned: 6 px a character
        ("big", 8, 18, "1:29:58", 2),  # H:MM:SS at scale 2, centred: (128 - 7 * 16) // 2; y 12 + (28 - 16) // 2
        RUN_BAR,
    ]
    assert F.oled(g.clock, L, battery=87) == [
        CLEAR,
        ("text", 0, 0, "M1 S1", 1),
        ("text", 98, 0, "B 87%", 1),
        ("big", 8, 18, "1:30:20", 2),
    ]


def test_oled_paused_game_frames_the_side_to_move():
    g = Game("420")
    g.start(0)
    g.press(L, 5000)
    g.pause(8000)
    assert F.oled(g.clock, R) == [
        CLEAR,
        ("text", 0, 0, "M0 S1", 1),
        ("big", 16, 14, "6:57", 3),  # M:SS at scale 3: (128 - 4 * 24) // 2; y 12 + (28 - 24) // 2
        FRAME[0],
        FRAME[1],
        ("text", 37, 40, "> PAUSE <", 1),  # (128 - 9 * 6) // 2
    ]
    assert F.oled(g.clock, L) == [
        CLEAR,
        ("text", 0, 0, "M1 S1", 1),
        ("big", 16, 14, "6:55", 3),
        ("text", 49, 40, "PAUSE", 1),  # (128 - 5 * 6) // 2
    ]


def test_oled_setup_and_adjourned():
    g = Game("420", first=R)
    right = F.oled(g.clock, R)
    assert right[-3:] == FRAME + [("text", 37, 40, "> READY <", 1)]  # TK-C5: the first player's face
    assert F.oled(g.clock, L)[-1] == ("text", 49, 40, "READY", 1)
    g.start(0)
    g.call("adjourn", 3000)
    # the bottom line: each side's time used, as the envelope records it (TK-A3)
    assert F.oled(g.clock, R)[-4:] == FRAME + [("text", 43, 40, "> ADJ <", 1), ("text", 0, 52, "USED 0:03", 1)]
    assert F.oled(g.clock, L)[-2:] == [("text", 55, 40, "ADJ", 1), ("text", 0, 52, "USED 0:00", 1)]


def test_tk_a3_adjourned_faces_show_the_time_used_with_the_increments_accounted_for():
    g = Game("40/5400+30:1800+30")  # two stages, a Fischer increment in each
    g.start(0)
    t = 0
    for i in range(41):  # left makes 41 moves (into stage 2), 10 s each; right 40, 5 s each
        t += 10000
        g.press(L, t)
        if i < 40:
            t += 5000
            g.press(R, t)
    t += 7000
    g.call("adjourn", t)  # right has thought 7 s on its 41st move
    assert used_ms(g.clock, L) == 410000 and used_ms(g.clock, R) == 207000
    # the faces hold the control's time (stages reached, increments) less that
    assert g.clock.ms(L) == 5400000 + 1800000 + 41 * 30000 - 410000
    assert F.marks_text(g.clock, L) == "USED 6:50" and F.marks_text(g.clock, R) == "USED 3:27"
    g.call("resume_adjourned", t + 1000)
    assert F.marks_text(g.clock, L) == ""  # only while adjourned


def test_oled_tenths_and_delay():
    g = Game("60")
    g.start(0)
    at(g, 40100)
    assert F.oled(g.clock, L)[2] == ("big", 16, 14, "19.9", 3)
    g = Game("600d5")
    g.start(0)
    at(g, 2000)  # 3 s of the delay left: the main time has not moved
    assert F.oled(g.clock, L) == [
        CLEAR,
        ("text", 0, 0, "M0 S1", 1),
        ("big", 4, 14, "10:00", 3),  # (128 - 5 * 24) // 2
        RUN_BAR,
        ("text", 0, 52, "d3", 1),  # the unused delay, seconds rounded up
    ]
    g.pause(2500)  # the unused delay is kept across the pause
    assert F.oled(g.clock, L)[-1] == ("text", 0, 52, "d3", 1)
    assert F.oled(g.clock, R)[-1] == ("text", 49, 40, "PAUSE", 1)  # no delay on the other face


def test_oled_first_flag():
    g = Game("10", freeze=False, low_time_ms=0)
    g.start(0)
    at(g, 10000)
    assert F.oled(g.clock, L)[-1] == ("text", 0, 52, "FLAG", 1)
    g.press(L, 12000)
    at(g, 22000)
    assert F.oled(g.clock, L) == [
        CLEAR,
        ("text", 0, 0, "M1 S1", 1),
        ("big", 16, 14, "0:00", 3),
        ("text", 0, 52, "FLAG 1ST", 1),  # it fell first
    ]
    assert F.oled(g.clock, R) == [
        CLEAR,
        ("text", 0, 0, "M0 S1", 1),
        ("big", 16, 14, "0:00", 3),
        RUN_BAR,
        ("text", 0, 52, "FLAG", 1),
    ]
    assert F.oled(g.clock, L, blink=1) == F.oled(g.clock, L, blink=0)  # the text is steady


def test_oled_finished_game():
    g = Game("420")
    g.start(0)
    g.press(L, 5000)
    assert g.call("result", 9000, 0)
    assert F.oled(g.clock, L, result=0) == [
        CLEAR,
        ("text", 0, 0, "M1 S1", 1),
        ("big", 16, 14, "6:55", 3),
        ("text", 43, 40, "END 1-0", 1),  # no frame: nobody is to move; (128 - 7 * 6) // 2
    ]
    assert F.oled(g.clock, R, result=0)[-1] == ("text", 43, 40, "END 1-0", 1)
    assert F.oled(g.clock, R, result="1/2-1/2")[-1] == ("text", 31, 40, "END 1/2-1/2", 1)
    assert F.oled(g.clock, R)[-1] == ("text", 55, 40, "END", 1)  # result not given


def test_oled_battery_and_low_battery():
    g = Game("420")
    g.start(0)
    top = ("text", 0, 0, "M0 S1", 1)

    def bat(**kw):
        items = F.oled(g.clock, L, **kw)
        assert items[1] == top
        return [it for it in items if it[2] == 0 and it[1] > 0]

    assert bat() == []
    # right-aligned at 128 - 6 px a character
    assert bat(battery=100) == [("text", 92, 0, "B 100%", 1)]
    assert bat(battery=87.6) == [("text", 98, 0, "B 87%", 1)]
    assert bat(battery=9, low_battery=True, blink=1) == [("text", 98, 0, "B LOW", 1)]
    assert bat(battery=9, low_battery=True, blink=0) == [("text", 104, 0, "B 9%", 1)]
    assert bat(low_battery=True, blink=1) == [("text", 98, 0, "B LOW", 1)]
    assert bat(low_battery=True, blink=0) == []


def test_oled_message_replaces_the_bottom_line_not_the_battery():
    g = Game("10", freeze=False, low_time_ms=0)
    g.start(0)
    at(g, 10000)
    items = F.oled(g.clock, L, battery=50, message="SETTINGS DEFAULT")
    assert items == [
        CLEAR,
        ("text", 0, 0, "M0 S1", 1),
        ("text", 98, 0, "B 50%", 1),
        ("big", 16, 14, "0:00", 3),
        RUN_BAR,
        ("text", 0, 52, "SETTINGS DEFAULT", 1),
    ]
    # a line holds 21 characters: a longer message from outside is cut there
    assert F.oled(g.clock, L, message="LOG ERROR: FLASH FULL (NO SPACE)")[-1] == (
        "text", 0, 52, "LOG ERROR: FLASH FULL", 1)


def test_oled_time_scale_fits_128_px():
    g = Game("420")
    g.start(0)
    g.pause(1000)
    g.call("adjust", 2000, L, ms=360000000)  # 100 h, the most a correction may give
    # 9 characters: scale 1, (128 - 9 * 8) // 2; y 12 + (28 - 8) // 2, centred in the time's box
    assert F.oled(g.clock, L)[2] == ("big", 28, 22, "100:00:00", 1)
    assert tm(g, L) == [0, D9 | DP, D5, D9]
    for ms in (0, 1, 19900, 59000, 599000, 3599000, 3600000, 35999000, 36000000):
        t = F.time_text(ms)
        scale = 3 if len(t) <= 5 else 2
        assert len(t) * 8 * scale <= 128, t
        g.call("adjust", 3000, L, ms=ms)
        item = F.oled(g.clock, L)[2]
        assert item[0] == "big" and item[3] == t and item[4] == scale, item
        assert item[1] == (128 - len(t) * 8 * scale) // 2 and item[2] == 12 + (28 - 8 * scale) // 2, item


def test_oled_strings_are_ascii():
    g = Game("10", freeze=False, default_ms=5000)
    g.start(0)
    at(g, 10000)
    for side in (L, R):
        for it in F.oled(g.clock, side, battery=3, low_battery=True, blink=1, result=2):
            if it[0] != "fill":
                assert all(32 <= ord(ch) < 127 for ch in it[3]), it
                assert len(it[3]) * _cell(it) * it[4] <= 128


def _cell(item):
    """A text item's character width before scaling: the text font's 6 px, the big digits' 8."""
    return 8 if item[0] == "big" else 6


# ------------------------------------------------------------ the side to move


def _run_row(items):
    """The run row of an OLED face: ("bar" | "frame" | None, its text or None)."""
    fills = [it for it in items if it[0] == "fill" and it[2] in (40, 41)]
    kind = "frame" if fills == FRAME else ("bar" if fills == [RUN_BAR] else None)
    texts = [it[3] for it in items if it[0] == "text" and it[2] == 40]
    return kind, texts[0] if texts else None


def _stopped_states():
    """(name, game, side to move) for every state in which START runs a side: set up (TK-C5),
    paused (TK-C15), adjourned (TK-A4), with either side to move."""
    out = []
    for first in (L, R):
        g = Game("420", first=first)
        out.append(("READY", g, first))
        g = Game("420", first=first)
        g.start(0)
        g.press(first, 3000)
        g.pause(5000)
        out.append(("PAUSE", g, 1 - first))
        g = Game("420", first=first)
        g.start(0)
        g.call("adjourn", 3000)
        out.append(("ADJ", g, first))
    return out


def test_side_to_move_is_marked_on_the_oled_faces_when_stopped():
    for name, g, mover in _stopped_states():
        other = 1 - mover
        kind, label = _run_row(F.oled(g.clock, mover))
        assert kind == "frame" and label == "> " + name + " <", (name, mover, kind, label)
        kind, label = _run_row(F.oled(g.clock, other))
        assert kind is None and label == name, (name, other, kind, label)  # the same word, not pointed at
        assert F.oled(g.clock, mover) != F.oled(g.clock, other)


def test_side_to_move_is_marked_on_the_leds_of_both_kinds_of_face():
    # a TM1637 face shows only the time: its running LED blinks on the side START will run
    for name, g, mover in _stopped_states():
        assert F.leds(g.clock, mover, 1) == F.LED_RUNNING, (name, mover)
        assert F.leds(g.clock, mover, 0) == 0, (name, mover)
        assert F.leds(g.clock, 1 - mover, 0) == F.leds(g.clock, 1 - mover, 1) == 0, (name, mover)
    g = Game("420")
    g.start(0)
    assert F.leds(g.clock, L, 0) == F.leds(g.clock, L, 1) == F.LED_RUNNING  # running: steady
    assert F.leds(g.clock, R, 1) == 0
    g = Game("60+1", low_time_ms=0)  # stopped by a flag (freeze): START runs nobody, no blinking
    g.start(0)
    at(g, 60000)
    assert F.leds(g.clock, L, 1) == F.LED_FLAG and F.leds(g.clock, R, 1) == 0
    g = Game("420")
    g.start(0)
    assert g.call("result", 9000, 0)  # finished: nobody is to move
    assert F.leds(g.clock, L, 1) == F.leds(g.clock, R, 1) == 0


def test_battery_text_is_the_guides():
    # docs/user-guide.md: "B 87%"; at the warning "B LOW" alternating with the percentage
    assert F.battery_text(87) == "B 87%"
    assert F.battery_text(100) == "B 100%"
    assert F.battery_text(9) == "B 9%"
    assert F.battery_text(-3) == "B 0%"
    assert F.battery_text(9, True, 1) == "B LOW" and F.battery_text(9, True, 0) == "B 9%"
    assert F.battery_text(None) == "" and F.battery_text(None, True, 1) == "B LOW"


def test_no_oled_label_is_cut():
    # every text fits its 128 px and is drawn whole: the state words, the result, the marks
    g = Game("10", freeze=False, default_ms=5000, low_time_ms=60000)
    g.start(0)
    at(g, 10000)
    g.press(L, 12000)
    at(g, 22000)
    g.pause(23000)
    for result in (None, 0, 1, 2, 3, 4, "1/2-1/2"):
        for side in (L, R):
            for it in F.oled(g.clock, side, battery=100, blink=0, result=result):
                if it[0] != "fill":
                    assert it[1] + len(it[3]) * _cell(it) * it[4] <= 128, it
    top = [it[3] for it in F.oled(Game("420").clock, L, battery=100) if it[0] == "text" and it[2] == 0]
    assert top == ["M0 S1", "B 100%"]


def test_menu_reason_is_wrapped_not_cut():
    reason = "late installation needs a time limit, not a count-up"
    items = F.menu_oled("NO", None, 1, "MENU", reason)
    texts = [it for it in items if it[0] == "text"]
    # the menu's text at scale 1 on the top line, in place of "MENU" (not drawn), above the reason
    assert texts[0] == ("text", 58, 0, "NO", 1)  # (128 - 2 * 6) // 2
    assert "MENU" not in [it[3] for it in texts]
    lines = texts[1:]
    assert " ".join(it[3] for it in lines) == reason
    assert [it[3] for it in lines] == ["late installation", "needs a time limit,", "not a count-up"]
    assert [it[2] for it in lines] == [12 + 12 * i for i in range(len(lines))] and len(lines) <= 4
    assert all(it[1] == 0 and len(it[3]) <= 21 and it[4] == 1 for it in lines)
    long_word = [it[3] for it in F.menu_oled("NO", None, 1, None, "abcdefghijklmnopqrstuvwxyz ab")[2:]]
    assert long_word == ["abcdefghijklmnopqrstu", "vwxyz ab"]  # a word longer than a line is split
    pair = "abcdefghij abcdefghij"  # 21 characters: a full line
    lines = F.menu_oled("NO", None, 1, None, " ".join([pair] * 5))[2:]  # five lines' worth: the first four shown
    assert lines == [("text", 0, y, pair, 1) for y in (12, 24, 36, 48)]
    assert F.menu_oled("NO", None, 1, None, "short reason")[-1] == ("text", 0, 52, "short reason", 1)
