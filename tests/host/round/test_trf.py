"""The round out as FIDE's TRF-2026 (sagat.round.trf.write), a round's pairings in from a TRF
(trf.read, trf.pairings, pairings.read), and the time control in TRF-2026's tag 222. The files are
read back with tests/kits/trfkit.py, written from the spec's columns, not from the module."""

import pytest
from trfkit import player_line, read_trf

from sagat.round import pairings as pairings
from sagat.round import trf

KZ = ["Асель Нурланқызы", "Ерлан Сейітқалиұлы", "Айгерім Жұмабаева", "Бауыржан Төлеуов"]
RU = ["Пётр Иванов", "Ольга Смирнова", "Виктор Ким", "Наталья Щербакова"]

EVENT = {"name": "Алматы ашық турнирі", "round": 1, "date": "2025-03-14", "city": "Алматы",
         "arbiter": "Сапаров Бекзат", "tc": "1200"}


def _games():
    return [
        {"board": 1, "left": KZ[0], "right": RU[0], "first": "left", "result": "1-0"},
        {"board": 2, "left": RU[1], "right": KZ[1], "first": "right", "result": "1-0"},  # White at the right
        {"board": 3, "left": KZ[2], "right": RU[2], "first": "left", "result": "1/2-1/2"},
        {"board": 4, "left": RU[3], "right": KZ[3], "first": "left", "result": "+/-"},  # TK-R4
        {"board": 5, "left": "Дана Әбілқасымова", "right": "Игорь Орлов", "first": "right", "result": "-/+"},
        {"board": 6, "left": "Мұрат Байжанов", "right": "Сергей Лебедев", "first": "left", "result": "-/-"},
        {"board": 7, "left": "Гүлнар Оспанова", "right": "Анна Белова", "first": "left", "result": None},
    ]


# (White, Black, White's result, Black's result, White's points, Black's points) per board, as written
WANT = {
    1: (KZ[0], RU[0], "1", "0", 1.0, 0.0),
    2: (KZ[1], RU[1], "0", "1", 0.0, 1.0),  # left (Black) won: White lost
    3: (KZ[2], RU[2], "=", "=", 0.5, 0.5),
    4: (RU[3], KZ[3], "+", "-", 1.0, 0.0),
    5: ("Игорь Орлов", "Дана Әбілқасымова", "+", "-", 1.0, 0.0),
    6: ("Мұрат Байжанов", "Сергей Лебедев", "-", "-", 0.0, 0.0),  # both absent, both lose
    7: ("Гүлнар Оспанова", "Анна Белова", " ", " ", 0.0, 0.0),  # not finished: paired, result blank
}


def test_a_round_without_a_source_gives_each_player_his_opponent_colour_and_result():
    tags, players = read_trf(trf.write(EVENT, _games()))
    assert sorted(players) == list(range(1, 15))
    for board, (white, black, wr, br, wp, bp) in WANT.items():
        w, b = 2 * board - 1, 2 * board  # board 1's White is 1, its Black 2, ...
        assert players[w]["name"] == white and players[b]["name"] == black
        assert players[w]["rounds"] == [(b, "w", wr)]
        assert players[b]["rounds"] == [(w, "b", br)]
        assert (players[w]["points"], players[b]["points"]) == (wp, bp)
    assert tags["062"] == ["14"]


def test_the_round_block_sits_at_the_rounds_columns():
    event = dict(EVENT, round=3)
    _, players = read_trf(trf.write(event, _games()[:1]))
    assert players[1]["rounds"] == [(0, " ", " "), (0, " ", " "), (2, "w", "1")]
    line = players[1]["line"]
    assert line[111:121].rstrip() == "   2 w 1"  # round 3: positions 112-121


def test_the_001_fields_are_in_the_specs_columns():
    text = trf.write(EVENT, _games()[:1])
    line = next(ln for ln in text.split("\r\n") if ln.startswith("001    1"))
    assert line[4:8] == "   1"  # 5-8 start rank
    assert line[14:47] == KZ[0].ljust(33)  # 15-47 name
    assert line[80:84] == " 1.0"  # 81-84 points
    assert line[85:89] == "   1"  # 86-89 rank
    assert line[91:99] == "   2 w 1"  # 92-95 opponent, 97 colour, 99 result
    assert len(line) == 99


