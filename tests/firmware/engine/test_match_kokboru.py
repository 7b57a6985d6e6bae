# Exact-millisecond tests of the one-on-one kok-boru engine (sagatfw/engine/kokboru.py), one group
# per rule of docs/rules.md (KB-*) and per decision of docs/match.md. Run by pytest under CPython
# and by tests/mprun.py under MicroPython.
from matchkit import MIN, NEAR_WRAP, bad_value, refuses, replay
from matchruns import HALF, HOUR, G, bout, golden, to_second_half

from sagatfw.engine import matchwords as M
from sagatfw.engine.kokboru import KokBoru

L = M.LEFT
R = M.RIGHT


# ------------------------------------------------------------------ KB-5, KB-6


def test_two_halves_of_4_min_and_a_1_min_rest_kb_5_kb_6():
    r = bout()
    assert r.m.state == M.SETUP and r.m.match_ms() == HALF and r.m.period_name() == "1st half"
    r.do("start", 0)
    r.poll(HALF - 1)
    assert r.m.state == M.RUNNING and r.m.match_ms() == 1 and r.types() == ["period_start"]
    r.poll(HALF)
    assert r.brief() == [("period_start", 0), ("period_end", HALF), ("break_start", HALF)]
    assert r.m.state == M.BREAK and r.m.break_ms() == MIN and r.m.match_ms() == 0
    assert r.of("break_start")[0]["val"] == MIN and r.of("period_end")[0]["pms"] == HALF
    r.poll(HALF + MIN - 1)
    assert r.m.break_ms() == 1
    r.poll(HALF + MIN)
    assert r.brief(3) == [("break_end", HALF + MIN)] and r.of("break_end")[0]["val"] == MIN
    assert r.m.state == M.READY and r.m.period == 1 and r.m.period_name() == "2nd half"
    assert r.m.match_ms() == HALF and r.m.break_ms() == 0


def test_rare_advance_emits_every_boundary_at_its_exact_t_kb_5_kb_6():
    for base in (0, NEAR_WRAP, NEAR_WRAP - HALF):  # across the 2^30 ticks wrap
        r = bout(base)
        r.do("start", 0)
        r.do("score", 1000, L, 2)
        r.poll(10 * MIN)  # once, 10 minutes later
        assert r.brief() == [("period_start", 0), ("score", 1000), ("period_end", HALF), ("break_start", HALF),
                             ("break_end", HALF + MIN)], base
        assert r.m.state == M.READY and r.m.t == 10 * MIN  # the referee starts each half: it waits
        r.do("start", 12 * MIN)
        r.poll(40 * MIN)
        assert r.brief(5) == [("period_start", 12 * MIN), ("period_end", 16 * MIN), ("result", 16 * MIN)]
        res = r.of("result")[0]
        assert (res["side"], res["arg"], res["left"], res["right"]) == (L, M.WHY_POINTS, 2, 0)
        assert r.m.match_ms() == 0 and r.m.state == M.FINISHED


def test_the_referee_starts_each_half_and_the_rest_is_not_cut_short_kb_6():
    r = bout()
    assert r.refused("stoppage", 0) == "not started"
    r.do("start", 0)
    assert r.refused("start", 1000) == "period running"
    r.poll(HALF + 30000)
    assert r.refused("start", HALF + 30000) == "break running"  # KB-6: the rest is 1:00
    r.poll(5 * 60 * MIN)  # hours later: the 2nd half still waits for the referee
    assert r.m.state == M.READY and r.m.match_ms() == HALF and r.types()[-1] == "break_end"
    r.do("start", 5 * 60 * MIN)
    assert r.log[-1]["type"] == "period_start" and r.log[-1]["arg"] == M.BY_REFEREE
    assert r.log[-1]["period"] == 1 and r.log[-1]["val"] == HALF


# ---------------------------------------------------------------- KB-7 .. KB-10


