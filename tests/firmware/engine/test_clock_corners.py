# The clock's corners: byo-yomi after a tie extension
# (TK-C14), stages counted while a flag is down (TK-C16), an hourglass and a flagged side, and more
# events between two calls than the event queue holds. Run by pytest under CPython and by
# tests/mprun.py under MicroPython.
from clockkit import NEAR_WRAP, Game, L, R
from sagatfw.core.ticks import ticks_add
from sagatfw.engine import clock as C
from sagatfw.log.read import take_events

# --------------------------------------------------- byo-yomi and the tie extension (TK-C14)


def test_japanese_byoyomi_extension_is_main_time_tk_c14():
    g = Game("60j10x1", freeze=False)
    g.start(0)
    g.poll(70000)  # main time out at 60 s (period 1, stage 2), the only period out at 70 s: flag
    assert [(e["type"], e["t"]) for e in g.log[1:]] == [("stage", 60000), ("flag", 70000)]
    assert g.press(L, 72000)  # the flagged side completes its move (TK-B8): nothing reset
    assert g.ms(L, 72000) == 0
    assert g.call("extend", 73000)  # TK-C14: 5:00 each, as main time
    assert g.both(73000) == (300000, 59000 + 300000)
    assert g.clock.stage[L] == 1  # back in the main time: the periods come after it
    assert g.press(R, 74000)
    assert g.press(L, 80000)  # a move in the main time: nothing resets it to the period's 0:10
    assert g.ms(L, 80000) == 294000
    assert g.press(R, 81000)
    g.poll(81000 + 294000 + 10000)  # the extension spent, byo-yomi starts again, then the flag
    st = [(e["side"], e["stage"], e["t"]) for e in g.of("stage")]
    assert st == [("left", 2, 60000), ("left", 2, 375000)]
    f = g.of("flag")
    assert [(e["side"], e["order"], e["t"]) for e in f] == [("left", 1, 70000), ("left", 2, 385000)]


def test_canadian_byoyomi_keeps_the_extension_past_the_block_tk_c14():
    g = Game("60c2/20", freeze=False)
    g.start(0)
    g.poll(80000)  # the block starts at 60 s; 20 s later, with no move in it: flag
    assert g.of("flag")[0]["t"] == 80000
    assert g.press(L, 81000)  # the flagged side's move 1: no new block
    assert g.call("extend", 82000)
    assert g.both(82000) == (300000, 359000)
    assert g.press(R, 83000)
    assert g.press(L, 84000)  # left's second move would have ended a block: the extension stays
    assert g.ms(L, 84000) == 299000
    assert g.clock.stage[L] == 1


def test_byoyomi_side_without_a_flag_gets_the_extension_as_main_time_tk_c14():
    g = Game("10j5x3", freeze=False, extension_ms=60000)
    g.start(0)
    assert g.press(L, 1000)  # right runs: its main time out at 11 s, first period (5 s)
    g.poll(13000)
    assert g.clock.stage[R] == 2 and g.ms(R, 13000) == 3000
    assert g.press(R, 13000)  # the period is reset
    g.poll(13000 + 9000)  # left: 9 s of main time left
    assert g.of("stage")[-1]["side"] == "left"
    g.poll(13000 + 9000 + 15000)  # left's three periods out: its flag
    assert g.of("flag")[0]["side"] == "left"
    assert g.call("extend", 40000)  # right, in its first period (5 s), gets 60 s of main time
    assert g.both(40000) == (60000, 65000)
    assert g.clock.stage == [1, 1]
    assert g.press(L, 41000)
    g.poll(41000 + 65000)  # right's main time out: its periods start again from the first
    assert g.of("stage")[-1]["side"] == "right" and g.of("stage")[-1]["stage"] == 2
    assert g.ms(R, 41000 + 65000) == 5000


# ----------------------------------------- stages while a flag is down (TK-C16, contract 2)


