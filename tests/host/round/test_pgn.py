"""A game's clock record as PGN (host/sagat/round/pgn.py, docs/pgn.md): games played by the simulator in
virtual time (`sagat sim --script --virtual --flash`), their PGN read back by python-chess, the
clock comments equal to the log's press records."""

from __future__ import annotations

import io
import json
import re

import chess.pgn
import pytest
from pgnkit import clocks, read

from sagat.cli import main
from sagat.log import decode
from sagat.log.flash import read_image
from sagat.round import pgn
from sagat.round.timeuse import turns

NAMES = {"Left": "Асель Нурланқызы", "Right": "Бекзат Ержанұлы"}
ROUND = {"Event": "Қазақстан чемпионаты", "Site": "Түркістан", "Date": "2025.03.14", "Round": "2", "Board": "3"}


def _game(t, tc, first, used, pause_at=None):
    """A game's script lines from `t`: new, start and a press per time used (`pause_at`: that move
    has a 10 s arbiter's pause in it, which its time used leaves out)."""
    lines = [{"at": t, "do": "new", "tc": tc, "first": first}, {"at": t, "do": "start"}]
    side = first
    for i, u in enumerate(used):
        t += u
        if i == pause_at:
            lines += [{"at": t - 1000, "do": "pause"}, {"at": t + 9000, "do": "resume"}]
            t += 10000
        lines.append({"at": t, "do": "press", "side": side})
        side = "right" if side == "left" else "left"
    return t, lines


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The sim's log of six games, by what each shows: {name: events}."""
    folder = tmp_path_factory.mktemp("pgn")
    script = []
    t, lines = _game(0, "300+3", "right", [3100, 2500, 6400, 1200, 5000, 4300], pause_at=2)
    script += lines + [{"at": t + 1000, "do": "result", "result": "0-1"}]  # right (White) won
    t, lines = _game(t + 2000, {"left": "300+2", "right": "180+2"}, "left", [1500, 1700])
    script += lines + [{"at": t + 1000, "do": "result", "result": "+/-"}]
    t, lines = _game(t + 2000, "300d5", "right", [])
    script += lines + [{"at": t + 1000, "do": "result", "result": "+/-"}]
    t, lines = _game(t + 2000, "600", "left", [])
    script += lines + [{"at": t + 1000, "do": "result", "result": "-/-"}]
    t, lines = _game(t + 2000, "10", "left", [2000])  # right's 10 s run out
    script += lines + [{"at": t + 15000, "do": "result", "result": "1-0"}]
    t, lines = _game(t + 16000, "2/5400:1800", "left", [1000, 1000, 1000])  # White's 2nd move: stage 2
    script += lines + [{"at": t + 5000, "do": "pause"}]  # the fourth move in progress, no result
    path = folder / "game.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in script), encoding="utf-8")
    flash = str(folder / "flash.img")
    assert main(["sim", "--script", str(path), "--virtual", "--flash", flash]) == 0
    data = b"".join(d for _n, d in read_image(flash))
    log = decode.read_segments([("records.bin", data)], [], replay=True)
    assert not log.replay_problems, log.replay_problems
    played = [log.shown(game=g) for g in log.games() if any(e["type"] == "game_start" for e in log.shown(game=g))]
    names = ("increment", "handicap", "forfeit_left_black", "double_forfeit", "flag", "unfinished")
    assert len(played) == len(names)
    return dict(zip(names, played, strict=True))


def presses(events):
    """What the log says of each completed move: (mover, its face after the press, time used)."""
    used = turns(events)
    seen = {"left": 0, "right": 0}
    out = []
    for e in events:
        if e["type"] == "press":
            s = e["side"]
            out.append((s, e[f"{s}_ms"], used[s][seen[s]][1]))
            seen[s] += 1
    return out