def test_points_are_4_2_or_1_per_rider_kb_7_to_kb_10():
    r = bout()
    r.do("start", 0)
    r.do("score", 1000, L, 4)  # KB-7, KB-9
    r.do("score", 2000, R, 2)  # KB-8
    r.do("score", 3000, R, 1)  # KB-10
    assert r.m.scores == [4, 3]
    for bad in (0, 3, 5, 8, -1):
        assert r.refused("score", 4000, L, bad) == "points must be 4, 2 or 1"
    assert r.refused("score", 4000, 2, 4) == "side must be left or right"
    sc = r.of("score")
    assert [(e["t"], e["side"], e["arg"], e["val"], e["left"], e["right"]) for e in sc] == [
        (1000, L, 4, 1, 4, 0), (2000, R, 2, 2, 4, 2), (3000, R, 1, 3, 4, 3)]
    assert [e["pms"] for e in sc] == [1000, 2000, 3000]  # each with its match time


# ------------------------------------------------------------------------- KB-14


def test_lead_of_more_than_8_wins_at_once_kb_14():
    r = bout()
    r.do("start", 0)
    r.do("score", 1000, L, 4)
    r.do("score", 2000, L, 4)
    r.do("score", 3000, R, 1)
    r.do("score", 4000, L, 1)  # 9-1: a lead of 8, not more
    assert r.m.state == M.RUNNING and r.of("result") == []
    r.do("score", 5000, L, 1)  # 10-1: more than 8
    assert r.brief(5) == [("score", 5000), ("result", 5000)]
    res = r.log[-1]
    assert (res["side"], res["arg"], res["pms"]) == (L, M.WHY_LEAD, 5000)
    assert r.m.state == M.FINISHED and r.m.winner == L and r.m.why == M.WHY_LEAD
    r.poll(10 * MIN)  # the match time stays where it ended
    assert r.m.match_ms() == HALF - 5000 and r.types()[-1] == "result"
    assert r.refused("score", 10 * MIN, R, 4) == "match over"


def test_the_right_rider_wins_by_the_lead_too_kb_14():
    r = bout()
    to_second_half(r)
    for i in range(3):
        r.do("score", HALF + MIN + 1000 * (i + 1), R, 4)  # 0-12 in the 2nd half
    res = r.log[-1]
    assert res["type"] == "result" and res["side"] == R and res["arg"] == M.WHY_LEAD and res["period"] == 1


def test_the_lead_threshold_is_a_setting_kb_14():
    r = bout(lead=4)
    r.do("start", 0)
    r.do("score", 1000, L, 4)
    assert r.m.state == M.RUNNING
    r.do("score", 2000, L, 1)  # 5-0: more than 4
    assert r.m.winner == L and r.m.why == M.WHY_LEAD
    r = bout(lead=0)  # no lead rule
    r.do("start", 0)
    for i in range(10):
        r.do("score", 1000 + i, L, 4)
    assert r.m.state == M.RUNNING and r.m.scores == [40, 0]
    m = KokBoru()
    for bad in (-1, 100, "8", True, None):
        assert bad_value(m.new_match, bad) == "lead must be 0..99"


# ------------------------------------------------------------------------- KB-17


def test_not_level_at_the_end_of_time_wins_on_points_kb_17():
    r = bout()
    to_second_half(r, 6 * MIN)
    r.do("score", 7 * MIN, R, 1)
    r.poll(HOUR)
    assert r.brief(6) == [("period_end", 10 * MIN), ("result", 10 * MIN)]
    assert r.m.winner == R and r.m.why == M.WHY_POINTS


def test_level_at_the_end_of_time_golden_score_first_score_wins_kb_17():
    r = bout()
    to_second_half(r, 6 * MIN)
    r.do("score", 7 * MIN, R, 2)
    r.do("score", 8 * MIN, L, 2)
    r.poll(HOUR)
    assert r.brief(7) == [("period_end", 10 * MIN)]  # level: no result, golden score waits
    assert r.m.state == M.READY and r.m.period == 2 and r.m.period_name() == "golden score"
    assert r.m.counts_up() and r.m.match_ms() == 0
    r.do("start", HOUR)
    assert r.log[-1]["type"] == "period_start" and r.log[-1]["val"] == 0  # counts up: no length
    r.poll(HOUR + 95000)
    assert r.m.match_ms() == 95000  # counting up
    r.poll(5 * HOUR)  # no end of time in golden score
    assert r.types()[-1] == "period_start" and r.m.match_ms() == 4 * HOUR
    r.do("score", 5 * HOUR, R, 1)  # the first score wins at once
    assert r.brief(9) == [("score", 5 * HOUR), ("result", 5 * HOUR)]
    assert r.m.winner == R and r.m.why == M.WHY_GOLDEN and r.m.scores == [2, 3]
    assert r.m.match_ms() == 4 * HOUR


