"""A game's clock record as PGN (`sagat report` writes it beside each game's page; docs/pgn.md).

The Seven Tag Roster, TimeControl, and for every completed move the mover's clock after it and the
time it took, as `{[%clk H:MM:SS.fff] [%emt H:MM:SS.fff]}` (the clock-comment convention lichess and
chess.com write; the log's milliseconds as a fraction, as python-chess writes it: nothing rounded).
White is the player who moved first (бастаушы). The clock does not know the moves: given a
scoresheet's PGN (toguz kumalak moves like `76(10)`, or SAN), the comments go on its moves; without
one, the movetext is the move numbers and the clock comments alone (`1. {...} 1... {...} 2. {...}`)."""

from __future__ import annotations

import re

from sagatfw.core import tcparse
from sagatfw.core import timecontrol as TC

from .scoresheet import PgnError, main_moves, parse, pick, read_moves  # noqa: F401 (the report's)
from .timeuse import turns

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
OTHER = {"left": "right", "right": "left"}
# the clock's results are written left-right (engine/rules.py RESULT_NAMES); the winner per result
# (None: a draw), and whether it is a forfeit (TK-R4: a player absent, or 30 min late, is marked -)
WINNER = {"1-0": ("left", False), "0-1": ("right", False), "1/2-1/2": (None, False),
          "+/-": ("left", True), "-/+": ("right", True)}
WIDTH = 79  # the export format's movetext lines (PGN standard 8.2.6)

# ------------------------------------------------------------------ TimeControl


