# Exact-millisecond tests of the clock engine, one group per time-control mode (contract 2).
# Run by pytest under CPython and by tests/mprun.py under MicroPython.
from clockkit import NEAR_WRAP, Game, L, R, play
from sagatfw.engine import clock as C

# ------------------------------------------------------------------ sudden death (TK-B3)


def test_blitz_sudden_death_exact_times():
    g = Game("420")  # TK-B3 blitz: 7 min each
    assert g.start(0)
    assert g.both(0) == (420000, 420000)
    assert g.both(1234) == (418766, 420000)
    assert g.press(L, 2500)
    assert g.both(2500) == (417500, 420000)
    assert g.both(9000) == (417500, 413500)
    assert g.press(R, 10001)
    assert g.both(10001) == (417500, 412499)
    p = g.of("press")
    assert p[0]["t"] == 2500 and p[0]["side"] == "left" and p[0]["left_ms"] == 417500
    assert p[0]["running"] == "right" and p[0]["left_moves"] == 1 and p[0]["right_moves"] == 0
    assert p[1]["t"] == 10001 and p[1]["right_ms"] == 412499 and p[1]["running"] == "left"


def test_game_start_event_at_t0():
    g = Game("1200", first=R)  # TK-B3 rapid, TK-C5: the first player's face starts
    g.start(0)
    e = g.log[0]
    assert e["type"] == "game_start" and e["t"] == 0 and e["first"] == "right"
    assert e["tc"] == "1200" and e["running"] == "right"
    assert e["left_ms"] == 1200000 and e["right_ms"] == 1200000
    assert g.both(1000) == (1200000, 1199000)


def test_flag_falls_at_exact_instant_sudden_death():
    g = Game("60")
    g.start(0)
    g.poll(59999)
    assert g.of("flag") == []
    g.poll(60000)
    f = g.of("flag")
    assert len(f) == 1 and f[0]["t"] == 60000 and f[0]["side"] == "left" and f[0]["left_ms"] == 0
    assert f[0]["order"] == 1


# --------------------------------------------------------------------- Fischer


def test_fischer_increment_credited_at_press():
    g = Game("300+3")
    g.start(0)
    g.press(L, 4000)
    assert g.both(4000) == (299000, 300000)
    g.press(R, 10000)
    assert g.both(10000) == (299000, 297000)
    assert g.of("press")[1]["right_ms"] == 297000


def test_no_increment_after_flag_freeze_off():
    g = Game("10+5", freeze=False)
    g.start(0)
    g.press(L, 12000)  # after the flag at 10000: a move, but no increment (FIDE 6.3)
    f = g.of("flag")
    assert len(f) == 1 and f[0]["t"] == 10000 and f[0]["side"] == "left"
    assert g.ms(L, 12000) == 0
    p = g.of("press")[0]
    assert p["left_ms"] == 0 and p["left_moves"] == 1 and p["running"] == "right"
    assert g.types().index("flag") < g.types().index("press")
    assert g.both(13000) == (0, 9000)


def test_press_at_flag_instant_comes_after_flag():
    g = Game("10+5")  # freeze on by default with an increment
    g.start(0)
    assert not g.press(L, 10000)  # stamped at the flag instant: too late, presses do nothing
    assert g.types() == ["game_start", "flag"]
    assert g.clock.state == C.FLAGGED
    assert g.both(20000) == (0, 10000)


def test_press_one_ms_before_flag_gets_increment():
    g = Game("10+5")
    g.start(0)
    assert g.press(L, 9999)
    assert g.both(9999) == (5001, 10000)
    assert g.of("flag") == []


# ---------------------------------------------------------------- simple delay


def test_simple_delay_main_time_starts_after_delay():
    g = Game("300d5")
    g.start(0)
    assert g.both(4999) == (300000, 300000)
    assert g.clock.delay_remaining(L) == 1
    assert g.both(5000) == (300000, 300000)
    assert g.both(7000) == (298000, 300000)
    g.press(L, 7000)
    assert g.both(11000) == (298000, 300000)  # right inside its fresh delay
    g.press(R, 11000)  # used 4 s of the 5 s delay: nothing charged, nothing credited
    assert g.both(11000) == (298000, 300000)