def test_stage_count_follows_moves_while_flagged_and_its_time_is_not_credited_tk_c16():
    g = Game("2/10:60", freeze=False)
    g.start(0)
    g.poll(10000)  # left flags in stage 1
    assert g.press(L, 11000)
    assert g.press(R, 12000)
    assert g.press(L, 13000)  # move 2 completes stage 1: stage 2, no time (the flag is down)
    st = g.of("stage")
    assert [(e["side"], e["stage"], e["t"], e["left_ms"]) for e in st] == [("left", 2, 13000, 0)]
    assert g.types()[-2:] == ["press", "stage"]
    assert g.clock.stage[L] == 2 and g.ms(L, 13000) == 0
    assert g.call("extend", 14000)
    assert g.press(R, 15000)
    assert g.press(L, 20000)  # move 3: no skipped +60 s, no stage event
    assert g.ms(L, 20000) == 295000
    assert [e["t"] for e in g.of("stage") if e["side"] == "left"] == [13000]
    assert [e["right_ms"] for e in g.of("stage") if e["side"] == "right"] == [308000 - 1000 + 60000]  # its own


def test_repeating_stage_after_a_flag_is_credited_at_its_own_count_tk_c16():
    g = Game("2/10:2/5", freeze=False)
    g.start(0)
    g.poll(10000)
    g.press(L, 11000)
    g.press(R, 12000)
    g.press(L, 13000)  # stage 2 reached while flagged: no time
    g.call("extend", 14000)
    g.press(R, 15000)
    g.press(L, 16000)  # move 3: nothing
    left_stages = [e for e in g.of("stage") if e["side"] == "left"]
    assert g.ms(L, 16000) == 299000 and len(left_stages) == 1
    g.press(R, 17000)
    g.press(L, 18000)  # move 4 completes the repeat (no flag down now): +5 s, stage 3
    assert g.ms(L, 18000) == 298000 + 5000
    st = [e for e in g.of("stage") if e["side"] == "left"]
    assert [(e["stage"], e["t"]) for e in st] == [(2, 13000), (3, 18000)]


def test_stage_event_while_the_other_sides_flag_is_down_credits_this_side():
    g = Game("2/10:60", freeze=False)
    g.start(0)
    g.press(L, 1000)
    g.poll(11000)  # right flags
    g.press(R, 11500)
    g.press(L, 12000)  # left's move 2: its own flag is not down, the stage's time is its own
    assert g.ms(L, 12000) == 10000 - 1000 - 500 + 60000
    assert [(e["side"], e["stage"]) for e in g.of("stage")] == [("left", 2)]


# ------------------------------------------------- hourglass and a flagged side (contract 2)


def test_hourglass_running_side_gives_nothing_to_a_flagged_side():
    g = Game("*10", freeze=False)
    g.start(0)
    g.press(L, 1000)  # left 9 s, right 11 s
    g.poll(12000)  # right flags: left has 20 s
    assert g.of("flag")[0]["side"] == "right"
    g.press(R, 13000)  # the flagged side completes its move (TK-B8)
    assert g.both(16000) == (17000, 0)  # left's time runs, right stays at zero
    g.poll(16000)
    assert g.ms(R, 16000) == 0
    g.poll(33000)  # left's own flag: nothing went to right on the way
    assert [(e["side"], e["t"], e["right_ms"]) for e in g.of("flag")] == [("right", 12000, 0), ("left", 33000, 0)]
    assert g.call("extend", 34000)  # TK-C14: the extension lifts the flags: the hourglass flows again
    g.poll(36000)
    assert g.both(36000) == (298000, 302000)


def test_hourglass_correction_lifts_the_flag_and_the_time_flows_again():
    g = Game("*10", freeze=False)
    g.start(0)
    g.press(L, 1000)
    g.poll(12000)
    g.press(R, 13000)
    g.pause(14000)
    g.call("adjust", 14000, R, ms=5000)  # the arbiter puts time back: the flag is lifted
    g.resume(14000)
    assert g.both(15000) == (18000, 6000)


# -------------------------------------------------- more events than the queue between calls


def test_many_byoyomi_periods_in_one_poll_never_overflow():
    g = Game("1j1x99", freeze=False)  # the kit drains through the clock's sink
    g.start(0)
    g.poll(60000)  # 60 periods' starts in one call
    st = g.of("stage")
    assert [e["t"] for e in st] == [1000 * k for k in range(1, 61)]
    assert [e["stage"] for e in st] == list(range(2, 62))
    assert g.clock.t == 60000 and g.ms(L, 60000) == 1000


