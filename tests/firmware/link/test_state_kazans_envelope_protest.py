# The protocol's side of a game's end and adjournment: the result's final kazans (TK-R7) in `state` and nonsense
# refused as bad_arg (TK-R1, TK-C12); the envelope's times used (TK-A3) in the adjourn answer and `state`, and
# resume_adjourned taking them back (TK-A4); TK-P1's protest window counted in `state` and on the status line from
# the result's wall time. Both runtimes (bothrig).
from bothrig import T, done, rig

from sagatfw.engine import clock as C
from sagatfw.faces import game as F
from sagatfw.log import boot as journalboot

WALL = 1718000000000


def _press(r, side, ms):
    r.app.clock.press(side, T(ms))
    r.at(ms)


def test_tk_r7_the_results_kazans_are_in_state_and_nonsense_is_bad_arg():
    r = rig()
    r.ok("new", tc="60+1", first="left")
    r.ok("start")
    r.at(61000)  # left's flag (frozen)
    e = r.err("result", "bad_arg", result="1-0")
    assert "left's flag is down" in e["error"]["message"] and "TK-R7" in e["error"]["message"], e
    assert "together" in r.err("result", "bad_arg", result="1-0", left_kazan=82)["error"]["message"]
    assert "162" in r.err("result", "bad_arg", result="1-0", left_kazan=100, right_kazan=63)["error"]["message"]
    assert "TK-C12" in r.err("result", "bad_arg", result="1/2-1/2", left_kazan=80, right_kazan=80)["error"]["message"]
    r.err("result", "bad_arg", result="1-0", left_kazan=163, right_kazan=0)  # the table's range
    st = r.ok("state")
    assert st["state"] == "flagged" and st["result"] is None and st["kazans"] is None
    r.ok("result", result="1-0", left_kazan=82, right_kazan=79)
    st = r.ok("state")
    assert (st["state"], st["result"], st["kazans"]) == ("finished", "1-0", [82, 79]), st
    assert [e["kazans"] for e in journalboot.game_events(r.app.journal) if e["type"] == "result"] == [[82, 79]]
    done()


def test_tk_a3_tk_a4_the_envelopes_times_used_out_and_back_in():
    r = rig()
    r.ok("new", tc="300+10", first="left")
    r.ok("start")
    _press(r, C.LEFT, 20000)  # left used 20 s, +10 s
    r.at(27000)  # right thinks 7 s
    ans = r.ok("adjourn")
    assert (ans["left_used_ms"], ans["right_used_ms"]) == (20000, 7000), ans
    st = r.ok("state")
    assert (st["left"]["used_ms"], st["right"]["used_ms"]) == (20000, 7000)
    assert st["left"]["ms"] == 300000 + 10000 - 20000
    assert "not both" in r.err("resume_adjourned", "bad_arg", left_ms=1000, left_used_ms=1000)["error"]["message"]
    assert "more than left's control" in r.err("resume_adjourned", "bad_arg", left_used_ms=400000)["error"]["message"]
    r.at(3600000)  # resumed an hour later from the envelope: left's time used written 25 s
    r.ok("resume_adjourned", left_used_ms=25000, right_used_ms=7000)
    st = r.ok("state")
    assert st["state"] == "running" and st["running"] == "right"
    assert st["left"]["ms"] == 285000 and st["right"]["ms"] == 293000, st
    adj = [e for e in journalboot.game_events(r.app.journal) if e["type"] == "adjust"]
    assert [(e["side"], e["after"]["ms"]) for e in adj] == [("left", 285000)]  # right's unchanged: no record
    done()


