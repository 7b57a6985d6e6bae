# A game's result with the final kazan counts (TK-R1, TK-R5, TK-R7, TK-C12, TK-R4), on the engine: the
# check of a new result's counts (engine/kazans.py) and the counts kept in the result's event (both runtimes).
from clockkit import Game, L, raises
from sagatfw.engine import kazans
from sagatfw.engine.clock import RESULT_NAMES

WIN_L, WIN_R, DRAW = 0, 1, 2


def _flagged_left():
    """A game whose left flag fell (freeze: the clock stops at the flag)."""
    g = Game("60+1")
    g.start(0)
    g.poll(61000)
    assert g.clock.first_flag() == L
    return g


def _enter(g, code, lk=-1, rk=-1, t=70000):
    kazans.check(g.clock, code, lk, rk)
    assert g.clock.result(code, g.now(t), lk, rk)  # (now before the kazans: the kit's call puts it last)
    g._drain()
    return g.of("result")[-1]


def test_tk_r7_a_flagged_player_with_82_wins_and_the_result_keeps_the_kazans():
    g = _flagged_left()
    ev = _enter(g, WIN_L, 82, 79)
    assert ev["result"] == "1-0" and ev["kazans"] == [82, 79]


def test_tk_r7_a_win_against_the_flag_without_the_kazans_is_refused():
    g = _flagged_left()
    why = raises(ValueError, kazans.check, g.clock, WIN_L, -1, -1)
    assert "left's flag is down" in why and "needs the kazans" in why and "TK-R7" in why
    assert "needs the kazans" in raises(ValueError, kazans.check, g.clock, DRAW, -1, -1)
    kazans.check(g.clock, WIN_R, -1, -1)  # the flag's own verdict (TK-C12) needs no counts


def test_tk_c12_a_flagged_player_under_81_cannot_be_given_the_win_nor_a_draw():
    g = _flagged_left()
    for code in (WIN_L, DRAW):
        why = raises(ValueError, kazans.check, g.clock, code, 80, 70)
        assert "flag is down with 80 kumalaks" in why and "TK-C12" in why
    kazans.check(g.clock, WIN_R, 80, 70)


def test_tk_r7_tk_c12_a_flag_with_81_is_the_arbiters_call():
    # 81 is neither more than 81 (TK-R7) nor fewer than 81 (TK-C12): any result stands
    for code in (WIN_L, WIN_R, DRAW):
        g = _flagged_left()
        assert _enter(g, code, 81, 60)["kazans"] == [81, 60]


def test_tk_r1_kazans_beyond_the_boards_162_kumalaks_are_refused():
    g = Game("300")
    assert "more than the board's 162" in raises(ValueError, kazans.check, g.clock, WIN_L, 100, 63)
    assert "0..162" in raises(ValueError, kazans.check, g.clock, WIN_L, 163, 0)
    assert "0..162" in raises(ValueError, kazans.check, g.clock, WIN_L, 82, -1)  # one count alone
    # the engine's own range too (a forged caller past the check): nothing is entered
    assert "0..162" in raises(ValueError, g.clock.result, WIN_L, g.now(0), 200, 0)
    assert g.of("result") == [] and g.clock.state == 0


def test_tk_r1_tk_r7_a_side_with_more_than_81_is_the_winner():
    g = Game("300")
    why = raises(ValueError, kazans.check, g.clock, WIN_R, 82, 80)
    assert "left has more than 81, left wins" in why
    assert "right wins" in raises(ValueError, kazans.check, g.clock, DRAW, 10, 90)
    kazans.check(g.clock, WIN_R, 10, 90)


def test_tk_r5_81_81_is_a_draw():
    g = Game("300")
    for code in (WIN_L, WIN_R):
        assert "81-81: a draw (TK-R5)" in raises(ValueError, kazans.check, g.clock, code, 81, 81)
    kazans.check(g.clock, DRAW, 81, 81)


def test_tk_r1_a_board_not_played_out_allows_a_win_under_82_and_an_agreed_draw():
    g = Game("300")
    kazans.check(g.clock, WIN_L, 60, 50)  # a resignation: kumalaks still in the pits
    kazans.check(g.clock, DRAW, 70, 70)  # TK-R6: a draw agreed during the game


def test_tk_r4_a_forfeit_takes_no_kazans():
    g = Game("300")
    for code in (3, 4, 5):
        why = raises(ValueError, kazans.check, g.clock, code, 0, 0)
        assert "not a forfeit (TK-R4)" in why, RESULT_NAMES[code]
        kazans.check(g.clock, code, -1, -1)


def test_tk_r7_a_result_without_kazans_logs_none():
    g = Game("300")
    g.start(0)
    assert _enter(g, DRAW, t=5000)["kazans"] is None
