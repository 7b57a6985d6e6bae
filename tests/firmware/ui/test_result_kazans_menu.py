# The on-clock menu's result with the final kazans (TK-R7, TK-R1, TK-R5, TK-C12), and the clock's START telling a
# player's pause from the arbiter's (TK-C15): a real App and Menu, every button through the Buttons IRQ path
# (menukit), on both runtimes (tests/test_micropython.py runs this under the MicroPython unix port).
from menukit import Rig, go_to, open_arbiter, shortest

from sagatfw.engine import clock as C
from sagatfw.ui import buttons as B
from sagatfw.ui import editors as E
from sagatfw.ui import menu as MN


def _kazan(rig, value):
    """Step the KAZAN editor shown to `value` with the fewest presses."""
    lo = -1 if rig.menu.side == C.LEFT else 0
    rig.presses_of(shortest(rig.menu.value, value, lo, 162))
    assert rig.menu.value == value


def _flagged_left():
    rig = Rig("60+1")  # a Fischer increment: the flag freezes the clock
    rig.press(B.START)
    rig.wait(61000)
    assert rig.state() == C.FLAGGED and rig.app.clock.first_flag() == C.LEFT
    return rig


def _result_menu(rig, k):
    open_arbiter(rig, MN.A_RESULT)
    rig.press(B.START)
    go_to(rig, k)
    rig.press(B.START)


def test_tk_r7_the_menu_refuses_a_win_against_the_flag_without_kazans_and_enters_it_with_them():
    rig = _flagged_left()
    try:
        _result_menu(rig, 0)  # 1-0: the flagged left player wins
        assert rig.view() == ("KAZAN L", "--")
        rig.press(B.START)  # no counts: refused, and why
        assert rig.view() == ("NO", "RESULT") and "needs the kazans" in rig.menu.detail, rig.menu.detail
        assert rig.menu.mode == E.M_RESULT and rig.log("result") == []
        rig.press(B.START)  # the message goes, and START on 1-0 asks again
        assert rig.view() == ("KAZAN L", "--")
        _kazan(rig, 82)
        rig.press(B.START)
        assert rig.view() == ("KAZAN R", "80")  # the board's rest
        _kazan(rig, 79)
        rig.press(B.START)
        assert not rig.menu.active and rig.state() == C.FINISHED
        res = rig.log("result")
        assert [(e["result"], e["kazans"]) for e in res] == [("1-0", [82, 79])]
    finally:
        rig.close()


def test_tk_c12_the_menu_refuses_a_flagged_players_win_under_81_and_nothing_is_logged():
    rig = _flagged_left()
    try:
        _result_menu(rig, 2)  # 1/2
        _kazan(rig, 70)
        rig.press(B.START)
        _kazan(rig, 80)
        rig.press(B.START)
        assert rig.view() == ("NO", "RESULT") and "TK-C12" in rig.menu.detail
        assert rig.state() == C.FLAGGED and rig.log("result") == []
    finally:
        rig.close()


def test_tk_r1_tk_r5_nonsense_counts_are_refused_by_the_menu():
    rig = Rig("300")
    try:
        rig.press(B.START)
        rig.press(B.START)  # paused
        _result_menu(rig, 0)  # 1-0 with right's 90: right has won (TK-R1)
        _kazan(rig, 60)
        rig.press(B.START)
        _kazan(rig, 90)
        rig.press(B.START)
        assert rig.view() == ("NO", "RESULT") and "right wins" in rig.menu.detail
        rig.press(B.START)  # 1-0 again, now 81-81: a draw (TK-R5)
        _kazan(rig, 81)
        rig.press(B.START)
        assert rig.view() == ("KAZAN R", "81")
        rig.press(B.START)
        assert "TK-R5" in rig.menu.detail and rig.log("result") == []
    finally:
        rig.close()


def test_tk_r4_a_forfeit_from_the_menu_asks_no_kazans():
    rig = Rig("300")
    try:
        _result_menu(rig, 3)  # +/-
        assert not rig.menu.active and [e["kazans"] for e in rig.log("result")] == [None]
    finally:
        rig.close()


def test_tk_c15_start_pressed_short_is_a_players_pause_and_held_the_arbiters():
    rig = Rig("300")
    try:
        rig.press(B.START)  # the start
        rig.wait(2000)
        rig.press(B.START)  # short: a player stops the clock to call the arbiter
        assert rig.state() == C.PAUSED
        rig.press(B.START)  # resume
        rig.wait(2000)
        rig.press(B.START, True)  # held: the arbiter's stop
        assert rig.state() == C.PAUSED
        rig.press(B.START, True)  # held while paused: nothing (a resume is a short press)
        assert rig.state() == C.PAUSED
        assert [e["by"] for e in rig.log("pause")] == ["player", "arbiter"]
    finally:
        rig.close()
