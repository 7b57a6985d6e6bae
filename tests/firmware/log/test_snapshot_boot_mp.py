# The boot of an interrupted 2,000-record game, counted in records read from the
# flash (a figure no emulator's speed changes): with the checkpoint snapshot the boot reads about a
# segment's worth, whatever the game's length; by the whole replay (the snapshot removed: the boot
# before snapshots) every record of the game. Both restore the same clock. The boot's time on the
# unix port (RAM flash) is printed beside.
import os
import time

from appkit import FakeBoard, T
from flash import Flash, mount, unmount

from sagatfw.app.main import App
from sagatfw.engine import clock as C
from sagatfw.log.journal import SEGMENT_RECORDS, Journal

PRESSES = 2000


def _counting():
    """Count the records the journal reads (every read of a segment goes through read_segment)."""
    real = Journal.read_segment
    n = [0]

    def counted(self, name, buf, *skip):
        for rec in real(self, name, buf, *skip):
            n[0] += 1
            yield rec

    Journal.read_segment = counted
    return n, real


def _boot(at):
    n, real = _counting()
    try:
        app = App(FakeBoard())
        t0 = time.ticks_us()
        restored = app.boot(T(at))
        us = time.ticks_diff(time.ticks_us(), t0)
    finally:
        Journal.read_segment = real
    return app, restored, n[0], us


def _state(c):
    return (c.state, c.t, list(c.rem), list(c.moves), list(c.stage), list(c.stage_moves), list(c.delay_left),
            list(c.turn_used), list(c.flag), c.to_move, c.seg_start)


# The game's chip, and the copy of it each boot starts from: allocated as the module is imported, and
# reused (three fresh 1 MB chips in a row failed on a fragmented heap: MemoryError at 6 MB).
CHIP = bytearray(256 * 4096)
SAVED = bytearray(256 * 4096)


def test_a_2000_record_interrupted_game_boots_reading_about_a_segment():
    unmount()
    f = Flash.within(CHIP, 256)
    mount(f, fresh=True)
    app = App(FakeBoard())
    app.boot(T(0))
    app.new_game("600+5", "left", T(0))
    app.start(T(0))
    ms = 0
    for i in range(PRESSES):
        ms += 900
        assert app.clock.press(C.LEFT if i % 2 == 0 else C.RIGHT, T(ms))
        app.step(T(ms))
    app.step(T(ms + 400))  # the power goes 0.4 s into the next turn
    j = app.journal
    assert j.error is None and j.seq > PRESSES and j.seq - j.snap[0] < 32
    records = j.seq
    SAVED[:] = f.data
    unmount()

    mount(Flash.within(CHIP, 256, SAVED))
    snap, restored, n_snap, us_snap = _boot(ms + 5000)
    assert restored is True and snap.clock.state == C.PAUSED
    unmount()

    f2 = Flash.within(CHIP, 256, SAVED)
    mount(f2)
    os.remove("/flash/log/ckpt")  # the boot as before snapshots: the whole game replayed
    whole, restored, n_whole, us_whole = _boot(ms + 5000)
    assert restored is True
    unmount()

    assert _state(snap.clock) == _state(whole.clock)
    assert n_snap <= SEGMENT_RECORDS + 64, n_snap  # the newest segment (where the log ends), and the snapshot's records
    assert n_whole > PRESSES
    print("interrupted game of %d records: the boot reads %d records with the snapshot (%d ms on the unix port), "
          "%d by the whole replay (%d ms)" % (records, n_snap, us_snap // 1000, n_whole, us_whole // 1000))