def test_ranks_share_a_place_on_equal_points():
    _, players = read_trf(trf.write(EVENT, _games()[:3]))
    # points: 1.0 (1), 0.0 (2), 0.0 (3), 1.0 (4), 0.5 (5), 0.5 (6)
    assert [players[n]["rank"] for n in range(1, 7)] == [1, 5, 5, 1, 3, 3]


def test_a_long_name_is_cut_at_33_characters_never_inside_a_letter():
    long = "Нұрсұлтанқызы Әйгерім-Гүлжанат Мұхамедқалиқызы"  # 46 characters, 90 bytes in UTF-8
    decomposed = "Иванов Йорда" + "и\u0306" * 25  # й as и + a combining breve (NFC joins it)
    mark = "A" * 32 + "q\u0323\u0307"  # q has no precomposed form: its marks must stay with it
    games = [{"board": 1, "left": long, "right": decomposed, "first": "left", "result": "1-0"},
             {"board": 2, "left": mark, "right": "Line\nbreak\tname", "first": "left", "result": "0-1"}]
    text = trf.write(EVENT, games)
    _, players = read_trf(text)
    assert players[1]["name"] == long[:33]
    assert players[2]["name"] == ("Иванов Йорда" + "й" * 25)[:33]
    assert players[3]["name"] == "A" * 32  # the q and its marks go together
    assert players[4]["name"] == "Line break name"
    assert len(text.split("\r\n")) == len(text.splitlines()) + 1  # no name broke a line


def test_the_header_has_the_event_the_round_date_at_its_column_and_the_time_control():
    tags, _ = read_trf(trf.write(dict(EVENT, round=2, tc="40/5400+30:1800+30"), _games()))
    assert tags["012"] == ["Алматы ашық турнирі"]
    assert tags["022"] == ["Алматы"]
    assert tags["042"] == ["2025/03/14"]
    assert tags["092"] == ["Toguz kumalak"]
    assert tags["102"] == ["Сапаров Бекзат"]
    assert tags["122"] == ["40 moves in 90 min + 30 s a move, then 30 min + 30 s a move"]
    assert tags["222"] == ["40/5400+30:1800+30"]
    d132 = "132 " + tags["132"][0]
    assert d132[101:109] == "25/03/14" and not d132[3:101].strip()  # round 2: positions 102-109


def test_lines_end_cr_lf_and_save_writes_utf8_as_it_is(tmp_path):
    text = trf.write(EVENT, _games())
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    path = tmp_path / "round.trf"
    trf.save(str(path), text)
    assert path.read_bytes() == text.encode("utf-8")


def test_without_a_date_or_a_control_no_such_tag_is_written():
    tags, _ = read_trf(trf.write({"name": "T", "round": 1}, _games()[:1]))
    assert set(tags) == {"012", "062", "092"}


def test_a_result_the_clock_does_not_give_is_a_one_line_error():
    games = [{"board": 1, "left": "A", "right": "B", "first": "left", "result": "2-0"}]
    with pytest.raises(trf.TrfError, match="board 1: result '2-0'"):
        trf.write(EVENT, games)


def test_a_name_or_city_with_a_line_break_stays_on_its_line():
    tags, _ = read_trf(trf.write(dict(EVENT, name="Кубок\nАлматы", city="Ал\r\nматы"), _games()[:1]))
    assert tags["012"] == ["Кубок Алматы"] and tags["022"] == ["Ал маты"]


def test_the_writers_file_reads_back_through_read(tmp_path):
    path = tmp_path / "r.trf"
    trf.save(str(path), trf.write(EVENT, _games()))
    t = trf.read(str(path))
    assert [t.players[n].name for n in (1, 2)] == [KZ[0], RU[0]]
    assert t.players[13].rounds == [trf.Block(14, "w", "")]
    assert t.players[11].rounds == [trf.Block(12, "w", "-")]


# ---- a source TRF-2026: two rounds played, round 3 paired and not played ----

