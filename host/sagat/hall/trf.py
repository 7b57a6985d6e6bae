"""FIDE's Tournament Report File, version 2026 (TRF-2026, docs/trf.md): a round's results out to the
pairing program, and a round's pairings in from the TRF the pairing program exported.

The format is FIDE's TRF26 (approved by the FIDE Council 12/05/2025,
https://handbook.fide.com/files/handbook/TRF26.pdf; its text: https://gh.p.csz.net/echecsjs/trf/blob/main/SPEC.md).
A line starts with a 3-character tag; a player is a fixed-column `001` line (positions counted from 1):

     1-3  001          5-8  start rank   10  sex   11-13  title   15-47  name (33)   49-52  rating
    54-56 federation  58-68  FIDE id   70-79  birth date   81-84  points (`11.5`)   86-89  rank
    then 10 columns a round from 92: 92-95 opponent's start rank (`0000` none), 97 colour (w, b, -),
    99 result (1 = 0 win/draw/loss, + - forfeit won/lost, W D L under one move, H F U Z byes).

Columns count characters (the file is UTF-8, as JaVaFo's manual recommends for TRF(x)). A game is
written left-right as the clock has it (rules.RESULT_NAMES: "1-0" the left player won); the player who
moved first (бастаушы) is White."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from sagatfw.core import presets, tcparse
from sagatfw.core import timecontrol as T


class TrfError(Exception):
    """One line for the user: the file and the line, and what is wrong there."""


# ---- the 001 line's columns (0-based Python slices of the spec's 1-based positions) ----

NAME = slice(14, 47)  # 15-47: 33 characters
POINTS = slice(80, 84)  # 81-84: "11.5"
RANK = slice(85, 89)  # 86-89
ROUND1 = 91  # round r's 10 columns start at 92 + 10 (r - 1)
MIN_001 = 84  # a player's line reaches at least its points (81-84)
EOL = "\r\n"  # TRF26 Remark 1: each line ends with a carriage return (CR LF: every reader takes it)

# A player's points per result code: TRF26 tag 162's defaults (W win or forfeit win or full-point bye 1,
# D draw or half-point bye 0.5, L loss and A absence 0, P pairing-allocated bye as W); toguz kumalak
# scores the same (TK-R2: win 1, draw 1/2; TK-R4: the absent player (-) 0, the opponent (+) 1).
CODE_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5,
               "0": 0.0, "-": 0.0, "L": 0.0, "Z": 0.0, "": 0.0}

# The clock's result (left-right, rules.RESULT_NAMES) -> (left's code, right's code).
RESULTS = {
    "1-0": ("1", "0"),  # TK-R2
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+/-": ("+", "-"),  # TK-R4: the right player did not appear (-), the left (+)
    "-/+": ("-", "+"),
    "-/-": ("-", "-"),  # TK-R4: both absent, both lose: a forfeit loss each, paired with each other
}

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

    def tag(self, tag: str) -> str | None:
        """The text of the first `tag` line (after "TAG "), or None."""
        for ln in self.lines:
            if ln[:3] == tag and ln[3:4] in (" ", ""):
                return ln[4:].rstrip()
        return None


# ---- the time control ----


def _secs(ms: int) -> int:
    return ms // 1000


def _side_code(tc: T.TimeControl) -> tuple[str | None, str]:
    """One side's control in tag 222's period descriptors: M/S, M/S+I, S, S+I joined by ':'."""
    if tc.kind == T.COUNTUP:
        return None, "no time limit (count-up) has no TRF-2026 form"
    if tc.kind == T.HOURGLASS:
        return None, "hourglass (the time one side uses goes to the other) has no TRF-2026 form"
    if tc.byo != T.BYO_NONE:
        kind = "Japanese" if tc.byo == T.BYO_JAPANESE else "Canadian"
        return None, f"{kind} byo-yomi has no TRF-2026 form (tag 222 knows moves, seconds and increments)"
    parts = []
    for s in tc.stages:
        if s.mode in (T.DELAY, T.BRONSTEIN):
            kind = "a simple (US) delay" if s.mode == T.DELAY else "a Bronstein delay"
            return None, (f"{kind} of {_secs(s.bonus_ms)} s has no TRF-2026 form "
                          f"(tag 222 knows only increments, +I)")
        d = (f"{s.moves}/" if s.moves else "") + str(_secs(s.time_ms))
        parts.append(d + (f"+{_secs(s.bonus_ms)}" if s.mode == T.FISCHER else ""))
    note = ""
    if tc.repeats():
        last = tc.stages[-1]
        note = (f"sagat repeats the last period ({last.moves} moves in {_secs(last.time_ms)} s) to the end "
                f"of the game; TRF-2026 does not say a period repeats")
    return ":".join(parts), note


def tc_field(tc: str, white: str | None = None) -> tuple[str | None, str]:
    """sagat's TimeControl string (or a preset's name) -> (TRF-2026 tag 222's encoded time control, note).

    The note is '' when the code says exactly what the clock plays, else what it loses or why there is
    no code (None). A handicap ("LEFT|RIGHT", per face) becomes 222's per-colour form W..-B.. only when
    `white` says which face White (the first player) sits at ("left" or "right")."""
    if not isinstance(tc, str):
        return None, f"bad TimeControl {tc!r}: not a string"
    text = presets.preset(tc.strip()) or tc
    try:
        left, right = tcparse.parse_sides(text)
    except ValueError as e:
        return None, str(e)
    if str(left) == str(right):
        return _side_code(left)
    if white not in ("left", "right"):
        return None, ("a handicap (LEFT|RIGHT) is per face; TRF-2026 writes one per colour (W..-B..), "
                      "which needs White at the same face on every board")
    w, b = (left, right) if white == "left" else (right, left)
    (wc, wn), (bc, bn) = _side_code(w), _side_code(b)
    if wc is None or bc is None:
        return None, ("White: " + wn) if wc is None else ("Black: " + bn)
    note = "; ".join(n for n in (wn and "White: " + wn, bn and "Black: " + bn) if n)
    return f"W{wc}-B{bc}", note


def _dur(secs: int) -> str:
    h, m, s = secs // 3600, secs % 3600 // 60, secs % 60
    if h and not m and not s:
        return f"{h} h"
    if secs >= 60 and not s:
        return f"{secs // 60} min"
    return f"{secs // 60} min {s} s" if secs >= 60 else f"{s} s"


def _words(tc: T.TimeControl) -> str:
    """One side's control in words, for tag 122 (its allotted times, free text)."""
    if tc.kind == T.COUNTUP:
        return "no time limit"
    if tc.kind == T.HOURGLASS:
        return f"hourglass, {_dur(_secs(tc.stages[0].time_ms))}"
    out = []
    for i, s in enumerate(tc.stages):
        t = (f"{s.moves} moves in " if s.moves else "") + _dur(_secs(s.time_ms))
        b = _secs(s.bonus_ms)
        t += {T.FISCHER: f" + {b} s a move", T.DELAY: f", {b} s delay", T.BRONSTEIN: f", {b} s Bronstein delay"
              }.get(s.mode, "")
        if i == len(tc.stages) - 1 and s.moves and len(tc.stages) > 1:
            t += ", repeated"
        out.append(t)
    if tc.byo == T.BYO_JAPANESE:
        out.append(f"{tc.byo_count} x {_secs(tc.byo_ms)} s byo-yomi")
    elif tc.byo == T.BYO_CANADIAN:
        out.append(f"{tc.byo_count} moves in {_dur(_secs(tc.byo_ms))} (byo-yomi), repeated")
    return ", then ".join(out)


def tc_words(tc: str, white: str | None = None) -> str | None:
    """Tag 122's text: the control in words (a handicap per colour when `white` is known, else per face)."""
    if not isinstance(tc, str):
        return None
    text = presets.preset(tc.strip()) or tc
    try:
        left, right = tcparse.parse_sides(text)
    except ValueError:
        return None
    if str(left) == str(right):
        return _words(left)
    if white in ("left", "right"):
        w, b = (left, right) if white == "left" else (right, left)
        return f"White: {_words(w)}; Black: {_words(b)}"
    return f"left: {_words(left)}; right: {_words(right)}"


# ---- writing ----


def _name(name: str) -> str:
    """The name field (15-47): 33 characters, cut by characters (never inside a UTF-8 sequence, nor
    between a letter and its combining mark), on one line."""
    name = unicodedata.normalize("NFC", " ".join(str(name or "").split()))
    name = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in name)
    cut = 33
    while cut and len(name) > cut and unicodedata.combining(name[cut]):
        cut -= 1  # a mark that NFC could not join to its letter stays with it
    return name[:cut].ljust(33)