def test_golden_score_has_cards_and_stoppages_kb_17_kb_16_kb_11():
    r = golden()
    r.do("card", G + 1000, L, M.CARD_WARNING)  # a first warning does not end it
    assert r.m.state == M.RUNNING
    r.do("stoppage", G + 2000)
    r.poll(G + 30000)
    assert r.m.match_ms() == 2000 and r.m.stoppage_ms() == 28000
    r.do("resume", G + 30000)
    r.poll(G + 31000)
    assert r.m.match_ms() == 3000
    r.do("score", G + 31000, L, 4)
    assert r.m.winner == L and r.m.why == M.WHY_GOLDEN


# ----------------------------------------------------------------- KB-11, KB-12


def test_a_warning_then_a_repeated_warning_removes_the_rider_kb_11():
    r = bout()
    r.do("start", 0)
    r.do("score", 1000, L, 4)
    r.do("card", 2000, L, M.CARD_WARNING)
    assert r.m.warnings == [1, 0] and r.m.state == M.RUNNING
    c = r.log[-1]
    assert (c["type"], c["side"], c["arg"], c["val"]) == ("card", L, M.CARD_WARNING, 2)
    r.do("card", 3000, R, M.CARD_WARNING)  # the other rider's first warning: his own count
    assert r.m.warnings == [1, 1] and r.m.state == M.RUNNING
    r.do("card", 4000, L, M.CARD_WARNING)  # repeated: removal, the other rider wins
    assert r.brief(4) == [("card", 4000), ("result", 4000)]
    assert r.m.winner == R and r.m.why == M.WHY_REMOVAL and r.m.warnings == [2, 1]
    assert r.m.scores == [4, 0]  # points do not matter


def test_a_red_card_removes_at_once_kb_12():
    r = bout()
    to_second_half(r)
    r.do("card", HALF + MIN + 5000, R, M.CARD_RED)
    assert r.brief(5) == [("card", HALF + MIN + 5000), ("result", HALF + MIN + 5000)]
    assert r.m.reds == [0, 1] and r.m.winner == L and r.m.why == M.WHY_REMOVAL
    assert r.log[-1]["side"] == L and r.log[-2]["arg"] == M.CARD_RED


def test_cards_refused_kb_11_kb_12():
    r = bout()
    assert r.refused("card", 0, L, M.CARD_WARNING) == "not started"
    r.do("start", 0)
    assert r.refused("card", 1000, L, 3) == "card must be warning or red"
    assert r.refused("card", 1000, 5, M.CARD_RED) == "side must be left or right"
    r.do("stoppage", 2000)
    r.do("restart", 3000)  # KB-3: the half waits for its start again
    assert r.refused("card", 4000, L, M.CARD_RED) == "period not started"


# ------------------------------------------------------------------------- KB-16


def test_a_referee_stoppage_stops_match_time_and_logs_its_length_kb_16():
    for base in (0, NEAR_WRAP):
        r = bout(base)
        r.do("start", 0)
        r.do("stoppage", 60000)
        r.poll(80000)
        assert r.m.state == M.STOPPED and r.m.match_ms() == HALF - 60000 and r.m.stoppage_ms() == 20000
        r.do("resume", 90000)
        r.do("stoppage", 100000)
        r.do("resume", 105000)
        ends = r.of("stoppage_end")
        assert [(e["t"], e["arg"], e["val"], e["stopped"]) for e in ends] == [(90000, 1, 30000, 30000),
                                                                              (105000, 2, 5000, 35000)]
        assert [(e["t"], e["arg"]) for e in r.of("stoppage_start")] == [(60000, 1), (100000, 2)]
        r.poll(HALF + 35000)
        assert r.of("period_end")[0]["t"] == HALF + 35000  # the lost time is played
        assert r.of("period_end")[0]["stopped"] == 35000 and r.m.stopped_ms() == 35000
        r.poll(HOUR)
        assert r.of("break_end")[0]["t"] == HALF + 35000 + MIN


