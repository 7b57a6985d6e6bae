# A new match mode is its engine module and one line in sagatfw.MODES: the count-up timer of
# tests/kits/countup.py, registered here, runs on the real App over littlefs in RAM, through the
# protocol, the log, a power cut and a reboot, with nothing in the firmware naming it
# (MicroPython only).
import sys

import countup
from flash import unmount
from protocolrig import Rig

from sagatfw.faces import matchfaces as MF
from sagatfw.log import boot as journalboot


def _events(rig, kind=None):
    return [e for e in journalboot.game_events(rig.app.journal) if kind is None or e["type"] == kind]


def _play_to_a_power_cut():
    rig = Rig()
    st = rig.ok("new", mode="countup", lead=3)
    assert st["mode"] == "countup" and st["options"] == {"lead": 3}, st
    assert st["state"] == "setup" and st["period_name"] == "time" and st["counts_up"] is True, st
    setup = _events(rig, "match")[0]
    assert setup["mode"] == "countup" and setup["lead"] == 3, setup
    rig.ok("start")
    rig.at(65000)
    assert rig.ok("state")["match_ms"] == 65000  # counting up from the start
    rig.at(70000)
    rig.ok("stoppage")
    rig.at(80000)
    rig.ok("resume")
    rig.at(90000)
    st = rig.ok("state")
    assert st["match_ms"] == 80000 and st["stopped_ms"] == 10000, st
    rig.ok("score", side="left", points=1)
    rig.err("score", "bad_arg", side="left", points=2)  # the mode's own rule: a point is 1
    rig.at(95000)
    rig.ok("score", side="right", points=1)
    rig.at(99000)
    rig.ok("score", side="left", points=1)
    return rig


def test_a_registered_count_up_mode_runs_logs_and_comes_back_after_a_power_cut():
    number = countup.register()
    try:
        rig = _play_to_a_power_cut()
        ev = _events(rig, "score")[-1]
        assert ev["mode"] == "countup" and ev["period_name"] == "time" and ev["left"] == 2, ev
        rig2 = Rig(fresh=False)  # the power goes at 99.5 s and comes back
        app = rig2.app
        assert app.match is not None and app.match.mode == number
        st = rig2.ok("state")
        assert st["mode"] == "countup" and st["state"] == "stopped", st  # a running period comes back stopped
        assert st["left"]["score"] == 2 and st["right"]["score"] == 1 and st["match_ms"] == 89000, st
        assert _events(rig2, "power_restore")
        rig2.at(1000)
        rig2.ok("resume")
        rig2.at(3000)
        rig2.ok("score", side="left", points=1)  # 3-1: a lead of 2
        faces = [MF.oled(app.match.m, s, None) for s in (0, 1)]
        assert faces[0] and faces[1]  # the match's faces draw it as any mode
        rig2.at(4000)
        assert rig2.ok("score", side="left", points=1)["state"] == "running"  # 4-1: a lead of 3 is not more than 3
        rig2.at(5000)
        st = rig2.ok("score", side="left", points=1)  # 5-1: more than 3 ends it (its rule)
        assert st["state"] == "finished" and st["winner"] == "left" and st["why"] == "lead", st
        rig3 = Rig(fresh=False)  # a finished match comes back from its result record
        st3 = rig3.ok("state")
        for k in ("mode", "state", "winner", "why", "left", "right", "options", "period_name"):
            assert st3[k] == st[k], (k, st3[k], st[k])
        rig3.ok("new", tc="300", first="left")  # a game: the mode's code leaves RAM with the match
        assert rig3.app.match is None and "countup" not in sys.modules
    finally:
        countup.unregister()
        unmount()


def test_a_mode_not_registered_is_refused_before_anything_changes():
    countup.unregister()
    rig = Rig()
    rig.ok("new", mode="kokboru", lead=8)
    r = rig.err("new", "bad_arg", mode="countup")
    assert "kokboru" in r["error"]["message"] and "countup" not in r["error"]["message"], r
    assert rig.ok("state")["mode"] == "kokboru"
    unmount()


def test_a_log_of_a_mode_this_firmware_lacks_is_a_clean_start_that_says_so():
    countup.register()
    try:
        _play_to_a_power_cut()
    finally:
        countup.unregister()  # the firmware that boots next has no count-up mode
    rig2 = Rig(fresh=False)
    assert rig2.app.match is None
    assert any("mode 2" in n for n in rig2.board.notes), rig2.board.notes
    assert rig2.ok("state")["state"] == "setup"  # the game clock, from the settings
    unmount()