def test_without_moves_the_movetext_is_move_numbers_and_each_move_s_clock(games):
    evs = games["increment"]
    text = pgn.game(evs, {**ROUND, **NAMES})
    got = read(text)
    # White is the player who moved first: this game's first was the right face
    assert got.tags == {"Event": "Қазақстан чемпионаты", "Site": "Түркістан", "Date": "2025.03.14", "Round": "2",
                        "White": NAMES["Right"], "Black": NAMES["Left"], "Result": "1-0", "Board": "3",
                        "TimeControl": "300+3"}
    assert list(got.tags)[:7] == list(pgn.ROSTER)
    assert got.results == ["1-0"] and got.errors == [] and got.moves == []
    log = presses(evs)
    assert len(log) == 6 and [clocks(c) for c in got.comments] == [(ms, used) for _s, ms, used in log]
    # the increment is in the clock after the move: 300 s - 3.1 s + 3 s
    assert got.comments[0] == "[%clk 0:04:59.9] [%emt 0:00:03.1]"
    # the third move took 6.4 s of play and a 10 s pause: the pause is no time used (TK-C15)
    assert clocks(got.comments[2])[1] == 6400
    movetext = re.sub(r"\{[^}]*\}", "", text.split("\n\n", 1)[1])
    assert movetext.split()[:-1] == ["1.", "1...", "2.", "2...", "3.", "3..."]
    assert pgn.clock_comments(evs)[:3] == [("right", 1, 299900, 3100), ("left", 1, 300500, 2500),
                                           ("right", 2, 296500, 6400)]


