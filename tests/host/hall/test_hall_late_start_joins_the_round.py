"""A board started after the round (its clock set up late, then Start round again) is a late start
of the round: the round's instant and its measured spread stay the round's, and the late board has
its own start report. Before, the late start replaced the round, its spread that of one board."""

from hallkit import until

from sagat.hall.core import Hall
from sagat.hall.sims import Sims

# each start's lead: every arm reaches its clock before the instant, however long a loaded machine
# takes (an arm that came after it was refused, and the round started fewer boards)
LEAD_MS = 5000


def _running(hall, numbers):
    """Once the clocks have started (at their own ticks for the instant: a loaded machine's sync may
    put that a little after this PC's), as the hall's polls see them."""
    until(lambda: all(b["state"] == "running" for b in hall.view()["boards"] if b["number"] in numbers),
          LEAD_MS / 1000 + 60, f"boards {numbers} running")


def test_a_late_start_joins_the_round_and_keeps_its_spread(tmp_path):
    sims = Sims(3, str(tmp_path / "sims"))
    hall = Hall(timeout=2.0)
    try:
        ports = sims.start()
        for n, port in enumerate(ports[:2], 1):
            hall.add(port, "sim", n)
        until(lambda: len(hall.boards) == 2 and all(b["state"] for b in hall.view()["boards"]), 60, "2 up")
        assert hall.set_up("600")["done"] == 2
        until(lambda: all(b["state"] == "setup" for b in hall.view()["boards"]), 30, "set up")
        assert hall.start_round(lead_ms=LEAD_MS)["done"] == 2
        _running(hall, (1, 2))
        rnd = hall.measure_round()
        assert rnd["started"] == 2 and rnd["spread_ms"] is not None, rnd
        target, spread = rnd["target"], rnd["spread_ms"]
        # board 3 comes late: set up (the running boards are left alone), then started
        hall.add(ports[2], "sim", 3)
        until(lambda: len(hall.view()["boards"]) == 3 and hall.view()["boards"][2]["state"], 60, "board 3 up")
        rep = hall.set_up("600")
        assert rep["done"] == 1 and rep["boards"][3]["ok"], rep
        until(lambda: hall.view()["boards"][2]["state"] == "setup", 30, "board 3 set up")
        rep = hall.start_round(lead_ms=LEAD_MS)
        assert rep["done"] == 1 and rep["boards"][3]["ok"] and rep["skipped"] == 2, rep
        _running(hall, (3,))
        late = hall.measure_round()
        assert late["started"] == 1 and late["armed"] == 1, late
        rnd = hall.view()["round"]
        assert rnd["target"] == target and rnd["spread_ms"] == spread and rnd["armed"] == 2, rnd
        assert rnd["late"] == [late] and late["target"] > target
        start3 = hall.view()["boards"][2]["start"]
        assert start3["dev_ms"] is not None and start3["exact"] is True, start3
    finally:
        hall.close()
        sims.close()
