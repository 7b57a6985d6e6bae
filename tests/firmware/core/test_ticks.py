# The boards' ticks arithmetic (wrap at 2^30) on every runtime. Runs under CPython and MicroPython.
from sagatfw.core.ticks import TICKS_HALF, TICKS_MAX, ticks_add, ticks_diff

PERIOD = TICKS_MAX + 1


def _ref_diff(a, b):
    return ((a - b + PERIOD // 2) % PERIOD) - PERIOD // 2


def test_ticks_diff_across_the_wrap():
    assert ticks_diff(5, TICKS_MAX) == 6
    assert ticks_diff(TICKS_MAX, 5) == -6
    assert ticks_diff(0, 0) == 0
    assert ticks_diff(TICKS_HALF - 1, 0) == TICKS_HALF - 1
    assert ticks_diff(TICKS_HALF, 0) == -TICKS_HALF


def test_ticks_add_across_the_wrap():
    assert ticks_add(TICKS_MAX, 1) == 0
    assert ticks_add(TICKS_MAX - 9, 20) == 10
    assert ticks_add(3, -5) == TICKS_MAX - 1
    assert ticks_add(0, 0) == 0


def test_ticks_match_modular_reference():
    a = 1
    for i in range(2000):
        a = (a * 1103515245 + 12345) % PERIOD  # spread over the whole range
        b = (a * 7 + i * 999331) % PERIOD
        d = (i * 48271) % TICKS_HALF - TICKS_HALF // 2
        assert ticks_diff(a, b) == _ref_diff(a, b)
        s = ticks_add(a, d)
        assert 0 <= s <= TICKS_MAX and s == (a + d) % PERIOD
        assert ticks_diff(s, a) == d
