"""Start round starts only the boards this hall set up for the round: a clock in setup that the
hall never set up (a clock just plugged in, its own default control; or one set up again at the
table with another control) is skipped with the reason, never started. Two simulated clocks."""

from hallkit import until as _until

from sagat.hall.core import Hall
from sagat.hall.sims import Sims


def test_start_round_skips_clocks_this_hall_did_not_set_up(tmp_path):
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(timeout=2.0)
    try:
        for n, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", n)
        hall.start()
        _until(lambda: all(b["state"] == "setup" for b in hall.view()["boards"]), 30, "both clocks up")
        rep = hall.start_round(lead_ms=300)  # in setup from their own boot: nobody here set them up
        assert rep["done"] == 0 and hall.round["armed"] == 0, rep
        for n in (1, 2):
            assert rep["boards"][n] == {"ok": None, "text": "not set up by this hall: Set up all first",
                                         "msg": {"key": "skip_not_by_this_hall"}}, rep
        assert hall.set_up("5")["done"] == 2
        hall.board(2).submit(lambda c: c.request("new", tc="600", first="left")).result(60)  # at the table
        _until(lambda: hall.view()["boards"][1]["faces"]["left"]["text"] == "10:00", 30, "board 2 set up again")
        # (a lead a loaded machine's arm always makes: one that came after the instant was refused)
        rep = hall.start_round(lead_ms=5000)
        assert rep["boards"][1]["ok"] is True and hall.round["armed"] == 1, rep
        assert rep["boards"][2] == {"ok": None, "text": "set up at the table since (600, not 5): Set up all first",
                                   "msg": {"key": "skip_set_up_at_table", "tc": "600", "mine": "5"}}
        _until(lambda: hall.view()["boards"][0]["state"] == "running", 60, "board 1 started")
        assert hall.view()["boards"][1]["state"] == "setup"  # never started
    finally:
        hall.close()
        sims.close()
