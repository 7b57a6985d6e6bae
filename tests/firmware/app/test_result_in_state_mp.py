# The result entered is in `state` (the hall shows it on its board): on the app and the protocol
# over littlefs (the MicroPython unix port). None until a result is entered; the last entered
# counts (a wrong entry replaced, as the log keeps both); a power cut keeps it (the restore replays
# the result); the next game's setup clears it. `-/-` is both players absent (TK-R4).
import gc

from flash import Flash, mount, unmount
from protocolrig import Rig

from sagatfw.log import boot as journalboot


def _fresh():
    unmount()
    gc.collect()
    f = Flash(blocks=64)
    mount(f, fresh=True)
    return f


def _reboot(f):
    unmount()
    gc.collect()
    mount(f)
    return Rig(fresh=False)


def _results(rig):
    return [e["result"] for e in journalboot.game_events(rig.app.journal) if e["type"] == "result"]


def test_state_gives_the_result_entered_and_the_last_one_counts_after_a_power_cut():
    f = _fresh()
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="300")
    assert rig.ok("state")["result"] is None
    rig.ok("start")
    rig.at(3000)
    assert rig.ok("state")["result"] is None  # running: no result yet
    rig.ok("result", result="1-0")
    assert rig.ok("state")["result"] == "1-0"
    rig.at(4000)
    rig.ok("result", result="0-1")  # a wrong entry replaced: the last one counts
    st = rig.ok("state")
    assert st["state"] == "finished" and st["result"] == "0-1", st
    rig.at(5000)
    assert _results(rig) == ["1-0", "0-1"]  # both logged
    code = rig.ok("state")["result_code"]
    rig = _reboot(f)
    rig.at(100)
    st = rig.ok("state")  # back with the next game set up, the finished one's code still on the faces
    assert st["result"] == "0-1" and st["result_code"] == code, st
    rig.ok("new", tc="300")  # the next game
    assert rig.ok("state")["result"] is None
    unmount()


def test_both_absent_is_a_result_of_its_own():
    """TK-R4: neither player appeared: both lose by forfeit, entered before the start."""
    f = _fresh()
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="300")
    rig.at(2000)
    r = rig.ok("result", result="-/-")
    assert r["state"] == "finished" and r["t"] == 0, r
    assert rig.ok("state")["result"] == "-/-"
    rig.at(3000)
    assert _results(rig) == ["-/-"]
    rig = _reboot(f)
    rig.at(100)
    assert rig.ok("state")["result"] == "-/-"
    unmount()


def test_a_result_that_is_no_result_is_refused_and_changes_nothing():
    _fresh()
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="300")
    rig.ok("start")
    rig.at(1000)
    for bad in ("0-0", "-/- ", "1/2", "", "2-0"):
        rig.err("result", "bad_arg", result=bad)
    st = rig.ok("state")
    assert st["state"] == "running" and st["result"] is None, st
    assert _results(rig) == []
    unmount()
