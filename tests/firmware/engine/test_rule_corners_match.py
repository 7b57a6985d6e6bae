# The field games' rule corners as a referee meets them, each in the rule's words (its ID in the
# test's name), on the engines (both runtimes): a score entered after the period ended by time,
# KB-3's restart, the referee's correction of the period's clock, KT-4.6's toss and its 1-minute
# break, and a power cut in a break.
from matchkit import MIN, NEAR_WRAP, bad_value, refuses, replay
from matchruns import END2, HALF, INN, XS, bout, extra, match, tied, to_second_half

from sagatfw.engine import matchwords as M
from sagatfw.engine.kokboru import KokBoru

L = M.LEFT
R = M.RIGHT
END_2ND = HALF + MIN + HALF  # the 2nd half ends here in to_second_half()


def _replays(r):
    """The log alone rebuilds the match (as the board's restore and `sagat logs verify` do)."""
    m = r.m
    engine = type(m)()
    engine.new_match(**{o[0]: getattr(m, o[0]) for o in m.OPTIONS})
    assert replay(engine, r.log) == r.log


# ------------------------------------------------------------------ a score after the period ended by time


def test_kb_7_a_carry_entered_after_the_half_ended_counts_for_that_half():
    for base in (0, NEAR_WRAP - HALF):
        r = bout(base)
        r.do("start", 0)
        r.poll(HALF + 100)  # the 1st half ended at 4:00; the rest runs
        assert r.m.state == M.BREAK
        r.do("score", HALF + 100, L, 4)  # the carry completed at 3:59.5, entered at 4:00.1
        late = r.of("late_score")
        assert [(e["t"], e["period"], e["pms"], e["side"], e["arg"], e["left"]) for e in late] == [
            (HALF + 100, 0, HALF, L, 4, 4)]
        assert r.m.scores == [4, 0] and r.m.state == M.BREAK and r.m.break_ms() == MIN - 100
        _replays(r)


def test_kb_17_a_late_score_breaks_the_tie_so_no_golden_score_is_played():
    r = bout()
    to_second_half(r)
    r.poll(END_2ND + 300)
    assert r.m.state == M.READY and r.m.period == 2  # level: golden score waits
    r.do("score", END_2ND + 300, R, 1)
    assert r.m.state == M.FINISHED and r.m.winner == R and r.m.why == M.WHY_POINTS
    res = r.of("result")[-1]
    assert (res["t"], res["period"], res["left"], res["right"]) == (END_2ND + 300, 1, 0, 1)
    r.do("undo", END_2ND + 5000)  # undo reaches it: level again, golden score waits
    assert r.m.state == M.READY and r.m.period == 2 and r.m.winner == M.NONE and r.m.scores == [0, 0]
    r.do("start", END_2ND + 6000)
    assert r.m.state == M.RUNNING and r.m.period_name() == "golden score"
    r.do("score", END_2ND + 7000, L, 4)
    assert r.m.why == M.WHY_GOLDEN and r.of("score")[-1]["period"] == 2
    _replays(r)


def test_kb_14_a_late_score_that_makes_the_lead_ends_the_bout_in_the_rest():
    r = bout(lead=8)
    r.do("start", 0)
    r.do("score", 1000, L, 4)
    r.do("score", 2000, L, 4)
    r.poll(HALF + 200)
    r.do("score", HALF + 200, L, 1)  # 9-0: a lead of more than 8
    assert r.m.state == M.FINISHED and r.m.why == M.WHY_LEAD and r.m.winner == L
    r.do("undo", HALF + 500)  # withdrawn: the rest goes on
    assert r.m.state == M.BREAK and r.m.winner == M.NONE and r.m.scores == [8, 0]
    r.poll(HALF + MIN)
    assert r.m.state == M.READY and r.m.period == 1
    _replays(r)


def test_kb_7_a_late_score_can_turn_the_result_the_clock_gave_at_the_end():
    r = bout()
    to_second_half(r)
    r.do("score", HALF + MIN + 1000, L, 2)
    r.poll(END_2ND + 50)
    assert r.m.state == M.FINISHED and r.m.winner == L and r.m.why == M.WHY_POINTS
    r.do("score", END_2ND + 400, R, 4)  # the right rider's carry, before the horn, entered after
    assert r.m.state == M.FINISHED and r.m.winner == R and r.m.scores == [2, 4]
    assert [e["side"] for e in r.of("result")] == [L, R]
    r.do("undo", END_2ND + 900)
    assert r.m.winner == L and r.m.scores == [2, 0] and len(r.of("result")) == 3
    _replays(r)