def test_a_clock_without_a_sink_stops_whole_at_a_full_queue_and_goes_on():
    c = C.Clock()
    c.new_game("1j1x99", settings=C.Settings(freeze=False))
    base = NEAR_WRAP
    c.start(base)
    got = take_events(c)
    done = c.advance(ticks_add(base, 60000))  # never raises; stops where the queue is full
    assert not done
    first = take_events(c)
    assert 0 < len(first) < C.EV_CAPACITY
    t = c.t
    assert t == first[-1]["t"] + 1000  # whole at the next instant: nothing of it applied yet
    assert c.stage[L] == len(first) + 1 and c.ms(L) == 0  # that period ends now
    assert not c.press(L, ticks_add(base, 60000))  # an operation waits for the queue: refused
    assert c.moves == [0, 0]
    got += first
    while not c.advance(ticks_add(base, 60000)):
        got += take_events(c)
    got += take_events(c)
    assert [e["t"] for e in got if e["type"] == "stage"] == [1000 * k for k in range(1, 61)]
    assert c.t == 60000 and c.press(L, ticks_add(base, 60000))


def test_a_correction_to_zero_before_byo_yomi_enters_the_period_at_once():
    """Japanese and Canadian byo-yomi: a side put at 0:00 in its main time (or, Japanese, in a
    period that is not the last) has that time out at the correction, as its running out would:
    the period starts there, logged as a stage event after the adjust, so the paused faces show
    what will run and the resume changes no time (TK-C13); at 0:00 in the last period the flag
    falls on the resume."""
    for control, periods in (("20j5x2", 2), ("20c2/10", 1)):
        g = Game(control, freeze=False)
        g.start(0)
        g.pause(1000)
        right = g.both(1000)[1]
        g.call("adjust", 2000, L, ms=0)
        assert g.types()[-2:] == ["adjust", "stage"], control
        assert g.log[-1]["stage"] == 2 and g.log[-1]["t"] == 2000
        period = 5000 if periods == 2 else 10000
        assert g.both(3000) == (period, right)  # the paused faces show what will run
        g.resume(3000)
        assert g.both(3000) == (period, right) and g.types()[-1] == "resume", control
        if periods == 2:  # the first of two periods set to 0:00: the second starts
            g.pause(3500)
            g.call("adjust", 3500, L, ms=0)
            assert g.types()[-2:] == ["adjust", "stage"] and g.log[-1]["stage"] == 3
        g.pause(4000) if periods == 1 else None
        g.call("adjust", 4000, L, ms=0)  # the last period: nothing to enter, the flag falls
        assert g.types()[-1] == "adjust"
        g.resume(5000)
        g.poll(5000)
        assert g.of("flag")[0]["side"] == "left" and g.of("flag")[0]["t"] == 5000, control


def test_an_operation_after_a_long_gap_is_applied_after_every_instant_before_it():
    g = Game("1j1x99", freeze=False)
    g.start(0)
    assert g.press(L, 30500)  # 30 periods fell before the press: all logged first
    assert g.types()[-2:] == ["stage", "press"] and len(g.of("stage")) == 30
    assert g.of("press")[0]["t"] == 30500 and g.ms(L, 30500) == 1000


def test_a_correction_to_zero_in_a_non_final_stage_by_flag_adds_the_next_stage_at_once():
    """stage_advance flag: a side put at 0:00 in a non-final stage has its stage's time out at the
    correction: the next stage's time is added there, logged as a stage event after the adjust,
    the face marked for the arbiter (TK-C13); the resume then changes no time."""
    g = Game("2/20:10", stage_advance="flag", freeze=False)
    g.start(0)
    g.pause(1000)
    g.call("adjust", 2000, L, ms=0)
    assert g.types()[-2:] == ["adjust", "stage"]
    st = g.log[-1]
    assert st["side"] == "left" and st["stage"] == 2 and st["t"] == 2000 and st["left_ms"] == 10000
    assert g.clock.stage == [2, 1] and g.clock.stage_mark == [1, 0]
    assert g.both(3000) == (10000, 20000)  # the paused faces show what will run
    g.resume(3000)
    assert g.both(3000) == (10000, 20000) and g.types()[-1] == "resume"
    assert g.of("flag") == []
    g.pause(4000)
    g.call("adjust", 4000, L, ms=0)  # the final stage: no stage to add, the flag falls on resume
    assert g.types()[-1] == "adjust"
    g.resume(5000)
    g.poll(5000)
    assert g.of("flag")[0]["side"] == "left" and g.of("flag")[0]["t"] == 5000
