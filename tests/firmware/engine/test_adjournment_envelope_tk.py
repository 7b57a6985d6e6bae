# The adjournment's envelope (TK-A3) and the resumption from it (TK-A4), on the engine: each side's time used as
# the envelope records it (increments accounted for), and resume_adjourned taking the used or the remaining times
# back, each logged as a correction before the resumption (both runtimes).
from clockkit import Game, L, R, raises
from sagatfw.engine.envelope import used_ms


def _resume(g, t, lms=None, rms=None, lu=None, ru=None):
    """TK-A4's resumption with the envelope's times (left_ms, right_ms, left_used_ms, right_used_ms)."""
    ok = g.clock.resume_adjourned(g.now(t), lms, rms, lu, ru)
    g._drain()
    return ok


def _adjourned(tc="40/5400+30:1800+30"):
    """Left 41 moves of 10 s, right 40 of 5 s (both into the second stage) and 7 s on its 41st: adjourned."""
    g = Game(tc)
    g.start(0)
    t = 0
    for i in range(41):
        t += 10000
        g.press(L, t)
        if i < 40:
            t += 5000
            g.press(R, t)
    t += 7000
    assert g.call("adjourn", t)
    return g, t


def test_tk_a3_the_time_used_counts_the_stages_and_the_fischer_increments():
    g, _t = _adjourned()
    assert (used_ms(g.clock, L), used_ms(g.clock, R)) == (410000, 207000)
    # used + the face is what the control has given: its stages reached and 30 s a move made
    assert used_ms(g.clock, L) + g.clock.ms(L) == 5400000 + 1800000 + 41 * 30000
    assert used_ms(g.clock, R) + g.clock.ms(R) == 5400000 + 1800000 + 40 * 30000  # (its 40th move reached stage 2)


def test_tk_a4_the_envelopes_used_times_copied_back_change_nothing():
    g, t = _adjourned()
    faces = (g.clock.ms(L), g.clock.ms(R))
    assert _resume(g, t + 3600000, lu=410000, ru=207000)
    assert g.of("adjust") == [] and (g.clock.ms(L), g.clock.ms(R)) == faces
    assert g.clock.running == R  # the side to move runs (TK-A4)


def test_tk_a4_used_times_from_the_envelope_are_put_back_as_corrections():
    g, t = _adjourned()
    assert _resume(g, t + 1000, lu=420000, ru=200000)
    adj = g.of("adjust")
    assert [(a["side"], a["after"]["ms"]) for a in adj] == [
        ("left", 5400000 + 1800000 + 41 * 30000 - 420000), ("right", 5400000 + 1800000 + 40 * 30000 - 200000)]
    assert [a["reason"] for a in adj] == ["correction", "correction"]
    assert g.types()[-3:] == ["adjust", "adjust", "resume_adjourned"]
    assert (used_ms(g.clock, L), used_ms(g.clock, R)) == (420000, 200000)


def test_tk_a4_remaining_and_used_times_mix_side_by_side():
    g, t = _adjourned()
    assert _resume(g, t + 1000, lms=600000, ru=1000)
    assert g.clock.ms(L) == 600000 and used_ms(g.clock, R) == 1000


def test_tk_a4_nonsense_from_the_envelope_is_refused_and_nothing_changes():
    g, t = _adjourned()
    before = (g.clock.ms(L), g.clock.ms(R), len(g.log))
    why = raises(ValueError, _resume, g, t + 1000, ru=9999999)
    assert "more than right's control gives" in why
    assert "not both" in raises(ValueError, _resume, g, t + 1000, lms=60000, lu=1000)
    assert "0.." in raises(ValueError, _resume, g, t + 1000, lu=-5)
    assert "0.." in raises(ValueError, _resume, g, t + 1000, rms=-1)
    assert (g.clock.ms(L), g.clock.ms(R), len(g.log)) == before and g.clock.state == 4  # still adjourned


def test_tk_a3_an_extension_beyond_the_control_shows_nothing_used():
    g = Game("60")
    g.start(0)
    g.poll(61000)  # left's flag
    assert g.call("extend", 62000)  # TK-C14: 5 min more each
    g.poll(63000)
    assert g.call("adjourn", 64000)
    assert used_ms(g.clock, R) == 0  # the face (6 min) holds more than the control gave (1 min)


def test_tk_a3_an_hourglass_keeps_no_time_used_and_a_count_up_its_face():
    g = Game("*300")
    g.start(0)
    g.call("adjourn", 5000)
    assert used_ms(g.clock, L) == -1
    assert "hourglass" in raises(ValueError, _resume, g, 6000, lu=1000)
    g = Game("-")
    g.start(0)
    g.press(L, 4000)
    g.call("adjourn", 5000)
    assert (used_ms(g.clock, L), used_ms(g.clock, R)) == (4000, 1000)
    assert _resume(g, 6000, lu=9000)
    assert g.clock.ms(L) == 9000