def _block(opponent: int, colour: str, result: str) -> str:
    """A round's 10 columns: opponent (4), colour, result (blank: paired, not played yet)."""
    return f"{opponent:4d} {colour or ' '} {result or ' '}  "


def _rank(points: dict[int, float]) -> dict[int, int]:
    """Rank by points, ties sharing a rank (TRF26 86-89: "ties allowed"); 1, 1, 3."""
    order = sorted(points.values(), reverse=True)
    return {n: order.index(p) + 1 for n, p in points.items()}


def _ymd(date: str | None, short: bool = False) -> str | None:
    m = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", (date or "").strip())
    if not m:
        return None
    y, mo, d = m.groups()
    return f"{y[2:]}/{mo}/{d}" if short else f"{y}/{mo}/{d}"


def _with_round_date(line: str, rnd: int, date: str) -> str:
    """Tag 132's line with round `rnd`'s date (YY/MM/DD) at 92 + 10 (rnd - 1)."""
    at = ROUND1 + 10 * (rnd - 1)
    line = line.ljust(at)
    return line[:at] + date + line[at + 8:]


def _codes(g: dict) -> tuple[str, str]:
    """(left's code, right's code) of a game's result."""
    if g.get("first", "left") not in ("left", "right"):
        raise TrfError(f"board {g.get('board')}: first is {g.get('first')!r}, not 'left' or 'right'")
    r = g.get("result")
    if r is None:
        return "", ""  # not finished: paired, no result yet (the result column left blank)
    if r not in RESULTS:
        raise TrfError(f"board {g.get('board')}: result {r!r} is none of {', '.join(RESULTS)}")
    return RESULTS[r]


