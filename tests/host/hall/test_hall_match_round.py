"""A match round from the hall (docs/hall.md, "A match round"): Set up all with a mode gives each
board's clock a match with its pairing's names, kept in the clock's log after the setup record
(docs/match.md, "Names") and shown on the board's tile; the tile's match view carries the break's
countdown (KB-6, KT-4.4), the running stoppage (KB-16, KT-4.5) and the period's stopped time, the
time added back (KT-4.5). Real simulated clocks with the hall's key."""

from __future__ import annotations

import pytest
from hallkit import until

from sagat.hall.boards import garbage
from sagat.hall.core import Hall, HallError
from sagat.hall.sims import Sims
from sagat.hall.tile import _match_view

KEY = bytes(range(48, 64))


def _board(hall, n):
    return next(b for b in hall.view()["boards"] if b["number"] == n)


@pytest.fixture
def hall2(tmp_path):
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=str(tmp_path / "logs"), discover=False,
                pairings={1: ("Асан Үсөнов", "Usen Asanov"), 2: ("Team Ala-Too", "Team Issyk-Kul")})
    try:
        for n, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", n)
        until(lambda: len(hall.boards) == 2 and all(b["state"] and b["key_set"] for b in hall.view()["boards"]),
              60, "2 keyed sims up")
        yield hall
    finally:
        hall.close()
        sims.close()


def test_set_up_all_for_a_match_round_gives_each_clock_its_pairings_names_kb_5_kt_4_4(hall2):
    hall = hall2
    rep = hall.set_up("", "right", mode="kilithattu")
    assert rep["done"] == 2, rep
    assert "Team Ala-Too - Team Issyk-Kul" in rep["boards"][2]["text"]
    for n, pair in ((1, ["Асан Үсөнов", "Usen Asanov"]), (2, ["Team Ala-Too", "Team Issyk-Kul"])):
        b = until(lambda n=n: _board(hall, n)["mode"] == "kilithattu" and _board(hall, n), 30, "a kilithattu match")
        st = hall.board(n).state
        assert st["names"] == {"left": pair[0], "right": pair[1]} and st["options"]["first"] == "right"
        assert b["players"] == pair and b["match"]["period"] == "innings 1"
    # a kok-boru round takes no first: the clock is given none, and the names all the same
    rep = hall.set_up("", "left", mode="kokboru")
    assert rep["done"] == 2, rep["boards"]
    until(lambda: _board(hall, 1)["mode"] == "kokboru", 30, "a kok-boru bout")
    assert hall.board(1).state["names"] == {"left": "Асан Үсөнов", "right": "Usen Asanov"}
    with pytest.raises(HallError, match="mode must be"):
        hall.set_up("", "left", mode="polo")
    # and games again after the match round (a clock with a match set up takes a game's new)
    rep = hall.set_up("600")
    assert rep["done"] == 2, rep["boards"]
    until(lambda: _board(hall, 1)["mode"] == "game" and _board(hall, 1)["players"] == ["Асан Үсөнов", "Usen Asanov"],
          30, "a game with the pairing's players")


def test_the_match_tile_shows_the_running_stoppage_and_the_time_added_back_kb_16_kt_4_5(hall2):
    hall = hall2
    assert hall.set_up("", "left", mode="kokboru")["done"] == 2
    until(lambda: _board(hall, 2)["mode"] == "kokboru", 30, "a kok-boru bout")
    for cmd in ("start", "stoppage"):
        assert hall.act(2, cmd)["done"] == 1
    m = until(lambda: (_board(hall, 2)["match"].get("stoppage") or "0:00") >= "0:01" and _board(hall, 2)["match"],
              30, "a stoppage of a second")
    assert m["state"] == "stopped" and m["stopped"] and m["break"] is None
    assert hall.act(2, "resume")["done"] == 1
    m = until(lambda: _board(hall, 2)["match"]["state"] == "running" and _board(hall, 2)["match"], 30, "running")
    assert m["stoppage"] is None and m["stopped"] >= "0:01"  # the time added back stays on the tile


def test_the_match_view_has_the_breaks_countdown_kb_6_kt_4_4():
    st = {"mode": "kilithattu", "state": "break", "period_name": "innings 1", "match_ms": 0, "counts_up": False,
          "break_ms": 44200, "stoppage_ms": 0, "stopped_ms": 65000, "left": {"score": 3}, "right": {"score": 0},
          "names": {"left": "A", "right": "B"}}
    m = _match_view(st)
    assert m["break"] == "changeover 0:45" and m["stopped"] == "1:05" and m["stoppage"] is None
    assert m["names"] == ["A", "B"]
    m = _match_view(dict(st, mode="kokboru", break_ms=60000, stopped_ms=0, names=None))
    assert m["break"] == "rest 1:00" and m["stopped"] is None and m["names"] is None


def test_attack_a_clock_answering_garbage_names_or_times_is_not_shown():
    base = {"mode": "kokboru", "state": "running", "left": {"score": 1}, "right": {"score": 0}}
    assert garbage(dict(base, names={"left": "A", "right": "B"})) is None
    for bad in ("A", ["A", "B"], {"left": "A"}, {"left": 1, "right": "B"}, {"left": "A" * 500, "right": "B"}):
        assert garbage(dict(base, names=bad)) == "names", bad
    for k in ("break_ms", "stoppage_ms", "stopped_ms"):
        assert garbage(dict(base, **{k: "1:00"})) == k and garbage(dict(base, **{k: 10 ** 12})) == k