def test_kb_11_a_late_second_warning_removes_the_rider():
    r = bout()
    to_second_half(r)
    r.do("card", HALF + MIN + 1000, L, M.CARD_WARNING)
    r.do("score", HALF + MIN + 2000, L, 4)
    r.poll(END_2ND + 10)
    assert r.m.winner == L
    r.do("card", END_2ND + 800, L, M.CARD_WARNING)
    assert r.of("late_card")[0]["arg"] == M.CARD_WARNING
    assert r.m.state == M.FINISHED and r.m.winner == R and r.m.why == M.WHY_REMOVAL
    assert refuses(r.m.score, R, 1, r.now(END_2ND + 900)) == "match over"
    r.do("undo", END_2ND + 1000)
    assert r.m.winner == L and r.m.why == M.WHY_POINTS and r.m.warnings == [1, 0]
    _replays(r)


def test_kb_16_no_late_score_after_the_next_period_started_or_the_referees_result():
    r = bout()
    r.do("start", 0)
    r.poll(HALF + MIN)
    r.do("start", HALF + MIN)  # the 2nd half runs: the 1st half takes no more
    assert r.of("late_score") == []
    r.do("score", HALF + MIN + 10, L, 1)
    assert r.of("score")[-1]["period"] == 1
    r2 = bout()
    to_second_half(r2)
    r2.do("score", HALF + MIN + 1000, L, 2)
    r2.poll(END_2ND)
    r2.do("result", END_2ND + 100, L)
    assert refuses(r2.m.score, R, 4, r2.now(END_2ND + 200)) == "match over"


def test_kt_5_5_a_late_pazham_is_the_team_that_entered_in_the_innings_that_ended():
    r = match(first=L, changeover_ms=30000)
    r.do("start", 0)
    r.poll(INN + 500)
    assert r.m.state == M.BREAK
    assert refuses(r.m.score, R, 1, r.now(INN + 600)) == "not the entering team"
    r.do("score", INN + 700, L, 1)
    assert r.of("late_score")[0]["period"] == 0 and r.m.scores == [1, 0]
    r.poll(INN + 30000)
    assert r.m.state == M.RUNNING and r.m.period == 1 and r.m.entering == R
    assert r.m.undoable == 0  # innings 2 started: its own entries only
    _replays(r)


def test_kt_4_6_a_late_pazham_after_innings_2_decides_the_match_without_extra_time():
    r = tied(lot=R, first=L)
    assert r.m.state == M.READY and r.m.period == 2
    r.do("score", END2 + 2000, R, 1)  # innings 2's team (right) scored before the end
    assert r.m.state == M.FINISHED and r.m.winner == R and r.m.why == M.WHY_POINTS
    r.do("undo", END2 + 3000)
    assert r.m.state == M.LOT and r.m.lot_due == 1  # level again: the lot is due again
    _replays(r)


# ------------------------------------------------------------------ KB-3: the false start, a restart


def test_kb_3_a_false_start_restarts_the_period_from_zero():
    for base in (0, NEAR_WRAP):
        r = bout(base)
        r.do("start", 0)
        r.do("stoppage", 7000)
        r.do("restart", 9000)
        ev = r.of("restart")[0]
        assert (ev["t"], ev["val"], ev["period"]) == (9000, 7000, 0)
        assert r.m.state == M.READY and r.m.match_ms() == HALF and r.m.stopped_ms() == 0
        r.do("start", 20000)
        r.poll(20000 + HALF)
        assert r.of("period_end")[0]["t"] == 20000 + HALF  # the half is a whole 4:00 from the restart
        _replays(r)


def test_kb_3_a_restart_only_before_the_periods_first_score():
    r = bout()
    r.do("start", 0)
    r.do("score", 3000, L, 1)
    assert refuses(r.m.restart, r.now(4000)) == "undo the scores first"
    r.do("undo", 5000)
    r.do("restart", 6000)  # running: back to 0:00, waiting for the start
    assert r.m.state == M.READY
    assert refuses(r.m.restart, r.now(7000)) == "period not started"


# ------------------------------------------------------------------ the referee's correction of match time


