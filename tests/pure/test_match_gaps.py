# Issue 14's gaps in the match engines (sagatfw/modes): an undo that withdraws a result accounts
# for the time since the result as stopped time (KB-16, KT-4.5). Run by pytest under CPython and
# by tests/mprun.py under MicroPython.
from matchkit import MIN, NEAR_WRAP, replay
from test_match_kilithattu import XEND, extra
from test_match_kokboru import HALF, HOUR, bout

from sagatfw.modes import base as B
from sagatfw.modes import kilithattu as K

L = B.LEFT
R = B.RIGHT


def _lead_win(base=0):
    """A bout whose lead (> 3) ends it at t = 10 s of a running 1st half, after a 5 s stoppage."""
    r = bout(base, lead=3)
    r.do("start", 0)
    r.do("stoppage", 2000)
    r.do("resume", 7000)
    r.do("score", 15000, L, 4)  # 10 s of match time: left leads by 4 > 3
    assert r.m.state == B.FINISHED and r.m.why == B.WHY_LEAD and r.m.stopped_ms() == 5000
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
        assert m.state == B.STOPPED and m.stoppage_ms() == 40000 and m.stopped_ms() == 45000
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
