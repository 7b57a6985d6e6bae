"""Attacks on the hall, each as it was done:
a clock answering garbage (the other boards go on; the bad one says so), a clock's uid used as a
path and a `$` in a report's title, "verified" without a key, Unicode digits in the pairings and in
a board's number, and actions the page hides (a result for a match, two starts at once)."""

from __future__ import annotations

import json
import os
import shutil
import threading
import urllib.parse

import pytest
from hallkit import FACE, RUNNING, Clocks
from hallkit import until as _until

from sagat import client
from sagat.cli import main
from sagat.hall import boards as HB
from sagat.hall import core, jobs
from sagat.hall.core import Hall, HallError
from sagat.round import pairings as pairings

GOOD = RUNNING


def _hall(monkeypatch, states, answers=None) -> Hall:
    monkeypatch.setattr(HB.client, "Clock", Clocks(states, answers))
    hall = Hall(discover=False)
    for n, port in enumerate(states, 1):
        hall.add(port, "port", n)
    return hall


# ------------------------------------------------------------ 5. a clock answers garbage

GARBAGE = {
    "ms-text": dict(GOOD, left=dict(FACE, ms="x")),
    "face-list": dict(GOOD, left=[1, 2]),
    "ms-nan": dict(GOOD, left=dict(FACE, ms=float("nan"))),
    "ms-huge": dict(GOOD, right=dict(FACE, ms=1e308)),
    "match-text": {"mode": "kokboru", "state": "running", "game": 1, "match_ms": "a",
                   "left": {"score": 1, "warnings": 0, "reds": 0}, "right": {"score": 0, "warnings": 0, "reds": 0}},
    "game-html": dict(GOOD, game="<img src=x onerror=alert(1)>"),
    "battery-html": dict(GOOD, battery="<img src=x onerror=alert(1)>"),
    "moves-html": dict(GOOD, left=dict(FACE, moves="<b>")),
    "warnings-many": {"mode": "kokboru", "state": "running", "game": 1, "match_ms": 1000,
                      "left": {"score": 1, "warnings": 10 ** 9, "reds": 0}, "right": {"score": 0}},
    "not-a-dict": [1, 2, 3],
}


def test_a_clock_answering_garbage_is_one_board_in_error_and_the_others_go_on(monkeypatch):
    states = {"good": dict(GOOD), **GARBAGE}
    hall = _hall(monkeypatch, states)
    try:
        def settled():
            v = hall.view()["boards"]
            return v if v[0]["link"] == "up" and v[0]["state"] and all(b["link"] == "error" for b in v[1:]) else None

        boards = _until(settled, 30, "the good board up, every garbage board in error")
        good = boards[0]
        assert good["faces"]["left"]["text"] == "1:00" and good["game"] == 2
        for b in boards[1:]:
            assert b["error"].startswith("the clock answered garbage"), b
            assert b["state"] is None and b["game"] is None and b["battery"] is None, b
            assert b["alerts"][0]["kind"] == "link"
        text = json.dumps(hall.view())
        assert "<img" not in text and "<b>" not in text and "1000000000" not in text
        assert all(len(b.get("faces", {}).get(s, {}).get("text") or "") < 12 for b in boards for s in ("left", "right"))
        # a board in error takes no action; the good one does
        rep = hall.pause_all()
        assert rep["boards"][1]["ok"] is True
        assert all(rep["boards"][n]["ok"] is not True for n in range(2, len(states) + 1))
        # and once the clock answers sense again, its board is up again
        states["ms-text"] = dict(GOOD)
        _until(lambda: hall.view()["boards"][1]["link"] == "up", 30, "up again once the answers make sense")
    finally:
        hall.close()


