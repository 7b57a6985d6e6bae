"""The points of a result are tag 162's (TRF-2026: "Scoring point system for individuals", W D L A P X
with their points; the defaults 1, 1/2, 0, 0, as W, as D where it says none): the points round.trf
writes, the scores the boards are ordered by; a 162 that cannot be applied is refused in one line.
The points are checked as a pairing engine checks them: against the results, by tests/kits/trfkit.py."""

import pytest
from trfkit import player_line, points_by_results, read_trf, scores

from sagat.round import trf

S310 = "162  W 3.0    D 1.0    L 0.0    A 0.0"  # three points a win, one a draw (positions 6, 7-10, 15, ...)


def _file(tmp_path, lines, name="t.trf"):
    path = tmp_path / name
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    return str(path)


# round 1: 1-2 1-0, 3-4 a draw, 5 a pairing-allocated bye; round 2 paired 1-3, 4-5, 2 not paired
R = {1: [(2, "w", "1"), (3, "w", " ")], 2: [(1, "b", "0"), (0, "-", " ")], 3: [(4, "w", "="), (1, "b", " ")],
     4: [(3, "b", "="), (5, "w", " ")], 5: [(0, "-", "U"), (4, "b", " ")]}


def _three_one_nil(tmp_path):
    pts = {1: 3.0, 2: 0.0, 3: 1.0, 4: 1.0, 5: 3.0}  # the pairing program's, by 162
    return _file(tmp_path, ["012 Кубок", S310, *(player_line(n, f"P{n}", pts[n], R[n]) for n in R)])


def test_tag_162s_points_are_the_points_written(tmp_path):
    t = trf.read(_three_one_nil(tmp_path))
    games = [{"board": 1, "left": "P1", "right": "P3", "first": "left", "result": "1/2-1/2"},
             {"board": 2, "left": "P4", "right": "P5", "first": "left", "result": "1-0"}]
    tags, players = read_trf(trf.write({"name": "x", "round": 2}, games, source=t))
    assert tags["162"] == [S310[4:]]  # the source's line as it was
    assert {n: players[n]["points"] for n in R} == {1: 4.0, 2: 0.0, 3: 2.0, 4: 4.0, 5: 3.0}
    for n in R:
        assert players[n]["points"] == points_by_results(players[n], scores(tags)), n
    assert [players[n]["rank"] for n in sorted(R)] == [1, 5, 4, 1, 3]


def test_the_boards_are_ordered_by_tag_162s_scores(tmp_path):
    # before round 3: 1, 2, 5, 6 drew twice (1 point by default, 2 by 3-1-0); 3 won and lost (1; 3);
    # 4 lost twice; 7 won twice; 8 lost and won. By default 1-2 (sum 2) goes before 3-4 (sum 1); by
    # 3-1-0, 3-4 (3 points) before 1-2 (2)
    r = {1: [(5, "w", "="), (6, "b", "=")], 2: [(6, "w", "="), (5, "b", "=")], 3: [(4, "w", "1"), (7, "b", "0")],
         4: [(3, "b", "0"), (8, "b", "0")], 5: [(1, "b", "="), (2, "w", "=")], 6: [(2, "b", "="), (1, "w", "=")],
         7: [(8, "w", "1"), (3, "w", "1")], 8: [(7, "b", "0"), (4, "w", "1")]}
    r3 = {1: (2, "w"), 2: (1, "b"), 3: (4, "w"), 4: (3, "b"), 5: (6, "w"), 6: (5, "b"), 7: (8, "w"), 8: (7, "b")}
    table = {"W": 3.0, "D": 1.0, "L": 0.0, "A": 0.0}
    lines = [player_line(n, f"P{n}", sum(table[{"1": "W", "=": "D", "0": "L"}[x[2]]] for x in r[n]),
                         r[n] + [(*r3[n], " ")]) for n in r]
    _, _, numbers = trf.pairings(trf.read(_file(tmp_path, ["012 T", S310, *lines])))
    assert numbers == {1: (7, 8), 2: (3, 4), 3: (1, 2), 4: (5, 6)}
    _, _, numbers = trf.pairings(trf.read(_file(tmp_path, ["012 T", *lines], "default.trf")))
    assert numbers == {1: (7, 8), 2: (1, 2), 3: (5, 6), 4: (3, 4)}