def test_tk_p1_the_protest_window_counts_down_from_the_results_wall_time():
    r = rig()
    r.ok("new", tc="300", first="left")
    r.ok("start")
    r.at(1000)
    r.ok("result", result="1/2-1/2")
    assert r.ok("state")["protest_ms"] is None  # no wall time: nothing
    r.ok("new", tc="300", first="left")
    r.ok("time.sync", wall_ms=WALL)
    r.ok("start")
    r.at(5000)
    r.ok("result", result="0-1")
    assert r.ok("state")["protest_ms"] == 1800000
    r.at(5000 + 61500)
    assert r.ok("state")["protest_ms"] == 1800000 - 61500
    # the status line takes turns: the result code, then the window counting down (3 s each, by the game time)
    shown = set()
    for ms in range(70000, 76000, 1000):
        r.at(ms)
        shown.add(F.status_text(r.app))
    code = [s for s in shown if "CODE" in s]
    assert len(code) == 1 and "PROTEST 28:55" in shown and "PROTEST 28:53" in shown, shown
    r.at(5000 + 1800000)
    st = r.ok("state")
    assert st["protest_ms"] == 0 and "CODE" in F.status_text(r.app)  # closed: the code alone
    done()


def test_tk_p1_a_corrected_result_keeps_the_games_protest_window():
    """TK-P1 counts 30 minutes from the end of the game: the arbiter's correction (a second result of the finished
    game) leaves `state`'s protest_ms and the status line counting from the first result."""
    r = rig()
    r.ok("new", tc="300", first="left")
    r.ok("time.sync", wall_ms=WALL)
    r.ok("start")
    r.at(5000)
    r.ok("result", result="1-0")  # the end of the game
    r.at(65000)
    r.ok("result", result="0-1")  # corrected a minute later
    st = r.ok("state")
    assert (st["result"], st["protest_ms"]) == ("0-1", 1800000 - 60000), st
    assert [e["result"] for e in journalboot.game_events(r.app.journal) if e["type"] == "result"] == ["1-0", "0-1"]
    shown = set()
    for ms in range(70000, 76000, 1000):  # the status line counts the same window (28:55 left at 70 s)
        r.at(ms)
        shown.add(F.status_text(r.app))
    assert {s for s in shown if "PROTEST" in s} == {"PROTEST 28:55", "PROTEST 28:54", "PROTEST 28:50"}, shown
    r.at(5000 + 1800000)  # 30 minutes after the end of the game: closed, whatever the correction's time
    st = r.ok("state")
    assert st["protest_ms"] == 0 and "CODE" in F.status_text(r.app), (st, F.status_text(r.app))
    done()


def test_tk_p1_a_game_ended_before_the_wall_time_was_known_has_no_window_after_its_correction():
    """The end of the game is what dates the window: a result entered before any time.sync leaves the clock
    without it (protest_ms null, no PROTEST on the faces) though its correction comes after a sync."""
    r = rig()
    r.ok("new", tc="300", first="left")
    r.ok("start")
    r.at(5000)
    r.ok("result", result="1-0")
    r.ok("time.sync", wall_ms=WALL)
    r.at(65000)
    r.ok("result", result="0-1")
    assert r.ok("state")["protest_ms"] is None
    shown = set()
    for ms in range(70000, 76000, 1000):
        r.at(ms)
        shown.add(F.status_text(r.app))
    assert not [s for s in shown if "PROTEST" in s], shown
    done()


def test_tk_p1_a_wall_clock_set_back_gives_the_same_window_to_state_and_the_faces():
    """A time.sync after the result that sets the wall clock back 10 minutes would leave more than 30 minutes:
    `state` and the status line both say the most the window holds (30:00), one view of it (App.protest_left),
    where the faces said nothing while `state` said 30 minutes."""
    r = rig()
    r.ok("new", tc="300", first="left")
    r.ok("time.sync", wall_ms=WALL)
    r.ok("start")
    r.at(5000)
    r.ok("result", result="1-0")
    r.ok("time.sync", wall_ms=WALL - 600000)  # the PC's clock was 10 minutes fast: set back
    r.at(6000)
    assert r.ok("state")["protest_ms"] == 1800000
    shown = set()
    for ms in range(6000, 12000, 1000):
        r.at(ms)
        shown.add(F.status_text(r.app))
    assert "PROTEST 30:00" in shown, shown
    done()
