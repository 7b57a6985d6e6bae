"""No clock becomes a board silently, and a power cut at a table is never resumed unseen.

A clock swapped at the table (another uid answers on a board's port after its link came back: a
clock changed, or a new simulator on a reused /dev/pts) is a stranger: an alert on the board, and the
hall neither gives it the key, sets it up, starts it, resumes it nor enters its result until the
arbiter assigns it to the board. A clock that booted again with its game paused (a power cut,
TK-C18) is an alert on its board; the hall gives it the wall time again, and Resume all leaves it
paused unless the arbiter says to resume it too. The clocks are client.Clock's stand-in
(tests/kits/hallkit.py): its answers and its link are the test's."""

from __future__ import annotations

import pytest
from hallkit import RUNNING, Clocks, until

from sagat.hall import boards as HB
from sagat.hall import jobs
from sagat.hall.core import Hall, HallError

KEY = b"an arbiter key"


@pytest.fixture
def fast(monkeypatch):
    monkeypatch.setattr(HB, "RECONNECT_S", 0.1)


def _hall(monkeypatch, clocks, ports, source="port"):
    monkeypatch.setattr(HB.client, "Clock", clocks)
    hall = Hall(key=KEY, discover=False)
    for n, port in enumerate(ports, 1):
        hall.add(port, source, n)
    until(lambda: all(b["link"] == "up" and b["state"] for b in hall.view()["boards"]), 30, "boards up")
    return hall


def _board(hall, n):
    return next(b for b in hall.view()["boards"] if b["number"] == n)


def _swap(clocks, hall, port, uid):
    """Another clock on `port`: its link goes and comes back with `uid` answering."""
    clocks.idents[port] = {"uid": uid}
    clocks.cut.add(port)
    until(lambda: _board(hall, 1)["stranger"] == uid and _board(hall, 1)["link"] == "up", 30, "the swap seen")


def test_a_swapped_clock_is_a_stranger_the_hall_does_not_act_on_until_assigned(monkeypatch, fast):
    clocks = Clocks({"p1": dict(RUNNING, state="setup", tc="300"), "p2": dict(RUNNING, state="setup", tc="300")},
                    {"new": {"tc": "300"}, "result": {"state": "finished"}, "resume": {"state": "running"}})
    hall = _hall(monkeypatch, clocks, ["p1", "p2"])
    try:
        assert _board(hall, 1)["stranger"] is None and not _board(hall, 1)["alerts"]
        _swap(clocks, hall, "p1", "uid-other")
        b = _board(hall, 1)
        assert [a["kind"] for a in b["alerts"]] == ["stranger"], b["alerts"]
        assert "another clock on this port (uid-other; the board's was uid-p1)" in b["alerts"][0]["text"]
        clocks.asked.clear()
        report = hall.set_up("300")
        assert report["boards"][1] == {"ok": None, "text": jobs.STRANGER, "msg": jobs.STRANGER.msg} and \
            report["boards"][2]["ok"], report
        assert [p for p, cmd, _a, _auth in clocks.asked if cmd == "new"] == ["p2"]  # never set up
        report = hall.start_round(lead_ms=200)
        assert report["boards"][1] == {"ok": None, "text": jobs.STRANGER, "msg": jobs.STRANGER.msg}, report
        assert not any(p == "p1" for p, _c, _a, _auth in clocks.asked)  # no request of the hall's at all
        with pytest.raises(HallError, match="another clock on its port"):
            hall.result(1, "1-0")
        clocks.states["p1"] = dict(RUNNING, state="paused")
        until(lambda: _board(hall, 1)["state"] == "paused", 30, "board 1 paused")
        assert hall.resume_all()["boards"][1] == {"ok": None, "text": jobs.STRANGER, "msg": jobs.STRANGER.msg}
        # the arbiter checked the clock at the table: it is board 1's now, and the hall acts on it
        assert hall.assign("1")["done"] == 1
        assert _board(hall, 1)["stranger"] is None and not _board(hall, 1)["alerts"]
        report = hall.resume_all()
        assert report["boards"][1]["ok"] is True, report["boards"]
        with pytest.raises(HallError, match="no board 7"):
            hall.assign(7)
    finally:
        hall.close()


def test_a_stranger_on_a_simulators_port_never_gets_the_key(monkeypatch, fast):
    # the hall gives its key to its own simulated clocks; a new process on that /dev/pts is not one
    clocks = Clocks({"sim1": dict(RUNNING, state="setup")})
    clocks.idents["sim1"] = {"key_set": False}  # a fresh simulated clock: no key yet
    hall = _hall(monkeypatch, clocks, ["sim1"], source="sim")
    try:
        assert [(p, cmd) for p, cmd, _a, _auth in clocks.asked if cmd == "key.set"] == [("sim1", "key.set")]
        clocks.asked.clear()
        clocks.idents["sim1"] = {"key_set": False, "uid": "uid-intruder"}
        clocks.cut.add("sim1")
        until(lambda: _board(hall, 1)["stranger"] == "uid-intruder" and _board(hall, 1)["link"] == "up", 30, "swap")
        assert not [cmd for _p, cmd, _a, _auth in clocks.asked if cmd == "key.set"], clocks.asked
    finally:
        hall.close()