def _pgn_tc(t) -> str | None:
    """One side's parsed control in the PGN standard's TimeControl notation (9.6.1), None if it has none."""
    if t.kind == TC.COUNTUP:
        return "-"
    if t.kind == TC.HOURGLASS:
        return "*%d" % (t.stages[0].time_ms // 1000)
    if t.byo != TC.BYO_NONE:
        return None  # byo-yomi: no form
    parts = []
    for s in t.stages:
        if s.mode not in (TC.SUDDEN, TC.FISCHER):
            return None  # a simple or Bronstein delay: no form
        part = ("%d/" % s.moves if s.moves else "") + "%d" % (s.time_ms // 1000)
        parts.append(part + ("+%d" % (s.bonus_ms // 1000) if s.mode == TC.FISCHER else ""))
    # a final stage with a move count repeats in sagat's notation as the standard's last field does
    return ":".join(parts)


def tc_tag(tc: str | None) -> str:
    """The PGN TimeControl value of a sagat TimeControl string: "300+3", "40/5400:1800", "*60" (an
    hourglass: the standard's sandclock), "-" (count-up: no control). "?" when it has no PGN form (a
    delay, Bronstein, byo-yomi), is unknown or unreadable, or is a handicap whose sides differ (the
    tag holds one control: game() gives White's and says both in [SagatTimeControl])."""
    if not isinstance(tc, str) or not tc.strip():
        return "?"
    try:
        left, right = tcparse.parse_sides(tc)
    except ValueError:
        return "?"
    a, b = _pgn_tc(left), _pgn_tc(right)
    return a if a is not None and a == b else "?"


def _side_tc(tc, side: str) -> str | None:
    """A side's own sagat control string from a setup record's tc (a string, or {left, right})."""
    if isinstance(tc, dict):
        return tc.get(side)
    if isinstance(tc, str) and "|" in tc:
        parts = tc.split("|")
        return parts[0 if side == "left" else 1].strip() if len(parts) == 2 else None
    return tc


# ------------------------------------------------------------------ the clock's moves


def clock_comments(events: list[dict]) -> list[tuple[str, int, int, int]]:
    """Every completed move (a press after the start) in play order: (side, full-move number (White's
    n and Black's reply share n), the mover's face after it in ms (after any increment or stage time,
    as the press record has it), ms used (timeuse.turns': its pauses excluded, TK-C15))."""
    per_side = turns(events)
    taken = {"left": 0, "right": 0}
    out = []
    started = False
    for e in events:  # the presses timeuse.turns counts, in the order they were made
        if e["type"] == "game_start":
            started = True
        elif e["type"] == "press" and started and e.get("side") in taken:
            side = e["side"]
            n, used, _left = per_side[side][taken[side]]
            taken[side] += 1
            out.append((side, n, e.get(f"{side}_ms") or 0, used))
    return out


def _hms(ms: int) -> str:
    """H:MM:SS with the milliseconds as a fraction, trailing zeros dropped (python-chess's set_clock form)."""
    ms = max(0, ms)
    s, milli = divmod(ms, 1000)
    h, rest = divmod(s, 3600)
    frac = (".%03d" % milli).rstrip("0") if milli else ""
    return "%d:%02d:%02d%s" % (h, rest // 60, rest % 60, frac)


def _comment(clk: int, used: int) -> str:
    return "{[%%clk %s] [%%emt %s]}" % (_hms(clk), _hms(used))


# ------------------------------------------------------------------ writing


def _tag(name: str, value: str) -> str:
    value = re.sub(r"[\r\n\t]+", " ", str(value)).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{value}"]'


def _wrap(tokens: list[str]) -> str:
    """Movetext lines of at most WIDTH characters, broken between tokens (a ; comment ends its line)."""
    lines: list[str] = []
    cur = ""
    for tok in tokens:
        if cur and len(cur) + 1 + len(tok) > WIDTH:
            lines.append(cur)
            cur = ""
        cur = f"{cur} {tok}" if cur else tok
        if tok.startswith(";"):
            lines.append(cur)
            cur = ""
    if cur:
        lines.append(cur)
    return "\n".join(lines)


def _result(events: list[dict], white: str) -> tuple[str, str | None, str | None]:
    """(PGN Result, Termination or None, a comment or None) from the log's last result record. A
    forfeit (TK-R4) is the win it gives, its Termination the standard's "rules infraction" (an
    administrative forfeit); both forfeited (-/-) has no PGN result: "*", with a comment."""
    res = [e.get("result") for e in events if e["type"] == "result" and e.get("result")]
    if not res:
        return "*", None, None
    clock = res[-1]
    if clock == "-/-":
        why = "-/- on the clock: both players lost by forfeit (TK-R4): PGN has no result for it"
        return "*", "rules infraction", why
    if clock not in WINNER:
        return "*", None, f"{clock} on the clock: no PGN result for it"
    winner, forfeit = WINNER[clock]
    pgn = "1/2-1/2" if winner is None else "1-0" if winner == white else "0-1"  # TK-R2
    if not forfeit:
        return pgn, None, None
    who = "White" if winner == white else "Black"
    return pgn, "rules infraction", f"{clock} on the clock: {who} ({winner}) won by forfeit (TK-R4)"


def game(events: list[dict], tags: dict[str, str], moves: str | None = None) -> str:
    """The PGN text of one game from its events (log.shown(game=g)). `tags`: Event, Site, Date
    (YYYY.MM.DD), Round, Board, the players as "Left" and "Right" (White is the one who moved first),
    any other tag to add. `moves`: a scoresheet's PGN of this game (PgnError if it is broken): the
    clock comments go on its moves in order; its tags stay where they are not the ones written here."""
    setup: dict = next((e for e in events if e["type"] == "game_start"), {}) or next(
        (e for e in reversed(events) if e.get("tc") is not None), {})
    white: str = setup["first"] if setup.get("first") in OTHER else "left"
    black = OTHER[white]
    sheet_tags: dict[str, str] = {}
    tokens: list[tuple[str, str]] = []
    sheet_result = ""
    if moves is not None:
        games = parse(moves)
        if len(games) != 1:
            raise PgnError(f"{len(games)} games in the moves given: one is needed")
        sheet_tags, tokens, sheet_result, _at = games[0]
    result, termination, why = _result(events, white)

    names = {"White": tags.get(white.capitalize()), "Black": tags.get(black.capitalize())}
    start = next((e for e in events if e["type"] == "game_start"), {})
    wall = start.get("wall") or ""
    utc = re.match(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}:[0-9]{2}:[0-9]{2})", wall)
    values = {
        "Event": tags.get("Event"), "Site": tags.get("Site"),
        "Date": tags.get("Date") or (".".join(utc.groups()[:3]) if utc else None), "Round": tags.get("Round"),
        **names, "Result": result,
    }
    out = [(k, values[k] or sheet_tags.get(k) or ("????.??.??" if k == "Date" else "?")) for k in ROSTER]
    if tags.get("Board"):
        out.append(("Board", tags["Board"]))
    tc = setup.get("tc")
    wtc, btc = _side_tc(tc, white), _side_tc(tc, black)
    out.append(("TimeControl", tc_tag(wtc) if wtc else "?"))
    if wtc and btc and wtc != btc:
        out.append(("SagatTimeControl", f"White {wtc} | Black {btc}"))  # a handicap: each side's
    elif wtc and tc_tag(wtc) == "?":
        out.append(("SagatTimeControl", wtc))  # a delay, Bronstein, byo-yomi: no PGN form
    if termination:
        out.append(("Termination", termination))
    kazans = _kazans(events, white)
    if kazans:
        out.append(("Kazans", kazans[0]))  # White's-Black's, as the Result (TK-R7)
    if utc:
        out += [("UTCDate", ".".join(utc.groups()[:3])), ("UTCTime", utc.group(4))]
    written = {k for k, _v in out} | {"Left", "Right"}
    out += [(k, v) for k, v in tags.items() if k not in written and re.fullmatch(r"[A-Za-z0-9_]+", k)]
    written |= set(tags)
    out += [(k, v) for k, v in sheet_tags.items() if k not in written]  # the sheet's own: Variant, ...

    clock = clock_comments(events)
    flags = _flags(events, white)
    body = _movetext(clock, white, tokens, flags) if moves is not None else _numbers(clock, white, flags)
    placed = len(clock)  # the moves that carry their clock comment (and a flag's)
    if moves is not None:
        have = main_moves(tokens)
        placed = min(have, placed)
        if have > len(clock):
            body.append(f"{{the scoresheet has {have} moves, the clock counted {len(clock)}: the scoresheet's "
                        f"last {have - len(clock)} have no clock time}}")
        elif have < len(clock):
            body.append(f"{{the clock counted {len(clock)} moves, the scoresheet has {have}: the clock's "
                        f"last {len(clock) - have} are on no move here}}")
        if sheet_result not in ("", "*", result):
            body.append(f"{{the scoresheet's result: {sheet_result}}}")
    body += [c for i in sorted(flags) if i >= placed for c in flags[i]]  # a flag on no move written here
    if why:
        body.append("{" + why + "}")
    if kazans:
        body.append("{" + kazans[1] + "}")
    body.append(result)
    return "\n".join(_tag(k, v) for k, v in out) + "\n\n" + _wrap(body) + "\n"


def _who(side, white: str) -> str:
    return f"{'White' if side == white else 'Black'} ({side})"


def _flags(events: list[dict], white: str) -> dict[int, list[str]]:
    """Each flag's comment by the move during which it fell (its index in clock_comments' order): the
    flagged side's next press after it (the move it was thinking about); a flag whose move was never
    pressed (the game ended on it) by the index after the last move."""
    out: dict[int, list[str]] = {}
    waiting: dict[str, list[dict]] = {"left": [], "right": []}
    i = 0
    started = False
    for e in events:  # the presses clock_comments counts, in the order they were made
        if e["type"] == "game_start":
            started = True
        elif e["type"] == "flag" and e.get("side") in waiting:
            waiting[e["side"]].append(e)
        elif e["type"] == "press" and started and e.get("side") in waiting:
            out.setdefault(i, []).extend(_flag_comment(f, white) for f in waiting[e["side"]])
            waiting[e["side"]] = []
            i += 1
    unpressed = sorted(waiting["left"] + waiting["right"], key=lambda e: e.get("order") or 99)
    out.setdefault(i, []).extend(_flag_comment(f, white) for f in unpressed)
    return out


def _flag_comment(e: dict, white: str) -> str:
    nth = {1: ", first", 2: ", second"}.get(e.get("order") or 0, "")
    return f"{{flag: {_who(e['side'], white)} at game time {_hms(e['t'])}{nth}}}"


def _kazans(events: list[dict], white: str) -> tuple[str, str] | None:
    """(the Kazans tag, White's-Black's, and the final comment) of a result entered with the final kazans
    (TK-R7), as the firmware's log reader decodes them from the result's record (log/read.kazans_of:
    the event's [left's, right's]); None without them. The comment says why a side whose flag fell
    first did not lose (TK-R7: 82 or more win; 81: neither a win nor a loss, TK-C12)."""
    res = [e for e in events if e["type"] == "result" and e.get("result")]
    k = res[-1].get("kazans") if res else None
    if not (isinstance(k, list) and len(k) == 2):
        return None
    black = OTHER[white]
    mine = {"left": k[0], "right": k[1]}
    text = f"final kazans: {_who(white, white)} {mine[white]}, {_who(black, white)} {mine[black]}"
    flags = sorted((e for e in events if e["type"] == "flag" and e.get("side") in mine),
                   key=lambda e: e.get("order") or 99)
    winner = WINNER.get(res[-1]["result"], (None, False))[0]
    if flags and winner != OTHER[flags[0]["side"]]:  # the result departs from the first flag
        f = flags[0]["side"]
        who = "White" if f == white else "Black"
        text += (f"; {who}'s flag fell first, and a player whose time has run out with 82 or more kumalaks wins "
                 "(TK-R7)" if winner == f else
                 f"; {who}'s flag fell first with {mine[f]} kumalaks: neither a win (TK-R7) nor a loss (TK-C12), "
                 "the arbiter's result")
    return f"{mine[white]}-{mine[black]}", text


def _numbers(clock: list[tuple[str, int, int, int]], white: str, flags: dict[int, list[str]]) -> list[str]:
    """The movetext without moves: each move's number (n. White's, n... Black's), its clock comment, and
    the comment of a flag that fell during it."""
    out = []
    for i, (side, n, clk, used) in enumerate(clock):
        out += [f"{n}." if side == white else f"{n}...", _comment(clk, used), *flags.get(i, ())]
    return out


def _movetext(clock: list[tuple[str, int, int, int]], white: str, tokens: list[tuple[str, str]],
              flags: dict[int, list[str]]) -> list[str]:
    """The scoresheet's movetext, the main line renumbered (n. before White's move, n... before Black's
    after anything else) and the i-th clock comment after its i-th move (and the move's NAGs), then the
    comment of a flag that fell during it."""
    out: list[str] = []
    depth = 0
    i = 0
    pending = None
    last_white = False
    for kind, text in tokens:
        if pending and not (kind == "nag" and depth == 0):
            out += pending
            pending = None
            last_white = False
        if depth == 0 and kind == "number":
            continue
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        if kind == "move" and depth == 0:
            n, is_white = i // 2 + 1, i % 2 == 0
            if is_white:
                out.append(f"{n}.")
            elif not last_white:
                out.append(f"{n}...")
            out.append(text)
            if i < len(clock):
                _side, _n, clk, used = clock[i]
                pending = [_comment(clk, used), *flags.get(i, ())]
            last_white = is_white
            i += 1
            continue
        out.append(text)
        last_white = last_white and kind == "nag" and depth == 0
    if pending:
        out += pending
    return out