def test_one_boards_view_failing_leaves_the_others_on_the_page(monkeypatch):
    hall = _hall(monkeypatch, {"a": dict(GOOD), "b": dict(GOOD), "c": dict(GOOD)})
    try:
        _until(lambda: all(b["link"] == "up" and b["state"] for b in hall.view()["boards"]), 30, "3 boards up")

        tile = core.board_view

        def broken(link, pairing, now):  # (board 2's tile: a bug in it)
            if link is hall.board(2):
                raise TypeError("a bug in one board's view")
            return tile(link, pairing, now)

        monkeypatch.setattr(core, "board_view", broken)
        boards = hall.view()["boards"]
        assert [b["number"] for b in boards] == [1, 2, 3]
        assert boards[0]["link"] == boards[2]["link"] == "up" and boards[0]["faces"]["left"]["text"] == "1:00"
        assert boards[1]["link"] == "error" and boards[1]["error"] and boards[1]["alerts"]
        assert boards[1]["pull"] == {"state": "idle", "message": ""} and boards[1]["port"] == "b"
    finally:
        hall.close()


# -------------------------------------- 6. and 7. a hostile uid, a `$` in a title, no key

EVIL_UID = "/../../../x$\\frac{$"  # board-01-/../../../x: out of tmp/a/b/out into tmp/a


def test_a_hostile_uid_stays_in_out_and_an_unkeyed_log_is_not_called_verified(monkeypatch, tmp_path):
    from sagat.hall.sims import Sims

    real = client.Clock

    class Evil(real):
        def request(self, cmd, auth=False, **args):
            ans = super().request(cmd, auth, **args)
            return dict(ans, uid=EVIL_UID) if cmd == "identify" else ans

    monkeypatch.setattr(HB.client, "Clock", Evil)
    out = tmp_path / "a" / "b" / "out"
    sims = Sims(1, str(tmp_path / "sims"))
    hall = Hall(out_dir=str(out), discover=False)  # no key: the chain proves no authorship
    try:
        (port,) = sims.start()
        hall.add(port, "sim", 1)
        _until(lambda: hall.view()["boards"][0]["state"], 30, "the sim up")
        assert hall.set_up("2")["done"] == 1
        _until(lambda: hall.view()["boards"][0]["state"] == "setup", 30, "set up")
        hall.board(1).submit(lambda c: c.request("start")).result(60)
        _until(lambda: hall.view()["boards"][0]["faces"]["left"]["flag"], 30, "the flag falls")
        assert hall.result(1, "0-1")["done"] == 1
        b = _until(lambda: [b for b in hall.view()["boards"] if b["pull"]["state"] not in ("idle", "pulling")],
                   30, "the log pulled")[0]
        assert b["pull"]["state"] == "unkeyed", b["pull"]
        assert b["pull"]["message"] == f"chain intact, authorship unproven (code {b['result_code']})"
        assert "verified" not in json.dumps(b)
    finally:
        hall.close()
        sims.close()
    outside = [p for p in tmp_path.rglob("*") if p.is_file() and out not in p.parents
               and tmp_path / "sims" not in p.parents]
    assert outside == [] and not (tmp_path / "a" / "x$\\frac{$").exists()
    (folder,) = [f for f in os.listdir(out) if f != "round.json"]  # (the hall's round: round.folder.round_info)
    assert folder == "board-01-__________x__frac__"

    # the report: a folder named with `$`, `#` and `%2f` reports, and links right
    src = tmp_path / "src"
    label = "board-01-$\\frac{$#a%2fb?"
    shutil.copytree(out / folder, src / label)
    rep = tmp_path / "report"
    assert main(["report", str(src), "--out", str(rep)]) == 0
    index = (rep / "index.html").read_text(encoding="utf-8")
    href = index.split('<a href="')[1].split('"')[0]
    assert (rep / urllib.parse.unquote(href)).is_file(), href
    assert "#" not in href and "?" not in href
    assert "chain intact, authorship unproven" in index and "verified" not in index
    assert "class=unkeyed" in index
    page = (rep / urllib.parse.unquote(href)).read_text(encoding="utf-8")
    assert "chain intact, authorship unproven" in page
    img = page.split('<img src="')[1].split('"')[0]
    assert (rep / urllib.parse.unquote(img)).is_file(), img


# ------------------------------------------------------------------- 8. pairings