def test_pause_inside_simple_delay_keeps_unused_delay():
    g = Game("300d5")
    g.start(0)
    g.pause(2000)  # 3 s of the delay unused
    assert g.clock.delay_remaining(L) == 3000
    assert g.both(60000) == (300000, 300000)
    g.resume(60000)
    assert g.both(62999) == (300000, 300000)
    assert g.both(63000) == (300000, 300000)
    assert g.both(64000) == (299000, 300000)
    pa = g.of("pause")[0]
    assert pa["t"] == 2000 and pa["by"] == "arbiter" and pa["left_ms"] == 300000 and pa["running"] is None


def test_delay_flag_instant_includes_delay():
    g = Game("10d5")
    g.start(0)
    g.poll(14999)
    assert g.of("flag") == []
    g.poll(100000)
    assert g.of("flag")[0]["t"] == 15000


# ------------------------------------------------------------------ Bronstein


def test_bronstein_gives_back_time_used_at_most_bonus():
    g = Game("300b5")
    g.start(0)
    g.press(L, 3000)  # used 3 s, gets 3 s back
    assert g.both(3000) == (300000, 300000)
    g.press(R, 11000)  # used 8 s, gets 5 s back
    assert g.both(11000) == (300000, 297000)


def test_bronstein_refund_counts_time_across_a_pause():
    g = Game("300b5")
    g.start(0)
    g.pause(2000)
    g.resume(50000)
    g.press(L, 52000)  # used 4 s in this turn (2 + 2), refund 4 s
    assert g.both(52000) == (300000, 300000)


# ---------------------------------------------------------------------- stages


def test_stage_advance_by_moves_with_carry_over():
    # TK-C16: 2 moves in 100 s, then 50 s: the time left over carries into the reserve.
    g = Game("2/100:50")
    g.start(0)
    t = play(g, 0, L, [10000, 1000, 20000])  # L at 10000, R at 11000, L at 31000 (2nd move)
    assert t == 31000
    assert g.ms(L, 31000) == 100000 - 30000 + 50000
    st = g.of("stage")
    assert len(st) == 1 and st[0]["side"] == "left" and st[0]["stage"] == 2 and st[0]["t"] == 31000
    press = g.of("press")[-1]
    assert press["left_ms"] == 120000  # the press event already shows the added time
    assert g.types()[-2:] == ["press", "stage"]
    assert g.clock.stage[L] == 2 and g.clock.stage[R] == 1


def test_stage_advance_by_moves_fischer_two_stage():
    g = Game("2/100+10:50+5")
    g.start(0)
    play(g, 0, L, [10000, 1000, 20000, 1000, 1000])
    # L: 100 - 10 + 10 (move 1), -20 + 10 (move 2, stage 1 inc) + 50 -> 140 s; move 3: -1 + 5
    assert g.ms(L, 33000) == 144000
    assert g.clock.stage[L] == 2


def test_flag_in_first_stage_is_a_flag_not_a_stage():
    g = Game("2/10:50", freeze=False)
    g.start(0)
    g.poll(10000)
    assert [e["type"] for e in g.log] == ["game_start", "flag"]
    g.press(L, 11000)
    g.press(R, 11500)
    g.press(L, 12000)  # second move of a flagged side: no stage time added (Chronos flaw)
    assert g.ms(L, 12000) == 0
    # the stage count follows the moves all the same: stage 2 is logged, with no time
    assert [(e["side"], e["stage"], e["left_ms"]) for e in g.of("stage")] == [("left", 2, 0)]


def test_stage_advance_by_flag_adds_time_at_exact_instant():
    g = Game("2/10:50", stage_advance="flag")
    g.start(0)
    g.poll(9999)
    assert g.of("stage") == []
    g.poll(30000)
    st = g.of("stage")
    assert len(st) == 1 and st[0]["t"] == 10000 and st[0]["side"] == "left" and st[0]["stage"] == 2
    assert st[0]["left_ms"] == 50000
    assert g.of("flag") == []
    assert g.ms(L, 30000) == 30000
    assert g.clock.stage_mark[L] == 1  # marked for the arbiter (TK-C13)
    g.poll(60000)
    f = g.of("flag")
    assert len(f) == 1 and f[0]["t"] == 60000  # the final stage running out is a flag


def test_stage_advance_by_flag_keeps_leftover_time():
    g = Game("2/10:50", stage_advance="flag")
    g.start(0)
    play(g, 0, L, [3000, 1000, 3000, 1000])  # L has 4 s left after 2 moves; no time added yet
    assert g.ms(L, 8000) == 4000 and g.of("stage") == []
    g.poll(12000)
    st = g.of("stage")
    assert st[0]["t"] == 12000 and g.ms(L, 12000) == 50000


