# The two match engines' games brought to a point, each a matchkit.Run, with the instants they
# reach: a kok-boru bout, to its 2nd half or to its golden score; a kilithattu match, tied after
# innings 2, its lot drawn, its extra time played. Used by the engines' exact-millisecond tests
# (tests/firmware/engine: test_match_kokboru.py, test_match_kilithattu.py) and by
# test_match_result_undo_and_reboot.py. Runs under CPython and MicroPython alike (no pytest here).
from matchkit import MIN, Run

from sagatfw.engine import kilithattu as K
from sagatfw.engine import matchwords as M
from sagatfw.engine.kokboru import KokBoru

R = M.RIGHT
HOUR = 60 * MIN

# ------------------------------------------------------------------ kok-boru (sagatfw/engine/kokboru.py)

HALF = 4 * MIN
G = 11 * MIN  # golden score starts here in golden()


def bout(base=0, **setup):
    m = KokBoru()
    m.new_match(**setup)
    return Run(m, base)


def to_second_half(r, start2=HALF + MIN):
    """Half 1 from t = 0, the rest, the referee starts half 2 at start2."""
    r.do("start", 0)
    r.poll(start2)
    r.do("start", start2)


def golden(base=0):
    """Level at the end: golden score started at G."""
    r = bout(base)
    to_second_half(r, 6 * MIN)
    r.poll(G)
    assert r.m.state == M.READY and r.m.period == 2
    r.do("start", G)
    return r


# ------------------------------------------------------------------ kilithattu (sagatfw/engine/kilithattu.py)

INN = 7 * MIN
EXTRA = 5 * MIN
END2 = 2 * INN + MIN  # innings 2 ends here with the default changeover and no stoppage


def match(base=0, **setup):
    m = K.Kilithattu()
    m.new_match(**setup)
    return Run(m, base)


def tied(base=0, lot=R, **setup):
    """Innings 1 from t = 0, one pazham each, level at END2; the lot drawn at END2 (`lot` enters
    first in the extra time)."""
    r = match(base, **setup)
    first = r.m.first
    r.do("start", 0)
    r.do("score", 1000, first, 1)
    r.poll(INN + MIN + 1000)
    r.do("score", INN + MIN + 1000, 1 - first, 1)
    r.poll(END2)
    assert r.m.state == M.LOT and r.m.lot_due == 1
    if lot is not None:
        r.do("draw_lot", END2, lot)
    return r


XS = END2 + MIN  # the extra time starts here in extra()


def extra(base=0, lot=R, **setup):
    """tied(), then the extra time: 1-1 again at its end (one pazham each)."""
    r = tied(base, lot, **setup)
    r.do("start", XS)
    r.do("score", XS + 1000, lot, 1)
    r.poll(XS + EXTRA + MIN + 1000)
    r.do("score", XS + EXTRA + MIN + 1000, 1 - lot, 1)
    return r


XEND = XS + 2 * EXTRA + MIN  # the extra time ends here
