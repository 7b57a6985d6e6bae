# Exact-millisecond tests of the kilithattu engine (sagatfw/engine/kilithattu.py), one group per
# rule of docs/rules.md (KT-*) and per decision of docs/match.md. Run by pytest under CPython and
# by tests/mprun.py under MicroPython.
from matchkit import MIN, NEAR_WRAP, bad_value, replay
from matchruns import END2, EXTRA, HOUR, INN, XEND, XS, extra, match, tied

from sagatfw.engine import kilithattu as K
from sagatfw.engine import matchwords as M

L = M.LEFT
R = M.RIGHT


# ------------------------------------------------------------------------- KT-4.4


def test_two_innings_of_7_min_the_team_entering_first_set_at_setup_kt_4_4():
    r = match(first=R)
    assert r.m.state == M.SETUP and r.m.entering == R and r.m.match_ms() == INN
    assert r.m.period_name() == "innings 1"
    r.do("start", 0)
    assert r.log[0]["side"] == R and r.log[0]["val"] == INN and r.m.entering == R
    r.poll(INN - 1)
    assert r.m.match_ms() == 1
    r.poll(INN + MIN)
    assert r.m.state == M.RUNNING and r.m.period == 1 and r.m.entering == L and r.m.period_name() == "innings 2"
    assert r.of("period_start")[1]["side"] == L


def test_the_changeover_runs_by_itself_and_starts_innings_2_exactly_kt_4_4():
    for base in (0, NEAR_WRAP, NEAR_WRAP - INN):  # across the 2^30 ticks wrap
        r = match(base, first=L)
        r.do("start", 0)
        r.do("score", 5000, L, 1)
        r.poll(20 * MIN)  # once, 20 minutes later: both innings are over
        assert r.brief() == [("period_start", 0), ("score", 5000), ("period_end", INN), ("break_start", INN),
                             ("break_end", INN + MIN), ("period_start", INN + MIN), ("period_end", END2),
                             ("result", END2)], base
        ps = r.of("period_start")[1]
        assert (ps["arg"], ps["side"], ps["period"]) == (M.BY_CLOCK, R, 1)
        assert r.log[-1]["side"] == L and r.log[-1]["arg"] == M.WHY_POINTS
        assert r.m.state == M.FINISHED and r.m.t == 20 * MIN


def test_the_changeover_is_a_setting_of_at_most_1_min_kt_4_4():
    r = match(changeover_ms=30000)
    r.do("start", 0)
    r.poll(INN + 29999)
    assert r.m.state == M.BREAK and r.m.break_ms() == 1 and r.m.period_name() == "innings 1"
    r.poll(INN + 30000)
    assert r.brief(3) == [("break_end", INN + 30000), ("period_start", INN + 30000)]
    assert r.of("break_start")[0]["val"] == 30000 and r.m.state == M.RUNNING
    m = K.Kilithattu()
    for bad in (0, 999, 60001, 120000, "60000", None):
        assert bad_value(m.new_match, L, bad) == "changeover must be 1000..60000 ms"
    assert bad_value(m.new_match, 2) == "side must be left or right"


def test_the_referee_may_start_innings_2_during_the_changeover_kt_4_4():
    r = match()
    r.do("start", 0)
    r.poll(INN + 20000)
    r.do("start", INN + 20000)
    be = r.log[-2]
    assert (be["type"], be["t"], be["arg"], be["val"]) == ("break_end", INN + 20000, 1, 20000)
    ps = r.log[-1]
    assert (ps["type"], ps["arg"], ps["period"]) == ("period_start", M.BY_REFEREE, 1)
    r.poll(HOUR)
    assert r.of("period_end")[1]["t"] == 2 * INN + 20000
    assert r.types().count("period_start") == 2  # the changeover's end was not reached


# ------------------------------------------------------------------------- KT-4.5


