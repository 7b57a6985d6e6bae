# A result in SETUP on the app and the protocol over littlefs: a result entered while the clock is
# in SETUP (protocol `result`, or the on-clock menu) is logged at t = 0 with the wall time of the
# instant it was entered, so the 30-minute protest window (TK-P1) starts at the right time.
from flash import unmount
from protocolrig import Rig

from sagatfw.engine import clock as C
from sagatfw.log import boot as journalboot
from sagatfw.log.read import iso_utc

WALL = 1718000000000  # Unix ms at the time sync
UPTIME = 7200000  # the board has been on for 2 h when the result is entered


def _last(rig, kind):
    got = [e for e in journalboot.game_events(rig.app.journal) if e["type"] == kind]
    assert got, kind
    return got[-1]


def test_protocol_result_in_setup_has_t0_and_the_wall_time_of_its_instant():
    rig = Rig()
    rig.at(1000)
    rig.ok("time.sync", wall_ms=WALL)  # at uptime 1 s
    rig.at(UPTIME)
    assert rig.app.clock.state == C.SETUP
    r = rig.ok("result", result="-/+")
    assert r["state"] == "finished" and r["t"] == 0
    ev = _last(rig, "result")
    assert ev["t"] == 0 and ev["result"] == "-/+"
    ms = WALL + UPTIME - 1000
    assert ev["wall"] == iso_utc(ms // 1000, ms % 1000), ev["wall"]
    setup = _last(rig, "settings")  # the game's setup record, logged with the result
    assert setup["t"] == 0 and setup["wall"] == ev["wall"]
    rig.at(UPTIME + 60000)
    rig.ok("settings.set", values={"sound": False})  # a record after the result: t from the result on
    s = [e for e in journalboot.game_events(rig.app.journal) if e["type"] == "settings"][-1]
    assert s["t"] == 60000, s["t"]
    unmount()
