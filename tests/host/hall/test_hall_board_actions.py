"""Every correction from the arbiter's seat, on one board, signed and in its clock's log: pause and
resume (the hall's pause logged as the host's, apart from a player's and START at the table; TK-C13,
TK-C15), adjust time, moves and stage (TK-C13), who moves first (in setup, TK-C5), adjourn and resume
(TK-A), late installation (TK-C11), the extension (TK-C14) and a match's referee actions. What the
hall does not take is refused in one line, and nothing reaches the clock. Real simulated clocks with
the hall's key (an unsigned action would be refused by them)."""

from __future__ import annotations

import os

import pytest
from hallkit import until

from sagat.hall.core import Hall, HallError
from sagat.hall.sims import Sims
from sagat.log import decode

KEY = bytes(range(32, 48))


def _board(hall, n):
    return next(b for b in hall.view()["boards"] if b["number"] == n)


def _events(out, n):
    (folder,) = [d for d in os.listdir(out) if d.startswith(f"board-{n:02d}-")]
    with open(os.path.join(out, folder, "records.bin"), "rb") as fh:
        log = decode.read_segments([("records.bin", fh.read())], [KEY], replay=True)
    assert not log.problems and not log.replay_problems, (log.problems, log.replay_problems)
    return [e for e in log.events if e.get("game") == log.games()[-1]]


@pytest.fixture
def hall2(tmp_path):
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=str(tmp_path / "logs"), discover=False)
    try:
        for n, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", n)
        until(lambda: len(hall.boards) == 2 and all(b["state"] and b["key_set"] for b in hall.view()["boards"]),
              60, "2 keyed sims up")
        yield hall, str(tmp_path / "logs")
    finally:
        hall.close()
        sims.close()


def test_a_games_corrections_from_the_hall_are_signed_and_logged(hall2):
    hall, out = hall2
    assert hall.set_up("600")["done"] == 2
    until(lambda: _board(hall, 1)["state"] == "setup", 30, "set up")
    assert hall.act(1, "first", {"side": "right"})["done"] == 1  # who moves first, before the start
    until(lambda: _board(hall, 1)["running"] is None and hall.board(1).state.get("first") == "right", 30, "right first")
    hall.board(1).submit(lambda c: c.request("start", auth=True)).result(60)
    until(lambda: _board(hall, 1)["state"] == "running" and _board(hall, 1)["running"] == "right", 30, "right runs")
    assert hall.act("1", "pause")["done"] == 1
    until(lambda: _board(hall, 1)["state"] == "paused", 30, "paused")
    rep = hall.act(1, "adjust", {"side": "left", "ms": 420000, "moves": 12, "stage": 1})
    assert rep["done"] == 1, rep
    until(lambda: _board(hall, 1)["faces"]["left"]["moves"] == 12, 30, "adjusted")
    assert _board(hall, 1)["faces"]["left"]["text"] == "7:00"
    assert hall.act(1, "adjourn")["done"] == 1  # TK-A1
    until(lambda: _board(hall, 1)["state"] == "adjourned", 30, "adjourned")
    assert hall.act(1, "resume_adjourned")["done"] == 1  # TK-A4
    until(lambda: _board(hall, 1)["state"] == "running", 30, "resumed")
    rep = hall.act(1, "extend")  # TK-C14 needs a flag down: the clock says so
    assert rep["failed"] == 1 and "refused" in rep["boards"][1]["text"], rep
    assert hall.act(1, "pause")["done"] == 1
    until(lambda: _board(hall, 1)["state"] == "paused", 30, "paused")
    assert hall.act(1, "resume")["done"] == 1
    until(lambda: _board(hall, 1)["state"] == "running", 30, "running")
    assert hall.result(1, "1-0")["done"] == 1
    until(lambda: _board(hall, 1)["pull"]["state"] == "verified", 30, "pulled and verified")
    evs = _events(out, 1)
    kinds = [e["type"] for e in evs if e["type"] not in ("checkpoint", "settings")]
    assert kinds == ["game_start", "pause", "adjust", "adjourn", "resume_adjourned", "pause", "resume", "result"], kinds
    assert [e["by"] for e in evs if e["type"] == "pause"] == ["host", "host"]  # the hall's, not a player's
    adjust = next(e for e in evs if e["type"] == "adjust")
    assert adjust["side"] == "left" and adjust["after"]["ms"] == 420000 and adjust["after"]["moves"] == 12
    # TK-C11 on board 2, in setup: 10 min played without a clock; each side keeps at least 15 min or
    # its whole first stage (600 s here): a late installation the clock takes, and one it refuses once started
    assert hall.act(2, "late_install", {"elapsed_ms": 600000})["done"] == 1
    assert _board(hall, 2)["faces"]["left"]["text"] == "10:00"
    hall.board(2).submit(lambda c: c.request("start", auth=True)).result(60)
    until(lambda: _board(hall, 2)["state"] == "running", 30, "board 2 running")
    rep = hall.act(2, "late_install", {"elapsed_ms": 600000})
    assert rep["failed"] == 1 and "before the clock is started" in rep["boards"][2]["text"], rep


def test_what_the_hall_does_not_take_never_reaches_the_clock(hall2):
    hall, _out = hall2
    before = _board(hall, 1)
    for cmd, args, why in (("new", {}, "not an action for a game"), ("key.set", {}, "not an action"),
                           ("score", {"side": "left", "points": 4}, "not an action for a game"),
                           ("adjust", {"side": "left", "ms": 1, "evil": 1}, "not evil"),
                           ("adjust", {"side": "left", "ms": [1]}, "a number or a short word"),
                           ("pause", {"by": "left"}, "takes nothing, not by")):
        with pytest.raises(HallError, match=why):
            hall.act(1, cmd, args)
    with pytest.raises(HallError, match="no board 9"):
        hall.act(9, "pause")
    with pytest.raises(HallError, match="belongs to hall annex"):
        hall.act("annex:1", "pause")
    assert hall.last_action is None
    assert _board(hall, 1)["state"] == before["state"]


def test_a_match_boards_referee_actions_from_the_hall(hall2):
    hall, _out = hall2
    hall.board(2).submit(lambda c: c.request("new", auth=True, mode="kokboru")).result(60)  # set up at the field
    until(lambda: _board(hall, 2)["mode"] == "kokboru", 30, "a kok-boru match")
    with pytest.raises(HallError, match="not an action for a match"):
        hall.act(2, "extend", {})
    with pytest.raises(HallError, match="adjust takes ms, not side"):  # a match's adjust: its period's clock
        hall.act(2, "adjust", {"side": "left", "ms": 1000})
    for cmd, args in (("start", {}), ("score", {"side": "left", "points": 1}), ("score", {"side": "left", "points": 1}),
                      ("card", {"side": "right", "kind": "warning"}), ("stoppage", {}), ("resume", {}), ("undo", {})):
        rep = hall.act(2, cmd, args)
        assert rep["done"] == 1, (cmd, rep)
    # the undo took back the last card (the referee's mistake); the two points stand
    m = until(lambda: _board(hall, 2)["match"]["right"]["warnings"] == 0 and _board(hall, 2)["match"], 30, "undone")
    assert m["left"]["score"] == 2, m
    assert hall.act(2, "result", {"winner": "left"})["done"] == 1
    until(lambda: _board(hall, 2)["match"]["winner"] == "left", 30, "the referee's result")
