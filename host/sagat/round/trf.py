"""FIDE's Tournament Report File, version 2026 (TRF-2026, docs/trf.md): a round's results out to the
pairing program (write), onto the TRF the pairing program exported (read, pairings: trfread.py), with
the time control in its tags 122 and 222 (trftime.py). This module is the three's one door.

The format is FIDE's TRF26 (approved by the FIDE Council 12/05/2025,
https://handbook.fide.com/files/handbook/TRF26.pdf; its text: https://gh.p.csz.net/echecsjs/trf/blob/main/SPEC.md).
A game is written left-right as the clock has it (rules.RESULT_NAMES: "1-0" the left player won); the
player who moved first (бастаушы) is White."""

from __future__ import annotations

import re
import unicodedata

from .trfread import (  # noqa: F401  (the reader's names, trf.read, trf.pairings, ..., are this module's)
    BYE_NAMES,
    CODE_POINTS,
    EOL,
    MIN_001,
    NAME,
    POINTS,
    RANK,
    ROUND1,
    Block,
    Player,
    Tournament,
    TrfError,
    _paired,
    byes,
    pairings,
    read,
)
from .trftime import tc_field, tc_words  # noqa: F401

# The clock's result (left-right, rules.RESULT_NAMES) -> (left's code, right's code).
RESULTS = {
    "1-0": ("1", "0"),  # TK-R2
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+/-": ("+", "-"),  # TK-R4: the right player did not appear (-), the left (+)
    "-/+": ("-", "+"),
    "-/-": ("-", "-"),  # TK-R4: both absent, both lose: a forfeit loss each, paired with each other
}

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
    """Rank by points, ties sharing a rank (TRF26 86-89: "ties allowed"), the next rank counting them
    (standard competition ranking: 1, 1, 3)."""
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


def write(event: dict, games: list[dict], source: Tournament | None = None, alerts: list | None = None) -> str:
    """The round as TRF-2026 text (save it with save() or open(..., newline="")).

    event: {"name", "round", "date" YYYY-MM-DD, "city", "arbiter", "tc"} (None where unknown).
    games: one per board: {"board", "left", "right", "first": "left"|"right" (White), "result":
    "1-0" | "0-1" | "1/2-1/2" | "+/-" | "-/+" | "-/-" (left-right) or None (not finished)}.
    Without `source`, the players are numbered by board (board 1's White 1, its Black 2, ...) and
    their points are this round's; lines end CR LF. With `source` (read()), every line stays as it was
    (its line ends and BOM too) but this round's blocks (a result the source has for a pair stays where
    the clock has none: _round_blocks), every player's points (by the source's tag 162) and rank, tag
    132's date of the round, and the header tags the source lacks (122, 222 from event["tc"]). `alerts`
    gets {"board", "white", "black", "clock", "source"} (the results White-Black, "1-0", "+/-", ...) for
    each pair whose clock's result replaced another the source had."""
    rnd = int(event.get("round") or 0)
    if not 1 <= rnd <= 999:
        raise TrfError(f"round {event.get('round')!r} is not a round number 1..999")
    games = sorted(games, key=lambda g: int(g["board"]))
    boards = [int(g["board"]) for g in games]
    if len(set(boards)) != len(boards):
        raise TrfError(f"a board is given twice: {boards}")
    if source is None:
        return _fresh(event, games, rnd)
    return _onto(event, games, rnd, source, [] if alerts is None else alerts)


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


def _at(p: Player, rnd: int) -> Block:
    return p.rounds[rnd - 1] if rnd <= len(p.rounds) else Block(0, "", "")


def _pair_text(white: str, black: str) -> str:
    """A pair's codes as a result White-Black ("1-0", "1/2-1/2", "+/-"), or "W/B" codes where none is."""
    return next((name for name, codes in RESULTS.items() if codes == (white, black)),
                f"{white or '?'}/{black or '?'}")


