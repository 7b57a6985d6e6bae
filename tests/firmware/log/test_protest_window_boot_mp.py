# After a reboot TK-P1's protest window still counts from the end of the game: the boot (log/boot.py, open_log)
# takes the wall time of the finished game's first result, not of the arbiter's correction that followed it, both
# when the two results share the log's newest segment and when the correction went into a segment of its own.
# The App and its protocol on littlefs (the MicroPython unix port), with protocolrig's 16-record segments.
import gc

from flash import Flash, mount, unmount
from protocolrig import SEGMENT_RECORDS, Rig

WALL = 1718000000000  # Unix ms at ticks 0, the first sync


def _finished_and_corrected(syncs):
    """A game ended at 5 s (1-0) and corrected (0-1) at 65 s, `syncs` time syncs between; then a power cut and the
    boot. Returns the rebooted rig and whether the correction went into a newer segment than the first result."""
    unmount()
    gc.collect()
    f = Flash(blocks=64)
    mount(f, fresh=True)
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="300")
    rig.ok("time.sync", wall_ms=WALL)
    rig.ok("start")
    rig.at(5000)
    rig.ok("result", result="1-0")
    seg = rig.app.journal.seg
    for i in range(syncs):  # the hall syncs the clock again meanwhile: a record of the game each
        rig.at(6000 + i * 1000)
        rig.ok("time.sync", wall_ms=WALL + 6000 + i * 1000)
    rig.at(65000)
    rig.ok("result", result="0-1")
    moved = rig.app.journal.seg != seg
    assert rig.ok("state")["protest_ms"] == 1800000 - 60000
    unmount()
    gc.collect()
    mount(f)
    rig = Rig(fresh=False)  # rebooted: the next game set up, the finished one's result on the faces
    rig.at(100)
    st = rig.ok("state")
    assert st["result"] == "0-1" and st["protest_ms"] is None, st  # no wall time since the boot
    return rig, moved


def test_tk_p1_a_corrected_results_window_counts_from_the_end_of_the_game_after_a_reboot():
    rig, moved = _finished_and_corrected(0)
    assert not moved
    rig.ok("time.sync", wall_ms=WALL + 5000 + 600000)  # 10 min after the end of the game
    assert rig.ok("state")["protest_ms"] == 1200000
    unmount()


def test_tk_p1_the_window_counts_from_the_end_of_the_game_when_the_correction_is_in_a_newer_segment():
    rig, moved = _finished_and_corrected(SEGMENT_RECORDS)
    assert moved  # the boot finds the correction in the newest segment, the first result in the one before
    rig.ok("time.sync", wall_ms=WALL + 5000 + 600000)
    assert rig.ok("state")["protest_ms"] == 1200000
    unmount()