H132 = "132" + " " * 88 + "25/03/12  25/03/13"  # round 1's date at 92-99, round 2's at 102-109
SOURCE = "\r\n".join([
    "012 Алматы чемпионаты 2025",
    "022 Алматы",
    "032 KAZ",
    "042 2025/03/12",
    "052 2025/03/16",
    "062 7",
    "092 Individual: Swiss-System",
    "102 Сапаров, Бекзат",
    "122 20 min",
    H132,
    "142 5",
    "222 1200",
    "XXR 5",
    "### round 3 paired, not played",
    "001    1 m    Нұрланұлы, Ерлан                  1712 KAZ             1998/04/12  2.0    1     4 w 1     7 b 1     6 b",  # noqa: E501
    "001    2 w    Сейітқали, Асель                  1690 KAZ             2001/11/03  1.5    2     5 b 1     3 w =     7 w",  # noqa: E501
    "001    3 m    Иванов, Пётр                      1655 KAZ             1990/02/27  1.0    4     6 w =     2 b =     5 b",  # noqa: E501
    "001    4 w    Жұмабаева, Айгерім                1601 KAZ             2005/07/19  0.0    7     1 b 0     6 b 0  0000 - U",  # noqa: E501
    "001    5 w    Смирнова, Ольга                   1588 KAZ             1987/09/30  1.0    5     2 w 0  0000 - U     3 w",  # noqa: E501
    "001    6 m    Төлеуов, Бауыржан                 1570 KAZ             2003/01/08  1.5    3     3 b =     4 w 1     1 w",  # noqa: E501
    "001    7 m    Ким, Виктор                            KAZ             1979/12/14  1.0    6  0000 - U     1 w 0     2 b",  # noqa: E501
]) + "\r\n"
NAME = {1: "Нұрланұлы, Ерлан", 2: "Сейітқали, Асель", 3: "Иванов, Пётр", 4: "Жұмабаева, Айгерім",
        5: "Смирнова, Ольга", 6: "Төлеуов, Бауыржан", 7: "Ким, Виктор"}


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "after-round-2.trf"
    path.write_bytes(SOURCE.encode("utf-8"))
    return str(path)


def test_the_hand_written_source_is_in_the_specs_columns():
    _, players = read_trf(SOURCE)
    assert players[4]["rounds"] == [(1, "b", "0"), (6, "b", "0"), (0, "-", "U")]
    assert players[1]["points"] == 2.0 and players[7]["name"] == "Ким, Виктор"


def test_round_3s_pairings_come_from_the_trf_in_the_pairing_programs_board_order(source):
    t = trf.read(source)
    rnd, names, numbers = trf.pairings(t)
    assert rnd == 3  # the first round paired with no result
    # scores before round 3: 1: 2.0, 6: 1.5, 2: 1.5, 7: 1.0, 5: 1.0, 3: 1.0
    assert numbers == {1: (6, 1), 2: (2, 7), 3: (5, 3)}
    assert names == {b: (NAME[w], NAME[k]) for b, (w, k) in numbers.items()}
    assert trf.byes(t, 3) == {4: (NAME[4], "U")}


def test_a_round_given_is_that_rounds_pairings_even_played(source):
    t = trf.read(source)
    rnd, _, numbers = trf.pairings(t, 2)
    assert rnd == 2
    assert numbers == {1: (7, 1), 2: (2, 3), 3: (6, 4)}  # 7-1: 1.0 (sum 2.0), 2-3: 1.0 (sum 1.5), 6-4: 0.5
    assert trf.byes(t, 2) == {5: (NAME[5], "U")}
    with pytest.raises(trf.TrfError, match=r"round 4 has no pairings"):
        trf.pairings(t, 4)


def test_boards_are_ordered_by_the_higher_score_then_the_sum_then_the_higher_placed_player(tmp_path):
    r1 = {1: (5, "w", "0"), 5: (1, "b", "1"), 2: (6, "w", "1"), 6: (2, "b", "0"), 3: (8, "w", "1"),
          8: (3, "b", "0"), 7: (4, "w", "1"), 4: (7, "b", "0")}
    r2 = {7: (3, "w", " "), 3: (7, "b", " "), 5: (6, "w", " "), 6: (5, "b", " "), 2: (8, "w", " "),
          8: (2, "b", " "), 4: (1, "w", " "), 1: (4, "b", " ")}
    pts = {n: 1.0 if r1[n][2] == "1" else 0.0 for n in r1}
    lines = ["012 Order"] + [player_line(n, f"P{n}", pts[n], [r1[n], r2[n]]) for n in range(1, 9)]
    path = tmp_path / "order.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rnd, _, numbers = trf.pairings(trf.read(str(path)))
    assert rnd == 2
    # 7-3: both 1.0 (sum 2); 2-8 and 5-6: 1.0 and 0.0, 2 placed above 5; 4-1: 0.0
    assert numbers == {1: (7, 3), 2: (2, 8), 3: (5, 6), 4: (4, 1)}


