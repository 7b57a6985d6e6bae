# A match's result withdrawn and a finished match rebooted, in the match engines (sagatfw/engine),
# run by pytest under CPython and by tests/mprun.py under MicroPython:
#   - an undo that withdraws a result accounts for the time since the result as stopped time
#     (KB-16, KT-4.5);
#   - a finished match comes back after a reboot from its result record alone
#     (Match.restore_result, matchlog's FINAL view): the same view and the same faces as before.

from matchkit import MIN, NEAR_WRAP, replay
from matchruns import END2, HALF, HOUR, INN, XEND, bout, extra, golden, match, tied, to_second_half

from sagatfw.engine import kilithattu as K
from sagatfw.engine import matchwords as M
from sagatfw.faces import matchfaces as MF

L = M.LEFT
R = M.RIGHT


def _lead_win(base=0):
    """A bout whose lead (> 3) ends it at t = 10 s of a running 1st half, after a 5 s stoppage."""
    r = bout(base, lead=3)
    r.do("start", 0)
    r.do("stoppage", 2000)
    r.do("resume", 7000)
    r.do("score", 15000, L, 4)  # 10 s of match time: left leads by 4 > 3
    assert r.m.state == M.FINISHED and r.m.why == M.WHY_LEAD and r.m.stopped_ms() == 5000
    return r


def test_the_time_between_a_result_and_the_undo_that_withdraws_it_is_stopped_time_kb_16():
    for base in (0, NEAR_WRAP - 20000):  # across the ticks wrap
        r = _lead_win(base)
        n = len(r.log)
        r.do("undo", 55000)  # 40 s after the result: the referee withdraws it
        assert r.brief(n) == [("undo", 55000), ("stoppage_start", 55000)]
        start = r.log[-1]
        assert start["arg"] == 2 and start["val"] == 40000  # stoppage 2, stopped since the result
        assert start["stopped"] == 45000 and start["pms"] == 10000
        m = r.m
        assert m.state == M.STOPPED and m.stoppage_ms() == 40000 and m.stopped_ms() == 45000
        assert m.elapsed_ms() == 10000 and m.match_ms() == HALF - 10000  # no match time was lost
        r.do("resume", 60000)
        end = r.log[-1]
        assert (end["type"], end["arg"], end["val"], end["stopped"]) == ("stoppage_end", 2, 45000, 50000)
        r.poll(HOUR)
        # every ms of the half is accounted: match time + stopped time = its end's t
        half_end = r.of("period_end")[0]
        assert half_end["t"] == HALF + 50000 and half_end["pms"] == HALF and half_end["stopped"] == 50000
        assert replay(bout(lead=3).m, r.log) == r.log  # the log alone rebuilds it


def test_an_undo_in_the_stoppage_the_result_came_in_keeps_that_stoppage_kb_16():
    r = bout(lead=3)
    r.do("start", 0)
    r.do("stoppage", 5000)  # the score is entered with play stopped
    r.do("score", 8000, L, 4)
    n = len(r.log)
    r.do("undo", 48000)
    assert r.brief(n) == [("undo", 48000)]  # the same stoppage goes on: it holds the 40 s already
    assert r.m.stoppage_ms() == 43000 and r.m.stopped_ms() == 43000
    r.do("resume", 50000)
    assert r.log[-1]["val"] == 45000 and r.log[-1]["stopped"] == 45000


def test_the_sudden_winner_withdrawn_later_kt_4_5_kt_4_6():
    r = extra(method=K.M_SUDDEN)
    r.poll(XEND)
    r.do("start", XEND)
    r.do("score", XEND + 5000, R, 1)  # the sudden period's first score wins
    r.do("undo", XEND + 45000)
    assert r.log[-1]["type"] == "stoppage_start" and r.log[-1]["val"] == 40000
    assert r.m.stopped_ms() == 40000 and r.m.elapsed_ms() == 5000  # counting up: 0:05, not 0:45
    r.do("resume", XEND + 46000)
    assert r.log[-1]["val"] == 41000
    assert r.m.match_ms() == 5000


def test_a_result_withdrawn_at_once_is_a_stoppage_of_0_ms():
    r = _lead_win()
    r.do("undo", 15000)
    assert r.log[-1]["type"] == "stoppage_start" and r.log[-1]["val"] == 0
    r.do("resume", 15000 + MIN)
    assert r.log[-1]["val"] == MIN and r.m.stopped_ms() == 5000 + MIN


# ------------------------------------------------------------------ a finished match after a reboot


def _view(m):
    faces = []
    for side in (L, R):
        faces.append(bytes(MF.tm1637(bytearray(4), m, side, 0)))
        faces.append(bytes(MF.tm1637(bytearray(4), m, side, 1)))
        faces.append(MF.leds(m, side, 0))
        faces.append(MF.leds(m, side, 1))
        faces.append(MF.oled(m, side, None))
    return (m.state, m.period, m.period_name(), m.t, m.match_ms(), m.counts_up(), m.elapsed_ms(), m.break_ms(),
            m.stoppage_ms(), m.stopped_ms(), list(m.scores), list(m.warnings), list(m.reds), m.entering, m.lot_due,
            m.winner, m.why, m.next_instant(), faces)


