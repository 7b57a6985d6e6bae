"""The result entered is on its board: the hall's view and /api/state give it as `result` beside the
code, from the clock's own state; a forfeit before the start (TK-R4, `-/-` both absent) is entered
from the hall; a wrong result is replaced from the hall (signed, logged: the last one counts, as on
the clock) and the log is pulled again, so the pulled log is the last result's; its protest window
stays the game's (TK-P1: from the end of the game, not from the correction). Real simulated clocks
over their pseudo-terminals."""

from __future__ import annotations

import os
import time

from hallkit import until

from sagat.hall.core import Hall
from sagat.hall.sims import Sims
from sagat.log import decode

KEY = bytes(range(1, 17))


def _board(hall, n):
    return next(b for b in hall.view()["boards"] if b["number"] == n)


def _pulled(out, n):
    (folder,) = [d for d in os.listdir(out) if d.startswith(f"board-{n:02d}-")]
    with open(os.path.join(out, folder, "records.bin"), "rb") as fh:
        log = decode.read_segments([("records.bin", fh.read())], [KEY], replay=True)
    return [e["result"] for e in log.events if e["type"] == "result"]


def test_results_are_on_the_boards_and_a_wrong_one_is_replaced(tmp_path):
    out = str(tmp_path / "logs")
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=out, discover=False)
    try:
        for n, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", n)
        until(lambda: all(b["state"] for b in hall.view()["boards"]) and len(hall.boards) == 2, 60, "2 sims up")
        assert hall.set_up("300")["done"] == 2
        until(lambda: all(b["state"] == "setup" for b in hall.view()["boards"]), 30, "set up")
        assert all(b["result"] is None for b in hall.view()["boards"])
        # board 2: neither player came (TK-R4)
        assert hall.result(2, "-/-")["done"] == 1
        b2 = until(lambda: _board(hall, 2)["result"] and _board(hall, 2), 30, "board 2's result shown")
        assert b2["result"] == "-/-" and b2["state"] == "finished" and b2["result_code"], b2
        # board 1: a game, a result, then the right one
        hall.board(1).submit(lambda c: c.request("start", auth=True)).result(60)
        until(lambda: _board(hall, 1)["state"] == "running", 30, "board 1 running")
        assert _board(hall, 1)["result"] is None
        assert hall.result(1, "1-0")["done"] == 1
        b1 = until(lambda: _board(hall, 1)["pull"]["state"] == "verified" and _board(hall, 1), 30, "pulled")
        first_code = b1["result_code"]
        assert b1["result"] == "1-0" and first_code in b1["pull"]["message"], b1
        assert _pulled(out, 1) == ["1-0"]
        assert hall.result("1", "0-1")["done"] == 1  # the arbiter's correction: the last one counts
        b1 = until(lambda: _board(hall, 1)["result"] == "0-1" and _board(hall, 1)["pull"]["state"] == "verified"
                   and _board(hall, 1)["result_code"] in _board(hall, 1)["pull"]["message"] and _board(hall, 1),
                   30, "the replaced result shown and its log pulled again")
        assert b1["result_code"] != first_code
        assert _pulled(out, 1) == ["1-0", "0-1"]  # both in the log, signed; the last counts
        assert [b["result"] for b in hall.view()["boards"]] == ["0-1", "-/-"]
    finally:
        hall.close()
        sims.close()


def test_set_up_all_keeps_the_last_games_verdict_and_protest_window_in_view(tmp_path):
    # TK-P1: a protest within 30 minutes of the result; the next game set up meanwhile must not hide
    # the last one's verdict and the time left of its window
    sims = Sims(1, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=str(tmp_path / "logs"), discover=False)
    try:
        (port,) = sims.start()
        hall.add(port, "sim", 1)
        until(lambda: _board(hall, 1)["state"], 60, "the sim up")
        assert hall.set_up("300")["done"] == 1
        until(lambda: _board(hall, 1)["state"] == "setup", 30, "set up")
        hall.board(1).submit(lambda c: c.request("start", auth=True)).result(60)
        until(lambda: _board(hall, 1)["state"] == "running", 30, "running")
        entered = time.monotonic()  # (the window runs from the result's entry: after this)

        def window_left(ms):
            """30 minutes less the time since the result was entered, however long a loaded machine took
            since (a second's slack: the clock's wall time, by which the window is kept, is synced)."""
            return 30 * 60000 - (time.monotonic() - entered) * 1000 - 1000 <= ms <= 30 * 60000

        assert hall.result(1, "1/2-1/2")["done"] == 1
        b = until(lambda: _board(hall, 1)["pull"]["state"] == "verified" and _board(hall, 1), 30, "verified")
        assert b["last_game"] is None and window_left(b["protest_ms"]), b["protest_ms"]
        assert hall.set_up("300")["done"] == 1  # the next game
        b = until(lambda: _board(hall, 1)["game"] == 2 and _board(hall, 1)["state"] == "setup" and _board(hall, 1),
                  30, "game 2 set up")
        assert b["pull"]["state"] == "idle" and b["protest_ms"] is None
        last = b["last_game"]
        assert last["game"] == 1 and last["pull"]["state"] == "verified", last
        assert window_left(last["protest_ms"]) and last["pull"]["message"].startswith("verified (code"), last
    finally:
        hall.close()
        sims.close()


def test_a_replaced_result_keeps_the_games_protest_window(tmp_path):
    # TK-P1: a protest within 30 minutes of the end of the game. An arbiter's correction of the
    # result (the last one counts) does not end the game again: its window is the game's, not a new one
    from sagat.hall.boards import host_ms

    sims = Sims(1, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=str(tmp_path / "logs"), discover=False)

    def window_end(code: str) -> tuple[float, float]:
        """When the board's window ends (host ms), as its view says once the log of the result with
        `code` is verified: within the two bounds (the view's own instant is between them)."""
        until(lambda: _board(hall, 1)["pull"]["state"] == "verified" and _board(hall, 1)["result_code"] == code
              and code in _board(hall, 1)["pull"]["message"], 30, f"result {code}'s log verified")
        before = host_ms()
        left = _board(hall, 1)["protest_ms"]
        after = host_ms()
        assert left is not None and 0 < left <= 30 * 60000, left
        return before + left, after + left + 1

    try:
        (port,) = sims.start()
        hall.add(port, "sim", 1)
        until(lambda: _board(hall, 1)["state"], 60, "the sim up")
        assert hall.set_up("300")["done"] == 1
        until(lambda: _board(hall, 1)["state"] == "setup", 30, "set up")
        hall.board(1).submit(lambda c: c.request("start", auth=True)).result(60)
        until(lambda: _board(hall, 1)["state"] == "running", 30, "running")
        assert hall.result(1, "1-0")["done"] == 1
        first = until(lambda: _board(hall, 1)["result_code"], 30, "the result's code")
        lo, hi = window_end(first)
        seen = host_ms()
        until(lambda: host_ms() > seen + 2000, 10, "2 s more")
        assert hall.result(1, "0-1")["done"] == 1  # the arbiter's correction, 2 s or more after the result
        code = until(lambda: _board(hall, 1)["result_code"] != first and _board(hall, 1)["result_code"], 30,
                     "the corrected result's code")
        lo2, hi2 = window_end(code)
        assert _board(hall, 1)["result"] == "0-1"
        # the same window: it ends when the first one's did (not 2 s or more later, from the correction);
        # a second's slack before it: it is kept by the first result's wall time, when the clock has it
        assert lo2 <= hi and hi2 >= lo - 1000, (lo, hi, lo2, hi2)
    finally:
        hall.close()
        sims.close()