def test_writing_round_3_keeps_every_earlier_line_and_block_and_sets_round_3(source):
    t = trf.read(source)
    games = [
        {"board": 1, "left": NAME[6], "right": NAME[1], "first": "left", "result": "0-1"},
        {"board": 2, "left": NAME[7], "right": NAME[2], "first": "right", "result": "1/2-1/2"},  # faces swapped
        {"board": 3, "left": NAME[5], "right": NAME[3], "first": "left", "result": "+/-"},
    ]
    event = {"name": "ignored: the source's 012 stays", "round": 3, "date": "2025-03-14", "tc": "300+3"}
    out = trf.write(event, games, source=t)
    old, new = SOURCE.split("\r\n"), out.split("\r\n")
    assert len(new) == len(old)
    for a, b in zip(old, new, strict=True):
        if a.startswith("001"):
            # start rank, sex, name, rating, federation, id, birth date; rounds 1 and 2: byte for byte
            assert b[:80].encode("utf-8") == a[:80].encode("utf-8")
            assert b[91:111].encode("utf-8") == a[91:111].encode("utf-8")
        elif a.startswith("132"):
            assert b == a.ljust(111) + "25/03/14"  # round 3's date at 112-119
        else:
            assert b == a  # every other header line, byte for byte (222 1200 stays the source's)
    _, players = read_trf(out)
    want = {6: ((1, "w", "0"), 1.5), 1: ((6, "b", "1"), 3.0), 2: ((7, "w", "="), 2.0), 7: ((2, "b", "="), 1.5),
            5: ((3, "w", "+"), 2.0), 3: ((5, "b", "-"), 1.0)}
    for n, (block, points) in want.items():
        assert players[n]["rounds"][2] == block, n
        assert players[n]["points"] == points, n
    # the pairing-allocated bye, which the source's points (0.0, rounds 1 and 2's) did not count yet, counts
    # once its round is written: 1.0 (tag 162's P, as W), as a pairing engine adds the results
    assert players[4]["rounds"][2] == (0, "-", "U") and players[4]["points"] == 1.0
    assert [players[n]["rank"] for n in range(1, 8)] == [1, 2, 6, 6, 2, 4, 4]


def test_an_unfinished_game_onto_the_source_stays_paired_without_a_result(source):
    t = trf.read(source)
    games = [{"board": 1, "left": NAME[6], "right": NAME[1], "first": "left", "result": None}]
    out = trf.write({"name": "x", "round": 3}, games, source=t)
    _, players = read_trf(out)
    assert players[6]["rounds"][2] == (1, "w", " ") and players[6]["points"] == 1.5
    assert out.split("\r\n")[9] == H132  # no date given: tag 132 as it was


def test_a_source_without_122_222_and_132_gets_them_before_the_players(tmp_path):
    text = "\n".join(ln for ln in SOURCE.split("\r\n") if ln[:3] not in ("122", "132", "222")) + "\n"
    path = tmp_path / "bare.trf"
    path.write_text(text, encoding="utf-8")
    games = [{"board": 1, "left": NAME[6], "right": NAME[1], "first": "left", "result": "1-0"}]
    out = trf.write({"name": "x", "round": 3, "date": "2025-03-14", "tc": "tk-rapid"}, games,
                    source=trf.read(str(path)))
    tags, _ = read_trf(out)
    assert tags["122"] == ["20 min"] and tags["222"] == ["1200"]
    assert ("132 " + tags["132"][0])[111:119] == "25/03/14"
    assert out.index("222 1200") < out.index("001 ")


def test_a_clock_whose_players_are_not_the_boards_pairing_is_refused(source):
    t = trf.read(source)
    games = [{"board": 1, "left": NAME[2], "right": NAME[1], "first": "left", "result": "1-0"}]
    with pytest.raises(trf.TrfError, match="board 1: the clock's players") as e:
        trf.write({"name": "x", "round": 3}, games, source=t)
    assert "\n" not in str(e.value)
    games = [{"board": 9, "left": "", "right": "", "first": "left", "result": "1-0"}]
    with pytest.raises(trf.TrfError, match="board 9 is not paired in round 3"):
        trf.write({"name": "x", "round": 3}, games, source=t)