def _white(games: list[dict]) -> str | None:
    firsts = {g.get("first", "left") for g in games}
    return firsts.pop() if len(firsts) == 1 else None


def _header(event: dict, games: list[dict], have: set[str]) -> list[str]:
    """The header lines the round adds (those whose tag is not in `have`)."""
    out = []
    rnd = int(event.get("round") or 1)
    add = {
        "012": event.get("name"),
        "022": event.get("city"),
        "042": _ymd(event.get("date")),
        "092": "Toguz kumalak",
        "102": event.get("arbiter"),
    }
    tc = event.get("tc")
    white = _white(games)
    if tc:
        add["122"] = tc_words(tc, white)
    day = _ymd(event.get("date"), short=True)
    if day:
        add["132"] = _with_round_date("132", rnd, day)[4:]
    if tc:
        add["222"] = tc_field(tc, white)[0]
    for tag, value in add.items():
        if value and tag not in have:
            value = value if tag == "132" else " ".join(str(value).split())  # one line
            out.append(f"{tag} {value}".rstrip())
    return out


def write(event: dict, games: list[dict], source: Tournament | None = None) -> str:
    """The round as TRF-2026 text (lines end CR LF; save it with save() or open(..., newline="")).

    event: {"name", "round", "date" YYYY-MM-DD, "city", "arbiter", "tc"} (None where unknown).
    games: one per board: {"board", "left", "right", "first": "left"|"right" (White), "result":
    "1-0" | "0-1" | "1/2-1/2" | "+/-" | "-/+" | "-/-" (left-right) or None (not finished)}.
    Without `source`, the players are numbered by board (board 1's White 1, its Black 2, ...) and
    their points are this round's. With `source` (read()), every line stays as it was but this round's
    blocks, the points and ranks of the players whose games are written, tag 132's date of the round,
    and the header tags the source lacks (122, 222 from event["tc"])."""
    rnd = int(event.get("round") or 0)
    if not 1 <= rnd <= 999:
        raise TrfError(f"round {event.get('round')!r} is not a round number 1..999")
    games = sorted(games, key=lambda g: int(g["board"]))
    boards = [int(g["board"]) for g in games]
    if len(set(boards)) != len(boards):
        raise TrfError(f"a board is given twice: {boards}")
    if source is None:
        return _fresh(event, games, rnd)
    return _onto(event, games, rnd, source)