def test_kt_4_5_the_referee_corrects_the_period_clock_in_a_stoppage():
    r = match(first=L)
    r.do("start", 0)
    r.do("stoppage", 60000)
    r.do("adjust", 61000, 6 * MIN + 30000)  # the clock shows 6:00; the referee's watch 6:30
    assert r.of("adjust")[0]["val"] == 6 * MIN + 30000 and r.m.match_ms() == 6 * MIN + 30000
    r.do("resume", 70000)
    r.poll(70000 + 6 * MIN + 30000)
    assert r.of("period_end")[0]["t"] == 70000 + 6 * MIN + 30000
    _replays(r)


def test_kb_16_adjust_is_refused_while_the_time_runs_and_for_a_bad_value():
    r = bout()
    r.do("start", 0)
    assert refuses(r.m.adjust, 1000, r.now(100)) == "stop the period first"
    r.do("stoppage", 200)
    assert "1..240000" in bad_value(r.m.adjust, 0, r.now(300))
    assert "1..240000" in bad_value(r.m.adjust, HALF + 1, r.now(300))
    assert bad_value(r.m.adjust, True, r.now(300))
    assert r.m.match_ms() == HALF - 200


# ------------------------------------------------------------------ KT-4.6: the toss, the lots, the break


def test_kt_4_6_the_referee_enters_the_toss_in_place_of_the_clocks_draw():
    r = tied(lot=L, first=L)
    assert r.m.entering == L
    r.do("draw_lot", END2 + 5000, R)  # the coin says right enters first
    lots = r.of("lot")
    assert [(e["side"], e["arg"], e["val"]) for e in lots] == [(L, 1, 0), (R, 1, 1)]
    assert r.m.entering == R and r.m.state == M.READY and r.m.period == 2
    r.do("start", XS)
    assert refuses(r.m.draw_lot, L, r.now(XS + 1)) == "no lot due"
    _replays(r)


def test_kt_4_6_lot_2_by_toss_replaces_the_clocks_draw():
    r = extra(lot=R, first=L, method=1)  # M_LOT
    r.poll(XS + 20 * MIN)
    assert r.m.state == M.LOT and r.m.lot_due == 2
    r.do("draw_lot", XS + 20 * MIN, L)  # the clock's draw
    assert r.m.state == M.FINISHED and r.m.why == M.WHY_LOT
    w = r.m.winner
    r.do("draw_lot", XS + 20 * MIN + 1000, 1 - w)
    assert r.m.winner == 1 - w and r.m.why == M.WHY_LOT and r.of("lot")[-1]["val"] == 1
    _replays(r)
    assert refuses(KokBoru().draw_lot, L, 0) == "no lot in this game"


def test_kt_4_6_the_extra_time_break_is_one_minute_whatever_the_changeover():
    r = tied(lot=R, first=L, changeover_ms=30000)
    r.do("start", XS)
    r.poll(XS + 5 * MIN)
    brk = r.of("break_start")
    assert [e["val"] for e in brk] == [30000, MIN]  # innings' changeover 30 s; the extra time's 1:00


# ------------------------------------------------------------------ a power cut in a break


def test_kt_4_4_a_power_cut_in_the_changeover_never_stretches_it():
    r = match(first=L, changeover_ms=60000)
    r.do("start", 0)
    r.poll(INN + 45000)  # 45 s of the changeover are durable; then the power goes
    r.restore(INN + 45000)  # back after an unknown time
    ev = r.log[-2:]
    assert [(e["type"], e["val"]) for e in ev] == [("power_restore", 1), ("break_end", 45000)]
    assert r.log[-1]["arg"] == 2 and r.m.state == M.READY and r.m.period == 1
    r.poll(INN + 10 * MIN)
    assert r.m.state == M.READY  # the referee starts innings 2
    r.do("start", INN + 10 * MIN)
    assert r.of("period_start")[-1]["arg"] == M.BY_REFEREE
    _replays(r)


def test_kt_4_6_the_toss_keeps_a_correction_of_extra_1s_clock():
    r = tied(lot=L, first=L)
    r.do("adjust", END2 + 1000, 4 * MIN + 30000)
    r.do("draw_lot", END2 + 2000, R)  # the toss entered after the correction
    assert r.m.entering == R and r.m.match_ms() == 4 * MIN + 30000
    _replays(r)


def test_kb_16_no_undo_of_a_late_entry_under_the_referees_result():
    r = bout()
    to_second_half(r)
    r.poll(END_2ND + 10)
    r.do("score", END_2ND + 100, L, 1)  # late: left wins by points
    r.do("result", END_2ND + 200, R)  # the referee decides otherwise
    assert refuses(r.m.undo, r.now(END_2ND + 300)) == "match over"
    assert r.m.scores == [1, 0] and r.m.winner == R
