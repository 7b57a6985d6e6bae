# MicroPython only: the TM1637 faces of a match (faces/matchfaces.py) allocate nothing: they run at every
# display refresh of a match's loop. Each scenario reaches a match's state with real operations,
# then draws both faces at every 2 s phase with the heap locked: the score with and without its
# dash, the period and break codes, a stoppage's "P0:12", the time added back (KT-4.5). Run by
# tests/test_micropython.py.
import gc

import micropython

from sagatfw.engine import matchwords as M
from sagatfw.engine.kilithattu import Kilithattu
from sagatfw.engine.kokboru import KokBoru
from sagatfw.faces import matchfaces as MF

MIN = 60000


def _locked(m, t, buf, out):
    """Both faces at the four phases from t (m advanced under the lock too)."""
    gc.collect()
    micropython.heap_lock()
    try:
        for i in range(8):
            m.advance(t + i * 1000)
            for side in range(2):
                MF.tm1637(buf, m, side, i & 1)
                out[0] += buf[0] + buf[1] + buf[2] + buf[3]
                out[1] |= MF.leds(m, side, i & 1)
    finally:
        micropython.heap_unlock()
    m.clear_events()


def test_heap_locked_match_tm1637_faces_kb_16_kt_4_5():
    buf = bytearray(4)
    out = [0, 0]
    m = KokBoru()
    m.new_match(0)
    _locked(m, 0, buf, out)  # set up
    m.start(0)
    for i in range(7):
        m.score(M.LEFT, 4, 10 + i)  # 28-0: two digits and one
    m.score(M.RIGHT, 2, 20)
    _locked(m, 1000, buf, out)
    for i in range(5):
        m.score(M.RIGHT, 2, 30 + i)  # 28-12: both of two digits, no dash
    m.stoppage(9000)
    _locked(m, 9000, buf, out)  # "P0:01" and the added time
    m.resume(20000)
    _locked(m, 4 * MIN + 12000, buf, out)  # the rest
    assert m.state == M.BREAK and out[0] > 0
    k = Kilithattu()
    k.new_match(0, 30000, 0)
    k.start(0)
    k.score(M.LEFT, 1, 100)
    k.stoppage(1000)
    _locked(k, 1000 + 20 * MIN, buf, out)  # "P9:59", "A999"
    k.resume(1000 + 20 * MIN)
    _locked(k, 1000 + 27 * MIN + 20000, buf, out)  # the changeover
    assert k.state == M.BREAK and MF.period_code(k) == b"ChAn"