def test_the_names_on_the_clock_find_their_pair_whatever_the_board_number(source):
    t = trf.read(source)
    games = [{"board": 12, "left": NAME[1], "right": NAME[6], "first": "right", "result": "1-0"}]
    _, players = read_trf(trf.write({"name": "x", "round": 3}, games, source=t))
    assert players[6]["rounds"][2] == (1, "w", "0") and players[1]["rounds"][2] == (6, "b", "1")


def test_onto_a_round_the_source_has_not_paired_players_are_found_by_name(source):
    t = trf.read(source)
    games = [{"board": 1, "left": NAME[3], "right": NAME[4], "first": "right", "result": "0-1"}]
    _, players = read_trf(trf.write({"name": "x", "round": 4}, games, source=t))
    assert players[4]["rounds"][3] == (3, "w", "1") and players[3]["rounds"][3] == (4, "b", "0")
    assert players[4]["points"] == 1.0
    games[0]["left"] = "Nobody"
    with pytest.raises(trf.TrfError, match="no player named 'Nobody'"):
        trf.write({"name": "x", "round": 4}, games, source=t)


# ---- the time control ----

TC = [
    ("420", "420", ""),  # TK-B3 blitz
    ("tk-rapid", "1200", ""),  # a preset by name
    ("300+3", "300+3", ""),
    ("40/5400:1800", "40/5400:1800", ""),
    ("classical-fide", "40/5400+30:1800+30", ""),  # TRF-2026's own example: 40/6000+30:900+30
    ("40/5400:0+30", "40/5400:0+30", ""),
    ("300|300", "300", ""),  # the same both sides: no handicap
    ("40/7200:20/3600", "40/7200:20/3600", "sagat repeats the last period"),
    ("300d5", None, "a simple (US) delay of 5 s has no TRF-2026 form"),
    ("300b3", None, "a Bronstein delay of 3 s has no TRF-2026 form"),
    ("*60", None, "hourglass"),
    ("-", None, "no time limit"),
    ("600j30x5", None, "Japanese byo-yomi has no TRF-2026 form"),
    ("1200c25/300", None, "Canadian byo-yomi has no TRF-2026 form"),
    ("300+2|180+2", None, "a handicap (LEFT|RIGHT) is per face"),
    ("40/5400:1800d5", None, "a simple (US) delay of 5 s"),
    ("bogus", None, "bad TimeControl 'bogus'"),
]


@pytest.mark.parametrize("tc, code, note", TC)
def test_each_sagat_control_has_its_trf_code_or_none_with_what_is_lost(tc, code, note):
    got, why = trf.tc_field(tc)
    assert got == code
    assert why.startswith(note) if note else why == ""


def test_a_handicap_is_written_per_colour_from_the_face_white_sits_at():
    assert trf.tc_field("300+2|180+2", white="left") == ("W300+2-B180+2", "")
    assert trf.tc_field("300+2|180+2", white="right") == ("W180+2-B300+2", "")
    assert trf.tc_field("300d5|180", white="left") == (None, "White: a simple (US) delay of 5 s has no "
                                                              "TRF-2026 form (tag 222 knows only increments, +I)")
    games = _games()[:1]
    tags, _ = read_trf(trf.write(dict(EVENT, tc="300|240"), games))  # Armageddon-like: W300-B240
    assert tags["222"] == ["W300-B240"] and tags["122"] == ["White: 5 min; Black: 4 min"]
    tags, _ = read_trf(trf.write(dict(EVENT, tc="300|240"), _games()[:2]))  # White at both faces
    assert "222" not in tags and tags["122"] == ["left: 5 min; right: 4 min"]


# ---- garbage ----

