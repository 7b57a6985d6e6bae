"""`sagat report` sends the round on: round.trf for the pairing program (read back by a TRF reader
written from the spec, tests/kits/trfkit.py), round.csv with the results table, a PGN per game (read by
python-chess, its clock comments equal to the log's press records), and the event, the round and the
date on every page; from a CSV's pairings, from the pairing program's own TRF (its round updated), and
from the hall's round.json (nothing typed twice). A game the simulator played in virtual time."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil

import chess.pgn
import pytest
from played import played_game
from trfkit import read_trf

from sagat.cli import main
from sagat.log import decode

EVENT = "Қазақстан чемпионаты"
LEFT, RIGHT = "Асель Нурланқызы", "Бекзат Ержанұлы"


@pytest.fixture(scope="module")
def round_dir(tmp_path_factory):
    """The hall's folder of a round: board 3's clock pulled (a 0-1 with 10 moves), boards 1, 2 none."""
    folder = tmp_path_factory.mktemp("round")
    played_game(str(folder))
    return folder


def _pairings(folder):
    path = folder / "pairings.csv"
    path.write_text(f"board,left,right\n1,Ержан,Мирас\n2,Айгерім,Дәулет\n3,{LEFT},{RIGHT}\n", encoding="utf-8")
    return str(path)


def _presses(folder):
    with open(folder / "logs" / "board-03-sim" / "records.bin", "rb") as fh:
        log = decode.read_segments([("records.bin", fh.read())], [], replay=True)
    return [e for e in log.events if e["type"] == "press"]


def _hms(ms):
    s, ms = divmod(ms, 1000)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" + (f".{ms:03d}".rstrip("0") if ms else "")


def test_the_round_goes_out_as_trf_csv_and_pgn(round_dir, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["report", str(round_dir / "logs"), "--pairings", _pairings(round_dir), "--event", EVENT,
                 "--round", "2", "--date", "2026-12-07", "--site", "Түркістан", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "round.csv, round.trf, 1 PGN" in said, said
    # the pairing program's file: every paired player, this round's opponent, colour and result
    tags, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    assert tags["012"] == [EVENT] and any("26/12/07" in x for x in tags["132"]), tags
    byname = {p["name"]: p for p in players.values()}
    assert set(byname) == {"Ержан", "Мирас", "Айгерім", "Дәулет", LEFT, RIGHT}
    asel, bekzat = byname[LEFT], byname[RIGHT]
    num = {p["name"]: n for n, p in players.items()}
    # the game: first = left, so the left player had White (бастаушы); 0-1: the right player won
    assert asel["rounds"][1] == (num[RIGHT], "w", "0") and bekzat["rounds"][1] == (num[LEFT], "b", "1"), players
    assert asel["points"] == 0 and bekzat["points"] == 1
    assert byname["Ержан"]["rounds"][1] == (num["Мирас"], "w", " ")  # no log: paired, no result
    # the table as CSV
    rows = list(csv.DictReader(io.StringIO((out / "round.csv").read_text(encoding="utf-8"))))
    assert [(r["board"], r["left"], r["result"], r["log"]) for r in rows] == [
        ("1", "Ержан", "", "no log"), ("2", "Айгерім", "", "no log"), ("3", LEFT, "0-1", "chain intact, "
                                                                       "authorship unproven")]
    assert rows[2]["clock"] == "sim" and rows[2]["game"] == "1"
    # the game's clock record, read by python-chess's PGN reader
    (name,) = [f for f in os.listdir(out) if f.endswith(".pgn")]
    text = (out / name).read_text(encoding="utf-8")
    game = chess.pgn.read_game(io.StringIO(text))
    h = game.headers
    assert (h["Event"], h["Site"], h["Date"], h["Round"], h["White"], h["Black"], h["Result"]) == (
        EVENT, "Түркістан", "2026.12.07", "2", LEFT, RIGHT, "0-1")
    clocks = re.findall(r"\[%clk ([0-9:.]+)\]", text)
    presses = _presses(round_dir)
    assert len(clocks) == len(presses) == 10
    for got, e in zip(clocks, presses, strict=True):
        assert got == _hms(e[f"{e['side']}_ms"]), (got, e)
    # the pages carry the event, the round and the date
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f"{EVENT} &middot; round 2 &middot; 2026-12-07" in index
    page = (out / "board-03-sim-game-1.html").read_text(encoding="utf-8")
    assert f"{EVENT} &middot; round 2" in page and name in page


def test_the_pairing_programs_trf_comes_in_and_goes_out_with_the_round(round_dir, tmp_path, capsys):
    # the pairing program's file: round 1 played, round 2 paired (board order by its rules); the
    # report reads round 2's pairings from it and writes it back with round 2's results
    from trfkit import player_line

    lines = ["012 " + EVENT, "042 2026/12/06",
             player_line(1, "Ержан", 1.0, [(4, "w", "1"), (2, "b", " ")]),
             player_line(2, LEFT, 1.0, [(3, "b", "1"), (1, "w", " ")]),
             player_line(3, RIGHT, 0.0, [(2, "w", "0"), (4, "b", " ")]),
             player_line(4, "Мирас", 0.0, [(1, "b", "0"), (3, "w", " ")])]
    src = tmp_path / "event.trf"
    src.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    logs_dir = tmp_path / "logs"
    shutil.copytree(round_dir / "logs", logs_dir)
    os.rename(logs_dir / "board-03-sim", logs_dir / "board-01-sim")  # the clock on board 1
    out = tmp_path / "report"
    assert main(["report", str(logs_dir), "--pairings", str(src), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "round.trf" in said and "1 paired board with no log (2)" in said, said
    # round 2's pairings by the pairing program's order: board 1 the pair on 1 point, White (player 2,
    # LEFT) at the left face; the clock's 0-1 is Black's (Ержан's) win
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f"{LEFT} - Ержан" in index and f"Мирас - {RIGHT}" in index and "round 2" in index
    out_lines = (out / "round.trf").read_bytes().decode("utf-8").split("\r\n")
    tags, players = read_trf("\n".join(out_lines))
    assert tags["012"] == [EVENT] and tags["042"] == ["2026/12/06"]
    assert players[2]["rounds"] == [(3, "b", "1"), (1, "w", "0")] and players[2]["points"] == 1.0
    assert players[1]["rounds"] == [(4, "w", "1"), (2, "b", "1")] and players[1]["points"] == 2.0
    assert players[3]["rounds"] == [(2, "w", "0"), (4, "b", " ")]  # board 2: no log, still paired
    for n in (3, 4):  # the players whose game is not in: their lines as the pairing program wrote them,
        got, was = players[n]["line"], lines[n + 1]  # but for the rank (86-89), which follows the points
        assert got[:85] + got[89:] == was[:85] + was[89:], (got, was)
    assert [players[n]["rank"] for n in (1, 2, 3, 4)] == [1, 2, 3, 3]


def test_the_halls_folder_carries_the_round_to_the_report(round_dir, tmp_path, capsys):
    # `sagat hall --pairings FILE.trf --event ... --round 2`: its folder keeps the round (round.json)
    # and the pairing program's TRF; `sagat report FOLDER` then needs neither typed again
    from trfkit import player_line

    from sagat.hall.core import Hall
    from sagat.round import pairings as pairings

    src = tmp_path / "event.trf"
    src.write_bytes(("\r\n".join(["012 " + EVENT, player_line(1, LEFT, 0.0, [(2, "w", " ")]),
                                  player_line(2, RIGHT, 0.0, [(1, "b", " ")])]) + "\r\n").encode("utf-8"))
    pairs, source, rnd = pairings.load(str(src))
    assert pairs == {1: (LEFT, RIGHT)} and rnd == 1
    folder = tmp_path / "hall"
    hall = Hall(pairings=pairs, out_dir=str(folder), discover=False,
                event={"name": EVENT, "round": rnd, "date": "2026-12-07", "trf": str(src)})
    hall.save_round()
    shutil.copytree(round_dir / "logs" / "board-03-sim", folder / "board-01-sim")  # its board 1's pull
    src.unlink()  # (the report reads the hall's copy)
    out = tmp_path / "report"
    assert main(["report", str(folder), "--out", str(out)]) == 0
    assert "round.trf" in capsys.readouterr().out
    tags, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    assert tags["012"] == [EVENT]
    assert players[1]["rounds"] == [(2, "w", "0")] and players[2]["rounds"] == [(1, "b", "1")], players
    assert f"{EVENT} &middot; round 1 &middot; 2026-12-07" in (out / "index.html").read_text(encoding="utf-8")