def _fresh(event: dict, games: list[dict], rnd: int) -> str:
    players = []  # (number, name, block, points)
    for k, g in enumerate(games):
        lc, rc = _codes(g)
        first = g.get("first", "left")
        w, b = 2 * k + 1, 2 * k + 2
        faces = {"left": (g.get("left"), lc), "right": (g.get("right"), rc)}
        other = "right" if first == "left" else "left"
        for num, face, opp, colour in ((w, first, b, "w"), (b, other, w, "b")):
            name, code = faces[face]
            players.append((num, name or f"Board {g['board']}, {face}", _block(opp, colour, code),
                            CODE_POINTS[code]))
    ranks = _rank({n: p for n, _, _, p in players})
    lines = sorted(_header(event, games, set()) + [f"062 {len(players)}"], key=lambda ln: ln[:3])
    for num, name, block, pts in players:
        fixed = f"001 {num:4d}      {_name(name)}" + " " * 33 + f"{pts:4.1f} {ranks[num]:4d}  "
        lines.append(fixed + "          " * (rnd - 1) + block.rstrip())
    return "".join(ln + EOL for ln in lines)


def _norm(name: str | None) -> str:
    return unicodedata.normalize("NFC", " ".join(str(name or "").split())).casefold()[:33]


def _numbers(t: Tournament, rnd: int, games: list[dict]) -> dict[int, tuple[int, int]]:
    """{board: (left's start rank, right's)}: by the source's pairing of the board in this round (the
    names on the clock must be the pairing's), or by name where the source has no pairing this round."""
    paired = pairings(t, rnd)[2] if _paired(t, rnd) else None  # a wrong pairing is an error, not "none"
    by_name: dict[str, list[int]] = {}
    for p in t.players.values():
        by_name.setdefault(_norm(p.name), []).append(p.number)
    out: dict[int, tuple[int, int]] = {}
    for g in games:
        b, left, right = int(g["board"]), _norm(g.get("left")), _norm(g.get("right"))
        if paired is not None:
            if not left and not right:  # no names on the clock: the board's pairing, White at the first face
                if b not in paired:
                    raise TrfError(f"{t.path}: board {b} is not paired in round {rnd}")
                w, k = paired[b]
                out[b] = (w, k) if g.get("first", "left") == "left" else (k, w)
                continue
            for w, k in paired.values():  # the pair the names are (the clock's board numbers may differ)
                nw, nk = _norm(t.players[w].name), _norm(t.players[k].name)
                if (left, right) in ((nw, nk), (nk, nw)):
                    out[b] = (w, k) if (left, right) == (nw, nk) else (k, w)
                    break
            else:
                raise TrfError(f"{t.path}: board {b}: the clock's players {g.get('left')!r} and "
                               f"{g.get('right')!r} are no pairing of round {rnd}")
            continue
        pair = []
        for face, name in (("left", left), ("right", right)):
            found = by_name.get(name, [])
            if len(found) != 1:
                why = "no player" if not found else f"{len(found)} players"
                raise TrfError(f"{t.path}: board {b}: {why} named {g.get(face)!r} ({face})")
            pair.append(found[0])
        out[b] = (pair[0], pair[1])
    seen: dict[int, int] = {}
    for b, two in out.items():
        for n in two:
            if n in seen:
                raise TrfError(f"{t.path}: player {n} ({t.players[n].name}) is at boards {seen[n]} and {b}")
            seen[n] = b
    return out


def _onto(event: dict, games: list[dict], rnd: int, t: Tournament) -> str:
    nums = _numbers(t, rnd, games)
    new: dict[int, Block] = {}
    for g in games:
        left, right = nums[int(g["board"])]
        lc, rc = _codes(g)
        lcol, rcol = ("w", "b") if g.get("first", "left") == "left" else ("b", "w")  # the first player: White
        new[left] = Block(right, lcol, lc)
        new[right] = Block(left, rcol, rc)
    points = {}
    for n, p in t.players.items():
        points[n] = p.points
        if n in new:
            old = p.rounds[rnd - 1] if rnd <= len(p.rounds) else Block(0, "", "")
            points[n] = p.points - CODE_POINTS.get(old.result, 0.0) + CODE_POINTS[new[n].result]
    ranks = _rank(points)
    lines = list(t.lines)
    for n, p in t.players.items():
        if n not in new:
            continue
        s = lines[p.line].ljust(ROUND1 + 10 * rnd)
        s = s[:POINTS.start] + f"{points[n]:4.1f}" + s[POINTS.stop:RANK.start] + f"{ranks[n]:4d}" + s[RANK.stop:]
        at = ROUND1 + 10 * (rnd - 1)
        b = new[n]
        lines[p.line] = (s[:at] + _block(b.opponent, b.colour, b.result) + s[at + 10:]).rstrip()
    day = _ymd(event.get("date"), short=True)
    have = {ln[:3] for ln in lines}
    for i, ln in enumerate(lines):
        if day and ln[:3] == "132" and not ln[ROUND1 + 10 * (rnd - 1):ROUND1 + 10 * rnd].strip():
            lines[i] = _with_round_date(ln, rnd, day).rstrip()
    add = [ln for ln in _header(event, games, have) if ln[:3] in ("122", "132", "222")]
    first = next((i for i, ln in enumerate(lines) if ln[:3] == "001"), len(lines))
    lines[first:first] = add
    return "".join(ln + EOL for ln in lines)