def test_stoppage_refusals_kb_16():
    r = bout()
    r.do("start", 0)
    assert r.refused("resume", 1000) == "no stoppage"
    r.do("stoppage", 1000)
    assert r.refused("stoppage", 2000) == "stoppage on"
    assert r.refused("start", 2000) == "stoppage on"
    r.poll(HOUR)  # a stoppage never ends by itself
    assert r.m.state == M.STOPPED and r.m.match_ms() == HALF - 1000
    r.do("resume", HOUR)
    r.poll(HOUR + HALF)
    assert r.refused("stoppage", HOUR + HALF) == "break running"


def test_scores_and_cards_are_taken_in_a_stoppage_kb_16():
    r = bout()
    r.do("start", 0)
    r.do("stoppage", 1000)
    r.do("score", 3000, L, 4)  # the referee enters the score with play stopped
    r.do("card", 4000, R, M.CARD_WARNING)
    assert r.m.scores == [4, 0] and r.m.warnings == [0, 1] and r.m.state == M.STOPPED
    assert r.of("score")[0]["pms"] == 1000


# ---------------------------------------------------------------------- undo


def test_undo_takes_back_the_last_entry_and_never_erases():
    r = bout()
    r.do("start", 0)
    r.do("score", 1000, L, 4)
    r.do("score", 2000, R, 2)
    r.do("card", 3000, R, M.CARD_WARNING)
    assert r.m.undoable == 3
    r.do("undo", 4000)
    r.do("undo", 5000)
    assert r.m.scores == [4, 0] and r.m.warnings == [0, 0] and r.m.undoable == 1
    u = r.of("undo")
    assert [(e["t"], e["side"], e["arg"], e["val"]) for e in u] == [(4000, R, -M.CARD_WARNING, 3), (5000, R, 2, 2)]
    assert (u[1]["left"], u[1]["right"]) == (4, 0)
    r.do("score", 6000, R, 1)  # entry numbers go on: never reused
    assert r.log[-1]["val"] == 4
    r.do("undo", 7000)
    r.do("undo", 8000)
    assert r.m.scores == [0, 0] and r.refused("undo", 9000) == "nothing to undo"
    assert r.types() == ["period_start", "score", "score", "card", "undo", "undo", "score", "undo", "undo"]


def test_undo_is_refused_outside_a_period_and_for_an_earlier_period():
    r = bout()
    assert r.refused("undo", 0) == "not started"
    r.do("start", 0)
    assert r.refused("undo", 0) == "nothing to undo"
    r.do("score", 1000, L, 2)
    r.poll(HALF)
    assert r.refused("undo", HALF) == "break running"
    r.poll(HALF + MIN)
    assert r.refused("undo", HALF + MIN) == "period not started"
    r.do("start", HALF + MIN)
    assert r.refused("undo", HALF + MIN + 1) == "nothing to undo"  # the 1st half's score stands
    assert r.m.scores == [2, 0]


def test_undo_keeps_the_last_32_entries_of_a_period():
    r = bout(lead=0)
    r.do("start", 0)
    for i in range(40):
        r.do("score", 100 + i, L, 1)
    assert r.m.undoable == 32  # the ring's depth (matchbase.py)
    for i in range(32):
        r.do("undo", 1000 + i)
    assert r.m.scores == [8, 0] and [e["val"] for e in r.of("undo")][:2] == [40, 39]
    assert r.of("undo")[-1]["val"] == 9
    assert r.refused("undo", 2000) == "nothing to undo"


def test_undo_of_the_winning_lead_withdraws_the_result_kb_14():
    r = bout()
    r.do("start", 0)
    r.do("score", 1000, L, 4)
    r.do("score", 2000, L, 4)
    r.do("score", 3000, L, 1)  # 9-0 by mistake: the match ends
    assert r.m.state == M.FINISHED
    n = len(r.log)
    r.do("undo", 10000)
    assert r.brief(n) == [("undo", 10000), ("stoppage_start", 10000)]
    assert r.m.state == M.STOPPED and r.m.winner == M.NONE and r.m.why == -1 and r.m.scores == [8, 0]
    assert r.m.match_ms() == HALF - 3000  # the half's time stopped at the result
    assert r.log[-1]["val"] == 7000  # KB-16: stopped since the result (test_match_result_undo_and_reboot.py)
    r.do("resume", 12000)
    assert r.log[-1]["val"] == 9000  # the stoppage from the result on
    r.poll(HOUR)
    assert r.of("period_end")[0]["t"] == HALF + 9000  # the finished 7 s and the stoppage are not played


