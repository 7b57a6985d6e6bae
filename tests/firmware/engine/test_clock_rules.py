# Exact-millisecond tests of the clock engine, one group per rule of docs/rules.md and bullet of
# contract 2 (docs/design.md). Run by pytest under CPython and by tests/mprun.py under MicroPython.
from clockkit import NEAR_WRAP, Game, L, R, play, raises
from sagatfw.engine import clock as C

# ----------------------------------------------------------------- TK-C7, TK-C9


def test_wrong_side_press_does_nothing_tk_c9():
    g = Game("420")
    g.start(0)
    assert not g.press(R, 1000)  # right is not running: TK-C9
    assert g.types() == ["game_start"]
    assert g.clock.running == L and g.clock.moves == [0, 0]
    assert g.both(2000) == (418000, 420000)
    assert g.press(L, 2000)  # TK-C7: the running side's press switches
    assert not g.press(L, 2500)  # a second press of the same lever is not a move
    assert g.clock.moves == [1, 0] and g.clock.running == R


def test_presses_before_start_and_while_paused_do_nothing():
    g = Game("420")
    assert not g.press(L, 0) and not g.press(R, 0)
    assert g.log == []
    g.start(0)
    g.pause(1000, by=C.BY_LEFT)  # TK-C15: a player stops the clock
    assert not g.press(L, 2000) and not g.press(R, 2000)
    assert g.of("pause")[0]["by"] == "left"
    g.resume(5000)  # resume continues the same side
    assert g.clock.running == L
    assert g.both(6000) == (418000, 420000)
    assert g.types() == ["game_start", "pause", "resume"]
    assert g.of("resume")[0]["t"] == 5000 and g.of("resume")[0]["running"] == "left"


def test_a_pause_never_changes_either_time():
    g = Game("300+3")
    g.start(0)
    g.press(L, 1000)
    before = g.both(2000)
    g.pause(2000, by=C.BY_HOST)
    assert g.both(2000) == before and g.both(900000) == before
    g.resume(900000)
    assert g.both(900000) == before


# ------------------------------------------------------------ flags and freeze


def test_first_and_second_flag_without_freeze():
    g = Game("10", freeze=False)
    g.start(0)
    g.poll(10000)
    g.press(L, 12000)  # the flagged side completes its move (TK-B8); no time for it
    g.poll(22000)
    f = g.of("flag")
    assert [(e["side"], e["order"], e["t"]) for e in f] == [("left", 1, 10000), ("right", 2, 22000)]
    assert g.clock.first_flag() == L
    assert g.both(30000) == (0, 0)
    assert g.clock.state == C.RUNNING  # play goes on, the flagged face stays at zero


def test_first_flag_with_freeze_stops_both_faces():
    g = Game("10+1")  # freeze on: the control has an increment
    g.start(0)
    g.press(L, 1000)
    g.poll(12000)  # right flags at 1000 + 10000
    f = g.of("flag")
    assert len(f) == 1 and f[0]["t"] == 11000 and f[0]["side"] == "right" and f[0]["running"] is None
    assert g.clock.state == C.FLAGGED
    assert g.both(50000) == (10000, 0)
    assert not g.press(R, 50000) and not g.press(L, 50000)
    assert len(g.of("flag")) == 1  # no second flag while frozen


def test_freeze_setting_overrides_default():
    g = Game("10", freeze=True)  # sudden death would default to no freeze
    g.start(0)
    g.poll(10000)
    assert g.clock.state == C.FLAGGED
    g2 = Game("10+1", freeze=False)
    g2.start(0)
    g2.poll(10000)
    assert g2.clock.state == C.RUNNING


def test_flag_instant_exact_whatever_the_polling_interval():
    expected = None
    for step in (1, 7, 100, 1000, 3333, 59999, 200000):
        g = Game("40/60+2:30", freeze=False, base=NEAR_WRAP)
        g.start(0)
        play(g, 0, L, [1500, 2500, 3500, 4500])
        t = 12000
        while t < 200000:
            t += step
            g.poll(t)
        got = [(e["side"], e["t"], e["order"]) for e in g.of("flag")] + [
            (e["side"], e["t"], 0) for e in g.of("low_time")
        ]
        if expected is None:
            expected = got
        assert got == expected, (step, got, expected)
    # left: 60 - 1.5 + 2 - 3.5 + 2 = 59 s at 12000 -> flags at 71000
    assert ("left", 71000, 1) in expected