def test_with_chess_moves_python_chess_reads_each_move_s_clock(games):
    evs = games["increment"]
    text = pgn.game(evs, {**ROUND, **NAMES}, moves="[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.errors == []
    nodes = list(game.mainline())
    assert [n.san() for n in nodes] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert [(round(n.clock() * 1000), round(n.emt() * 1000)) for n in nodes] == [(ms, u) for _s, ms, u in presses(evs)]
    assert game.headers["Event"] == ROUND["Event"] and game.headers["White"] == NAMES["Right"]
    assert game.headers["Result"] == "1-0"


SHEET = """[Event "Round 2"]
[Variant "Togyzqumalaq"]
[White "A. N."]
[Annotator "Арбитр"]

1. 76(10) 45(12) 2. 12 $1 34(2)X {tuzdyk} 3. 55 66 %s*
"""


def test_toguz_kumalak_moves_carry_the_clock_comments_and_more_moves_than_the_clock_are_said(games):
    evs = games["increment"]
    text = pgn.game(evs, {**ROUND, **NAMES}, moves=SHEET % "4. 91(4) 23 ")
    got = read(text)
    assert got.tags["Variant"] == "Togyzqumalaq" and got.tags["Annotator"] == "Арбитр"  # the sheet's own tags stay
    assert got.tags["Event"] == ROUND["Event"] and got.tags["White"] == NAMES["Right"]  # the roster is the round's
    assert got.errors == ["unsupported variant: Togyzqumalaq"] and got.moves == []  # no chess: no board moves
    log = presses(evs)
    clock = [c for c in got.comments if "%clk" in c]
    assert [clocks(c) for c in clock] == [(ms, used) for _s, ms, used in log]
    assert "tuzdyk" in got.comments
    assert got.comments[-1] == ("the scoresheet has 8 moves, the clock counted 6: the scoresheet's last 2 have no "
                                "clock time")
    assert got.results == ["1-0"]  # the clock's result, not the sheet's "*"
    # each clock comment right after its move (and the move's NAG)
    flat = " ".join(text.split("\n\n", 1)[1].split())
    for move, comment in zip(["76(10)", "45(12)", "12 $1", "34(2)X", "55", "66"], clock, strict=True):
        assert f"{move} {{{comment}}}" in flat, (move, flat)
    assert "4. 91(4) 23 {the scoresheet" in flat  # no comment between: no 4...


def test_a_scoresheet_with_fewer_moves_than_the_clock_gets_what_matches(games):
    evs = games["increment"]
    text = pgn.game(evs, NAMES, moves="1. 76(10) 45(12) 2. 12 0-1")
    got = read(text)
    clock = [c for c in got.comments if "%clk" in c]
    assert [clocks(c) for c in clock] == [(ms, used) for _s, ms, used in presses(evs)[:3]]
    assert got.comments[-2:] == ["the clock counted 6 moves, the scoresheet has 3: the clock's last 3 are on no "
                                 "move here", "the scoresheet's result: 0-1"]
    assert got.tags["Event"] == "?" and got.tags["Date"] == "????.??.??"


def test_forfeits_are_the_win_they_give_and_a_double_forfeit_has_no_result(games):
    got = read(pgn.game(games["forfeit_left_black"], NAMES))  # +/-: left won; left was Black
    assert (got.tags["White"], got.tags["Result"], got.tags["Termination"]) == (NAMES["Right"], "0-1",
                                                                                "rules infraction")
    assert got.comments == ["+/- on the clock: Black (left) won by forfeit (TK-R4)"]
    got = read(pgn.game(games["handicap"], NAMES))  # +/-: left won; left was White
    assert (got.tags["White"], got.tags["Result"], got.tags["Termination"]) == (NAMES["Left"], "1-0",
                                                                                "rules infraction")
    got = read(pgn.game(games["double_forfeit"], NAMES))
    assert got.tags["Result"] == "*" and got.results == ["*"] and got.tags["Termination"] == "rules infraction"
    assert got.comments == ["-/- on the clock: both players lost by forfeit (TK-R4): PGN has no result for it"]


def test_a_game_with_no_result_is_star_and_its_move_in_progress_has_no_clock(games):
    evs = games["unfinished"]
    got = read(pgn.game(evs, NAMES))
    assert got.tags["Result"] == "*" and got.results == ["*"] and "Termination" not in got.tags
    assert got.tags["TimeControl"] == "2/5400:1800"
    assert [clocks(c) for c in got.comments] == [(ms, u) for _s, ms, u in presses(evs)]
    # the move that completes a stage: its clock has the next stage's time in it (TK-C16)
    assert clocks(got.comments[2]) == (5400000 - 2000 + 1800000, 1000)
    assert len(got.comments) == 3  # the fourth move was never pressed


def test_a_clock_synced_dates_the_game(games):
    from sagatfw.log.wall import iso_utc

    evs = [dict(e) for e in games["flag"]]
    start = next(e for e in evs if e["type"] == "game_start")
    start["wall"] = iso_utc(1741943100, 250)  # what the reader gives a synced record: 2025-03-14T09:05:00.250Z
    got = read(pgn.game(evs, NAMES, moves='[Termination "normal"]\n\n1. 76(10) 1-0'))
    assert (got.tags["Date"], got.tags["UTCDate"], got.tags["UTCTime"]) == ("2025.03.14", "2025.03.14", "09:05:00")
    assert got.tags["Termination"] == "normal"  # the sheet's, where the clock says none
    assert read(pgn.game(evs, {**NAMES, "Date": "2025.03.15"})).tags["Date"] == "2025.03.15"  # the round's first


def test_a_flag_is_a_comment_after_the_last_move(games):
    got = read(pgn.game(games["flag"], NAMES))
    assert got.comments == ["[%clk 0:00:08] [%emt 0:00:02]", "flag: Black (right) at game time 0:00:12, first"]
    assert got.tags["Result"] == "1-0"


def test_a_handicap_gives_white_s_control_and_both_in_a_tag_of_its_own(games):
    got = read(pgn.game(games["handicap"], NAMES))
    assert got.tags["TimeControl"] == "300+2" and got.tags["SagatTimeControl"] == "White 300+2 | Black 180+2"
    got = read(pgn.game(games["forfeit_left_black"], NAMES))
    assert got.tags["TimeControl"] == "?" and got.tags["SagatTimeControl"] == "300d5"  # a delay: no PGN form


@pytest.mark.parametrize("tc, tag", [
    ("300+3", "300+3"), ("420", "420"), ("40/5400:1800", "40/5400:1800"), ("40/5400+30:1800+30", "40/5400+30:1800+30"),
    ("40/7200:20/3600", "40/7200:20/3600"), ("*60", "*60"), ("-", "-"), ("300+2|300+2", "300+2"),
    ("300d5", "?"), ("1500b10", "?"), ("600j30x5", "?"), ("1200c25/300", "?"), ("300+2|180+2", "?"),
    (None, "?"), ("", "?"), ("5 minutes", "?"),
])
def test_the_time_control_tag(tc, tag):
    assert pgn.tc_tag(tc) == tag
    if tag not in ("?", "*60"):  # (python-chess's parser does not take the standard's sandclock form)
        chess.pgn.parse_time_control(tag)


def test_read_moves_says_what_is_wrong_in_one_line(tmp_path):
    with pytest.raises(pgn.PgnError, match=r"nope.pgn: no such file"):
        pgn.read_moves(str(tmp_path / "nope.pgn"))
    bad = tmp_path / "latin1.pgn"
    bad.write_bytes('[White "Ақан"]\n\n1. 76(10) *\n'.encode("utf-16"))
    with pytest.raises(pgn.PgnError, match=r"latin1.pgn: not UTF-8 text .*save the PGN as UTF-8"):
        pgn.read_moves(str(bad))
    empty = tmp_path / "tags.pgn"
    empty.write_text('[Event "x"]\n\n*\n', encoding="utf-8")
    with pytest.raises(pgn.PgnError, match=r"tags.pgn: no moves in it"):
        pgn.read_moves(str(empty))
    broken = tmp_path / "broken.pgn"
    broken.write_text('[Event "x"]\n\n1. 76(10) {never closed\n2. 12 *\n', encoding="utf-8")
    with pytest.raises(pgn.PgnError, match=r"^\S*broken.pgn: line 3: a comment \{ that is never closed"):
        pgn.read_moves(str(broken))
    ok = tmp_path / "ok.pgn"
    ok.write_text('\ufeff[Event "Кубок"]\n\n1. 76(10) 45(12) *\n', encoding="utf-8")
    assert "76(10)" in pgn.read_moves(str(ok))


@pytest.mark.parametrize("moves, why", [
    ("1. 76(10) ) 45 *", "line 1: a ) that closes no variation"),
    ("1. 76(10) (45 *", "line 1: a variation ( that is never closed with )"),
    ('[Event "x]\n\n1. 76 *', "line 1: a broken tag"),
    ('[Board "1"]\n1. 76 *\n\n[Board "2"]\n1. 45 *\n', "2 games in the moves given"),
])
def test_a_broken_moves_text_is_one_line_never_a_traceback(games, moves, why):
    with pytest.raises(pgn.PgnError) as e:
        pgn.game(games["increment"], NAMES, moves=moves)
    assert str(e.value).startswith(why) and "\n" not in str(e.value)


ROUND_FILE = """[Event "x"]
[Round "2"]
[Board "3"]

1. 76(10) 45(12) 1-0

[Event "x"]
[Round "2"]
[Board "04"]

1. 12 34 *

[Event "x"]
[Round "3"]
[Board "3"]

1. 55 66 0-1
"""


def test_a_round_s_moves_file_gives_each_board_its_game(games):
    assert "76(10)" in pgn.pick(ROUND_FILE, 3, "2") and "55" not in pgn.pick(ROUND_FILE, 3, "2")
    assert "1. 12 34" in pgn.pick(ROUND_FILE, 4)
    assert "55 66" in pgn.pick(ROUND_FILE, "3", "3")
    assert pgn.pick(ROUND_FILE, 5) is None
    with pytest.raises(pgn.PgnError, match="2 games for board 3 in the moves file"):
        pgn.pick(ROUND_FILE, 3)
    one = "1. 76(10) 45(12) *"
    assert pgn.pick(one, 7) == one  # one game that names no board: it is the game
    text = pgn.game(games["increment"], {**NAMES, "Board": "4", "Round": "2"}, moves=pgn.pick(ROUND_FILE, 4, "2"))
    got = read(text)
    assert got.tags["Board"] == "4" and len([c for c in got.comments if "%clk" in c]) == 2
