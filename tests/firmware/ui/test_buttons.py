# Debounced, IRQ-timestamped buttons (firmware/sagatfw/ui/buttons.py). Runs under CPython and
# MicroPython. Every scenario runs at several starting ticks, including just before the boards'
# 2^30 ticks wrap, so each one also crosses the wrap.
from sagatfw.core.ticks import TICKS_MAX, ticks_add, ticks_diff
from sagatfw.engine.clock import LEFT, RIGHT
from sagatfw.ui.buttons import (
    LEVER_LEFT,
    LEVER_RIGHT,
    LONG,
    MENU,
    MINUS,
    N_BUTTONS,
    NONE,
    PLUS,
    PRESS,
    PRESS_TOGETHER,
    SHORT,
    START,
    Buttons,
)

SEEDS = 8  # of the random IRQ interleaving test
BASES = (1000, TICKS_MAX - 2, TICKS_MAX - 30, TICKS_MAX - 1500, TICKS_MAX)


def at(base, ms):
    return ticks_add(base, ms)


def drain(bt, now):
    """All events at or before `now` as (button, ms after base, kind, pressed_at ms) tuples; the
    base is bt.base, set by the test."""
    out = []
    while True:
        b = bt.take(now)
        if b == NONE:
            return out
        assert b == bt.button
        out.append((b, ticks_diff(bt.ticks, bt.base), bt.kind, ticks_diff(bt.pressed_at, bt.base)))


def make(base, **kw):
    bt = Buttons(**kw)
    bt.base = base
    return bt


def press(bt, button, ms, hold=200):
    bt.edge(button, at(bt.base, ms), True)
    bt.edge(button, at(bt.base, ms + hold), False)


def test_numbering_matches_the_clock_sides():
    assert LEVER_LEFT == LEFT and LEVER_RIGHT == RIGHT
    assert (START, MENU, PLUS, MINUS, N_BUTTONS) == (2, 3, 4, 5, 6)


def test_single_clean_press_is_one_press_at_the_irq_ticks():
    for base in BASES:
        bt = make(base)
        bt.edge(LEVER_LEFT, at(base, 100), True)
        assert bt.take(at(base, 99)) == NONE  # recorded, but after `now`
        assert drain(bt, at(base, 100)) == [(LEVER_LEFT, 100, PRESS, 100)]
        bt.edge(LEVER_LEFT, at(base, 300), False)  # release: a lever makes no event for it
        assert drain(bt, at(base, 5000)) == []
        assert bt.dropped == 0 and bt.pending() == 0


