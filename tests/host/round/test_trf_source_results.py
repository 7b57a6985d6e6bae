"""A result the pairing program already entered in the round (a forfeit it knew of before the round)
and the clock's: the source's stays where the clock has none, the clock's wins where both have one and
they differ, and the report says so. The files are read back with tests/kits/trfkit.py (the spec's
columns and tag 162's scoring, not the module's)."""

import os
import shutil

import pytest
from played import played_game
from trfkit import player_line, points_by_results, read_trf, scores

from sagat.cli import main
from sagat.round import trf

NAMES = {1: "Нұрланұлы, Ерлан", 2: "Иванов, Пётр", 3: "Сейітқали, Асель", 4: "Смирнова, Ольга"}
# round 1 played (1-2 1-0, 3-4 a draw); round 2 paired 3-1 and 4-2, where the pairing program entered
# 2's absence (4 +, 2 -) and counted it in the points
ROUNDS = {1: [(2, "w", "1"), (3, "b", " ")], 2: [(1, "b", "0"), (4, "b", "-")],
          3: [(4, "w", "="), (1, "w", " ")], 4: [(3, "b", "="), (2, "w", "+")]}
POINTS = {1: 1.0, 2: 0.0, 3: 0.5, 4: 1.5}


def _source(tmp_path, rounds=ROUNDS, points=POINTS):
    lines = ["012 Кубок", *(player_line(n, NAMES[n], points[n], rounds[n]) for n in sorted(NAMES))]
    path = tmp_path / "paired.trf"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    return str(path)


def _games(board2):
    return [{"board": 1, "left": NAMES[3], "right": NAMES[1], "first": "left", "result": "0-1"},
            {"board": 2, "left": NAMES[4], "right": NAMES[2], "first": "left", "result": board2}]


def test_a_round_with_a_forfeit_entered_is_still_the_round_to_play(tmp_path):
    rnd, _names, numbers = trf.pairings(trf.read(_source(tmp_path)))
    assert rnd == 2 and numbers == {1: (3, 1), 2: (4, 2)}


def test_a_result_the_pairing_program_entered_stays_when_the_clock_has_none(tmp_path):
    t = trf.read(_source(tmp_path))
    alerts = []
    tags, players = read_trf(trf.write({"name": "x", "round": 2}, _games(None), source=t, alerts=alerts))
    assert players[4]["rounds"][1] == (2, "w", "+") and players[2]["rounds"][1] == (4, "b", "-")
    assert players[1]["rounds"][1] == (3, "b", "1") and players[3]["rounds"][1] == (1, "w", "0")
    assert {n: players[n]["points"] for n in NAMES} == {1: 2.0, 2: 0.0, 3: 0.5, 4: 1.5}
    for n in NAMES:  # what a pairing engine checks: the points are the results'
        assert players[n]["points"] == points_by_results(players[n], scores(tags)), n
    assert alerts == []


def test_a_clock_result_that_differs_from_the_sources_wins_and_is_told(tmp_path):
    t = trf.read(_source(tmp_path))
    alerts = []
    tags, players = read_trf(trf.write({"name": "x", "round": 2}, _games("0-1"), source=t, alerts=alerts))
    # 2 came after all and won at the board: the clock's 0-1 (White 4 lost), not the entered forfeit
    assert players[4]["rounds"][1] == (2, "w", "0") and players[2]["rounds"][1] == (4, "b", "1")
    assert (players[4]["points"], players[2]["points"]) == (0.5, 1.0)
    for n in NAMES:
        assert players[n]["points"] == points_by_results(players[n], scores(tags)), n
    assert alerts == [{"board": 2, "white": NAMES[4], "black": NAMES[2], "clock": "0-1", "source": "+/-"}]


def test_a_clock_result_the_source_already_has_is_no_alert(tmp_path):
    t = trf.read(_source(tmp_path))
    alerts = []
    _, players = read_trf(trf.write({"name": "x", "round": 2}, _games("+/-"), source=t, alerts=alerts))
    assert players[4]["rounds"][1] == (2, "w", "+") and players[4]["points"] == 1.5
    assert alerts == []


@pytest.fixture(scope="module")
def round_dir(tmp_path_factory):
    """A clock's pull: a 0-1 (the left player, who moved first, lost) with 10 moves."""
    folder = tmp_path_factory.mktemp("round")
    played_game(str(folder))
    return folder


def test_the_report_says_when_the_clocks_result_replaces_the_pairing_programs(round_dir, tmp_path, capsys):
    lines = ["012 Кубок", player_line(1, NAMES[1], 1.0, [(2, "w", "+")]),
             player_line(2, NAMES[2], 0.0, [(1, "b", "-")])]  # a forfeit entered before the game (the
    # round's only pair, so no round is still without results: the round is given)
    src = tmp_path / "event.trf"
    src.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    logs_dir = tmp_path / "logs"
    shutil.copytree(round_dir / "logs", logs_dir)
    os.rename(logs_dir / "board-03-sim", logs_dir / "board-01-sim")
    out = tmp_path / "report"
    assert main(["report", str(logs_dir), "--pairings", str(src), "--round", "1", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    line = next((ln for ln in said.splitlines() if "board 1" in ln and "+/-" in ln), None)
    assert line is not None and "0-1" in line and NAMES[1] in line and "round.trf" in line, said
    _, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    assert players[1]["rounds"] == [(2, "w", "0")] and players[1]["points"] == 0.0
    assert players[2]["rounds"] == [(1, "b", "1")] and players[2]["points"] == 1.0
    assert main(["report", str(logs_dir), "--pairings", str(src), "--round", "1", "--out", str(out), "--json"]) == 0
    import json

    figures = json.loads(capsys.readouterr().out)
    assert figures["trf_alerts"] == [{"board": 1, "white": NAMES[1], "black": NAMES[2], "clock": "0-1",
                                      "source": "+/-"}]
