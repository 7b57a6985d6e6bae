# TK-C17's low-time mark counts only below the time a side starts with (its control's first
# stage): with the default mark (5 min) a 5-minute or 3-minute blitz never shows LOW nor logs
# low_time, not in setup, not in play, not after an increment lifts it over 5:00; a 10-minute game
# does from 5:00 down. One rule (Clock.low_counts) for the engine's low_time,
# the faces' LOW (is_low) and `state`.
from clockkit import Game, L, R
from sagatfw.faces import game as F


def test_a_300_s_blitz_never_shows_low_under_the_default_mark():
    for tc in ("300", "180", "300+2"):
        g = Game(tc)
        assert not F.is_low(g.clock, L) and not F.is_low(g.clock, R), tc
        g.start(0)
        g.poll(1000)  # 4:59
        assert not F.is_low(g.clock, L), tc
        assert F.leds(g.clock, L) & F.LED_LOW == 0 and "LOW" not in F.marks_text(g.clock, L)
    g = Game("300+2")
    g.start(0)
    g.press(L, 500)  # 301.5 s: over the mark, still no mark for this control
    g.poll(200000)
    g.press(R, 200500)
    g.poll(300000)
    assert g.of("low_time") == [] and not F.is_low(g.clock, L) and not F.is_low(g.clock, R)


def test_a_600_s_game_shows_low_below_five_minutes():
    g = Game("600")
    assert not F.is_low(g.clock, L)
    g.start(0)
    g.poll(299999)
    assert not F.is_low(g.clock, L)
    g.poll(301000)  # 4:59
    assert F.is_low(g.clock, L) and not F.is_low(g.clock, R)
    assert [e["t"] for e in g.of("low_time")] == [300000]


def test_each_side_by_its_own_control_and_the_mark_setting():
    g = Game("600", "300")  # a handicap: only the 10-minute side's mark counts
    g.start(0)
    g.press(L, 301000)  # left at 4:59
    assert F.is_low(g.clock, L) and not F.is_low(g.clock, R)
    g = Game("300", low_time_ms=60000)  # a 1-minute mark in a 5-minute game counts
    g.start(0)
    g.poll(241000)
    assert F.is_low(g.clock, L) and [e["t"] for e in g.of("low_time")] == [240000]
    g = Game("600", low_time_ms=0)  # no mark
    g.start(0)
    g.poll(599000)
    assert not F.is_low(g.clock, L) and g.of("low_time") == []