def test_undo_of_a_removal_withdraws_it_and_keeps_the_stoppage_kb_11_kb_12():
    r = bout()
    r.do("start", 0)
    r.do("stoppage", 1000)
    r.do("card", 2000, L, M.CARD_RED)
    assert r.m.state == M.FINISHED and r.m.winner == R
    n = len(r.log)
    r.do("undo", 3000)
    assert r.brief(n) == [("undo", 3000)]  # back in the same stoppage
    assert r.m.state == M.STOPPED and r.m.reds == [0, 0] and r.m.stoppage_ms() == 2000
    r.do("resume", 4000)
    assert r.log[-1]["arg"] == 1 and r.log[-1]["val"] == 3000


def test_undo_after_a_result_by_time_or_by_the_referee_is_refused():
    r = bout()
    to_second_half(r)
    r.do("score", HALF + MIN + 1000, L, 1)
    r.poll(HOUR)
    assert r.m.why == M.WHY_POINTS and r.refused("undo", HOUR) == "match over"
    r = bout()
    r.do("start", 0)
    r.do("score", 1000, L, 4)
    r.do("score", 2000, L, 4)
    r.do("score", 3000, L, 4)
    r.do("result", 4000, R)  # the referee's entry replaces the lead's
    assert r.refused("undo", 5000) == "match over"


# --------------------------------------------------------------- the referee's result


def test_the_referee_enters_the_result_in_any_state():
    r = bout()
    r.do("result", 0, L)  # before the start: a forfeit at t = 0
    assert r.log[-1]["t"] == 0 and r.m.winner == L and r.m.why == M.WHY_REFEREE
    r = bout()
    r.do("start", 0)
    r.poll(HALF + 1000)
    r.do("result", HALF + 1000, M.NONE)  # in the rest: a draw
    r.do("result", HALF + 2000, R)  # again: the last counts
    assert [(e["t"], e["side"], e["arg"]) for e in r.of("result")] == [
        (HALF + 1000, M.NONE, M.WHY_REFEREE), (HALF + 2000, R, M.WHY_REFEREE)]
    assert r.m.winner == R and r.refused("result", HALF + 3000, 7) == "winner must be left, right or none"
    r.poll(HOUR)
    assert r.types()[-1] == "result"  # the rest stopped with the match


# ------------------------------------------------------------------ refusals


def test_refusals_say_why_and_change_nothing():
    r = bout()
    assert r.refused("score", 0, L, 4) == "not started"
    assert r.refused("resume", 0) == "not started"
    assert r.refused("draw_lot", 0, L) == "no lot in this game"
    r.do("start", 0)
    assert r.refused("stoppage", HALF) == "break running"  # at the half's last instant: after its end
    r.poll(HALF + 10)
    assert r.refused("undo", HALF + 10) == "break running"  # (a score in the rest is late: counts for the half)
    r.poll(HALF + MIN)
    assert r.refused("stoppage", HALF + MIN) == "period not started"
    r.do("start", HALF + MIN)
    r.do("score", HALF + MIN + 1, L, 4)
    r.do("score", HALF + MIN + 2, L, 4)
    r.do("score", HALF + MIN + 3, L, 4)
    assert r.refused("score", HALF + MIN + 4, R, 4) == "match over"
    assert r.refused("start", HALF + MIN + 4) == "match over"
    assert r.refused("stoppage", HALF + MIN + 4) == "match over"


def test_a_refused_operation_still_advances_to_now():
    r = bout()
    r.do("start", 0)
    assert refuses(r.m.stoppage, r.now(HALF + 5)) == "break running"
    r._drain()
    assert r.brief() == [("period_start", 0), ("period_end", HALF), ("break_start", HALF)]


# ------------------------------------------------------------------ power loss