def test_repeating_final_stage():
    g = Game("1/10:2/20")
    g.start(0)
    g.press(L, 1000)  # stage 2: +20
    assert g.ms(L, 1000) == 29000
    play(g, 1000, R, [1000, 1000, 1000, 1000])  # L's 2nd and 3rd moves: stage 2 done -> +20
    assert g.clock.stage[L] == 3
    assert g.ms(L, 5000) == 29000 - 2000 + 20000
    assert [e["stage"] for e in g.of("stage") if e["side"] == "left"] == [2, 3]


# ------------------------------------------------------------------- hourglass


def test_hourglass_time_used_goes_to_the_other():
    g = Game("*60")
    g.start(0)
    assert g.both(10000) == (50000, 70000)
    g.press(L, 10000)
    assert g.both(13000) == (53000, 67000)
    assert g.ms(L, 13000) + g.ms(R, 13000) == 120000
    g.pause(20000)
    assert g.both(90000) == (60000, 60000)


def test_hourglass_flag_and_sum_stays_constant():
    g = Game("*10", freeze=False)
    g.start(0)
    g.poll(10000)
    assert g.of("flag")[0]["t"] == 10000
    assert g.both(25000) == (0, 20000)


# -------------------------------------------------------------------- count-up


def test_count_up_counts_elapsed_and_never_flags():
    g = Game("-")
    g.start(0)
    assert g.both(5000) == (5000, 0)
    g.press(L, 5000)
    assert g.both(8000) == (5000, 3000)
    g.poll(20 * 3600 * 1000)
    assert g.of("flag") == [] and g.of("low_time") == []
    assert g.both(20 * 3600 * 1000)[1] == 20 * 3600 * 1000 - 5000


# -------------------------------------------------------------------- byo-yomi


def test_japanese_byoyomi_periods():
    g = Game("10j5x2")
    g.start(0)
    g.poll(10000)
    st = g.of("stage")
    assert len(st) == 1 and st[0]["t"] == 10000 and st[0]["stage"] == 2 and st[0]["left_ms"] == 5000
    g.press(L, 13000)  # a move inside the period: the period is reset
    assert g.ms(L, 13000) == 5000
    g.press(R, 14000)
    g.poll(19000)  # the first period runs out: the second begins
    assert [e["t"] for e in g.of("stage")] == [10000, 19000]
    g.poll(24000)
    f = g.of("flag")
    assert len(f) == 1 and f[0]["t"] == 24000


def test_canadian_byoyomi_blocks():
    g = Game("10c2/20")
    g.start(0)
    g.poll(10000)
    assert g.of("stage")[0]["t"] == 10000 and g.ms(L, 10000) == 20000
    g.press(L, 15000)
    g.press(R, 15000)
    assert g.ms(L, 15000) == 15000  # first move of the block: no reset
    g.press(L, 17000)  # second move: block done, 20 s again
    assert g.ms(L, 17000) == 20000


# -------------------------------------------------------------------- handicap


def test_handicap_controls_per_side():
    g = Game("300+2", "180+2", first=R)
    g.start(0)
    assert g.log[0]["tc"] == {"left": "300+2", "right": "180+2"}
    assert g.both(1000) == (300000, 179000)
    g.press(R, 1000)
    assert g.both(1000) == (300000, 181000)


# ------------------------------------------------------------------ ticks wrap


def test_game_across_the_ticks_wrap():
    g = Game("300+3", base=NEAR_WRAP)  # the ticks wrap 10 s into the game
    g.start(0)
    t = play(g, 0, L, [4000, 5000, 3000, 2000, 7000])
    assert t == 21000
    assert g.both(21000) == (300000 - 14000 + 9000, 300000 - 7000 + 6000)
    assert g.now(21000) < g.now(0)  # really wrapped
    g.poll(21000 + 299000 - 1)  # right runs with 299 s
    assert g.of("flag") == []
    g.poll(21000 + 299000 + 5)
    f = g.of("flag")[0]
    assert f["t"] == 320000 and f["side"] == "right" and f["left_ms"] == 295000


def test_now_older_than_last_call_counts_no_time():
    g = Game("60")
    g.start(0)
    g.poll(5000)
    assert g.press(L, 4990)  # stamped before the last poll: charged at the last known instant
    assert g.of("press")[0]["t"] == 5000 and g.of("press")[0]["left_ms"] == 55000