GARBAGE = [
    (b"", "no player (001) line"),
    (b"board,left,right\n1,A,B\n", "line 1: not a TRF file"),
    (b"\x00\x01\x02binary", "line 1: not a TRF file"),
    (b"012 T\n001    1 m    Short line\n", "line 2: a player (001) line of 24 characters"),
    (("012 T\n" + player_line(1, "A", 0, []).replace("   1", "  ab", 1) + "\n").encode(),
     "line 2: start rank '  ab'"),
    (("012 T\n" + player_line(1, "A", 0, []) + "\n" + player_line(1, "B", 0, []) + "\n").encode(),
     "line 3: start rank 1 is on line 2 too"),
    (("012 T\n" + player_line(1, "A", 1, [(2, "w", "1")]) + "\n" + player_line(2, "B", 0, [(1, "b", "0")])[:-1]
      + " 0\n").encode(), "line 3: round 1"),  # the result one column off
    (("012 T\n" + player_line(1, "A", 1, [(9, "w", "1")]) + "\n").encode(), "line 2: round 1: opponent 9"),
    (("012 T\n" + player_line(1, "A", 0, [(2, "x", "1")]) + "\n").encode(), "line 2: round 1: colour 'x'"),
    (("012 T\n" + player_line(1, "A", 0, [(2, "w", "?")]) + "\n").encode(), "line 2: round 1: result '?'"),
    (("012 T\n" + player_line(1, "A", 0, []).replace(" 0.0", " x.y") + "\n").encode(), "line 2: points ' x.y'"),
    ("012 Тест\n".encode("cp1251") + b"001", "line 1: not UTF-8"),
    (b"012 T\nhello\n", "line 2: 'hello' starts with no TRF tag"),
]


@pytest.mark.parametrize("data, want", GARBAGE)
def test_garbage_is_a_one_line_error_naming_the_file_and_line(tmp_path, data, want):
    path = tmp_path / "bad.trf"
    path.write_bytes(data)
    with pytest.raises(trf.TrfError) as e:
        trf.read(str(path))
    assert str(path) in str(e.value) and want in str(e.value) and "\n" not in str(e.value)


def test_a_missing_file_is_a_one_line_error(tmp_path):
    with pytest.raises(trf.TrfError, match="not found"):
        trf.read(str(tmp_path / "none.trf"))


def test_a_pairing_the_two_lines_disagree_on_is_refused(tmp_path):
    lines = ["012 T", player_line(1, "A", 0, [(2, "w", " ")]), player_line(2, "B", 0, [(3, "b", " ")]),
             player_line(3, "C", 0, [(2, "w", " ")])]
    path = tmp_path / "x.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(trf.TrfError, match=r"line 2: round 1: player 1 is paired with 2, whose line has 3"):
        trf.pairings(trf.read(str(path)))
    lines[2] = player_line(2, "B", 0, [(1, "w", " ")])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(trf.TrfError, match="players 1 and 2 have colours 'w' and 'w'"):
        trf.pairings(trf.read(str(path)))


def test_a_file_with_every_round_played_has_no_round_to_play(tmp_path):
    lines = ["012 T", player_line(1, "A", 1, [(2, "w", "1")]), player_line(2, "B", 0, [(1, "b", "0")])]
    path = tmp_path / "done.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(trf.TrfError, match=r"no round is paired and still without results \(rounds 1-1"):
        trf.pairings(trf.read(str(path)))


# ---- pairings.read ----


def test_pairings_read_takes_a_trf_white_at_the_left(source):
    assert pairings.read(source) == {1: (NAME[6], NAME[1]), 2: (NAME[2], NAME[7]), 3: (NAME[5], NAME[3])}
    # round 1: every score 0, so by the higher-placed player's start rank: 1-4, 5-2, 3-6
    assert pairings.read(source, round_no=1) == {1: (NAME[1], NAME[4]), 2: (NAME[5], NAME[2]), 3: (NAME[3], NAME[6])}


def test_pairings_read_gives_a_bad_trfs_error_as_a_pairings_error(tmp_path):
    path = tmp_path / "bad.trf"
    path.write_text("012 T\n001    1 m    Short\n", encoding="utf-8")
    with pytest.raises(pairings.PairingsError, match=r"bad.trf line 2: a player \(001\) line"):
        pairings.read(str(path))


def test_pairings_read_still_reads_the_csv(tmp_path):
    path = tmp_path / "round.csv"
    path.write_text("board,left,right\n1,Асель,Пётр\n2,Ерлан,Ольга\n", encoding="utf-8")
    assert pairings.read(str(path)) == {1: ("Асель", "Пётр"), 2: ("Ерлан", "Ольга")}
    path.write_text("# round 3\n1;A;B\n", encoding="utf-8")
    with pytest.raises(pairings.PairingsError, match="not ';'"):
        pairings.read(str(path))
