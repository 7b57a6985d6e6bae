# MicroPython only: the TM1637 and LED paths of faces/game.py allocate nothing (they run on every display
# refresh of the main loop). Each scenario reaches a clock state with real operations, then calls
# tm1637() and leds() for both faces with the heap locked, in every format (H.MM, MM:SS, SS.t, 0:00,
# count-up), with flags, stage marks and low time. Run by tests/test_micropython.py.
import gc

import micropython

from sagatfw.engine.clock import LEFT, Clock, Settings
from sagatfw.faces import game as faces


def _locked(c, buf, out, n=50):
    gc.collect()
    micropython.heap_lock()
    try:
        for i in range(n):
            for side in range(2):  # LEFT, RIGHT (a tuple of them would be built here)
                faces.tm1637(buf, c, side, 20000, i & 1)
                faces.tm1637(buf, c, side)
                faces.tm1637(buf, c, side, 0)
                out[0] += buf[0] + buf[1] + buf[2] + buf[3]
                out[1] |= faces.leds(c, side, i & 1)
                out[2] |= 1 << faces.fmt_kind(c.ms(side), 20000, False)  # formats seen
    finally:
        micropython.heap_unlock()


def _game(tc, freeze=None, stage_advance="moves", low=300000):
    c = Clock()
    c.new_game(tc, None, LEFT, Settings(freeze, stage_advance, 300000, 1800000, low))
    c.start(0)
    c.clear_events()
    return c


def test_heap_locked_tm1637_and_leds_every_format():
    buf = bytearray(4)
    out = [0, 0, 0]
    c = _game("7200")
    for t in (0, 1000, 2175000, 3600999, 6000000, 7180000, 7199950, 7200000):
        c.advance(t)
        c.clear_events()
        _locked(c, buf, out)
    assert out[2] == 7  # SS.t, MM:SS and H.MM all ran under the lock
    assert c.flag[LEFT] == 1 and out[0] > 0 and out[1] & faces.LED_FLAG and out[1] & faces.LED_LOW


def test_heap_locked_two_flags_stage_mark_countup():
    buf = bytearray(4)
    out = [0, 0, 0]
    c = _game("10", freeze=False)
    c.advance(10000)
    c.press(LEFT, 12000)
    c.advance(22000)
    c.clear_events()
    _locked(c, buf, out)
    assert c.flag == [1, 2] and out[1] & faces.LED_FLAG
    c = _game("1/10:60", stage_advance="flag")
    c.advance(10000)
    c.clear_events()
    _locked(c, buf, out)
    assert out[1] & faces.LED_STAGE
    c = _game("-", low=0)
    c.advance(3700000)
    c.clear_events()
    _locked(c, buf, out)
    assert buf[1] & faces.SEG_DP


def test_heap_locked_keyword_call():
    c = _game("420")
    c.advance(120000)  # 5:00, at the low-time mark
    buf = bytearray(4)
    gc.collect()
    micropython.heap_lock()
    try:
        faces.tm1637(buf, c, LEFT, tenths_below_ms=0, blink=1)
        m = faces.leds(c, LEFT, blink=1)
    finally:
        micropython.heap_unlock()
    assert list(buf) == [0, 0x6D | 0x80, 0x3F, 0x3F] and m == faces.LED_RUNNING | faces.LED_LOW


def test_heap_locked_side_to_move_while_stopped():
    # set up, paused, adjourned: the side to move's running LED blinks, with the heap locked
    buf = bytearray(4)
    out = [0, 0, 0]
    c = Clock()
    c.new_game("420", None, 1, Settings(None, "moves", 300000, 1800000, 0))
    _locked(c, buf, out)
    assert out[1] == faces.LED_RUNNING
    c.start(0)
    c.press(1, 2000)
    c.pause(3, 3000)
    c.clear_events()
    out[1] = 0
    _locked(c, buf, out)
    assert out[1] == faces.LED_RUNNING
    c.adjourn(4000)
    c.clear_events()
    out[1] = 0
    _locked(c, buf, out)
    assert out[1] == faces.LED_RUNNING