def save(path: str, text: str) -> None:
    """Write write()'s text to `path` as it is: UTF-8, CR LF kept (no newline translation)."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


# ---- reading ----


def read(path: str) -> Tournament:
    """A TRF (TRF16 or TRF-2026) as a Tournament; TrfError naming the file and the line."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise TrfError(f"TRF file {path} not found") from None
    except OSError as e:
        raise TrfError(f"cannot read TRF file {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        n = data[: e.start].count(b"\n") + 1
        raise TrfError(f"{path} line {n}: not UTF-8 text (save the TRF as UTF-8)") from None
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    t = Tournament(path, lines)
    for i, ln in enumerate(lines):
        n = i + 1
        if not ln.strip():
            continue
        if not _TAG.match(ln):
            if "\x00" in ln or not t.players and not any(x.strip() for x in lines[:i]):
                raise TrfError(f"{path} line {n}: not a TRF file (its lines start with a tag and a space, "
                               f"like '012 ' or '001 ')")
            raise TrfError(f"{path} line {n}: {ln[:12]!r} starts with no TRF tag (3 characters and a space)")
        if ln[:3] == "001":
            p = _player(path, n, ln, i)
            if p.number in t.players:
                raise TrfError(f"{path} line {n}: start rank {p.number} is on line "
                               f"{t.players[p.number].line + 1} too")
            t.players[p.number] = p
        elif ln[:3] == "240":
            _byes240(t, path, n, ln)
    if not t.players:
        raise TrfError(f"{path}: no player (001) line: not a TRF file")
    for p in t.players.values():
        for r, b in enumerate(p.rounds, 1):
            if b.opponent and b.opponent not in t.players:
                raise TrfError(f"{path} line {p.line + 1}: round {r}: opponent {b.opponent} is no player's "
                               f"start rank")
    return t


def _player(path: str, n: int, ln: str, i: int) -> Player:
    where = f"{path} line {n}"
    if len(ln) < MIN_001:
        raise TrfError(f"{where}: a player (001) line of {len(ln)} characters; it needs at least {MIN_001} "
                       f"(start rank 5-8 ... points 81-84)")
    raw = ln[4:8].strip()
    if not re.fullmatch(r"[0-9]{1,4}", raw) or int(raw) == 0:
        raise TrfError(f"{where}: start rank {ln[4:8]!r} (columns 5-8) is not a number 1..9999")
    pts = ln[POINTS].strip()
    if not _POINTS.fullmatch(pts):
        raise TrfError(f"{where}: points {ln[POINTS]!r} (columns 81-84) is not a number like 11.5")
    rounds = []
    for r, at in enumerate(range(ROUND1, len(ln), 10), 1):
        blk = ln[at:at + 10].ljust(10)
        opp, colour, res = blk[0:4].strip(), blk[5], blk[7].upper()
        if blk[4] != " " or blk[6] != " " or blk[8:] != "  " or (opp and not re.fullmatch(r"[0-9]+", opp)):
            raise TrfError(f"{where}: round {r} ({blk.rstrip()!r}) is not in its columns: opponent "
                           f"{at + 1}-{at + 4}, colour {at + 6}, result {at + 8}")
        if colour not in "wbWB- ":
            raise TrfError(f"{where}: round {r}: colour {colour!r} (column {at + 6}) is not w, b or -")
        if res not in CODE_POINTS and res != " ":
            raise TrfError(f"{where}: round {r}: result {blk[7]!r} (column {at + 8}) is no TRF result code")
        if opp and int(opp) == int(raw):
            raise TrfError(f"{where}: round {r}: player {int(raw)} is paired with itself")
        rounds.append(Block(int(opp or 0), colour.strip().lower(), res.strip()))
    while rounds and rounds[-1] == Block(0, "", ""):
        rounds.pop()
    return Player(int(raw), ln[NAME].strip(), float(pts or 0), rounds, i)


def _byes240(t: Tournament, path: str, n: int, ln: str) -> None:
    """TRF26's bye record: 240 T RRR PPPP PPPP ... (T: F, H or Z; RRR the round; the players)."""
    m = re.fullmatch(r"240 ([FHZ]) +([0-9]{1,3})((?: +[0-9]{1,4})+) *", ln)
    if not m:
        raise TrfError(f"{path} line {n}: a bye (240) line is 240, F/H/Z, the round, the start ranks")
    for num in m.group(3).split():
        t.byes240.setdefault(int(m.group(2)), {})[int(num)] = m.group(1)


# ---- the round's pairings ----


def _score(p: Player, rnd: int) -> float:
    return sum(CODE_POINTS.get(b.result, 0.0) for b in p.rounds[: rnd - 1])


def _paired(t: Tournament, rnd: int) -> list[Player]:
    return [p for p in t.players.values() if rnd <= len(p.rounds) and p.rounds[rnd - 1].opponent]


def _to_play(t: Tournament) -> int:
    """The first round paired (an opponent in its block) with no result in any of its pairs: ITDX writes
    a paired, unplayed game as opponent and colour with the result column blank."""
    last = max((len(p.rounds) for p in t.players.values()), default=0)
    played = []
    for r in range(1, last + 1):
        ps = _paired(t, r)
        if ps and all(not p.rounds[r - 1].result for p in ps):
            return r
        if ps:
            played.append(r)
    got = f"rounds {played[0]}-{played[-1]} have results" if played else "no round is paired"
    raise TrfError(f"{t.path}: no round is paired and still without results ({got}); give the round (--round N)")


def pairings(t: Tournament, round_no: int | None = None
             ) -> tuple[int, dict[int, tuple[str, str]], dict[int, tuple[int, int]]]:
    """(round, {board: (White's name, Black's name)}, {board: (White's start rank, Black's)}).

    The round is `round_no`, else the first one paired with no result yet. TRF-2026 has no board
    numbers for individuals: boards are numbered in the order pairing programs publish (FIDE C.04, the
    sorting of the pairs): the higher score of the pair first, then the pair's sum of scores, then the
    start rank of the pair's higher-placed player; scores before the round, by tag 162's defaults.
    White (the first player, бастаушы) sits at the left face. Players without an opponent: byes()."""
    rnd = _to_play(t) if round_no is None else int(round_no)
    if rnd < 1:
        raise TrfError(f"{t.path}: round {rnd} is not a round number")
    ps = _paired(t, rnd)
    if not ps:
        raise TrfError(f"{t.path}: round {rnd} has no pairings (no opponent in columns "
                       f"{ROUND1 + 10 * (rnd - 1) + 1}-{ROUND1 + 10 * (rnd - 1) + 4})")
    pairs = []
    for p in ps:
        b = p.rounds[rnd - 1]
        q = t.players[b.opponent]
        qb = q.rounds[rnd - 1] if rnd <= len(q.rounds) else Block(0, "", "")
        where = f"{t.path} line {p.line + 1}: round {rnd}"
        if qb.opponent != p.number:
            says = f"has {qb.opponent}" if qb.opponent else "has no opponent"
            raise TrfError(f"{where}: player {p.number} is paired with {q.number}, whose line {says} there")
        if b.colour not in ("w", "b") or {b.colour, qb.colour} != {"w", "b"}:
            raise TrfError(f"{where}: players {p.number} and {q.number} have colours {b.colour or '-'!r} and "
                           f"{qb.colour or '-'!r}; a pairing has one w and one b")
        if b.colour == "w":
            pairs.append((p, q))

    def order(pair: tuple[Player, Player]) -> tuple[float, float, int]:
        (sw, w), (sb, k) = (_score(pair[0], rnd), pair[0].number), (_score(pair[1], rnd), pair[1].number)
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