def _restored(r, setup, now=12345):
    """A new engine of r's kind, set up as r's, restored from r's last result event and the final
    view a result record holds (its cards and entering team after the result: log/matchwrite.py's
    pack writes them, the PC's replay of match logs checks that packing)."""
    res = r.of("result")[-1]
    m0 = r.m
    wl, wr, rl, rr, ent = m0.warnings[0], m0.warnings[1], m0.reds[0], m0.reds[1], m0.entering
    m = type(r.m)()
    m.new_match(**setup)
    m.restore_result(res["t"], res["period"], res["pms"], res["stopped"], (res["left"], res["right"]),
                     (wl, wr, rl, rr), ent, res["side"], res["arg"], now)
    return m


def _finished_matches():
    """(name, run, setup) of finished matches of every kind of result."""
    out = []
    r = _lead_win()  # KB-14, after a stoppage
    out.append(("lead", r, {"lead": 3}))
    r = bout()
    r.do("start", 0)
    r.do("card", 1000, L, M.CARD_WARNING)
    r.do("card", 2000, R, M.CARD_WARNING)
    r.do("score", 3000, R, 2)
    r.do("stoppage", 4000)
    r.do("card", 9000, L, M.CARD_WARNING)  # KB-11: left's 2nd warning removes him, in a stoppage
    out.append(("removal", r, {}))
    r = bout()
    r.do("start", 0)
    r.do("card", 1000, R, M.CARD_RED)  # KB-12
    out.append(("red", r, {}))
    r = golden()
    r.do("card", 11 * MIN + 5000, R, M.CARD_WARNING)
    r.do("score", 11 * MIN + 20000, L, 1)  # KB-17
    out.append(("golden", r, {}))
    r = bout()
    to_second_half(r)
    r.do("score", HALF + MIN + 1000, L, 2)
    r.poll(HOUR)  # KB-5: more points at the end of time
    out.append(("points", r, {}))
    r = bout()
    r.do("start", 0)
    r.poll(HALF + 1000)
    r.do("result", HALF + 1000, M.NONE)  # the referee, in the rest
    out.append(("referee in the rest", r, {}))
    r = bout()
    r.do("result", 0, R)  # a forfeit before the start
    out.append(("forfeit", r, {}))
    r = tied(lot=None, method=K.M_LOT)
    r.do("result", END2 + 500, L)  # the referee while the lot is due
    out.append(("referee at the lot", r, {"method": K.M_LOT}))
    r = extra(method=K.M_LOT)
    r.poll(XEND)
    r.do("draw_lot", XEND, R)  # KT-4.6: the further tie's lot
    out.append(("lot", r, {"method": K.M_LOT}))
    r = extra(method=K.M_SUDDEN)
    r.poll(XEND)
    r.do("start", XEND)
    r.do("stoppage", XEND + 2000)
    r.do("resume", XEND + 3000)
    r.do("score", XEND + 5000, R, 1)  # KT-4.6: the first sudden score
    out.append(("sudden", r, {"method": K.M_SUDDEN}))
    r = extra(method=K.M_DRAW, first=R)
    r.poll(XEND)
    out.append(("draw", r, {"method": K.M_DRAW, "first": R}))
    r = match(first=R, changeover_ms=30000)
    r.do("start", 0)
    r.do("score", 1000, R, 1)
    r.poll(INN + 31000 + 1000)
    r.do("stoppage", INN + 33000)
    r.do("result", INN + 40000, R)  # the referee in a stoppage of innings 2 (KT-4.5)
    out.append(("referee in a stoppage", r, {"first": R, "changeover_ms": 30000}))
    return out


def test_a_finished_match_restored_from_its_result_record_shows_what_it_showed_kb_14_kb_17_kt_4_6():
    for name, r, setup in _finished_matches():
        assert r.m.state == M.FINISHED, name
        r.m.t = r.of("result")[-1]["t"]  # (the view at the result's instant)
        m = _restored(r, setup)
        assert _view(m) == _view(r.m), (name, _view(m), _view(r.m))


def test_after_such_a_restore_undo_is_refused_and_the_referee_s_result_taken():
    r = _lead_win()
    m = _restored(r, {"lead": 3}, now=NEAR_WRAP)
    try:
        m.undo(NEAR_WRAP + 1000)
        raise AssertionError("undo taken")
    except M.Refused as e:
        assert e.args[0] == "match over"  # (its reason code after it)
    assert m.n_events == 0
    m.result(R, NEAR_WRAP + 5000)  # across the ticks wrap: t goes on from the result's
    assert m.n_events == 1 and m.field(0, M.F_T) == 15000 + 5000 and m.winner == R
    assert m.field(0, M.F_PMS) == 10000 and m.field(0, M.F_STOPPED) == 5000


def test_a_result_record_out_of_range_is_a_value_error():
    m = bout().m
    for period, why, winner in ((3, 0, L), (-1, 0, L), (0, 8, L), (0, -1, L), (0, 0, 2)):
        try:
            m.restore_result(0, period, 0, 0, (0, 0), (0, 0, 0, 0), -1, winner, why, 0)
            raise AssertionError("taken")
        except ValueError as e:  # a bad value, not a state's refusal
            assert not isinstance(e, M.Refused), e