def test_power_restore_in_a_running_half_stops_it():
    r = bout(NEAR_WRAP)
    r.do("start", 0)
    r.poll(100000)  # the last durable instant
    r.restore(100000 + 7000)  # 7 s without power: not match time
    e = r.log[-1]
    assert (e["type"], e["t"], e["arg"], e["pms"]) == ("power_restore", 100000, 1, 100000)
    assert r.m.state == M.STOPPED and r.m.match_ms() == HALF - 100000
    r.poll(200000)
    assert r.m.match_ms() == HALF - 100000 and r.m.stoppage_ms() == 93000
    r.do("resume", 200000)
    assert r.log[-1]["type"] == "stoppage_end" and r.log[-1]["arg"] == 1 and r.log[-1]["val"] == 93000
    r.poll(HOUR)
    assert r.of("period_end")[0]["t"] == HALF + 93000


def test_power_restore_in_the_rest_ends_it_and_the_referee_starts_the_2nd_half_kb_6():
    r = bout()
    r.do("start", 0)
    r.poll(HALF + 20000)  # 40 s of rest left at the last durable instant
    r.restore(HALF + 50000)  # back after a time the clock cannot know
    assert [(e["type"], e["arg"], e["val"]) for e in r.log[-2:]] == [("power_restore", 0, 1), ("break_end", 2, 20000)]
    assert r.m.state == M.READY and r.m.period == 1  # never a rest longer than it was: the referee decides
    r.poll(HALF + 50000 + 60000)
    assert r.m.state == M.READY


def test_power_restore_in_golden_score_kb_17():
    r = golden(NEAR_WRAP)
    r.poll(G + 20000)
    r.restore(G + 60000)  # 40 s without power: t goes on from G + 20000 at these ticks
    assert r.m.state == M.STOPPED and r.m.match_ms() == 20000 and r.m.counts_up()
    r.do("resume", G + 90000)
    assert r.log[-1]["val"] == 30000  # the stoppage, counted from the restore
    r.poll(G + 100000)
    assert r.m.match_ms() == 30000
    r.do("score", G + 100000, L, 1)
    assert r.m.winner == L and r.m.why == M.WHY_GOLDEN and r.log[-1]["pms"] == 30000


def test_power_restore_in_a_stoppage_keeps_it():
    r = bout()
    r.do("start", 0)
    r.do("stoppage", 5000)
    r.poll(8000)
    r.restore(20000)
    assert r.log[-1]["arg"] == 0 and r.m.state == M.STOPPED and r.m.stoppage_ms() == 3000
    r.do("resume", 30000)
    assert r.log[-1]["val"] == 13000


# ------------------------------------------------------------------ events


def test_a_full_queue_stops_advance_whole_and_goes_on_after_the_drain():
    m = KokBoru()
    m.new_match(lead=0)
    m.start(0)
    for i in range(13):
        m.score(i % 2, 1, 1000 + i)  # 14 events, not drained
    assert m.advance(HOUR) is False  # the rest's end has no room
    assert m.n_events == 16 and m.state == M.BREAK and m.t == HALF + MIN
    assert m.field(15, M.F_TYPE) == M.EV_BREAK_START and m.field(15, M.F_T) == HALF
    assert refuses(m.stoppage, HOUR) == "events not logged yet"
    m.clear_events()
    assert m.advance(HOUR) is True
    assert m.n_events == 1 and m.field(0, M.F_TYPE) == M.EV_BREAK_END and m.field(0, M.F_T) == HALF + MIN
    assert m.t == HOUR


def test_a_whole_bout_replays_from_its_log():
    r = bout(NEAR_WRAP)
    r.do("start", 0)
    r.do("score", 10000, L, 4)
    r.do("card", 20000, R, M.CARD_WARNING)
    r.do("undo", 21000)
    r.do("stoppage", 30000)
    r.do("score", 31000, R, 2)
    r.do("resume", 40000)
    r.poll(HALF + 50000)
    r.restore(HALF + 90000)
    r.poll(10 * MIN)
    r.do("start", 10 * MIN)
    r.do("score", 11 * MIN, R, 2)
    r.poll(HOUR)
    r.do("start", HOUR)
    r.poll(HOUR + 1000)
    r.restore(HOUR + 5000)
    r.do("resume", HOUR + 6000)
    r.do("score", HOUR + 7000, R, 4)
    r.do("undo", HOUR + 8000)
    r.do("resume", HOUR + 9000)
    r.do("card", HOUR + 10000, L, M.CARD_RED)
    assert r.m.winner == R and r.m.why == M.WHY_REMOVAL
    assert replay(KokBoru(), r.log) == r.log
    assert r.types().count("power_restore") == 2 and len(r.log) == 24