def _burst(bt, button, ms, n=10):
    # n edges within 5 ms, alternating levels, starting with the press
    for i in range(n):
        bt.edge(button, at(bt.base, ms + i // 2), i % 2 == 0)


def test_bounce_burst_is_one_press_charged_at_the_first_edge():
    for base in BASES:
        bt = make(base)
        _burst(bt, LEVER_RIGHT, 100)  # ends released: a 5 ms tap
        assert drain(bt, at(base, 2000)) == [(LEVER_RIGHT, 100, PRESS, 100)]
        bt = make(base)
        _burst(bt, LEVER_RIGHT, 100, n=11)  # ends pressed: held, released later with bounce
        for i in range(6):
            bt.edge(LEVER_RIGHT, at(base, 900 + i), i % 2 == 0 and i > 0)
        assert drain(bt, at(base, 2000)) == [(LEVER_RIGHT, 100, PRESS, 100)]


def test_a_second_real_press_after_the_lockout_counts():
    for base in BASES:
        bt = make(base)
        _burst(bt, LEVER_LEFT, 0)
        _burst(bt, LEVER_LEFT, 70)  # the next real press, 70 ms after the first edge
        _burst(bt, LEVER_LEFT, 125)  # 55 ms later: inside the lockout of the press at 70
        _burst(bt, LEVER_LEFT, 400)
        got = drain(bt, at(base, 1000))
        assert got == [(LEVER_LEFT, 0, PRESS, 0), (LEVER_LEFT, 70, PRESS, 70), (LEVER_LEFT, 400, PRESS, 400)]


def test_the_loop_taking_events_between_edges_changes_nothing():
    for base in BASES:
        ref = make(base)
        live = make(base)
        seen = []
        # a 20 ms tap, then a press 50 ms after its release: inside the release's lockout, so it
        # counts at that lockout's end (20 + 60), as Hinch's switch reading the pin would
        edges = [(LEVER_LEFT, 0, 1), (LEVER_LEFT, 2, 0), (LEVER_LEFT, 3, 1), (LEVER_LEFT, 20, 0)]
        edges += [(LEVER_LEFT, 70, 1), (LEVER_LEFT, 71, 0), (LEVER_LEFT, 72, 1), (LEVER_LEFT, 250, 0)]
        edges += [(START, 300, 1), (START, 310, 0), (START, 500, 1), (START, 700, 0), (START, 701, 1)]
        edges += [(START, 702, 0)]
        for b, ms, lvl in edges:
            ref.edge(b, at(base, ms), lvl)
        for ms in range(0, 1500):  # the loop looks every ms
            for b, e_ms, lvl in edges:
                if e_ms == ms:
                    live.edge(b, at(base, ms), lvl)
            seen += drain(live, at(base, ms))
        assert seen == drain(ref, at(base, 1500))
        assert seen == [
            (LEVER_LEFT, 0, PRESS, 0),
            (LEVER_LEFT, 80, PRESS, 80),
            (START, 360, SHORT, 300),  # released at 310, inside its lockout: seen at its end
            (START, 700, SHORT, 500),
        ]


def test_presses_recorded_out_of_order_come_out_in_timestamp_order():
    for base in BASES:
        bt = make(base)
        bt.edge(LEVER_RIGHT, at(base, 500), True)  # nested IRQs: the later press recorded first
        bt.edge(LEVER_LEFT, at(base, 100), True)
        bt.edge(START, at(base, 300), True)
        bt.edge(START, at(base, 400), False)
        bt.edge(LEVER_LEFT, at(base, 800), False)
        bt.edge(LEVER_RIGHT, at(base, 900), False)
        assert drain(bt, at(base, 450)) == [(LEVER_LEFT, 100, PRESS, 100), (START, 400, SHORT, 300)]
        assert drain(bt, at(base, 2000)) == [(LEVER_RIGHT, 500, PRESS, 500)]


def test_simultaneous_lever_presses_the_earlier_wins():
    for base in BASES:
        for right_first in (False, True):
            bt = make(base)
            if right_first:
                bt.edge(LEVER_RIGHT, at(base, 103), True)
                bt.edge(LEVER_LEFT, at(base, 100), True)
            else:
                bt.edge(LEVER_LEFT, at(base, 100), True)
                bt.edge(LEVER_RIGHT, at(base, 103), True)
            got = drain(bt, at(base, 200))
            assert got == [(LEVER_LEFT, 100, PRESS, 100), (LEVER_RIGHT, 103, PRESS_TOGETHER, 103)]
            assert [e for e in got if e[2] == PRESS] == [(LEVER_LEFT, 100, PRESS, 100)]
        bt = make(base)
        bt.edge(LEVER_RIGHT, at(base, 100), True)  # the same ms: the lower button number first
        bt.edge(LEVER_LEFT, at(base, 100), True)
        assert drain(bt, at(base, 200)) == [(LEVER_LEFT, 100, PRESS, 100), (LEVER_RIGHT, 100, PRESS_TOGETHER, 100)]
        bt = make(base)
        bt.edge(LEVER_LEFT, at(base, 100), True)
        bt.edge(LEVER_RIGHT, at(base, 160), True)  # together_ms (60) later: a real reply
        assert drain(bt, at(base, 200)) == [(LEVER_LEFT, 100, PRESS, 100), (LEVER_RIGHT, 160, PRESS, 160)]
        bt = make(base, together_ms=0)  # switched off
        bt.edge(LEVER_LEFT, at(base, 100), True)
        bt.edge(LEVER_RIGHT, at(base, 103), True)
        assert [e[2] for e in drain(bt, at(base, 200))] == [PRESS, PRESS]


def test_control_button_short_press():
    for base in BASES:
        bt = make(base)
        bt.edge(START, at(base, 100), True)
        bt.edge(START, at(base, 101), False)  # bounce
        bt.edge(START, at(base, 102), True)
        assert drain(bt, at(base, 1000)) == []  # held: nothing yet (SHORT comes at the release)
        bt.edge(START, at(base, 350), False)
        bt.edge(START, at(base, 351), True)  # release bounce
        bt.edge(START, at(base, 352), False)
        assert drain(bt, at(base, 2000)) == [(START, 350, SHORT, 100)]


def test_control_button_long_press_is_reported_while_held():
    for base in BASES:
        bt = make(base)
        bt.edge(MENU, at(base, 100), True)
        assert bt.due(at(base, 50)) == 50  # a recorded change, ahead of `now`
        assert bt.due(at(base, 200)) == 0  # a recorded change waits
        assert drain(bt, at(base, 200)) == []
        assert bt.due(at(base, 200)) == 900
        assert drain(bt, at(base, 1099)) == []
        assert drain(bt, at(base, 1100)) == [(MENU, 1100, LONG, 100)]  # at press + long_ms, still held
        assert drain(bt, at(base, 5000)) == []
        bt.edge(MENU, at(base, 5000), False)
        assert drain(bt, at(base, 9000)) == []  # no SHORT after a LONG
        assert bt.due(at(base, 9000)) == NONE


def test_long_press_found_late_keeps_its_instant_and_order():
    for base in BASES:
        bt = make(base, long_ms=800)
        bt.edge(PLUS, at(base, 0), True)
        bt.edge(LEVER_LEFT, at(base, 500), True)
        bt.edge(PLUS, at(base, 2000), False)  # the loop was busy all that time
        bt.edge(LEVER_RIGHT, at(base, 2500), True)
        assert drain(bt, at(base, 3000)) == [
            (LEVER_LEFT, 500, PRESS, 500),
            (PLUS, 800, LONG, 0),
            (LEVER_RIGHT, 2500, PRESS, 2500),
        ]
        bt = make(base, long_ms=800)
        bt.edge(MINUS, at(base, 0), True)
        bt.edge(MINUS, at(base, 800), False)  # released at the LONG instant: long
        assert drain(bt, at(base, 3000)) == [(MINUS, 800, LONG, 0)]
        bt.edge(MINUS, at(base, 1000), True)
        bt.edge(MINUS, at(base, 1799), False)
        assert drain(bt, at(base, 3000)) == [(MINUS, 1799, SHORT, 1000)]


def test_tap_shorter_than_the_lockout_is_released_at_its_end():
    for base in BASES:
        bt = make(base)
        bt.edge(START, at(base, 100), True)
        bt.edge(START, at(base, 120), False)  # the only release edge falls inside the lockout
        assert drain(bt, at(base, 130)) == []
        assert bt.due(at(base, 130)) == 30
        assert drain(bt, at(base, 159)) == []
        assert drain(bt, at(base, 160)) == [(START, 160, SHORT, 100)]
        assert bt.due(at(base, 160)) == NONE
        # the next edge settles the same change in the IRQ: no second SHORT, the new press counts
        bt.edge(START, at(base, 500), True)
        bt.edge(START, at(base, 600), False)
        assert drain(bt, at(base, 2000)) == [(START, 600, SHORT, 500)]
        # same taps with the loop asleep until after the next press: the same events
        bt = make(base)
        bt.edge(START, at(base, 100), True)
        bt.edge(START, at(base, 120), False)
        bt.edge(START, at(base, 500), True)
        bt.edge(START, at(base, 600), False)
        assert drain(bt, at(base, 2000)) == [(START, 160, SHORT, 100), (START, 600, SHORT, 500)]


def test_press_inside_a_release_lockout_counts_at_its_end():
    for base in BASES:
        for loop_looks in (False, True):
            bt = make(base)
            bt.edge(LEVER_LEFT, at(base, 0), True)
            bt.edge(LEVER_LEFT, at(base, 100), False)
            bt.edge(LEVER_LEFT, at(base, 130), True)  # pressed again 30 ms after the release
            got = drain(bt, at(base, 159)) if loop_looks else []
            if loop_looks:
                assert got == [(LEVER_LEFT, 0, PRESS, 0)]
                got += drain(bt, at(base, 160))
            bt.edge(LEVER_LEFT, at(base, 400), False)
            got += drain(bt, at(base, 1000))
            assert got == [(LEVER_LEFT, 0, PRESS, 0), (LEVER_LEFT, 160, PRESS, 160)], got


def _storm(bt, buttons, n, period_ms, drain_every_ms):
    events = []
    for i in range(n):
        ms = i * period_ms // 2
        bt.edge(buttons[i % len(buttons)], at(bt.base, ms), (i // len(buttons)) % 2 == 0)
        if drain_every_ms and i % drain_every_ms == 0:
            events += drain(bt, at(bt.base, ms))
    return events


def test_press_storm_is_bounded_and_counts_drops_only_on_overflow():
    for base in BASES:
        # 1000 edges in 2 s on one lever, the loop draining as it runs: ~one press per 2 lockouts
        bt = make(base)
        slots = bt._r_ticks
        events = _storm(bt, (LEVER_LEFT,), 1000, 4, 5) + drain(bt, at(base, 3000))
        assert bt.dropped == 0
        assert 10 <= len(events) <= 2000 // 60 + 1, len(events)
        assert all(e[2] == PRESS for e in events)
        assert all(events[i + 1][1] - events[i][1] >= 60 for i in range(len(events) - 1))
        assert bt._r_ticks is slots and len(slots) == 33 and bt.pending() == 0
        # nobody draining, a ring big enough: nothing dropped
        bt = make(base, capacity=64)
        assert _storm(bt, (LEVER_LEFT,), 1000, 4, 0) == []
        changes = bt._num[LEVER_LEFT]
        assert bt.dropped == 0 and bt.pending() == changes <= 64
        # nobody draining, every button storming, a small ring: the rest is dropped and counted
        bt = make(base, capacity=8)
        _storm(bt, tuple(range(N_BUTTONS)), 1000, 4, 0)
        changes = sum(bt._num[b] for b in range(N_BUTTONS))
        assert bt.pending() == 8 and bt.dropped == changes - 8 > 0
        events = drain(bt, at(base, 10000))
        assert len(events) <= 8 + 2 * N_BUTTONS
        assert bt.pending() == 0 and len(bt._r_ticks) == 9
        # it is not wedged: a clean press afterwards counts
        bt.edge(LEVER_RIGHT, at(base, 20000), False)
        bt.edge(LEVER_RIGHT, at(base, 20100), True)
        bt.edge(LEVER_RIGHT, at(base, 20300), False)
        bt.edge(START, at(base, 20000), False)
        bt.edge(START, at(base, 20100), True)
        bt.edge(START, at(base, 20300), False)
        assert drain(bt, at(base, 21000)) == [(LEVER_RIGHT, 20100, PRESS, 20100), (START, 20300, SHORT, 20100)]


def test_signal_is_called_after_each_recorded_change():
    calls = [0]

    def signal():
        calls[0] += 1

    bt = make(TICKS_MAX - 1, signal=signal, capacity=2)
    press(bt, LEVER_LEFT, 0)  # press and release: two changes
    assert calls[0] == 2
    bt.edge(LEVER_LEFT, at(bt.base, 10), True)  # bounce: nothing recorded
    assert calls[0] == 2
    press(bt, LEVER_LEFT, 1000)  # ring full: dropped, no signal
    assert calls[0] == 2 and bt.dropped == 2


def test_bad_button_numbers_are_ignored_in_the_irq():
    bt = make(0)
    bt.edge(-1, 5, True)
    bt.edge(N_BUTTONS, 5, True)
    assert bt.pending() == 0 and bt.take(100) == NONE and bt.due(100) == NONE


def test_settings_are_checked():
    for kw in ({"lockout_ms": 0}, {"long_ms": 60}, {"capacity": 0}, {"together_ms": -1}):
        try:
            Buttons(**kw)
        except ValueError:
            continue
        raise AssertionError(kw)


def _rand(state):
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return state[0] >> 8


def _physical(seed, n_presses=12):
    """Random play on every button: presses held 80..2500 ms, 80.. ms apart, each change followed
    by up to 8 ms of bounce. Returns the edges in time order and the expected events."""
    st = [seed]
    edges = []
    expect = []
    for b in range(N_BUTTONS):
        t = _rand(st) % 300
        for _ in range(n_presses):
            hold = 80 + _rand(st) % 2400
            if b >= START and 1000 - 70 <= hold <= 1000 + 70:
                hold += 200  # keep clear of long_ms, where a lockout's length could decide
            for start, level in ((t, 1), (t + hold, 0)):
                edges.append((start, b, len(edges), level))
                k = 0
                for _ in range(_rand(st) % 6):  # bounce: pairs of edges inside 12 ms
                    k += 1 + _rand(st) % 2
                    edges.append((start + k, b, len(edges), 1 - level))
                    edges.append((start + k, b, len(edges), level))
            if b < START:
                expect.append((t, b, PRESS))
            elif hold >= 1000:
                expect.append((t + 1000, b, LONG))
            else:
                expect.append((t + hold, b, SHORT))
            t += hold + 80 + _rand(st) % 400
    edges.sort()  # by time; each button's edges keep their order
    expect.sort()
    return edges, expect


def test_random_play_gives_the_same_events_however_often_the_loop_looks():
    for seed in (1, 2, 3):
        for base in (5000, TICKS_MAX - 3000):
            edges, expect = _physical(seed)
            end = edges[-1][0] + 3000
            outs = []
            for every in (0, 1, 7, 250):  # 0: the loop looks only at the end
                bt = make(base, together_ms=0, capacity=256)  # room for all when the loop sleeps
                got = []
                nxt = 0
                for ms, b, _, level in edges:
                    while every and nxt <= ms:  # the loop's steps before this edge's IRQ
                        got += drain(bt, at(base, nxt))
                        nxt += every
                    bt.edge(b, at(base, ms), level)
                got += drain(bt, at(base, end))
                assert bt.dropped == 0 and bt.pending() == 0
                outs.append(got)
            for got in outs:
                times = [e[1] for e in got]
                assert times == sorted(times)  # timestamp order
                # the same events; only two at the same ms may come in either order
                assert sorted(got) == sorted(outs[0])
            assert sorted((e[1], e[0], e[2]) for e in outs[0]) == expect


class _Irqs:
    """Pending edges fired as IRQs: before a loop step, or at random lines inside it."""

    def __init__(self, sys, bt, edges, seed):
        self.sys = sys
        self.bt = bt
        self.queue = [(ms, b, level) for ms, b, _, level in edges]
        self.st = [seed]
        self.limit = 0
        self.odds = (2, 5, 17)[seed % 3]  # one line in `odds` fires the next pending edge
        self.inside = 0  # edges fired inside take()

    def fire(self):
        ms, b, level = self.queue.pop(0)
        self.sys.settrace(None)
        self.bt.edge(b, at(self.bt.base, ms), level)
        self.sys.settrace(self.tracer)

    def line(self, frame, event, arg):
        if event == "line" and self.queue and self.queue[0][0] <= self.limit and _rand(self.st) % self.odds == 0:
            self.inside += 1
            self.fire()
        return self.line

    def tracer(self, frame, event, arg):
        return self.line if frame.f_code.co_filename.endswith("ui/buttons.py") else None

    def step(self, now, every):
        while self.queue and self.queue[0][0] < now:  # IRQs before the loop read `now`
            self.fire()
        self.limit = now + every - 1  # IRQs during the loop's step, at or after `now`
        self.sys.settrace(self.tracer)
        try:
            return drain(self.bt, at(self.bt.base, now))
        finally:
            self.sys.settrace(None)


GAPS = (0, 1, 2, 5, 20, 50, 58, 59, 60, 61, 62, 100, 119, 120, 121, 300, 990, 1000, 1010)


def _harsh(seed):
    """Edges at awkward gaps (around the lockout and long_ms), sometimes repeating a level, and
    awkward settings (a LONG only 1 ms after the lockout)."""
    st = [seed]
    edges = []
    for b in range(N_BUTTONS):
        t = _rand(st) % 100
        level = 1
        for _ in range(1 + _rand(st) % 24):
            t += GAPS[_rand(st) % len(GAPS)]
            edges.append((t, b, len(edges), level if _rand(st) % 4 else 1 - level))
            level = 1 - level
    edges.sort()
    lockout = (1, 10, 60)[_rand(st) % 3]
    long_ms = (lockout + 1, 1000)[_rand(st) % 2]
    together = (0, lockout, 100)[_rand(st) % 3]
    return edges, {"lockout_ms": lockout, "long_ms": long_ms, "together_ms": together, "capacity": 256}


def _same(got, want):
    # the same events; at one ms two levers may come in either order (and so swap which one is
    # the PRESS_TOGETHER), and two events may come in either order
    def norm(events):
        lever_t = [e[1] for e in events if e[0] < START]
        return sorted((b, t, PRESS if k == PRESS_TOGETHER and lever_t.count(t) > 1 else k, p) for b, t, k, p in events)

    return norm(got) == norm(want)


def test_irqs_interrupting_take_change_nothing():
    # An IRQ may run edge() between any two lines of take(), with ticks at or after the `now`
    # the loop read. Under CPython, sys.settrace fires the pending edges at random lines of the
    # loop side; the events must be those of a loop that was never interrupted. (MicroPython has
    # no settrace: skipped there.)
    import sys

    if not hasattr(sys, "settrace"):
        return
    inside = 0
    for seed in range(SEEDS):
        edges, kw = _harsh(seed)
        base = (5000, TICKS_MAX - 1500)[seed % 2]
        ref = make(base, **kw)
        for ms, b, _, level in edges:
            ref.edge(b, at(base, ms), level)
        end = edges[-1][0] + 3000
        want = drain(ref, at(base, end))
        for every in (3, 60):
            bt = make(base, **kw)
            irqs = _Irqs(sys, bt, edges, seed)
            got = []
            now = 0
            while now < end:
                got += irqs.step(now, every)
                now += every
            got += drain(bt, at(base, now))
            inside += irqs.inside
            assert bt.dropped == 0 and bt.pending() == 0
            times = [e[1] for e in got]
            assert times == sorted(times), (seed, every)
            assert _same(got, want), (seed, every, got, want)
    assert inside > 500


class _OneIrq:
    """Fires one edge at the k-th line that take() runs."""

    def __init__(self, sys, bt, edge, k):
        self.sys = sys
        self.bt = bt
        self.edge = edge
        self.k = k
        self.fired = False

    def line(self, frame, event, arg):
        if event == "line" and not self.fired:
            self.k -= 1
            if self.k == 0:
                self.fired = True
                self.sys.settrace(None)
                b, ms, level = self.edge
                self.bt.edge(b, at(self.bt.base, ms), level)
                self.sys.settrace(self.tracer)
        return self.line

    def tracer(self, frame, event, arg):
        return self.line if frame.f_code.co_filename.endswith("ui/buttons.py") else None


# (settings, edges before, the loop's `now`, the IRQ's edge during take(now), expected events)
RACES = (
    # a tap inside the lockout, its end passed, LONG 1 ms after the lockout: the SHORT comes
    # first even when the IRQ that records it runs in the middle of the loop's step
    (
        {"lockout_ms": 10, "long_ms": 11},
        [(START, 0, 1), (START, 5, 0)],
        30,
        (START, 30, 1),
        [(START, 10, SHORT, 0), (START, 41, LONG, 30)],
    ),
    ({"lockout_ms": 10, "long_ms": 11}, [(MENU, 0, 1), (MENU, 5, 0)], 30, (MENU, 30, 0), [(MENU, 10, SHORT, 0)]),
    # a lever tap inside the lockout, and the next press arriving while the loop settles it
    ({}, [(LEVER_LEFT, 0, 1), (LEVER_LEFT, 20, 0)], 100, (LEVER_LEFT, 100, 1), [(LEVER_LEFT, 100, PRESS, 100)]),
    # a settle on one button, a LONG on another, the other lever pressed during the step
    (
        {"lockout_ms": 10, "long_ms": 12},
        [(PLUS, 0, 1), (START, 1, 1), (START, 4, 0)],
        30,
        (LEVER_RIGHT, 30, 1),
        [(START, 11, SHORT, 1), (PLUS, 12, LONG, 0), (LEVER_RIGHT, 30, PRESS, 30)],
    ),
)


def test_an_irq_at_any_line_of_take_changes_nothing():
    # Exhaustive: for each race above, the IRQ's edge runs at the 1st, 2nd, ... line of the
    # loop's take(now), until take() finishes first. (CPython only: sys.settrace.)
    import sys

    if not hasattr(sys, "settrace"):
        return
    for kw, before, now, irq, want in RACES:
        for base in (1000, TICKS_MAX - 15):
            k = 1
            while True:
                bt = make(base, **kw)
                for b, ms, level in before:
                    bt.edge(b, at(base, ms), level)
                    drain(bt, at(base, ms))  # the set-up's own events (a lever's press) are not checked
                got = []
                one = _OneIrq(sys, bt, irq, k)
                sys.settrace(one.tracer)
                try:
                    got += drain(bt, at(base, now))
                finally:
                    sys.settrace(None)
                if not one.fired:
                    break
                got += drain(bt, at(base, now + 5000))
                assert got == want, (k, got, want)
                k += 1
            assert k > 20
