# MicroPython only: the buttons allocate nothing where the board and the loop call them.
# micropython.heap_lock() makes any allocation raise MemoryError; here it is held around every
# edge() call (the IRQ side) and around take() and due() (the loop side), for a bounce burst, a
# press storm with and without ring overflow, LONG holds, taps inside the lockout and a signal
# hook, all across the 2^30 ticks wrap. Run by tests/test_micropython.py.
import gc

import micropython

from sagatfw.core.ticks import TICKS_MAX, ticks_add, ticks_diff
from sagatfw.ui.buttons import LEVER_LEFT, LEVER_RIGHT, LONG, MENU, N_BUTTONS, NONE, PRESS, SHORT, START, Buttons

BASES = (TICKS_MAX - 3, TICKS_MAX - 700, 1000)


class _Counter:
    def __init__(self):
        self.n = 0

    def hit(self):
        self.n += 1


def _drain(bt, now, base, out):
    """Take every event at or before `now`; count them in out[0], per kind in out[kind], and
    keep the first event's button and ms after base in out[5], out[6]. No allocation."""
    while True:
        b = bt.take(now)
        if b == NONE:
            return
        if out[0] == 0:
            out[5] = b
            out[6] = ticks_diff(bt.ticks, base)
        out[0] += 1
        out[bt.kind] += 1


def _locked(fn, bt, base, out, a=0, b=0):
    # fixed arguments: a *args call would itself allocate its tuple under the lock
    gc.collect()
    micropython.heap_lock()
    try:
        fn(bt, base, out, a, b)
    finally:
        micropython.heap_unlock()


def _burst_and_press(bt, base, out, _a, _b):
    for i in range(10):  # 10 edges within 5 ms, alternating
        bt.edge(LEVER_LEFT, ticks_add(base, i // 2), i % 2 == 0)
    _drain(bt, ticks_add(base, 30), base, out)
    _drain(bt, ticks_add(base, 100), base, out)  # the tap's release, settled at the lockout's end
    bt.edge(LEVER_LEFT, ticks_add(base, 200), True)  # a second real press
    bt.edge(LEVER_RIGHT, ticks_add(base, 203), True)  # together: marked
    bt.edge(LEVER_LEFT, ticks_add(base, 400), False)
    bt.edge(LEVER_RIGHT, ticks_add(base, 400), False)
    _drain(bt, ticks_add(base, 1000), base, out)
    out[7] = bt.due(ticks_add(base, 1000))


def test_bounce_burst_allocates_nothing():
    for base in BASES:
        bt = Buttons()
        out = [0] * 8
        _locked(_burst_and_press, bt, base, out)
        assert out[0] == 3 and out[PRESS] == 2 and out[5] == LEVER_LEFT and out[6] == 0, out
        assert out[7] == NONE


def _storm(bt, base, out, n, drain_every):
    for i in range(n):  # n edges, one every 2 ms, on every button in turn
        b = i % N_BUTTONS
        bt.edge(b, ticks_add(base, 2 * i), (i // N_BUTTONS) % 2 == 0)
        if drain_every and i % drain_every == 0:
            _drain(bt, ticks_add(base, 2 * i), base, out)
    _drain(bt, ticks_add(base, 2 * n + 5000), base, out)


def test_press_storm_allocates_nothing_and_is_bounded():
    for base in BASES:
        for capacity, drain_every in ((32, 5), (8, 0)):
            c = _Counter()
            bt = Buttons(capacity=capacity, signal=c.hit)  # the bound method exists before the lock
            out = [0] * 8
            _locked(_storm, bt, base, out, 1000, drain_every)  # 1000 edges in 2 s
            changes = sum(bt._num[b] for b in range(N_BUTTONS))
            assert c.n == changes - bt.dropped
            if drain_every:
                assert bt.dropped == 0 and 10 < out[0] <= changes, (out, changes)
            else:
                assert bt.dropped == changes - capacity > 0
                assert out[0] <= capacity + 2 * N_BUTTONS
            assert bt.pending() == 0


def _control(bt, base, out, _a, _b):
    bt.edge(MENU, ticks_add(base, 0), True)
    _drain(bt, ticks_add(base, 999), base, out)
    out[7] = bt.due(ticks_add(base, 999))
    _drain(bt, ticks_add(base, 1000), base, out)  # LONG while held
    bt.edge(MENU, ticks_add(base, 1500), False)
    bt.edge(START, ticks_add(base, 2000), True)
    bt.edge(START, ticks_add(base, 2020), False)  # a tap inside the lockout
    _drain(bt, ticks_add(base, 2100), base, out)


def test_control_buttons_allocate_nothing():
    for base in BASES:
        bt = Buttons()
        out = [0] * 8
        _locked(_control, bt, base, out)
        assert out[0] == 2 and out[LONG] == 1 and out[SHORT] == 1 and out[5] == MENU and out[6] == 1000, out
        assert out[7] == 1


def test_threadsafeflag_signal_allocates_nothing():
    import asyncio

    flag = asyncio.ThreadSafeFlag()
    bt = Buttons(signal=flag.set)  # the board's wiring: the bound method is made once, here
    out = [0] * 8
    _locked(_burst_and_press, bt, TICKS_MAX - 100, out)
    assert out[PRESS] == 2

# (that heap_lock really rejects an allocation is checked once, in tests/firmware/app/test_heap_mp.py)
