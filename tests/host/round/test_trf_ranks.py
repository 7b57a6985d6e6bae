"""Every player's rank (positions 86-89) in round.trf follows the points once the round is in, the
players without a game this round too: equal points share a rank, the next rank counts them (1, 2, 2,
4), as TRF-2026 allows ("ties allowed")."""

from trfkit import player_line, read_trf

from sagat.round import trf

# round 1 played (1-2, 3-4, 5-6 each 1-0); round 2 paired 1-3 and 2-4, 5 and 6 not paired; the ranks
# the pairing program wrote before round 1 (by start rank)
R = {1: [(2, "w", "1"), (3, "w", " ")], 2: [(1, "b", "0"), (4, "b", " ")], 3: [(4, "w", "1"), (1, "b", " ")],
     4: [(3, "b", "0"), (2, "w", " ")], 5: [(6, "w", "1")], 6: [(5, "b", "0")]}
PTS = {1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0, 5: 1.0, 6: 0.0}


def test_every_rank_follows_the_points_also_of_players_without_a_game(tmp_path):
    path = tmp_path / "t.trf"
    lines = ["012 T", *(player_line(n, f"P{n}", PTS[n], R[n], rank=n) for n in R)]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    games = [{"board": 1, "left": "P1", "right": "P3", "first": "left", "result": "1-0"},
             {"board": 2, "left": "P4", "right": "P2", "first": "left", "result": "1/2-1/2"}]
    _, players = read_trf(trf.write({"name": "x", "round": 2}, games, source=trf.read(str(path))))
    # points 2, 1/2, 1, 1/2, 1, 0: 5 (no game this round) shares 2nd place with 3
    assert {n: players[n]["rank"] for n in R} == {1: 1, 3: 2, 5: 2, 2: 4, 4: 4, 6: 6}
    got, was = players[5]["line"], lines[5]  # 5's line: only its rank changed
    assert got[:85] + got[89:] == was[:85] + was[89:]


def test_a_fresh_rounds_ranks_share_a_place_on_equal_points():
    games = [{"board": 1, "left": "A", "right": "B", "first": "left", "result": "1/2-1/2"},
             {"board": 2, "left": "C", "right": "D", "first": "left", "result": "1-0"}]
    _, players = read_trf(trf.write({"name": "x", "round": 1}, games))
    assert [players[n]["rank"] for n in (1, 2, 3, 4)] == [2, 2, 1, 4]
