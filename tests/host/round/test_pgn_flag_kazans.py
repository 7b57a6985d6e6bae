"""A game's PGN where a flag fell and play went on (host/sagat/round/pgn.py, docs/pgn.md): each flag's
comment at the move during which it fell, and a win on kazans after a flag (TK-R7) with its kazans in a
tag and in the final comment, White's first. Games the simulator played in virtual time, their PGN read
back by python-chess (tests/kits/pgnkit.py)."""

from __future__ import annotations

import pytest
from pgnkit import read, sim_games

from sagat.round import pgn

NAMES = {"Left": "Асель Нурланқызы", "Right": "Бекзат Ержанұлы"}

# "10": ten seconds, sudden death: the clock runs on after a flag. Right moves first (White): its flag
# falls at 10 s during its first move, which it makes at 12 s; left's (Black's) at 23 s during its
# second (9 s left after its first), made at 25 s; right then wins on kazans, 85 to left's 60 (TK-R7)
FLAGS_THEN_KAZANS = [
    {"at": 0, "do": "new", "tc": "10", "first": "right"}, {"at": 0, "do": "start"},
    {"at": 12000, "do": "press", "side": "right"}, {"at": 13000, "do": "press", "side": "left"},
    {"at": 14000, "do": "press", "side": "right"}, {"at": 25000, "do": "press", "side": "left"},
    {"at": 26000, "do": "press", "side": "right"},
    {"at": 27000, "do": "result", "result": "0-1", "left_kazan": 60, "right_kazan": 85},
]


@pytest.fixture(scope="module")
def flagged(tmp_path_factory):
    (events,), _data = sim_games(tmp_path_factory.mktemp("flags"), FLAGS_THEN_KAZANS)
    return events


def _movetext(text):
    return " ".join(text.split("\n\n", 1)[1].split())


def test_a_flag_s_comment_follows_the_move_during_which_it_fell(flagged):
    text = pgn.game(flagged, NAMES)
    flat = _movetext(text)
    first = "{flag: White (right) at game time 0:00:10, first}"
    second = "{flag: Black (left) at game time 0:00:23, second}"
    assert f"1. {{[%clk 0:00:00] [%emt 0:00:12]}} {first} 1..." in flat, flat
    assert f"2... {{[%clk 0:00:00] [%emt 0:00:11]}} {second} 3." in flat, flat
    got = read(text)
    assert got.errors == [] and got.results == ["1-0"]
    assert [c for c in got.comments if c.startswith("flag")] == [first[1:-1], second[1:-1]]


def test_a_flag_s_comment_follows_its_move_on_the_scoresheet_s_moves_too(flagged):
    flat = _movetext(pgn.game(flagged, NAMES, moves="1. 76(10) 45(12) 2. 12 34(2) 3. 55 *"))
    assert "1. 76(10) {[%clk 0:00:00] [%emt 0:00:12]} {flag: White (right) at game time 0:00:10, first} 1... 45(12)" \
        in flat, flat
    assert "34(2) {[%clk 0:00:00] [%emt 0:00:11]} {flag: Black (left) at game time 0:00:23, second} 3. 55" \
        in flat, flat


def test_a_win_on_kazans_after_a_flag_carries_the_kazans_white_s_first(flagged):
    got = read(pgn.game(flagged, NAMES))
    # the clock's 0-1 (right's win) is White's: right moved first
    assert (got.tags["White"], got.tags["Result"]) == (NAMES["Right"], "1-0")
    assert got.tags["Kazans"] == "85-60"  # White's-Black's, as the Result
    assert got.comments[-1] == ("final kazans: White (right) 85, Black (left) 60; White's flag fell first, and a "
                                "player whose time has run out with 82 or more kumalaks wins (TK-R7)")


def test_a_result_without_kazans_has_no_kazans_tag(tmp_path):
    script = FLAGS_THEN_KAZANS[:-1] + [{"at": 27000, "do": "result", "result": "1-0"}]  # left's: the flag's
    (events,), _data = sim_games(tmp_path, script)
    got = read(pgn.game(events, NAMES))
    assert got.tags["Result"] == "0-1" and "Kazans" not in got.tags
    assert not any("kazans" in c for c in got.comments)
