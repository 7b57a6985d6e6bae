"""A Start round's arming window: every board is armed for one instant still to come and waits for it
in setup. An action that would set a board up again there (`new`: Set up all, of games or of matches,
and who moves first) would drop its armed start: the action said "done" and the round ran without the
board (or board 1 waited while board 2 ran). Such an action leaves an armed board alone and says why
(Pause all cancels the start), and the round starts with every board. Real simulated clocks with the
hall's key."""

from __future__ import annotations

import pytest
from hallkit import until

from sagat.hall import boards as HB
from sagat.hall.core import Hall, HallError
from sagat.hall.sims import Sims

KEY = b"arming window key"
# the window: the action must reach both clocks before the instant, however long a loaded machine
# takes to arm them and show them armed (the product's 1.5 s is the hall's own)
LEAD_MS = 10000


@pytest.fixture
def armed_hall(tmp_path):
    """Two keyed simulated clocks, set up with 300 and armed by Start round for an instant LEAD_MS on."""
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(key=KEY, discover=False)
    try:
        for i, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", i)
        until(lambda: len(hall.boards) == 2 and all(b["state"] and b["key_set"] for b in hall.view()["boards"]), 60,
              "keyed sims up")
        assert hall.set_up("300")["done"] == 2
        until(lambda: all(b["state"] == "setup" for b in hall.view()["boards"]), 30, "set up")
        assert hall.start_round(lead_ms=LEAD_MS)["done"] == 2
        until(lambda: all(b["armed"] for b in hall.view()["boards"]), 30, "both armed")
        yield hall
    finally:
        hall.close()
        sims.close()


def _round_started_with_every_board(hall) -> list:
    """Past the round's instant: each board's state and control once both have left setup."""
    until(lambda: HB.host_ms() > hall.round["target"], LEAD_MS / 1000 + 60, "past the instant")
    boards = until(lambda: all(b["state"] != "setup" for b in hall.view()["boards"]) and hall.view()["boards"], 30,
                   "both boards started (one still in setup: the action dropped its armed start)")
    return [(b["state"], b["tc"]) for b in boards]


@pytest.mark.parametrize("what", ["games", "kokboru"])
def test_set_up_all_in_the_arming_window_leaves_every_armed_board_to_the_round(armed_hall, what):
    hall = armed_hall
    rep = hall.set_up("420") if what == "games" else hall.set_up("", mode="kokboru")
    assert HB.host_ms() < hall.round["target"], "set up after the instant: the test's lead was too short"
    assert rep["done"] == 0 and rep["skipped"] == 2, rep
    for n in (1, 2):
        assert rep["boards"][n]["ok"] is None, rep
        assert rep["boards"][n]["text"] == "armed to start with the round in a moment: left alone (Pause all " \
                                           "cancels the start)", rep
        assert rep["boards"][n]["msg"] == {"key": "skip_armed"}, rep
    assert _round_started_with_every_board(hall) == [("running", "300")] * 2


def test_who_moves_first_in_the_arming_window_is_refused_and_the_board_starts_with_the_round(armed_hall):
    hall = armed_hall
    with pytest.raises(HallError) as refused:
        hall.act("1", "first", {"side": "right"})
    assert HB.host_ms() < hall.round["target"], "asked after the instant: the test's lead was too short"
    why = refused.value.args[0]
    assert why == "board 1: armed to start with the round in a moment: who moves first is set before Start " \
                  "round (Pause all cancels the start)", why
    assert why.msg == {"key": "err_first_armed", "n": 1}
    assert _round_started_with_every_board(hall) == [("running", "300")] * 2
    # board 1 started as it was set up: left first, both boards at one instant
    assert [b["running"] for b in hall.view()["boards"]] == ["left", "left"]
