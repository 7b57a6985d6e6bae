# Issue 14's gaps on the real App over littlefs in RAM, with the protocol (MicroPython only):
#   - an undo that withdraws a result: the time since the result is the stoppage's (KB-16,
#     KT-4.5), in `state` and in the log;
import gc

from flash import unmount
from test_protocol import Rig


def _events(rig, kind=None):
    return [e for e in rig.app.journal.game_events() if kind is None or e["type"] == kind]


def test_an_undo_40_s_after_the_result_it_withdraws_logs_those_40_s_as_stopped_time_kb_16():
    rig = Rig()
    rig.ok("new", mode="kokboru", lead=3)
    rig.ok("start")
    rig.at(10000)
    st = rig.ok("score", side="left", points=4)  # a lead of 4 > 3 (KB-14): left wins at once
    assert st["state"] == "finished" and st["winner"] == "left" and st["why"] == "lead"
    rig.at(50000)  # the referee sees the mistake 40 s later
    st = rig.ok("undo")
    assert st["state"] == "stopped" and st["winner"] is None
    assert st["stoppage_ms"] == 40000 and st["stopped_ms"] == 40000  # the match was stopped meanwhile
    assert st["match_ms"] == 240000 - 10000  # and no match time was lost
    start = _events(rig, "stoppage_start")[-1]
    assert start["t"] == 50000 and start["length_ms"] == 40000 and start["stopped_ms"] == 40000
    rig.at(55000)
    st = rig.ok("resume")
    assert st["state"] == "running" and st["stopped_ms"] == 45000
    end = _events(rig, "stoppage_end")[-1]
    assert end["length_ms"] == 45000 and end["stopped_ms"] == 45000
    rig.at(240000 + 45000)  # the half ends at 4:00 of match time plus every stopped ms
    assert _events(rig, "period_end")[-1]["t"] == 285000
    gc.collect()
    unmount()