def test_tie_extension_after_both_flags_tk_c14():
    g = Game("10", freeze=False, extension_ms=300000)
    g.start(0)
    g.poll(10000)
    g.press(L, 10500)
    g.poll(20500)  # right ran out 10 s after the press
    assert len(g.of("flag")) == 2
    assert g.call("extend", 21000)  # TK-C14: 5 more minutes each
    e = g.of("extension")[0]
    assert e["t"] == 21000 and e["left_ms"] == 300000 and e["right_ms"] == 300000
    assert e["running"] == "right"  # the side to move runs again
    assert g.clock.flag == [0, 0] and g.clock.first_flag() == C.NONE
    assert g.both(31000) == (300000, 290000)
    g.poll(21000 + 300000)
    f = g.of("flag")
    assert f[-1]["side"] == "right" and f[-1]["order"] == 3 and f[-1]["t"] == 321000


def test_tie_extension_with_freeze_restarts_side_to_move():
    g = Game("10+2", extension_ms=60000)
    g.start(0)
    g.poll(10000)
    assert g.clock.state == C.FLAGGED
    assert g.call("extend", 15000)
    assert g.clock.state == C.RUNNING and g.clock.running == L
    assert g.both(20000) == (55000, 70000)
    assert g.press(L, 20000)  # increments are credited again
    assert g.both(20000) == (57000, 70000)


def test_extension_needs_a_flag():
    g = Game("10")
    g.start(0)
    assert not g.call("extend", 1000)
    assert g.of("extension") == []


# ---------------------------------------------------------------- TK-C11


def test_late_installation_half_the_elapsed_time_tk_c11():
    g = Game("3600")
    g.call("late_install", 0, 1800000)  # 30 min played: 60 - 15 = 45 min each
    a = g.of("adjust")
    assert [(e["side"], e["reason"], e["t"]) for e in a] == [("left", "late_install", 0), ("right", "late_install", 0)]
    assert a[0]["before"] == {"ms": 3600000, "moves": 0, "stage": 1}
    assert a[0]["after"] == {"ms": 2700000, "moves": 0, "stage": 1}
    assert a[1]["left_ms"] == 2700000 and a[1]["right_ms"] == 2700000
    g.start(0)
    assert g.log[-1]["type"] == "game_start" and g.log[-1]["left_ms"] == 2700000


def test_late_installation_near_the_end_gives_15_minutes_tk_c11():
    g = Game("3600")
    g.call("late_install", 0, 6000000)  # 100 min played: 60 - 50 = 10 min < 15 min floor
    assert [e["after"]["ms"] for e in g.of("adjust")] == [900000, 900000]
    g2 = Game("600")  # a control under 15 min: the floor is the control itself
    g2.call("late_install", 0, 6000000)
    assert [e["after"]["ms"] for e in g2.of("adjust")] == [600000, 600000]


def test_late_installation_only_before_the_start():
    g = Game("3600")
    g.start(0)
    raises(ValueError, g.clock.late_install, 1000, g.now(10))


# ----------------------------------------------------------- TK-C6, TK-R4


def test_default_time_marks_side_without_a_move_tk_c6():
    g = Game("5400", default_ms=1800000)
    g.start(0)
    g.poll(1799999)
    assert g.of("default") == []
    g.poll(1800000 + 12345)
    d = g.of("default")
    assert len(d) == 1 and d[0]["side"] == "left" and d[0]["t"] == 1800001  # more than 30 min (TK-C6)
    assert d[0]["left_ms"] == 5400000 - 1800001
    assert g.clock.default_mark == [1, 0]


def test_default_time_counts_pauses_and_spares_a_side_that_never_ran():
    g = Game("5400")
    g.start(0)
    g.press(L, 60000)
    g.pause(120000)  # right's clock has run, without a move
    g.poll(4000000)
    d = g.of("default")
    assert [(e["side"], e["t"]) for e in d] == [("right", 1800001)]
    g2 = Game("5400")
    g2.start(0)
    g2.press(L, 60000)
    g2.press(R, 70000)
    g2.poll(4000000)
    assert g2.of("default") == []


# ------------------------------------------------------------------ TK-C17


def test_low_time_crossing_logged_at_exact_instant_tk_c17():
    g = Game("600+10", low_time_ms=300000)
    g.start(0)
    g.poll(300000 + 4321)
    lo = g.of("low_time")
    assert len(lo) == 1 and lo[0]["t"] == 300000 and lo[0]["left_ms"] == 300000 and lo[0]["side"] == "left"


def test_low_time_rearmed_after_increment_lifts_back_over():
    g = Game("301+10", low_time_ms=300000)
    g.start(0)
    g.press(L, 2000)  # crossing at 1000; press gives 299 + 10 = 309 s: over the mark again
    g.press(R, 3000)
    g.poll(3000 + 9000)
    lo = g.of("low_time")
    # right starts over the mark too and crosses 1 s into its turn, just at its press
    assert [(e["side"], e["t"]) for e in lo] == [("left", 1000), ("right", 3000), ("left", 12000)]


def test_low_time_side_starting_under_the_mark_gets_no_event():
    g = Game("240", low_time_ms=300000)
    g.start(0)
    g.poll(100000)
    assert g.of("low_time") == []