@pytest.mark.parametrize("board", ["\u00b2", "\u0661", "1.0", "0x1", "\uff11", "1234"])
def test_pairings_take_ascii_board_numbers_only(tmp_path, board):
    path = tmp_path / "pairs.csv"
    path.write_text(f"board,left,right\n{board},A,B\n", encoding="utf-8")
    with pytest.raises(pairings.PairingsError, match="is not a board number 1..999"):
        pairings.read(str(path))


def test_a_superscript_board_is_one_line_from_the_command(tmp_path, capsys):
    path = tmp_path / "pairs.csv"
    path.write_text("board,left,right\n\u00b2,a,b\n", encoding="utf-8")
    assert main(["report", str(tmp_path), "--pairings", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "is not a board number" in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------- 9. actions the page hides

def test_a_result_needs_a_game_of_the_clock_and_an_ascii_board_number(monkeypatch):
    # a forfeit before the start (TK-R4) and a wrong result replaced (the last one counts) are results
    # too; a match's result is the referee's (its own command), and a board not connected has none
    states = {"match": {"mode": "kokboru", "state": "running", "game": 1, "match_ms": 1000},
              "setup": dict(GOOD, state="setup"), "finished": dict(GOOD, state="finished"),
              "running": dict(GOOD), "paused": dict(GOOD, state="paused"), "flagged": dict(GOOD, state="flagged")}
    hall = _hall(monkeypatch, states, {"result": {"state": "finished"}})
    try:
        _until(lambda: all(b["link"] == "up" and b["state"] for b in hall.view()["boards"]), 30, "6 boards up")
        with pytest.raises(HallError, match="no game to enter a result for \\(a match\\)"):
            hall.result(1, "1-0")
        for bad in ("2-0", "1/2", "", "-/- "):
            with pytest.raises(HallError, match="result must be one of"):
                hall.result(3, bad)
        for n in (2, "3", "4", 5, "6"):  # the page's number as the route gives it (text), or a number
            assert hall.result(n, "-/-" if n == 2 else "1-0")["done"] == 1
        for bad in ("\uff13", "\u0663", "3.0", " 3", "03x", "", "1" * 400):
            with pytest.raises(HallError, match="no board"):
                hall.result(bad, "1-0")
    finally:
        hall.close()


def test_two_starts_at_once_one_is_told_busy(monkeypatch):
    gate = threading.Event()
    entered = threading.Event()

    def sync(port, args):
        entered.set()
        assert gate.wait(60)
        return {}

    # (a job's bound long enough for a loaded machine: before, 3 s, and the sync held at the gate was
    # cut off as "no answer in time" when this test's threads took that long to press Pause all)
    monkeypatch.setattr(jobs, "JOB_S", 60.0)
    hall = _hall(monkeypatch, {"a": dict(GOOD, state="setup", tc="420")}, {"time.sync": sync, "arm": {}})
    try:
        _until(lambda: hall.view()["boards"][0]["state"] == "setup", 30, "set up")
        hall.board(1).hall_tc = "420"  # as Set up all left it: start round starts only what this hall set up
        first = {}
        t = threading.Thread(target=lambda: first.update(rep=hall.start_round()))
        t.start()
        assert entered.wait(60)
        with pytest.raises(core.HallBusy, match="busy") as e:
            hall.start_round()
        assert e.value.status == 409 and isinstance(e.value, HallError)
        # Pause all is never busy: it cancels the start being armed, and waits for it to stop
        paused = {}
        p = threading.Thread(target=lambda: paused.update(rep=hall.pause_all()))
        p.start()
        _until(hall.cancel_start.is_set, 60, "Pause all pressed")
        gate.set()
        t.join(60)
        p.join(60)
        assert first["rep"]["what"] == "start round" and first["rep"]["done"] == 0, first
        assert "Pause all cancelled the start" in first["rep"]["boards"][1]["text"], first
        assert paused["rep"]["what"] == "pause all"
        assert hall.pause_all()["what"] == "pause all"  # free again
    finally:
        gate.set()
        hall.close()
