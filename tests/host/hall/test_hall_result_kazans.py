"""The final kazans entered with a game's result from the hall (TK-R7: the hall reads "82-79", the clock checks
the sense) are on its board in the hall's view beside the result (the clock's `state`), and a clock that sends
counts that make no sense (a forged or broken `state`) shows none. A real simulated clock over its pseudo-terminal."""

from __future__ import annotations

import pytest
from hallkit import until

from sagat.hall.core import Hall, HallError
from sagat.hall.sims import Sims
from sagat.hall.tile import _kazans_of

KEY = bytes(range(1, 17))


def _board(hall, n):
    return next(b for b in hall.view()["boards"] if b["number"] == n)


def test_tk_r7_the_kazans_are_on_the_board_beside_the_result(tmp_path):
    sims = Sims(1, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=str(tmp_path / "logs"), discover=False)
    try:
        for n, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", n)
        until(lambda: _board(hall, 1)["state"], 60, "the sim up")
        assert hall.set_up("300")["done"] == 1
        until(lambda: _board(hall, 1)["state"] == "setup", 30, "set up")
        hall.board(1).submit(lambda c: c.request("start", auth=True)).result(60)
        for bad in ("82", "a-b", "1000-1"):
            with pytest.raises(HallError, match="two counts"):
                hall.result(1, "0-1", bad)
        said = hall.result(1, "0-1", "90-61")  # the clock refuses: left has more than 81 (TK-R1, TK-R7)
        assert said["done"] == 0 and "left wins" in said["boards"][1]["text"], said
        assert hall.result(1, "0-1", "61-90")["done"] == 1
        b = until(lambda: _board(hall, 1)["result"] and _board(hall, 1), 30, "the result shown")
        assert b["result"] == "0-1" and b["kazans"] == [61, 90], b
    finally:
        hall.close()
        sims.close()


def test_tk_r1_a_clocks_kazans_that_make_no_sense_show_none():
    for bad in ([100, 63], [163, 0], ["82", 79], [82], None, "82-79", [True, 0], [-1, 5]):
        assert _kazans_of({"kazans": bad}) is None, bad
    assert _kazans_of({"kazans": [82, 80]}) == [82, 80]
