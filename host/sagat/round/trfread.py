"""FIDE's Tournament Report File (TRF16, TRF-2026: docs/trf.md) read: a tournament's lines as they are,
its players (001), byes (240) and scoring (162), and a round's pairings in the pairing programs' board
order. sagat.round.trf writes the round back onto it.

A player is a fixed-column `001` line (positions counted from 1):

     1-3  001          5-8  start rank   10  sex   11-13  title   15-47  name (33)   49-52  rating
    54-56 federation  58-68  FIDE id   70-79  birth date   81-84  points (`11.5`)   86-89  rank
    then 10 columns a round from 92: 92-95 opponent's start rank (`0000` none), 97 colour (w, b, -),
    99 result (1 = 0 win/draw/loss, + - forfeit won/lost, W D L under one move, H F U Z byes).

Columns count characters (the file is UTF-8, as JaVaFo's manual recommends for TRF(x))."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..i18n import _, ngettext


class TrfError(Exception):
    """One line for the user: the file and the line, and what is wrong there."""


# ---- the 001 line's columns (0-based Python slices of the spec's 1-based positions) ----

NAME = slice(14, 47)  # 15-47: 33 characters
POINTS = slice(80, 84)  # 81-84: "11.5"
RANK = slice(85, 89)  # 86-89
ROUND1 = 91  # round r's 10 columns start at 92 + 10 (r - 1)
MIN_001 = 84  # a player's line reaches at least its points (81-84)
EOL = "\r\n"  # TRF26 Remark 1: each line ends with a carriage return (CR LF: every reader takes it)

# A result code's kind in TRF26 tag 162 ("Scoring point system for individuals"): W win over the board or
# by forfeit, or a full-point bye; D draw or half-point bye; L loss over the board; A absence (a zero-point
# bye or a forfeit loss; a blank result is "equivalent to Z"); P pairing-allocated bye.
KIND = {"1": "W", "+": "W", "W": "W", "F": "W", "U": "P", "=": "D", "D": "D", "H": "D", "0": "L", "L": "L",
        "-": "A", "Z": "A", "": "A"}
# 162's defaults, in tenths of a point (the points column's "11.5"): toguz kumalak scores the same (TK-R2:
# win 1, draw 1/2; TK-R4: the absent player (-) 0, the opponent (+) 1). P is W's and X (an unknown
# result, which no 001 code is) D's where 162 does not give them.
SCORING = {"W": 10, "D": 5, "L": 0, "A": 0}
CODE_POINTS = {code: SCORING.get(kind, SCORING["W"]) / 10 for code, kind in KIND.items()}  # by the defaults

# What a player without a game in a round has (the round's result code; '' no entry: not paired).
BYE_NAMES = {"U": "pairing-allocated bye", "F": "full-point bye", "H": "half-point bye",
             "Z": "zero-point bye (absent)", "": "not paired", "+": "forfeit win", "-": "forfeit loss",
             "1": "win", "=": "draw", "0": "loss", "W": "win", "D": "draw", "L": "loss"}

_TAG = re.compile(r"(?:###|[0-9A-Z]{3}(?: |$))")
_POINTS = re.compile(r"[0-9]{0,3}(?:\.[0-9])?")


@dataclass
class Block:
    """One round of a player's line: the opponent's start rank (0: none), colour ('w', 'b', '-' or '')
    and result code ('' blank: with an opponent, paired and not played yet)."""

    opponent: int
    colour: str
    result: str


@dataclass
class Player:
    number: int  # the start rank (5-8)
    name: str
    points: float
    rounds: list[Block]  # rounds[r - 1]
    line: int  # its index in Tournament.lines


@dataclass
class Tournament:
    """A TRF as read: every line kept as it was (write() rewrites only what the round changes)."""

    path: str
    lines: list[str]  # every line of the file, without its end of line
    players: dict[int, Player] = field(default_factory=dict)
    byes240: dict[int, dict[int, str]] = field(default_factory=dict)  # round -> {start rank: F/H/Z}
    scoring: dict[str, int] = field(default_factory=lambda: dict(SCORING, P=10, X=5))  # 162's, tenths
    eol: str = EOL  # the file's own line end (its first), its BOM, and whether its last line has an end:
    bom: bool = False  # write() gives them back as they were
    last_eol: bool = True

    def tenths(self, code: str) -> int:
        """A result code's points by the file's tag 162, in tenths of a point."""
        return self.scoring[KIND.get(code, "A")]

    def tag(self, tag: str) -> str | None:
        """The text of the first `tag` line (after "TAG "), or None."""
        for ln in self.lines:
            if ln[:3] == tag and ln[3:4] in (" ", ""):
                return ln[4:].rstrip()
        return None


# ---- reading ----


def read(path: str) -> Tournament:
    """A TRF (TRF16 or TRF-2026) as a Tournament; TrfError naming the file and the line."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise TrfError(_("TRF file {file} not found").format(file=path)) from None
    except OSError as e:
        raise TrfError(_("cannot read TRF file {file}: {error}").format(file=path, error=e.strerror or e)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        n = data[: e.start].count(b"\n") + 1
        raise TrfError(_("{file} line {line}: not UTF-8 text (save the TRF as UTF-8)").format(
            file=path, line=n)) from None
    lines = re.split(r"\r\n|\r|\n", text)
    last_eol = bool(lines) and lines[-1] == ""
    if last_eol:
        lines.pop()
    eol = re.search(r"\r\n|\r|\n", text)
    t = Tournament(path, lines, eol=eol.group() if eol else EOL, bom=data.startswith(b"\xef\xbb\xbf"),
                   last_eol=last_eol or not lines)
    for i, ln in enumerate(lines):
        n = i + 1
        if not ln.strip():
            continue
        if not _TAG.match(ln):
            if "\x00" in ln or not t.players and not any(x.strip() for x in lines[:i]):
                raise TrfError(_("{file} line {line}: not a TRF file (its lines start with a tag and a space, "
                                 "like '012 ' or '001 ')").format(file=path, line=n))
            raise TrfError(_("{file} line {line}: {text} starts with no TRF tag (3 characters and a space)").format(
                file=path, line=n, text=repr(ln[:12])))
        if ln[:3] == "001":
            p = _player(path, n, ln, i)
            if p.number in t.players:
                raise TrfError(_("{file} line {line}: start rank {rank} is on line {other} too").format(
                    file=path, line=n, rank=p.number, other=t.players[p.number].line + 1))
            t.players[p.number] = p
        elif ln[:3] == "240":
            _byes240(t, path, n, ln)
        elif ln[:3] == "162":
            _scoring162(t, path, n, ln)
    if not t.players:
        raise TrfError(_("{file}: no player (001) line: not a TRF file").format(file=path))
    for p in t.players.values():
        for r, b in enumerate(p.rounds, 1):
            if b.opponent and b.opponent not in t.players:
                raise TrfError(_("{file} line {line}: round {round}: opponent {rank} is no player's start rank")
                               .format(file=path, line=p.line + 1, round=r, rank=b.opponent))
    return t


def _player(path: str, n: int, ln: str, i: int) -> Player:
    where = _("{file} line {line}").format(file=path, line=n)
    if len(ln) < MIN_001:
        raise TrfError(ngettext("{where}: a player (001) line of {n} character; it needs at least {least} (start rank "
                                "5-8 ... points 81-84)",
                                "{where}: a player (001) line of {n} characters; it needs at least {least} (start rank "
                                "5-8 ... points 81-84)", len(ln)).format(where=where, n=len(ln), least=MIN_001))
    raw = ln[4:8].strip()
    if not re.fullmatch(r"[0-9]{1,4}", raw) or int(raw) == 0:
        raise TrfError(_("{where}: start rank {rank} (columns 5-8) is not a number 1..9999").format(
            where=where, rank=repr(ln[4:8])))
    pts = ln[POINTS].strip()
    if not _POINTS.fullmatch(pts):
        raise TrfError(_("{where}: points {points} (columns 81-84) is not a number like 11.5").format(
            where=where, points=repr(ln[POINTS])))
    rounds = []
    for r, at in enumerate(range(ROUND1, len(ln), 10), 1):
        blk = ln[at:at + 10].ljust(10)
        opp, colour, res = blk[0:4].strip(), blk[5], blk[7].upper()
        if blk[4] != " " or blk[6] != " " or blk[8:] != "  " or (opp and not re.fullmatch(r"[0-9]+", opp)):
            raise TrfError(_("{where}: round {round} ({block}) is not in its columns: opponent {opp}, colour "
                             "{colour}, result {result}").format(where=where, round=r, block=repr(blk.rstrip()),
                                                                 opp=f"{at + 1}-{at + 4}", colour=at + 6,
                                                                 result=at + 8))
        if colour not in "wbWB- ":
            raise TrfError(_("{where}: round {round}: colour {colour} (column {column}) is not w, b or -").format(
                where=where, round=r, colour=repr(colour), column=at + 6))
        if res not in CODE_POINTS and res != " ":
            raise TrfError(_("{where}: round {round}: result {result} (column {column}) is no TRF result code")
                           .format(where=where, round=r, result=repr(blk[7]), column=at + 8))
        if opp and int(opp) == int(raw):
            raise TrfError(_("{where}: round {round}: player {rank} is paired with itself").format(
                where=where, round=r, rank=int(raw)))
        rounds.append(Block(int(opp or 0), colour.strip().lower(), res.strip()))
    while rounds and rounds[-1] == Block(0, "", ""):
        rounds.pop()
    return Player(int(raw), ln[NAME].strip(), float(pts or 0), rounds, i)


def _byes240(t: Tournament, path: str, n: int, ln: str) -> None:
    """TRF26's bye record: 240 T RRR PPPP PPPP ... (T: F, H or Z; RRR the round; the players)."""
    m = re.fullmatch(r"240 ([FHZ]) +([0-9]{1,3})((?: +[0-9]{1,4})+) *", ln)
    if not m:
        raise TrfError(_("{file} line {line}: a bye (240) line is 240, F/H/Z, the round, the start ranks").format(
            file=path, line=n))
    for num in m.group(3).split():
        t.byes240.setdefault(int(m.group(2)), {})[int(num)] = m.group(1)


def _scoring162(t: Tournament, path: str, n: int, ln: str) -> None:
    """TRF26's scoring: a kind (W, D, L, A, P, X) at position 6 and its points at 7-10 ("11.5"), the next
    pair 9 columns on (15, 16-19; 24, 25-28; ...). bbpPairings writes A as Z (its absence: a forfeit loss
    or a zero-point bye), and so it is read."""
    where = _("{file} line {line}: tag 162").format(file=path, line=n)
    form = _("162  W 1.0    D 0.5 ...: a kind at 6, its points at 7-10, the next 9 columns on")
    body = ln.rstrip()
    if len(body) < 6:
        raise TrfError(_("{where}: no scoring at position 6 ({form})").format(where=where, form=form))
    given = {}
    for at in range(5, len(body), 9):
        kind, pts = body[at], body[at + 1:at + 5]
        if kind not in "WDLAPXZ":
            raise TrfError(_("{where}: {kind} (position {at}) is none of W, D, L, A, P, X ({form})").format(
                where=where, kind=repr(kind), at=at + 1, form=form))
        if not pts.strip() or not _POINTS.fullmatch(pts.strip()):
            raise TrfError(_("{where}: {kind}'s points {points} (positions {at}) are not a number like 11.5")
                           .format(where=where, kind=kind, points=repr(pts.strip()), at=f"{at + 2}-{at + 5}"))
        if body[at + 5:at + 9].strip():
            raise TrfError(_("{where}: {text} at positions {at}, which are blank ({form})").format(
                where=where, text=repr(body[at + 5:at + 14].strip()), at=f"{at + 6}-{at + 9}", form=form))
        given["A" if kind == "Z" else kind] = round(float(pts) * 10)
    t.scoring.update({k: v for k, v in given.items() if k in SCORING})
    t.scoring["P"] = given.get("P", t.scoring["W"])
    t.scoring["X"] = given.get("X", t.scoring["D"])


# ---- the round's pairings ----


def _score(t: Tournament, p: Player, rnd: int) -> int:
    """The player's score before round `rnd`, by the file's tag 162 (tenths)."""
    return sum(t.tenths(b.result) for b in p.rounds[: rnd - 1])


def _paired(t: Tournament, rnd: int) -> list[Player]:
    return [p for p in t.players.values() if rnd <= len(p.rounds) and p.rounds[rnd - 1].opponent]


def _to_play(t: Tournament) -> int:
    """The first round paired (an opponent in its block) with a pair still without a result: ITDX writes
    a paired, unplayed game as opponent and colour with the result column blank (the pairing program
    may have entered a forfeit it knew of in the round's other pairs)."""
    last = max((len(p.rounds) for p in t.players.values()), default=0)
    played = []
    for r in range(1, last + 1):
        ps = _paired(t, r)
        if any(not p.rounds[r - 1].result for p in ps):
            return r
        if ps:
            played.append(r)
    got = (_("rounds {first}-{last} have results").format(first=played[0], last=played[-1]) if played
           else _("no round is paired"))
    raise TrfError(_("{file}: no round is paired and still without results ({got}); give the round (--round N)")
                   .format(file=t.path, got=got))


def pairings(t: Tournament, round_no: int | None = None
             ) -> tuple[int, dict[int, tuple[str, str]], dict[int, tuple[int, int]]]:
    """(round, {board: (White's name, Black's name)}, {board: (White's start rank, Black's)}).

    The round is `round_no`, else the first one paired with no result yet. TRF-2026 has no board
    numbers for individuals: boards are numbered in the order pairing programs publish (FIDE C.04, the
    sorting of the pairs): the higher score of the pair first, then the pair's sum of scores, then the
    start rank of the pair's higher-placed player; scores before the round, by the file's tag 162.
    White (the first player, бастаушы) sits at the left face. Players without an opponent: byes()."""
    rnd = _to_play(t) if round_no is None else int(round_no)
    if rnd < 1:
        raise TrfError(_("{file}: round {round} is not a round number").format(file=t.path, round=rnd))
    ps = _paired(t, rnd)
    if not ps:
        raise TrfError(_("{file}: round {round} has no pairings (no opponent in columns {columns})").format(
            file=t.path, round=rnd, columns=f"{ROUND1 + 10 * (rnd - 1) + 1}-{ROUND1 + 10 * (rnd - 1) + 4}"))
    pairs = []
    for p in ps:
        b = p.rounds[rnd - 1]
        q = t.players[b.opponent]
        qb = q.rounds[rnd - 1] if rnd <= len(q.rounds) else Block(0, "", "")
        where = _("{file} line {line}: round {round}").format(file=t.path, line=p.line + 1, round=rnd)
        if qb.opponent != p.number:
            says = _("has {rank}").format(rank=qb.opponent) if qb.opponent else _("has no opponent")
            raise TrfError(_("{where}: player {rank} is paired with {other}, whose line {says} there").format(
                where=where, rank=p.number, other=q.number, says=says))
        if b.colour not in ("w", "b") or {b.colour, qb.colour} != {"w", "b"}:
            raise TrfError(_("{where}: players {rank} and {other} have colours {colour} and {other_colour}; a "
                             "pairing has one w and one b").format(where=where, rank=p.number, other=q.number,
                                                                   colour=repr(b.colour or "-"),
                                                                   other_colour=repr(qb.colour or "-")))
        if b.colour == "w":
            pairs.append((p, q))

    def order(pair: tuple[Player, Player]) -> tuple[int, int, int]:
        (sw, w), (sb, k) = (_score(t, pair[0], rnd), pair[0].number), (_score(t, pair[1], rnd), pair[1].number)
        top = min((-sw, w), (-sb, k))  # the higher-placed: more points, then the lower start rank
        return (top[0], -(sw + sb), top[1])

    pairs.sort(key=order)
    names = {i: (w.name, k.name) for i, (w, k) in enumerate(pairs, 1)}
    numbers = {i: (w.number, k.number) for i, (w, k) in enumerate(pairs, 1)}
    return rnd, names, numbers


def byes(t: Tournament, round_no: int) -> dict[int, tuple[str, str]]:
    """{start rank: (name, code)} of the players with no opponent in the round: code U (pairing-allocated
    bye), F, H, Z (full-point, half-point, zero-point bye; also from 240 records), '+'/'-' (a forfeit
    without an opponent) or '' (not paired: the spec's blank). BYE_NAMES says each in words."""
    rnd = int(round_no)
    out = {}
    extra = t.byes240.get(rnd, {})
    for n in sorted(t.players):
        p = t.players[n]
        b = p.rounds[rnd - 1] if rnd <= len(p.rounds) else Block(0, "", "")
        if not b.opponent:
            out[n] = (p.name, b.result or extra.get(n, ""))
    return out
