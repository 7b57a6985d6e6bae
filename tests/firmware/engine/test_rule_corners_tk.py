# Toguz kumalak's rule corners at the table, each in the rule's words (its ID in the test's name), on
# the engine (both runtimes).
from clockkit import Game, L, R
from sagatfw import Refused

# TK-C6: "A player more than 30 min late loses." -------------------------------------------------


def test_tk_c6_a_first_move_at_exactly_30_minutes_is_not_a_default():
    g = Game("5400", default_ms=1800000)
    g.start(0)
    assert g.press(L, 1800000)  # the first move at 30:00.000: late, not more than 30 min late
    g.poll(4000000)
    # left is not marked; right, whose clock ran from then without a move, is (the clock marks, the
    # arbiter decides: TK-R4)
    assert [(e["side"], e["t"]) for e in g.of("default")] == [("right", 1800001)]
    assert g.clock.default_mark == [0, 1]


def test_tk_c6_a_player_who_has_not_moved_at_30_minutes_and_1_ms_is_marked():
    g = Game("5400", default_ms=1800000)
    g.start(0)
    g.poll(1800001)
    d = g.of("default")
    assert [(e["side"], e["t"]) for e in d] == [("left", 1800001)]


def test_tk_c6_no_default_falls_while_the_game_is_adjourned_nor_after_it():
    g = Game("5400", default_ms=1800000)
    g.start(0)
    g.press(L, 60000)  # the right player has not moved yet when the game is adjourned (TK-A1)
    assert g.call("adjourn", 600000)
    g.poll(3600000)  # an hour later, still adjourned
    assert g.of("default") == []
    assert g.call("resume_adjourned", 7200000)  # TK-A4
    g.poll(7300000)
    assert g.of("default") == [] and g.clock.default_mark == [0, 0]


# TK-C11: "he divides the time remaining on the control clock into two equal parts; ... each player
# gets at least 15 min." -----------------------------------------------------------------------------


def _adjusts(g):
    return [(e["side"], e["after"]["ms"], e["after"]["moves"], e["after"]["stage"], e["reason"])
            for e in g.of("adjust")]


def test_tk_c11_past_the_first_control_the_whole_control_is_shared():
    # 40/5400:1800, 150 min played, 45 moves made: the control gives each 90 + 30 = 120 min for them,
    # 240 min in all; 240 - 150 = 90 min remain: 45 min each, in the second stage
    g = Game("40/5400:1800")
    assert g.call("late_install", 0, 150 * 60000, moves=45)
    assert _adjusts(g) == [("left", 45 * 60000, 45, 2, "late_install"), ("right", 45 * 60000, 45, 2, "late_install")]
    assert g.clock.stage == [2, 2] and g.clock.moves == [45, 45]


def test_tk_c11_the_moves_set_before_the_installation_count_too():
    g = Game("40/5400:1800")
    assert g.call("adjust", 0, L, moves=45) and g.call("adjust", 0, R, moves=44)
    assert g.call("late_install", 0, 150 * 60000)
    after = {e["side"]: (e["after"]["ms"], e["after"]["stage"]) for e in g.of("adjust")
             if e["reason"] == "late_install"}
    assert after == {"left": (45 * 60000, 2), "right": (45 * 60000, 2)}


def test_tk_c11_within_the_first_control_and_near_its_end():
    g = Game("3600")
    assert g.call("late_install", 0, 30 * 60000, moves=20)  # 60 - 15 = 45 min each
    assert [a[1] for a in _adjusts(g)] == [45 * 60000] * 2
    g = Game("3600")
    assert g.call("late_install", 0, 100 * 60000)  # 60 - 50 = 10 min: at least 15 min each
    assert [a[1] for a in _adjusts(g)] == [15 * 60000] * 2


def test_tk_c11_a_fischer_increment_is_the_controls_time_for_the_moves_made():
    # 25 min + 10 s a move, 30 moves each in 40 min: 25 + 5 = 30 min each for them; 60 - 40 = 20: 10 each,
    # below the 15 min floor: 15 min
    g = Game("1500+10")
    assert g.call("late_install", 0, 40 * 60000, moves=30)
    assert [a[1] for a in _adjusts(g)] == [15 * 60000] * 2
    g = Game("1500+10")
    assert g.call("late_install", 0, 10 * 60000, moves=30)  # 30 - 5 = 25 min each
    assert [a[1] for a in _adjusts(g)] == [25 * 60000] * 2


def test_tk_c11_is_set_before_the_start_only():
    g = Game("40/5400:1800")
    g.start(0)
    try:
        g.call("late_install", 1000, 60000, moves=10)
    except Refused as e:
        assert "before the clock is started" in str(e)
    else:
        raise AssertionError("a late installation once started")
