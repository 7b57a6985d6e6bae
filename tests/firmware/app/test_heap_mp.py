# MicroPython only: the clock's tick path allocates nothing. micropython.heap_lock() makes any
# allocation raise MemoryError, so each scenario below runs with the heap locked while the clock is
# ticked, pressed and queried, including flags, stages, low-time crossings, delays, byo-yomi and
# a ticks wrap. Run by tests/test_micropython.py.
import gc

import micropython

from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine.clock import LEFT, RIGHT, Clock, Settings


def _run_locked(tc, freeze=None, stage_advance="moves", base=TICKS_MAX - 50000, n=400):
    c = Clock()
    c.new_game(tc, None, LEFT, Settings(freeze, stage_advance, 300000, 60000, 20000))
    c.start(base)
    gc.collect()
    out = [0, 0, 0, 0]  # results written under the lock (list items: no allocation)
    t = 0
    side = LEFT
    micropython.heap_lock()
    try:
        for i in range(n):
            t += 37 + (i * 7919) % 3000  # uneven move times
            for j in range(5):  # polls inside the turn
                now = ticks_add(base, t - 30 + j * 7)
                c.advance(now)
                out[0] += c.ms(LEFT) + c.remaining(RIGHT, now)
                out[1] = c.delay_remaining(side)
                c.clear_events()
            if c.press(side, ticks_add(base, t)):
                out[2] += 1
                side = 1 - side
            out[3] += c.n_events
            c.clear_events()
        c.advance(ticks_add(base, t + 10000000))  # run far past every flag
        out[3] += c.n_events
        c.clear_events()
        c.pause(2, ticks_add(base, t + 10000001))
        c.resume(ticks_add(base, t + 10000002))
        c.clear_events()
    finally:
        micropython.heap_unlock()
    return c, out


def test_heap_locked_sudden_death_flags():
    c, out = _run_locked("100", freeze=False)
    assert out[2] > 0 and out[3] > 0
    assert c.flag[LEFT] and c.flag[RIGHT]  # both flags fell under the lock


def test_heap_locked_fischer_stages_freeze():
    c, out = _run_locked("20/200+2:60+1")
    assert out[2] > 0 and c.stage[LEFT] >= 1


def test_heap_locked_stage_by_flag():
    c, out = _run_locked("10/30:10/30", freeze=False, stage_advance="flag")
    assert c.stage[LEFT] > 1 or c.stage[RIGHT] > 1


def test_heap_locked_delay_and_bronstein():
    c, out = _run_locked("300d5")
    assert out[2] > 0
    c, out = _run_locked("300b5")
    assert out[2] > 0


def test_heap_locked_hourglass_countup_byoyomi():
    for tc in ("*60", "-", "30j5x3", "30c3/10"):
        c, out = _run_locked(tc, freeze=False)
        assert out[2] > 0, tc


def test_heap_lock_really_catches_allocation():
    # The check above is only worth something if heap_lock really rejects an allocation here.
    micropython.heap_lock()
    try:
        try:
            x = [1, 2, 3]
        except MemoryError:
            x = None
    finally:
        micropython.heap_unlock()
    assert x is None


def test_forget_gives_a_module_back_to_the_heap():
    """Boot-only, menu and one-request modules are dropped with sagatfw.forget: the package's
    attribute goes too (else the module stays reachable and its code stays in RAM). Interned
    names (qstrs) stay, as MicroPython never frees them: so the second load and forget must give
    back everything it took."""
    import sys

    import sagatfw

    def load():
        from sagatfw.core import presets

        return len(presets.PRESETS)

    load()
    sagatfw.forget("sagatfw.core.presets")
    gc.collect()
    before = gc.mem_alloc()
    assert load() > 20
    gc.collect()
    loaded = gc.mem_alloc() - before
    sagatfw.forget("sagatfw.core.presets")
    gc.collect()
    kept = gc.mem_alloc() - before
    assert "sagatfw.core.presets" not in sys.modules and "presets" not in sagatfw.__dict__
    assert loaded > 4000 and kept < 256, (loaded, kept)
