"""`sagat report` of the hall's folder (what `sagat hall` wrote: round.json, the pulled boards): the
report goes into that folder (`report/`) and its line says where; the round's date reaches each
round game's PGN with no --event or --round typed; a board's own folder finds the hall's round.json
beside it (its pairings: round.trf); the pairing program's TRF the hall kept, once gone, is said in one
line and the round goes on from round.json's pairings. A game the simulator played in virtual time
(tests/kits/played.py); the command run in process (tests/kits/simkit.py's cli)."""

from __future__ import annotations

import io
import os
import shutil

import chess.pgn
import pytest
from played import played_game
from simkit import cli
from trfkit import read_trf

from sagat.hall.core import Hall

LEFT, RIGHT = "Асель Нурланқызы", "Бекзат Ержанұлы"


@pytest.fixture(scope="module")
def pulled(tmp_path_factory):
    """Board 3's clock as the hall's pull leaves it (a 0-1 with 10 moves, a flag)."""
    folder = tmp_path_factory.mktemp("pulled")
    played_game(str(folder))
    return folder / "logs" / "board-03-sim"


def _hall(folder, pulled, pairings=None, event=None):
    """The hall's folder: its round.json as Hall.save_round writes it, and board 3's pull."""
    Hall(pairings=pairings or {}, out_dir=str(folder), discover=False, event=event or {}).save_round()
    shutil.copytree(pulled, folder / "board-03-sim")
    return folder


def _pgn(out):
    (name,) = [n for n in os.listdir(out) if n.endswith(".pgn")]
    return chess.pgn.read_game(io.StringIO((out / name).read_text(encoding="utf-8")))


def test_the_report_goes_into_the_halls_folder_and_its_line_says_where(pulled, tmp_path, capsys, monkeypatch):
    hall = _hall(tmp_path / "round-3", pulled, {3: (LEFT, RIGHT)}, {"round": 3, "date": "2026-12-07"})
    work = tmp_path / "elsewhere"
    work.mkdir()
    monkeypatch.chdir(work)
    code, out, err = cli(capsys, "report", str(hall))
    assert code == 0, err
    assert (hall / "report" / "index.html").is_file() and not os.listdir(work)
    (line,) = out.splitlines()
    assert os.path.join(str(hall), "report", "index.html") in line, line


def test_the_rounds_date_reaches_the_pgn_without_the_event_or_the_round(pulled, tmp_path, capsys):
    # a hall started with no pairings, no --event, no --round: round.json has its date alone
    hall = _hall(tmp_path / "hall", pulled, event={"date": "2026-12-07"})
    code, _out, err = cli(capsys, "report", str(hall), "--out", str(tmp_path / "r"))
    assert code == 0, err
    game = _pgn(tmp_path / "r")
    assert game.headers["Date"] == "2026.12.07" and game.errors == [], game.headers


def test_a_boards_folder_finds_the_halls_round_beside_it(pulled, tmp_path, capsys):
    hall = _hall(tmp_path / "hall", pulled, {3: (LEFT, RIGHT)}, {"name": "Кубок", "date": "2026-12-07"})
    out = tmp_path / "r"
    code, said, err = cli(capsys, "report", str(hall / "board-03-sim"), "--out", str(out))
    assert code == 0, err
    assert "round.trf" in said and "--pairings" not in said, said
    tags, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    assert tags["012"] == ["Кубок"] and {p["name"] for p in players.values()} == {LEFT, RIGHT}
    h = _pgn(out).headers
    assert (h["White"], h["Black"], h["Date"], h["Event"]) == (LEFT, RIGHT, "2026.12.07", "Кубок")


def test_the_pairing_programs_trf_gone_is_said_and_round_json_pairs_the_round(pulled, tmp_path, capsys):
    from trfkit import player_line

    src = tmp_path / "event.trf"
    src.write_bytes(("\r\n".join(["012 Кубок", player_line(1, LEFT, 0.0, [(2, "w", " ")]),
                                  player_line(2, RIGHT, 0.0, [(1, "b", " ")])]) + "\r\n").encode("utf-8"))
    hall = _hall(tmp_path / "hall", pulled, {3: (LEFT, RIGHT)}, {"name": "Кубок", "round": 1, "trf": str(src)})
    os.unlink(hall / "pairings.trf")  # the hall's copy of it, deleted since
    out = tmp_path / "r"
    code, said, err = cli(capsys, "report", str(hall), "--out", str(out))
    assert code == 0, err
    (note,) = err.strip().splitlines()
    assert os.path.join(str(hall), "pairings.trf") in note and "gone" in note, note
    tags, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    assert {p["name"] for p in players.values()} == {LEFT, RIGHT}
    assert "0-1" in (out / "index.html").read_text(encoding="utf-8")
