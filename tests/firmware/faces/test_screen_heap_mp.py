# MicroPython only: faces/screen.py's four-digit faces and LEDs of a running game allocate nothing (every
# display refresh of the main loop runs them, on a board's TM1637s), the battery's warning on the LEDs
# included, with the heap locked. (A turn of a text, "LErr" or "bAtt", draws it with faces.text4, whose
# characters are as interned as the port's names: tests/firmware/faces/test_faces_text.py.) Run by
# tests/test_micropython.py.
import gc

import micropython
from boardkit import FakeApp

from sagatfw.engine.clock import LEFT, Clock
from sagatfw.faces import screen as SC


def _locked(app, buf, out, t0, low):
    gc.collect()
    micropython.heap_lock()
    try:
        for i in range(60):
            now = t0 + i * 250
            for side in range(2):
                SC.tm1637(buf, app, side, now, low)
                out[0] += buf[0] + buf[1] + buf[2] + buf[3]
                out[1] |= SC.leds(app, side, now, low)
    finally:
        micropython.heap_unlock()


def test_heap_locked_a_running_games_four_digit_faces_and_leds():
    c = Clock()
    c.new_game("300", None, LEFT)
    app = FakeApp(c)
    buf = bytearray(4)
    out = [0, 0]
    c.start(0)
    c.clear_events()
    for t in (1000, 61000, 125000):  # the running face going down, the waiting one standing
        c.advance(t)
        _locked(app, buf, out, t, False)
    c.pause(0, 126000)
    c.clear_events()
    _locked(app, buf, out, 126000, True)  # stopped, the battery low: both low LEDs blink
    assert out[0] and out[1] & 8