def test_stoppage_time_is_added_back_to_the_innings_kt_4_5():
    for base in (0, NEAR_WRAP):
        r = match(base)
        r.do("start", 0)
        r.do("stoppage", 60000)
        r.poll(70000)
        assert r.m.stopped_ms() == 10000 and r.m.stoppage_ms() == 10000  # the running one counts
        r.do("resume", 80000)
        r.do("stoppage", 100000)
        r.do("resume", 115000)
        assert [(e["arg"], e["val"], e["stopped"]) for e in r.of("stoppage_end")] == [(1, 20000, 20000),
                                                                                     (2, 15000, 35000)]
        assert r.m.stopped_ms() == 35000 and r.m.stoppage_ms() == 0
        r.poll(INN + 35000)
        pe = r.of("period_end")[0]
        assert (pe["t"], pe["pms"], pe["stopped"]) == (INN + 35000, INN, 35000)
        assert r.m.state == M.BREAK and r.m.stopped_ms() == 35000  # the innings' total, on request
        r.poll(INN + 35000 + MIN)
        assert r.m.period == 1 and r.m.stopped_ms() == 0  # innings 2 has its own
        r.do("stoppage", INN + 35000 + MIN + 1000)
        r.do("resume", INN + 35000 + MIN + 4000)
        r.poll(HOUR)
        assert r.of("period_end")[1]["t"] == 2 * INN + 35000 + MIN + 3000
        assert r.of("period_end")[1]["stopped"] == 3000


def test_stoppages_only_while_an_innings_is_on_kt_4_5():
    r = match()
    assert r.refused("stoppage", 0) == "not started"
    r.do("start", 0)
    assert r.refused("resume", 10) == "no stoppage"
    r.poll(INN)
    assert r.refused("stoppage", INN) == "break running"  # the changeover is at most 1:00
    assert r.m.state == M.BREAK


# ------------------------------------------------------------------------- KT-5.5


def test_one_point_per_pazham_for_the_entering_team_kt_5_5():
    r = match(first=L)
    r.do("start", 0)
    r.do("score", 1000, L, 1)
    r.do("score", 2000, L, 1)
    assert r.m.scores == [2, 0] and [e["val"] for e in r.of("score")] == [1, 2]
    assert r.refused("score", 3000, L, 2) == "a pazham is 1 point"
    assert r.refused("score", 3000, R, 1) == "not the entering team"
    r.poll(INN + MIN)
    r.do("score", INN + MIN + 1000, R, 1)  # innings 2: the other team enters
    assert r.refused("score", INN + MIN + 2000, L, 1) == "not the entering team"
    assert r.m.scores == [2, 1]


def test_undo_of_a_pazham_kt_5_5():
    r = match()
    r.do("start", 0)
    r.do("score", 1000, L, 1)
    r.do("score", 2000, L, 1)
    r.do("undo", 3000)
    u = r.log[-1]
    assert (u["type"], u["side"], u["arg"], u["val"], u["left"]) == ("undo", L, 1, 2, 1)
    assert r.m.scores == [1, 0]
    assert r.types() == ["period_start", "score", "score", "undo"]  # the entry stays in the log
    r.do("undo", 4000)
    assert r.refused("undo", 5000) == "nothing to undo"


def test_no_cards_in_kilithattu():
    r = match()
    r.do("start", 0)
    assert r.refused("card", 10, L, M.CARD_WARNING) == "no cards in this game"


# ------------------------------------------------------------------------- KT-4.6


def test_a_tie_after_innings_2_waits_for_the_lot_logged_before_it_shows_kt_4_6():
    r = tied(lot=None)
    assert r.brief(7) == [("period_end", END2)]  # no result: a lot is due
    assert r.m.entering == R and r.m.period == 1  # nothing shows an order yet
    assert r.refused("start", END2 + 5000) == "lot due"
    assert r.refused("score", END2 + 5000, L, 1) == "not the entering team"  # (late: innings 2 was right's)
    assert r.refused("undo", END2 + 5000) == "lot due"
    assert r.refused("stoppage", END2 + 5000) == "lot due"
    r.poll(HOUR)
    assert r.m.state == M.LOT and r.types()[-1] == "period_end"  # it waits for the caller's bit
    n = len(r.log)
    r.do("draw_lot", HOUR, R)
    assert r.brief(n) == [("lot", HOUR)]
    lot = r.log[-1]
    assert (lot["side"], lot["arg"]) == (R, 1)
    assert r.m.state == M.READY and r.m.period == 2 and r.m.entering == R and r.m.lot_due == 0
    assert r.m.period_name() == "extra 1" and r.m.match_ms() == EXTRA
    r.do("start", HOUR + 1)
    assert r.refused("draw_lot", HOUR + 2, L) == "no lot due"  # (before the start: the toss, KT-4.6)