def test_a_pairing_allocated_bye_counts_once_its_round_is_written(tmp_path):
    # round 2: 1-2 paired, 3 a pairing-allocated bye the pairing program has not counted yet (its points
    # are round 1's); 4 a half-point bye it has counted
    lines = ["012 T", player_line(1, "A", 1.0, [(3, "w", "1"), (2, "w", " ")]),
             player_line(2, "B", 0.5, [(4, "b", "="), (1, "b", " ")]),
             player_line(3, "C", 0.0, [(1, "b", "0"), (0, "-", "U")]),
             player_line(4, "D", 1.0, [(2, "w", "="), (0, "-", "H")])]
    t = trf.read(_file(tmp_path, lines))
    games = [{"board": 1, "left": "A", "right": "B", "first": "left", "result": "1-0"}]
    tags, players = read_trf(trf.write({"name": "x", "round": 2}, games, source=t))
    assert {n: players[n]["points"] for n in (1, 2, 3, 4)} == {1: 2.0, 2: 0.5, 3: 1.0, 4: 1.0}
    for n in (1, 2, 3, 4):
        assert players[n]["points"] == points_by_results(players[n], scores(tags)), n


def test_bbppairings_z_is_tag_162s_absence(tmp_path):
    # bbpPairings writes and reads the absence's points as Z (TRF-2026 says A)
    lines = ["012 T", "162  W 2.0    D 1.0    L 0.0    Z 0.0",
             player_line(1, "A", 2.0, [(2, "w", "+")]), player_line(2, "B", 0.0, [(1, "b", "-")])]
    t = trf.read(_file(tmp_path, lines))
    games = [{"board": 1, "left": "A", "right": "B", "first": "left", "result": "1/2-1/2"}]
    _, players = read_trf(trf.write({"name": "x", "round": 1}, games, source=t))
    assert (players[1]["points"], players[2]["points"]) == (1.0, 1.0)


BAD = [
    ("162  Q 1.0", "'Q' (position 6) is none of W, D, L, A, P, X"),
    ("162  W x.5", "W's points 'x.5' (positions 7-10) are not a number like 11.5"),
    ("162  W 3.0  D 1.0", "'D 1.0' at positions 11-14"),
    ("162  W 3.0    D 1.0    L -1.", "L's points '-1.'"),
    ("162", "no scoring at position 6"),
]


@pytest.mark.parametrize("line, want", BAD)
def test_a_162_that_cannot_be_applied_is_refused_in_one_line(tmp_path, line, want):
    path = _file(tmp_path, ["012 T", line, player_line(1, "A", 0.0, [(2, "w", " ")]),
                            player_line(2, "B", 0.0, [(1, "b", " ")])])
    with pytest.raises(trf.TrfError) as e:
        trf.read(path)
    said = str(e.value)
    assert f"{path} line 2: tag 162" in said and want in said and "\n" not in said, said


def test_points_that_do_not_fit_their_four_columns_are_refused(tmp_path):
    lines = ["012 T", "162  W99.0", player_line(1, "A", 99.0, [(2, "w", "1"), (2, "w", " ")]),
             player_line(2, "B", 0.0, [(1, "b", "0"), (1, "b", " ")])]
    t = trf.read(_file(tmp_path, lines))
    games = [{"board": 1, "left": "A", "right": "B", "first": "left", "result": "1-0"}]
    with pytest.raises(trf.TrfError, match=r"player 1's points 198.0 do not fit positions 81-84"):
        trf.write({"name": "x", "round": 2}, games, source=t)