def test_a_power_cut_restore_is_an_alert_resynced_and_resumed_only_when_asked(monkeypatch, fast):
    clocks = Clocks({"p1": dict(RUNNING, state="running", time_synced=True),
                     "p2": dict(RUNNING, state="running", time_synced=True)},
                    {"pause": {"state": "paused"}, "resume": {"state": "running"}, "time.sync": {}})
    clocks.idents = {"p1": {"uptime_ms": 600000}, "p2": {"uptime_ms": 600000}}
    hall = _hall(monkeypatch, clocks, ["p1", "p2"])
    try:
        for b in hall.boards:
            b.synced = True  # (as start round leaves them)
        hall.pause_all()
        clocks.states = {p: dict(RUNNING, state="paused", time_synced=True) for p in ("p1", "p2")}
        # board 1's clock loses power: it boots again (uptime 2 s), its game restored, paused, no wall time
        clocks.states["p1"] = dict(RUNNING, state="paused", time_synced=False)
        clocks.idents["p1"] = {"uptime_ms": 2000}
        clocks.asked.clear()
        clocks.cut.add("p1")
        b = until(lambda: _board(hall, 1)["restored"] and _board(hall, 1), 30, "the restore seen")
        assert [a["kind"] for a in b["alerts"]] == ["restore"] and "TK-C18" in b["alerts"][0]["text"], b
        assert not _board(hall, 2)["restored"]
        syncs = until(lambda: [a for p, cmd, a, auth in clocks.asked if cmd == "time.sync" and p == "p1" and auth],
                      30, "the wall time given again")
        assert abs(syncs[0]["wall_ms"] / 1000 - __import__("time").time()) < 60
        clocks.states["p1"] = dict(RUNNING, state="paused", time_synced=True)
        # Resume all: the others run; the restored board stays paused unless the arbiter said so
        report = hall.resume_all()
        assert report["boards"][2]["ok"] is True
        assert report["boards"][1]["ok"] is None and "power cut" in report["boards"][1]["text"], report
        report = hall.resume_all(restored=True)
        assert report["boards"][1]["ok"] is True, report
        clocks.states["p1"] = dict(RUNNING, state="running", time_synced=True)  # (as the clock answers now)
        until(lambda: not _board(hall, 1)["restored"], 30, "the alert gone once it runs")
    finally:
        hall.close()


def test_a_strangers_or_a_number_clashs_finished_game_is_never_pulled_nor_acted_on(monkeypatch, fast, tmp_path):
    # a stranger's log, or that of a clock shown under another board's number, pulled into the board's
    # folder would be reported with the board's players: never pulled, and the hall does not act on it
    out = tmp_path / "logs"
    finished = dict(RUNNING, state="finished", result_code="123456")
    clocks = Clocks({"p1": dict(finished), "p2": dict(finished), "p3": dict(RUNNING)}, numbers={"p1": 5, "p2": 5})
    monkeypatch.setattr(HB.client, "Clock", clocks)
    hall = Hall(key=KEY, out_dir=str(out), discover=False)
    pulled = []
    monkeypatch.setattr(HB.pull, "pull", lambda clock, folder, progress=False: pulled.append(folder) or 1 / 0)
    try:
        for n, port in enumerate(("p1", "p2", "p3"), 1):
            hall.add(port, "port", n)
        until(lambda: all(b["link"] == "up" and b["state"] for b in hall.view()["boards"]), 30, "up")
        shown = until(lambda: next((b for b in hall.boards if b.port == "p2" and b.clash), None), 30, "the clash")
        assert shown.clash[1] and shown.number != 5
        pulled.clear()
        __import__("time").sleep(1.0)  # 4 polls of each board
        assert [f for f in pulled if f"board-{shown.number:02d}-" in f] == []
        for call in (lambda: hall.result(shown.number, "1-0"), lambda: hall.act(shown.number, "pause"),
                     lambda: hall.locate(shown.number)):
            with pytest.raises(HallError, match="this clock's number is 5"):
                call()
        # the stranger: on board 3's port another clock finishes a game
        clocks.states["p3"] = dict(finished)
        clocks.idents["p3"] = {"uid": "uid-other"}
        clocks.cut.add("p3")
        until(lambda: hall.board(3).stranger == "uid-other", 30, "the stranger")
        pulled.clear()
        __import__("time").sleep(1.0)
        assert [f for f in pulled if "board-03-" in f] == []
    finally:
        hall.close()


def test_a_corrections_numbers_and_side_are_checked_before_the_clock(monkeypatch):
    clocks = Clocks({"p1": dict(RUNNING, state="setup", tc="300")})
    hall = _hall(monkeypatch, clocks, ["p1"])
    try:
        for args, why in (({"side": "left", "ms": 10 ** 600}, "whole number 0..2147483647"),
                          ({"side": "left", "ms": -1}, "whole number 0..2147483647"),
                          ({"ms": 1000}, "adjust needs side: left or right"),
                          ({"side": "up", "ms": 1000}, "adjust needs side: left or right")):
            with pytest.raises(HallError, match=why):
                hall.act(1, "adjust", args)
        with pytest.raises(HallError, match="first needs side: left or right"):
            hall.act(1, "first")
        assert not [cmd for _p, cmd, _a, _auth in clocks.asked if cmd in ("adjust", "new")]
    finally:
        hall.close()