def test_the_lot_decides_the_order_of_the_extra_time_either_way_kt_4_6():
    for lot in (L, R):
        r = tied(lot=lot)
        r.do("start", XS)
        assert r.log[-1]["side"] == lot and r.m.entering == lot
        assert r.refused("score", XS + 10, 1 - lot, 1) == "not the entering team"
        r.poll(XS + EXTRA + MIN)
        assert r.m.period == 3 and r.m.entering == 1 - lot


def test_extra_time_5_min_per_team_with_a_1_min_break_kt_4_6():
    for base in (0, NEAR_WRAP - END2):
        r = tied(base, lot=L)
        n = len(r.log)
        r.do("start", XS)
        r.do("score", XS + 1000, L, 1)
        r.poll(3 * HOUR)  # once: extra 1, the break, extra 2
        assert r.brief(n) == [("period_start", XS), ("score", XS + 1000), ("period_end", XS + EXTRA),
                              ("break_start", XS + EXTRA), ("break_end", XS + EXTRA + MIN),
                              ("period_start", XS + EXTRA + MIN), ("period_end", XEND), ("result", XEND)]
        assert [e["val"] for e in r.of("period_start")[2:]] == [EXTRA, EXTRA]
        assert r.m.winner == L and r.m.why == M.WHY_POINTS and r.m.scores == [2, 1]


def test_a_further_tie_by_lot_kt_4_6():
    r = extra(method=K.M_LOT)
    r.poll(XEND)
    assert r.m.state == M.LOT and r.m.lot_due == 2 and r.types()[-1] == "period_end"
    r.do("draw_lot", XEND + 2000, L)
    assert r.brief(len(r.log) - 2) == [("lot", XEND + 2000), ("result", XEND + 2000)]
    assert r.log[-2]["arg"] == 2 and r.log[-2]["side"] == L
    assert r.log[-1]["side"] == L and r.log[-1]["arg"] == M.WHY_LOT


def test_a_further_tie_by_sudden_score_kt_4_6():
    r = extra(method=K.M_SUDDEN)
    r.poll(XEND + 1)
    assert r.m.state == M.READY and r.m.period == K.SUDDEN and r.m.period_name() == "sudden"
    assert r.m.counts_up() and r.m.entering == M.NONE
    r.do("start", XEND + 10000)
    r.poll(XEND + 10000 + HOUR)  # no end of time
    assert r.m.match_ms() == HOUR and r.types()[-1] == "period_start"
    r.do("score", XEND + 10000 + HOUR, L, 1)  # either team: the first score wins
    assert r.log[-1]["type"] == "result" and r.log[-1]["side"] == L and r.log[-1]["arg"] == M.WHY_SUDDEN


def test_a_further_tie_declared_a_draw_kt_4_6():
    r = extra(method=K.M_DRAW)
    r.poll(HOUR)
    assert r.brief(len(r.log) - 2) == [("period_end", XEND), ("result", XEND)]
    assert r.log[-1]["side"] == M.NONE and r.log[-1]["arg"] == M.WHY_DRAW and r.m.state == M.FINISHED


def test_a_further_tie_left_to_the_referee_kt_4_6():
    r = extra(method=K.M_REFEREE)
    r.poll(HOUR)
    assert r.m.state == M.OVER and r.types()[-1] == "period_end"
    assert r.refused("stoppage", HOUR) == "time over: result?"
    assert r.refused("start", HOUR) == "time over: result?"
    r.do("result", HOUR + 1, R)
    assert r.log[-1]["side"] == R and r.log[-1]["arg"] == M.WHY_REFEREE