def test_low_time_with_delay_counts_the_delay():
    g = Game("301d5", low_time_ms=300000)
    g.start(0)
    g.poll(10000)
    assert g.of("low_time")[0]["t"] == 6000


# -------------------------------------------------------------- TK-A1..A4


def test_adjourn_and_resume_tk_a4():
    g = Game("40/5400:1800")
    g.start(0)
    play(g, 0, L, [60000, 30000, 45000])  # right to move
    assert g.call("adjourn", 200000)
    a = g.of("adjourn")[0]
    assert a["t"] == 200000 and a["running"] is None
    assert (a["left_ms"], a["right_ms"]) == (5400000 - 105000, 5400000 - 30000 - 65000)
    assert (a["left_moves"], a["right_moves"]) == (2, 1)
    assert g.both(90000000) == (5295000, 5305000)
    assert g.call("resume_adjourned", 90000000)  # TK-A4: times back, side to move starts
    r = g.of("resume_adjourned")[0]
    assert r["running"] == "right" and r["left_ms"] == 5295000 and r["right_ms"] == 5305000
    assert g.both(90001000) == (5295000, 5304000)


# ---------------------------------------------------------- arbiter corrections


def test_arbiter_correction_logged_with_before_and_after():
    g = Game("40/5400+30:1800+30")
    g.start(0)
    play(g, 0, L, [10000, 20000])
    assert raises(ValueError, g.clock.adjust, R, g.now(30000), 60000)  # running: refused
    g.pause(31000)
    assert g.call("adjust", 32000, R, ms=60000, moves=41, stage=2)
    a = g.of("adjust")[0]
    assert a["side"] == "right" and a["reason"] == "correction" and a["t"] == 32000
    assert a["before"] == {"ms": 5400000 - 20000 + 30000, "moves": 1, "stage": 1}
    assert a["after"] == {"ms": 60000, "moves": 41, "stage": 2}
    assert a["right_ms"] == 60000 and a["right_moves"] == 41
    assert g.clock.stage_moves[R] == 1  # 41 moves: 40 in stage 1, 1 in stage 2
    g.resume(40000)
    assert g.both(41000) == (5400000 - 10000 + 30000 - 1000 - 1000, 60000)


def test_correction_before_start_is_logged_at_t0():
    g = Game("420")
    assert g.call("adjust", 0, L, ms=360000)
    assert g.log[0]["t"] == 0 and g.log[0]["after"]["ms"] == 360000
    g.start(5000)
    assert g.both(6000) == (359000, 420000)


def test_correction_bad_values_rejected():
    g = Game("420")
    raises(ValueError, g.clock.adjust, L, g.now(0), -1)
    raises(ValueError, g.clock.adjust, L, g.now(0), None, -3)
    raises(ValueError, g.clock.adjust, L, g.now(0), None, None, 2)
    raises(ValueError, g.clock.adjust, 5, g.now(0), 1000)
    assert g.log == []


def test_correction_lifts_a_flag():
    g = Game("10+1")
    g.start(0)
    g.poll(10000)
    assert g.clock.state == C.FLAGGED
    g.call("adjust", 11000, L, ms=30000)
    assert g.clock.flag == [0, 0] and g.clock.state == C.PAUSED
    assert g.resume(12000)
    assert g.both(13000) == (29000, 10000)


# -------------------------------------------------------------------- result


def test_result_stops_the_clock():
    g = Game("420")
    g.start(0)
    g.press(L, 1000)
    assert g.call("result", 5000, 1)
    r = g.of("result")[0]
    assert r["result"] == "0-1" and r["t"] == 5000 and r["running"] is None and r["right_ms"] == 416000
    assert g.clock.state == C.FINISHED
    assert not g.press(R, 6000)
    assert g.both(99999) == (419000, 416000)
    raises(ValueError, g.clock.result, 9, g.now(100000))


def test_forfeit_before_start():
    g = Game("420")
    g.call("result", 0, 3)  # TK-R4: a no-show loses by forfeit
    assert g.log[0]["result"] == "+/-" and g.log[0]["t"] == 0


# ------------------------------------------------------------------- settings


def test_bad_settings_rejected():
    raises(ValueError, C.Settings, None, "sometimes")
    raises(ValueError, C.Settings, None, "moves", -1)
    raises(ValueError, C.Settings, "yes")
    c = C.Clock()
    raises(ValueError, c.new_game, "*60", "300")
    raises(ValueError, c.new_game, "300", None, 7)
    raises(ValueError, c.new_game, "300+")


def test_clock_is_reused_across_games():
    c = C.Clock()
    buf = c.events
    for _ in range(3):
        c.new_game("60+1")
        c.start(0)
        c.press(C.LEFT, 1000)
        assert c.n_events == 2
        c.clear_events()
    assert c.events is buf
