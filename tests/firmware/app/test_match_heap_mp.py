# MicroPython only: the match engines (sagatfw/engine) allocate nothing on the tick path. With
# micropython.heap_lock() any allocation raises MemoryError; here whole matches run under the lock:
# advance (rarely and often), every operation that succeeds (start, score, card, undo, a withdrawn
# result, stoppage, resume, draw_lot, result, power_restore), the view the faces read and the event
# queue, across the 2^30 ticks wrap. (A refusal raises Refused, which allocates: not on this path.)
# Also prints what importing an engine and making one costs the heap. Run by tests/test_micropython.py.
import gc

import micropython

from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine import kilithattu as K
from sagatfw.engine import matchwords as M
from sagatfw.engine.kokboru import KokBoru

MIN = 60000
BASES = (TICKS_MAX - 3000, TICKS_MAX - 4 * MIN, 1000)


def _view(m, out):
    """What the faces read, summed into out[0] (list items: no allocation)."""
    out[0] += m.scores[0] + m.scores[1] + m.warnings[0] + m.reds[1] + m.match_ms() + m.break_ms()
    out[0] += m.stoppage_ms() + m.stopped_ms() + m.elapsed_ms() + m.period + m.state + m.entering
    out[0] += m.lot_due + m.undoable + m.winner + m.why + m.next_instant()
    if m.counts_up():
        out[0] += 1
    out[1] = m.period_name()  # a constant string: stored, not made


def _drain(m, out):
    for i in range(m.n_events):
        out[2] += 1
        out[3] += m.field(i, M.F_TYPE) + m.field(i, M.F_T)
    m.clear_events()


def _step(m, base, t, out):
    m.advance(ticks_add(base, t))
    _view(m, out)
    _drain(m, out)


def _kokboru(m, base, out):
    t = 0
    m.start(base)
    _drain(m, out)
    while t < 4 * MIN - 5000:  # a poll every 250 ms, a score now and then
        t += 250
        _step(m, base, t, out)
        if t % 20000 == 0:
            m.score(t // 20000 % 2, 1, ticks_add(base, t))  # 5-6 at the end
    m.card(0, M.CARD_WARNING, ticks_add(base, t))
    m.undo(ticks_add(base, t + 1))
    m.stoppage(ticks_add(base, t + 2))
    m.resume(ticks_add(base, t + 3000))
    _drain(m, out)
    _step(m, base, 30 * MIN, out)  # rarely: the half's and the rest's ends
    m.start(ticks_add(base, 30 * MIN))
    m.power_restore(ticks_add(base, 31 * MIN))
    m.resume(ticks_add(base, 31 * MIN + 1000))
    m.score(0, 4, ticks_add(base, 31 * MIN + 2000))
    m.undo(ticks_add(base, 31 * MIN + 2001))
    m.score(0, 1, ticks_add(base, 31 * MIN + 2002))  # 6-6
    _drain(m, out)
    _step(m, base, 60 * MIN, out)  # the end of time: level, golden score waits
    out[4] = m.period
    m.start(ticks_add(base, 60 * MIN))
    _step(m, base, 61 * MIN, out)
    m.score(1, 4, ticks_add(base, 61 * MIN))  # wins at once
    m.undo(ticks_add(base, 61 * MIN + 1))  # withdrawn
    m.resume(ticks_add(base, 61 * MIN + 2))
    m.card(1, M.CARD_RED, ticks_add(base, 61 * MIN + 3))
    _view(m, out)
    _drain(m, out)
    m.result(0, ticks_add(base, 62 * MIN))
    _drain(m, out)


def _kilithattu(m, base, out):
    m.start(base)
    _drain(m, out)
    for i in range(20):
        _step(m, base, 1000 * i, out)
    m.score(0, 1, ticks_add(base, 20000))
    m.undo(ticks_add(base, 20001))
    _step(m, base, 60 * MIN, out)  # both innings and the changeover, once: 0-0, a lot is due
    out[4] = m.lot_due
    m.draw_lot(1, ticks_add(base, 60 * MIN))
    m.start(ticks_add(base, 61 * MIN))
    m.score(1, 1, ticks_add(base, 62 * MIN))
    _step(m, base, 66 * MIN + 1000, out)  # in the break
    m.power_restore(ticks_add(base, 67 * MIN))
    m.start(ticks_add(base, 67 * MIN + 1))  # the referee cuts the changeover short
    m.stoppage(ticks_add(base, 68 * MIN))
    m.resume(ticks_add(base, 68 * MIN + 1))
    m.score(0, 1, ticks_add(base, 69 * MIN))
    _drain(m, out)
    _step(m, base, 90 * MIN, out)  # level again: the method (sudden)
    m.start(ticks_add(base, 90 * MIN))
    _step(m, base, 91 * MIN, out)
    m.score(0, 1, ticks_add(base, 91 * MIN))
    _view(m, out)
    _drain(m, out)


def _locked(fn, m, base, out):
    gc.collect()
    micropython.heap_lock()
    try:
        fn(m, base, out)
    finally:
        micropython.heap_unlock()


def test_heap_locked_kokboru_bout():
    for base in BASES:
        m = KokBoru()
        m.new_match(8)
        out = [0, None, 0, 0, 0]
        _locked(_kokboru, m, base, out)
        assert out[4] == 2 and out[2] > 20  # golden score was reached, events flowed
        assert m.state == M.FINISHED and m.why == M.WHY_REFEREE and m.reds == [0, 1]


def test_heap_locked_kilithattu_match():
    for base in BASES:
        m = K.Kilithattu()
        m.new_match(0, 30000, K.M_SUDDEN)
        out = [0, None, 0, 0, 0]
        _locked(_kilithattu, m, base, out)
        assert out[4] == 1 and out[1] == "sudden"
        assert m.state == M.FINISHED and m.winner == 0 and m.why == M.WHY_SUDDEN


def test_heap_cost_of_an_engine():
    # what importing a mode (its module and base.py, compiled from source here: frozen code costs
    # less) and one engine take from the heap; printed for docs/match.md
    import sys

    for name in ("sagatfw.engine.kokboru", "sagatfw.engine.kilithattu", "sagatfw.engine.matchbase",
                 "sagatfw.engine.matchwords"):
        sys.modules.pop(name, None)
    gc.collect()
    a = gc.mem_alloc()
    mod = __import__("sagatfw.engine.kokboru", None, None, ("KokBoru",))
    gc.collect()
    b = gc.mem_alloc()
    m = mod.KokBoru()
    gc.collect()
    c = gc.mem_alloc()
    print("heap: kokboru import %d B, engine %d B" % (b - a, c - b))
    assert 0 < c - b < 2000 and m.state == M.SETUP  # m is alive while measured
