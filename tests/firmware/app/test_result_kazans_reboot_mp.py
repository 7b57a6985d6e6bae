# After a power cut the finished game's result comes back with its final kazans (TK-R7) and its wall time, from
# which TK-P1's protest window counts on once the host has synced the clock again: the App and its protocol on
# littlefs (the MicroPython unix port).
import gc

from flash import Flash, mount, unmount
from protocolrig import Rig

WALL = 1718000000000


def test_tk_r7_tk_p1_the_kazans_and_the_protest_window_survive_a_power_cut():
    unmount()
    gc.collect()
    f = Flash(blocks=64)
    mount(f, fresh=True)
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="300")
    rig.ok("time.sync", wall_ms=WALL)
    rig.ok("start")
    rig.at(10000)
    rig.ok("result", result="1-0", left_kazan=84, right_kazan=60)
    rig.at(11000)
    st = rig.ok("state")
    assert st["kazans"] == [84, 60] and st["protest_ms"] == 1800000 - 1000, st
    unmount()
    gc.collect()
    mount(f)
    rig = Rig(fresh=False)  # rebooted: the next game set up, the finished one's code and result on the faces
    rig.at(100)
    st = rig.ok("state")
    assert st["result"] == "1-0" and st["kazans"] == [84, 60], st
    assert st["protest_ms"] is None  # no wall time since the boot: nothing
    rig.ok("time.sync", wall_ms=WALL + 10000 + 600000)  # the host syncs 10 min after the result
    assert rig.ok("state")["protest_ms"] == 1200000
    rig.ok("new", tc="300")  # the next game: the last one's result leaves
    st = rig.ok("state")
    assert st["kazans"] is None and st["protest_ms"] is None
    unmount()