def test_the_further_tie_method_is_a_setting_kt_4_6():
    m = K.Kilithattu()
    for bad in (-1, 4, "lot", None):
        assert bad_value(m.new_match, L, 60000, bad) == "method must be sudden, lot, draw or referee"
    assert K.METHOD_NAMES[K.M_LOT] == "lot" and m.method == K.M_LOT  # the default


def test_undo_of_the_sudden_winner_withdraws_the_result_kt_4_6():
    r = extra(method=K.M_SUDDEN)
    r.poll(XEND)
    r.do("start", XEND)
    r.do("score", XEND + 5000, R, 1)
    assert r.m.why == M.WHY_SUDDEN
    r.do("undo", XEND + 6000)
    assert r.m.state == M.STOPPED and r.m.winner == M.NONE and r.m.scores == [2, 2]
    assert r.types()[-2:] == ["undo", "stoppage_start"]


# ------------------------------------------------------------------ power loss


def test_power_restore_in_the_changeover_ends_it_and_the_referee_starts_innings_2_kt_4_4():
    r = match(NEAR_WRAP)
    r.do("start", 0)
    r.poll(INN + 15000)  # the last durable instant: 45 s of changeover left
    r.restore(INN + 40000)
    assert [(e["type"], e["arg"], e["val"]) for e in r.log[-2:]] == [("power_restore", 0, 1), ("break_end", 2, 15000)]
    assert r.m.state == M.READY and r.m.period == 1
    r.do("start", INN + 50000)
    assert r.log[-1]["type"] == "period_start" and r.log[-1]["arg"] == M.BY_REFEREE


def test_power_restore_in_an_innings_stops_it_and_the_lost_time_is_played_kt_4_5():
    r = match()
    r.do("start", 0)
    r.poll(200000)
    r.restore(260000)
    assert r.m.state == M.STOPPED and r.log[-1]["arg"] == 1 and r.m.match_ms() == INN - 200000
    r.do("resume", 270000)
    assert r.log[-1]["val"] == 10000 and r.m.stopped_ms() == 10000
    r.poll(HOUR)
    assert r.of("period_end")[0]["t"] == INN + 10000


def test_power_restore_while_the_lot_is_due_keeps_it_due_kt_4_6():
    r = tied(lot=None)
    r.restore(END2 + 30000)
    assert r.m.state == M.LOT and r.m.lot_due == 1 and r.log[-1]["arg"] == 0
    r.do("draw_lot", END2 + 31000, L)
    assert r.log[-1]["t"] == END2 + 1000 and r.m.entering == L


def test_power_restore_in_the_sudden_period_kt_4_6():
    r = extra(NEAR_WRAP, method=K.M_SUDDEN)
    r.poll(XEND)
    r.do("start", XEND)
    r.poll(XEND + 8000)
    r.restore(XEND + 20000)
    assert r.m.state == M.STOPPED and r.m.match_ms() == 8000
    r.do("resume", XEND + 21000)
    r.poll(XEND + 23000)
    assert r.m.match_ms() == 10000
    r.do("score", XEND + 23000, R, 1)
    assert r.m.winner == R and r.log[-1]["pms"] == 10000


# ------------------------------------------------------------------ the log


def test_a_whole_match_replays_from_its_log_lot_included():
    r = extra(NEAR_WRAP, lot=L, method=K.M_LOT)
    r.do("stoppage", XS + EXTRA + MIN + 2000)
    r.do("resume", XS + EXTRA + MIN + 9000)
    r.do("undo", XS + EXTRA + MIN + 10000)
    r.do("score", XS + EXTRA + MIN + 11000, R, 1)
    r.poll(XEND + 7000)
    r.restore(XEND + 9000)
    r.do("draw_lot", XEND + 10000, R)
    assert r.m.winner == R and r.m.why == M.WHY_LOT
    assert replay(K.Kilithattu(), r.log) == r.log
    assert r.types().count("lot") == 2
