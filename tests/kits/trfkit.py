"""A small TRF reader (and a 001 line builder) for the tests, written from FIDE's TRF-2026 text
(https://handbook.fide.com/files/handbook/TRF26.pdf), not from sagat's host/sagat/round/trf.py, so that
it checks that writer: strict about the columns, so a field one column off fails here.

001 line, positions from 1: 1-3 "001", 5-8 start rank, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
54-56 federation, 58-68 FIDE number, 70-79 birth date, 81-84 points (11.5), 86-89 rank; round r at
92 + 10 (r - 1): opponent (4 columns), a blank, colour (w, b, -), a blank, result, two blanks."""


def _field(line, first, last):
    """Positions first..last (1-based, inclusive) of the line, blanks kept."""
    return line[first - 1:last].ljust(last - first + 1)


def read_trf(text):
    """(tags, players): tags {tag: [text after "TAG ", ...]} for every line but 001; players
    {start rank: {"name", "points", "rank", "rounds": [(opponent, colour, result)], "line"}}, the
    round's colour and result ' ' where blank (a round's blank opponent is 0)."""
    tags = {}
    players = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        assert line[3:4] in (" ", ""), "no tag and blank at 1-4: %r" % line
        if line[:3] != "001":
            tags.setdefault(line[:3], []).append(line[4:])
            continue
        for pos in (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91):  # the blanks between the fields
            assert _field(line, pos, pos) == " ", "position %d is not blank: %r" % (pos, line)
        number = int(_field(line, 5, 8))
        points = float(_field(line, 81, 84))
        assert len(_field(line, 81, 84).strip().split(".")[-1]) == 1, "points not like 11.5: %r" % line
        rank = _field(line, 86, 89).strip()
        rounds = []
        start = 92
        while start <= len(line):
            block = _field(line, start, start + 9)
            assert block[4] == " " and block[6] == " " and block[8:] == "  ", "round block %r" % block
            opp = block[:4].strip()
            assert block[5] in "wb- ", "colour %r" % block[5]
            assert block[7] in "+-WDL1=0HFUZ ", "result %r" % block[7]
            rounds.append((int(opp) if opp else 0, block[5], block[7]))
            start += 10
        assert number not in players, "start rank %d twice" % number
        players[number] = {"name": _field(line, 15, 47).rstrip(), "points": points,
                           "rank": int(rank) if rank else None, "rounds": rounds, "line": line}
    return tags, players


def player_line(number, name, points, rounds, rank=None, sex="m", rating="", fed="KAZ", born=""):
    """A 001 line by the spec's columns; rounds: [(opponent, colour, result)] from round 1."""
    line = "001 %4d %1s%3s %-33s %4s %3s %11s %10s %4.1f %4s  " % (
        number, sex, "", name[:33], rating, fed, "", born, points, "" if rank is None else rank)
    assert len(line) == 91
    for opp, colour, result in rounds:
        line += "%4s %1s %1s  " % ("0000" if opp == 0 else opp, colour, result)
    return line.rstrip()


# TRF-2026 tag 162: the points of each kind of result (W win OTB or by forfeit or full-point bye, D draw or
# half-point bye, L loss OTB, A absence: zero-point bye or forfeit loss, P pairing-allocated bye (as W),
# X unknown (as D)); and each result code's kind (the result table; a blank is "equivalent to Z")
DEFAULT_SCORES = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0}
KIND = {"1": "W", "+": "W", "W": "W", "F": "W", "U": "P", "=": "D", "D": "D", "H": "D", "0": "L", "L": "L",
        "-": "A", "Z": "A", " ": "A"}


def scores(tags):
    """{kind: points} from the 162 lines of read_trf's tags: its code at position 6, the points at 7-10
    ("11.5"), the next pair 9 columns on (15, 16-19; 24, 25-28; ...)."""
    given = {}
    for text in tags.get("162", []):
        line = ("162 " + text).rstrip()
        for at in range(5, len(line), 9):
            assert line[at] in "WDLAPX" and line[at + 5:at + 9].strip() == "", "162 %r" % line
            given[line[at]] = float(line[at + 1:at + 5])
    out = dict(DEFAULT_SCORES, **{k: v for k, v in given.items() if k in DEFAULT_SCORES})
    out["P"] = given.get("P", out["W"])
    out["X"] = given.get("X", out["D"])
    return out


def points_by_results(player, table):
    """A player's points as his rounds' results give them under `table` (scores()): what a pairing
    engine checks the points column (81-84) against."""
    return sum(table[KIND[result]] for _opp, _colour, result in player["rounds"])
