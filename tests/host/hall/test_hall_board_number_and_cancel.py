"""Every clock on its board, and a start that can be taken back. Set up all gives each clock its board
number (signed; the clock keeps it in its settings, names it in identify and shows `BOARD 2` at setup);
**identify** makes a board's clock blink and beep; Pause all cancels the round's start while it is
being armed: during the arming (a Start round still syncing stops before it arms) and after it (every
board armed for an instant still to come is disarmed). Real simulated clocks with the hall's key."""

from __future__ import annotations

import threading
import time

from hallkit import until

from sagat.hall import boards as HB
from sagat.hall.core import Hall
from sagat.hall.sims import Sims

KEY = b"board numbers key"
# an armed start's lead: Pause all must reach both clocks before the instant, however long a loaded
# machine takes to arm them, show them armed and disarm them (the product's 1.5 s is the hall's own)
LEAD_MS = 10000


def _board(hall, n):
    return next(b for b in hall.view()["boards"] if b["number"] == n)


def _hall(tmp_path, n=2):
    sims = Sims(n, str(tmp_path / "sims"))
    hall = Hall(key=KEY, discover=False)
    for i, port in enumerate(sims.start(), 1):
        hall.add(port, "sim", i)
    until(lambda: len(hall.boards) == n and all(b["state"] and b["key_set"] for b in hall.view()["boards"]), 60,
          "keyed sims up")
    return sims, hall


def test_set_up_all_gives_each_clock_its_board_number_and_identify_finds_it(tmp_path):
    sims, hall = _hall(tmp_path)
    try:
        assert hall.set_up("300")["done"] == 2
        for n in (1, 2):
            b = until(lambda n=n: _board(hall, n)["message"] == f"BOARD {n}" and _board(hall, n), 30, "shown")
            assert b["state"] == "setup"
            ident = hall.board(n).submit(lambda c: c.request("identify")).result(60)
            assert ident["number"] == n  # the clock's own number now: the hall finds it on any port
            assert hall.board(n).settings["board"] == n
        rep = hall.locate("2")
        assert rep["done"] == 1 and rep["boards"][2]["text"] == "blinking for 5 s", rep
        until(lambda: hall.board(2).state.get("locating") is True, 30, "board 2's clock blinking")
        assert not hall.board(1).state.get("locating")
    finally:
        hall.close()
        sims.close()


def test_pause_all_cancels_an_armed_start(tmp_path):
    sims, hall = _hall(tmp_path)
    try:
        assert hall.set_up("300")["done"] == 2
        until(lambda: all(b["state"] == "setup" for b in hall.view()["boards"]), 30, "set up")
        rep = hall.start_round(lead_ms=LEAD_MS)
        assert rep["done"] == 2 and all(b["armed"] for b in until(lambda: all(
            b["armed"] for b in hall.view()["boards"]) and hall.view()["boards"], 30, "armed")), rep
        rep = hall.pause_all()
        assert HB.host_ms() < hall.round["target"], "paused after the instant: the test's lead was too short"
        assert [rep["boards"][n] for n in (1, 2)] == [{"ok": True, "text": "start cancelled"}] * 2, rep
        # past the round's instant: nobody started
        until(lambda: HB.host_ms() > hall.round["target"] + 1000, LEAD_MS / 1000 + 60, "past the instant")
        boards = hall.view()["boards"]
        assert [(b["state"], b["armed"]) for b in boards] == [("setup", False)] * 2, boards
        assert hall.view()["round"]["cancelled"] == [1, 2]
    finally:
        hall.close()
        sims.close()


def test_pause_all_during_the_arming_stops_it_before_it_arms(tmp_path, monkeypatch):
    sims, hall = _hall(tmp_path)
    # each link's sync waits for Pause all to be pressed: the start round is still syncing when it
    # comes, however fast the links or slow this test's thread (before, a loaded machine could let
    # the arming finish before the test pressed Pause all)
    burst = HB.BoardLink.burst

    def held(self, clock, *args):
        assert hall.cancel_start.wait(60), "Pause all never pressed"
        return burst(self, clock, *args)

    monkeypatch.setattr(HB.BoardLink, "burst", held)
    try:
        assert hall.set_up("300")["done"] == 2
        until(lambda: all(b["state"] == "setup" for b in hall.view()["boards"]), 30, "set up")
        started = {}
        t = threading.Thread(target=lambda: started.update(hall.start_round(lead_ms=1500)))
        hall.cancel_start.clear()
        t.start()
        until(lambda: hall.acting.locked(), 60, "the start round arming")
        rep = hall.pause_all()  # never "busy": it waits for the arming it cancels
        t.join(60)
        assert rep["what"] == "pause all" and started["done"] == 0, (started, rep)
        assert all("cancelled the start" in v["text"] for v in started["boards"].values()), started
        time.sleep(2.0)  # (past the instant it would have had: nobody started)
        assert [b["state"] for b in hall.view()["boards"]] == ["setup", "setup"]
    finally:
        hall.close()
        sims.close()