def _round_blocks(t: Tournament, rnd: int, games: list[dict], alerts: list) -> dict[int, Block]:
    """{start rank: its round-`rnd` block} of the players at the clocks: the clock's game; where the
    source already has a result for the same pair (a forfeit the pairing program entered), the source's
    when the clock has none, the clock's when it has one (the source's was entered before the game),
    and then an alert when the two differ."""
    nums = _numbers(t, rnd, games)
    new: dict[int, Block] = {}
    for g in games:
        board = int(g["board"])
        left, right = nums[board]
        lc, rc = _codes(g)
        lcol, rcol = ("w", "b") if g.get("first", "left") == "left" else ("b", "w")  # the first player: White
        clock = {left: Block(right, lcol, lc), right: Block(left, rcol, rc)}
        was = {n: _at(t.players[n], rnd) for n in clock}
        if all(was[n].opponent == clock[n].opponent for n in clock) and any(was[n].result for n in clock):
            if not lc and not rc:
                clock = was  # TRF-2026: a blank result is a zero-point bye; the source's result stays
            elif any(was[n].result != clock[n].result for n in clock):
                w, k = (left, right) if lcol == "w" else (right, left)
                alerts.append({"board": board, "white": t.players[w].name, "black": t.players[k].name,
                               "clock": _pair_text(clock[w].result, clock[k].result),
                               "source": _pair_text(was[w].result, was[k].result)})
        new.update(clock)
    return new


def _points(t: Tournament, rnd: int, new: dict[int, Block]) -> dict[int, int]:
    """Every player's points (tenths) with round `rnd` as written, by the file's tag 162: the source's
    points, less its round-`rnd` result's where they count it, plus the written one's. They count it
    unless they are exactly the results' without it (a bye the pairing program allocated, not counted
    yet); what else they hold (an acceleration, a penalty) stays."""
    out = {}
    for n, p in t.players.items():
        old = _at(p, rnd)
        src, gone = round(p.points * 10), t.tenths(old.result)
        counted = not (gone and src == sum(t.tenths(b.result) for b in p.rounds) - gone)
        out[n] = src - (gone if counted else 0) + t.tenths(new.get(n, old).result)
        if not 0 <= out[n] <= 999:
            raise TrfError(f"{t.path}: player {n}'s points {out[n] / 10:.1f} do not fit positions 81-84 "
                           f"(0.0 to 99.9)")
    return out


def _onto(event: dict, games: list[dict], rnd: int, t: Tournament, alerts: list) -> str:
    new = _round_blocks(t, rnd, games, alerts)
    points = _points(t, rnd, new)
    ranks = _rank(points)
    lines = list(t.lines)
    at = ROUND1 + 10 * (rnd - 1)
    for n, p in t.players.items():  # every line whose points, rank or round changes; the others as they were
        s = lines[p.line]
        pts, rank = s[POINTS].strip(), s[RANK].strip()
        block = _block(new[n].opponent, new[n].colour, new[n].result) if n in new else None
        if (round(float(pts or 0) * 10) == points[n] and rank.isdigit() and int(rank) == ranks[n]
                and (block is None or s[at:at + 10].ljust(10) == block)):
            continue
        s = s.ljust(max(RANK.stop, at + 10 if block else 0))
        s = s[:POINTS.start] + f"{points[n] / 10:4.1f}" + s[POINTS.stop:RANK.start] + f"{ranks[n]:4d}" + s[RANK.stop:]
        lines[p.line] = (s[:at] + block + s[at + 10:] if block else s).rstrip()
    day = _ymd(event.get("date"), short=True)
    have = {ln[:3] for ln in lines}
    for i, ln in enumerate(lines):
        if day and ln[:3] == "132":  # the round's date given: this round's, whatever the slot had
            lines[i] = _with_round_date(ln, rnd, day).rstrip()
    add = [ln for ln in _header(event, games, have) if ln[:3] in ("122", "132", "222")]
    first = next((i for i, ln in enumerate(lines) if ln[:3] == "001"), len(lines))
    lines[first:first] = add
    return ("\ufeff" if t.bom else "") + t.eol.join(lines) + (t.eol if t.last_eol else "")


def save(path: str, text: str) -> None:
    """Write write()'s text to `path` as it is: UTF-8, its line ends and BOM kept (no newline translation)."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
