# sagat: a match's records: their type codes, and decoding them to named fields.
#
# Pure module, shared by the host (`sagat logs show`, through logread.decode) and the board (the
# restore at boot finds a match by its setup record). Writing them is app/matchmode.py's (board only).
# A match is a game of the log like any other: it takes the next game number, and its records go
# into the same journal, chain and key (docs/log-format.md, "Match records"):
#
#   type T_MATCH (0x30): the match's setup. arg: the mode (its number, sagatfw.MODES);
#       its options where its engine's OPTIONS say (matchbase.Match.OPTIONS): side = the place 0
#       option (or -1), payload (38..): place 1 u8, place 2 u8, place 3 u32 (kok-boru: lead;
#       kilithattu: first, method, changeover_ms), then seed u32 (a script's seed for the lots,
#       0: the board's true random source).
#   type EV_BASE + the engine's event type (0x20..0x2B, engine/matchwords.py EVENT_NAMES order):
#       t, left_ms = pms (the period's match time), right_ms = val, left_moves / right_moves = the
#       scores, running = the period (i8), side, arg (i16), left_stage = the mode, payload (38..):
#       stopped u32 (the period's stopped time); a result's also the match's final view (FINAL at
#       42..46: left's and right's warnings, left's and right's reds, u8 each, the entering team
#       i8), so that a reboot shows a finished match from its result record, without a replay.
# The codes cannot collide with the clock's events (0..15) nor the T_* records (0x40..0x43).

import struct

import sagatfw
from sagatfw.log.records import FLAG_WALL, HEADER, PAYLOAD
from sagatfw.log.wall import iso_utc

EV_BASE = 0x20  # a match event: EV_BASE + engine/matchwords.py event type (room for 16 types)
EV_RESULT = 0x2A  # EV_BASE + engine/matchwords.py EV_RESULT
FINAL = "<BBBBb"  # a result record's final view, at FINAL_AT: warnings L, R, reds L, R, entering
FINAL_AT = PAYLOAD + 4
T_MATCH = 0x30  # a match's setup record
SETUP = "<BBII"  # a setup record's payload: the options of places 1, 2 and 3, the seed
SIDE_AT = 25  # the header's side (log/records.py): a setup's option of place 0
SIDES = ("left", "right")


def mode_name(i):
    """Mode i's name (its engine module's last name: "kokboru"), or None for no such mode."""
    modes = sagatfw.MODES
    if not isinstance(i, int) or not 0 <= i < len(modes):
        return None
    p = modes[i][0]
    return p[p.rfind(".") + 1 :]


def mode_index(name):
    """Mode `name`'s number in the log (its place in sagatfw.MODES), or -1 for no such mode."""
    for i in range(len(sagatfw.MODES)):
        if mode_name(i) == name:
            return i
    return -1


def engine_class(i):
    """Mode i's engine class, its module imported now (only that mode's code comes into RAM)."""
    e = sagatfw.MODES[i]
    return getattr(__import__(e[0], None, None, (e[1],), 0), e[1])


def setup_values(rec):
    """A setup record's options by their place (0..3, matchbase.Match.OPTIONS) and its seed."""
    (side,) = struct.unpack_from("<b", rec, SIDE_AT)
    small, small2, large, seed = struct.unpack_from(SETUP, rec, PAYLOAD)
    return (side, small, small2, large), seed


def decode(rec):
    """The named fields of a match record (type EV_BASE .. T_MATCH), for `sagat logs show` and the restore."""
    from sagatfw.engine import matchwords as M

    (_, kind, game, seq, t, pms, val, ls, rs, period, side, arg, mode, _, flags, _, ws, wms) = (
        struct.unpack_from(HEADER, rec, 0)
    )
    d = {"game": game, "seq": seq, "t": t, "wall": iso_utc(ws, wms) if flags & FLAG_WALL else None}
    name = mode_name(arg if kind == T_MATCH else mode)
    engine = engine_class(arg if kind == T_MATCH else mode) if name is not None else None
    if kind == T_MATCH:
        d["type"] = "match"
        d["mode"] = name
        if name is None:
            d["mode_number"] = arg  # (a mode this reader does not have: a newer firmware's)
        vals, seed = setup_values(rec)
        for oname, where, names in engine.OPTIONS if engine is not None else ():
            v = vals[where]
            d[oname] = (names[v] if 0 <= v < len(names) else None) if names is not None else v
        if seed:
            d["seed"] = seed
        return d
    ev = kind - EV_BASE
    d["type"] = M.EVENT_NAMES[ev] if ev < len(M.EVENT_NAMES) else "match_unknown_%d" % kind
    d["mode"] = name
    d["period"] = period
    periods = engine.PERIOD_NAMES if engine is not None else ()
    d["period_name"] = periods[period] if 0 <= period < len(periods) else None
    d["match_ms"] = pms  # the period's match time so far (stoppages not counted)
    d["stopped_ms"] = struct.unpack_from("<I", rec, PAYLOAD)[0]
    d["left"] = ls
    d["right"] = rs
    d["side"] = SIDES[side] if side in (0, 1) else None
    if ev == M.EV_PERIOD_START:
        d["how"] = M.HOW_NAMES[arg] if 0 <= arg < len(M.HOW_NAMES) else None
        d["length_ms"] = val
    elif ev == M.EV_BREAK_START:
        d["length_ms"] = val
    elif ev == M.EV_BREAK_END:
        d["early"] = arg == 1
        if arg == 2:
            d["power_cut"] = True  # ended at its last durable time by a power cut
        d["length_ms"] = val
    elif d["type"] in ("score", "late_score"):  # late: entered at t, for the period that had ended
        d["points"] = arg
        d["entry"] = val
    elif d["type"] in ("card", "late_card"):
        d["card"] = M.CARD_NAMES[arg] if 0 < arg < len(M.CARD_NAMES) else None
        d["entry"] = val
    elif d["type"] == "restart":
        d["discarded_ms"] = val  # KB-3: the match time the false start had run
    elif d["type"] == "adjust":
        d["face_ms"] = val  # what the period's face shows from now: left, or elapsed counting up
    elif ev == M.EV_UNDO:
        if arg > 0:
            d["points"] = arg
        else:
            d["card"] = M.CARD_NAMES[-arg] if 0 < -arg < len(M.CARD_NAMES) else None
        d["entry"] = val
    elif ev == M.EV_POWER_RESTORE:
        d["stoppage"] = arg
        if val:
            d["break_ended"] = True
    elif ev == M.EV_STOPPAGE_START:  # length_ms: 0, or since the result an undo withdrew
        d["stoppage"] = arg
        d["length_ms"] = val
    elif ev == M.EV_STOPPAGE_END:
        d["stoppage"] = arg
        d["length_ms"] = val
    elif ev == M.EV_LOT:
        d["lot"] = arg
        d["by"] = "toss" if val else "clock"  # the referee's toss entered, or the clock's draw
    elif ev == M.EV_RESULT:
        d["winner"] = d.pop("side")
        d["why"] = M.WHY_NAMES[arg] if 0 <= arg < len(M.WHY_NAMES) else None
        wl, wr, rl, rr, ent = struct.unpack_from(FINAL, rec, FINAL_AT)
        d["warnings"] = [wl, wr]
        d["reds"] = [rl, rr]
        d["entering"] = SIDES[ent] if ent in (0, 1) else None
    return d
