# A flash the game in progress fills, at the boards' real littlefs geometries (the simulator's 1 MB
# image, the Pico's 1408 KB, the ESP32's 2 MB vfs partition; 4 KB blocks): littlefs answers a full
# flash with errno 28 (no block left) or 36 (the log folder's metadata cannot take a new entry:
# littlefs maps its NOSPC there to ENAMETOOLONG). Either way the faces say LOG FULL, the reserve
# goes for the result, the result and a gap record that counts what was dropped are on the flash
# (the result code is shown), and the next game trims the finished one and is logged again.
import gc
import os
import time

from flash import Flash, mount, unmount
from virtualsim import boot, play

from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text

SIM = (256, 256)  # blocks, progsize: boards/sim.py (BLOCKS, the progsize in mount_flash)
PICO = (352, 256)  # MicroPython v1.26.1 RPI_PICO: 1408 KB at the end of the 2 MB flash (rp2/_boot.py: progsize 256)
ESP32 = (512, 32)  # ESP32_GENERIC: the 2 MB "vfs" partition, VfsLfs2's default progsize
# Every chip of this module is made in this one buffer of the largest geometry, allocated as the module
# is imported: a fresh 2 MB chip after the 1 MB and 1.4 MB ones found the heap fragmented (a MemoryError
# in some clones and not in others: the heap's layout moved with the length of the clone's path).
CHIP = bytearray(ESP32[0] * 4096)


def _tally(j):
    """(reader, counts by type, the gap events, the last event) of the journal's segments, read one
    record at a time (a full flash's events would not fit the test's heap as a list)."""
    from sagatfw.log import read as logread
    from sagatfw.log.records import RECORD_SIZE

    reader = logread.Reader(b"", False)
    counts = {}
    gaps = []
    last = [None, 0]
    buf = bytearray(RECORD_SIZE)

    def take(got):
        for e in got if isinstance(got, tuple) else (got,):
            k = (e["type"], e["game"])
            counts[k] = counts.get(k, 0) + 1
            last[0] = e
            last[1] += 1
            if e["type"] == "gap":
                gaps.append(e)

    for name in j.segments():
        for rec in j.read_segment(name, buf):
            got = reader.feed(rec, name)
            if got is not None:
                take(got)
    got = reader.finish()
    if got is not None:
        take(got)
    return reader, counts, gaps, last


def _ballast(free_blocks):
    """Fill the flash with files beside the log until about `free_blocks` are left: a long game's
    worth of flash in a moment (the game then fills the rest)."""
    chunk = bytes(4096)
    i = 0
    while True:
        st = os.statvfs("/flash")
        if st[3] <= free_blocks or st[3] > st[2]:
            return i
        with open("/flash/ballast%d" % i, "wb") as f:
            for _ in range(16):
                f.write(chunk)
        i += 1


def _fill_and_finish(blocks, progsize, free_blocks=None, after=200, step=100, total=0):
    unmount()
    gc.collect()
    f = Flash.within(CHIP, blocks)
    mount(f, progsize=progsize, fresh=True)
    if free_blocks is not None:
        _ballast(free_blocks)
    app, board, _ = boot(0)
    t0 = time.time()
    play(app, board, [{"at": 0, "do": "new", "tc": "7200"}, {"at": 0, "do": "start"}])
    j = app.journal
    t = 0
    presses = 0
    full_at = None
    while full_at is None or presses < full_at + after or presses < total:
        t += step
        presses += 1
        play(app, board, [{"at": t, "do": "press", "side": "left" if presses % 2 else "right"}])
        if full_at is None and j.full:
            full_at = presses
            # the folder took every segment until no block was left: littlefs's first answer is
            # "no space" (28), not the folder's 36 (four-block segments: at most 128 files)
            assert j.error.endswith(": 28"), j.error
        assert presses < 40000, presses
    assert status_text(app) == "LOG FULL", status_text(app)
    assert app.clock.moves[0] + app.clock.moves[1] == presses  # the clock never stopped
    t += 1000
    play(app, board, [{"at": t, "do": "result", "result": "1-0"}])
    secs = time.time() - t0
    assert j.backlog == [] and j.gap == 0, (len(j.backlog), j.gap, j.error)
    code = j.durable_code()
    assert code is not None and status_text(app) == "CODE " + code
    reader, counts, gaps, last = _tally(j)
    assert reader.problems == [], reader.problems[:3]
    logged = counts.get(("press", 1), 0)
    assert gaps and sum(g["dropped"] for g in gaps) == j.dropped > 0
    assert logged + j.dropped == presses, (logged, j.dropped, presses)
    assert last[0]["type"] == "result" and last[0]["seq"] == gaps[-1]["seq"] + 1
    print("  %d blocks: %d presses, full at %d, %d events on flash, %d dropped, %d segments, %.1f s" % (
        blocks, presses, full_at, last[1], j.dropped, len(j.segments()), secs))
    # a reboot: the finished game's code is back; the next game trims it and is logged
    app, board, restored = boot(t + 5000)
    assert not restored and app.journal.durable_code() == code
    t += 6000
    play(app, board, [{"at": t, "do": "new", "tc": "420"}, {"at": t, "do": "start"}])
    for k in range(20):
        play(app, board, [{"at": t + 1000 * (k + 1), "do": "press", "side": "right" if k % 2 else "left"}])
    j = app.journal
    assert not j.full and j.backlog == [] and j.error is None and j.room, (j.full, len(j.backlog), j.error)
    assert app.clock.state == C.RUNNING and status_text(app) != "LOG FULL"
    reader, counts, gaps, last = _tally(j)
    assert reader.problems == [], reader.problems[:3]
    assert counts.get(("press", 2), 0) == 20
    unmount()


def test_a_real_game_fills_the_simulators_1_mb_flash_and_keeps_its_result():
    # the game that found it: 17,000 presses at 100 ms of a 7200 s control, then 1-0
    _fill_and_finish(*SIM, total=17000)


def test_the_picos_flash_filled_keeps_the_result():
    _fill_and_finish(*PICO, free_blocks=80)


def test_the_esp32s_flash_filled_keeps_the_result():
    _fill_and_finish(*ESP32, free_blocks=80)


def test_the_log_folder_takes_segments_until_no_block_is_left_on_every_boards_flash():
    """The layout: a whole flash of full segments (four blocks each) in the one log folder, on each
    board's geometry. littlefs refuses only when no block is left (28), never first for the
    folder's metadata (36), and the folder holds at most 128 files (the boot lists them all)."""
    from sagatfw.log.journal import SEGMENT_RECORDS

    data = bytes(SEGMENT_RECORDS * 64)
    for blocks, progsize in (SIM, PICO, ESP32):
        unmount()
        gc.collect()
        mount(Flash.within(CHIP, blocks), progsize=progsize, fresh=True)
        os.mkdir("/flash/log")
        n = 0
        err = None
        while err is None:
            try:
                with open("/flash/log/%010d.seg" % (n * (SEGMENT_RECORDS - 1)), "wb") as f:
                    f.write(data)
                n += 1
            except OSError as e:
                err = e.args[0]
        assert err == 28 and n <= 128, (blocks, n, err)
        print("  %d blocks: %d segments of %d records, then errno %d" % (blocks, n, SEGMENT_RECORDS, err))
        unmount()
