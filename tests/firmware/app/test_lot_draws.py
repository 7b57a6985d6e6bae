# KT-4.6's lots drawn from a script's seed (app/matchmode.py lot_bit): the same seed gives the same lots
# on both runtimes, and lot 2 is drawn on its own, never tied to lot 1.
from sagatfw.app.matchmode import lot_bit


def test_kt_4_6_the_two_seeded_lots_are_independent_over_20000_seeds():
    same = ones = 0
    for seed in range(1, 20001):
        a = lot_bit(seed, 1)
        b = lot_bit(seed, 2)
        assert a in (0, 1) and b in (0, 1)
        same += a == b
        ones += a
    # a fair, independent draw agrees half of the time: 10000 +- 3.5 sigma (sigma = 71)
    assert 9750 < same < 10250, same
    assert 9750 < ones < 10250, ones


def test_kt_4_6_a_seeded_lot_is_the_same_after_a_power_cut():
    assert [lot_bit(7, 1), lot_bit(7, 2)] == [lot_bit(7, 1), lot_bit(7, 2)]
    assert [lot_bit(s, 1) for s in (1, 2, 3, 4, 5, 6, 7, 8)] != [0] * 8
