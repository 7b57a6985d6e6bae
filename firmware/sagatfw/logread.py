# sagat: reading log records back: decoding to contract 3's fields, and a Reader that checks
# each record, the seq and the chain, reporting every problem.
#
# Pure module, the reading half of records.py: the host imports it, the board only at boot (to
# restore an interrupted game), after which it leaves RAM.

import struct

from sagatfw import clock as C
from sagatfw.records import (
    CHAIN,
    FLAG_WALL,
    HEADER,
    ORIGIN_KEY_CLEARED,
    P_CHAIN,
    P_GAP,
    P_ORDER,
    PAYLOAD,
    PAYLOAD_SIZE,
    T_CHECKPOINT,
    T_GAP,
    T_TEXT,
    TEXT_AT,
    TEXT_SIZE,
    ZERO_CHAIN,
    Chain,
    arg_of,
    chain_of,
    check,
    seq_of,
    stage_byte,
    type_of,
)

ORIGIN_NAMES = ("changed", "defaults_missing", "defaults_corrupt", "key_set", "key_cleared")


def unpack_settings(rec):
    freeze, by_flag, ext, default, low = struct.unpack_from("<BBIII", rec, PAYLOAD)
    return C.Settings(
        None if freeze == 2 else bool(freeze), "flag" if by_flag else "moves", ext, default, low
    )


def _text(rec, at, size):
    raw = bytes(rec[at : at + size])
    n = raw.find(b"\x00")
    return raw if n < 0 else raw[:n]


_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def iso_utc(sec, ms=0):
    """ISO-8601 UTC for Unix seconds (no time module: the same on every runtime)."""
    days = sec // 86400
    rest = sec % 86400
    year = 1970
    while True:
        n = 366 if (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)) else 365
        if days < n:
            break
        days -= n
        year += 1
    month = 0
    while True:
        n = _DAYS[month] + (1 if month == 1 and n_leap(year) else 0)
        if days < n:
            break
        days -= n
        month += 1
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
        year,
        month + 1,
        days + 1,
        rest // 3600,
        rest // 60 % 60,
        rest % 60,
        ms,
    )


def n_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def decode(rec):
    """The contract 3 fields of one record (not T_TEXT). Includes `game`, `seq`, `wall`."""
    (_, kind, game, seq, t, lms, rms, lmv, rmv, running, side, arg, lst, rst, flags, _, ws, wms) = (
        struct.unpack_from(HEADER, rec, 0)
    )
    if kind == T_CHECKPOINT:
        name = "checkpoint"
    elif kind == T_GAP:
        name = "gap"
    elif kind < len(C.EVENT_NAMES):
        name = C.EVENT_NAMES[kind]
    else:
        name = "unknown_%d" % kind
    d = {
        "game": game,
        "seq": seq,
        "type": name,
        "t": t,
        "left_ms": lms,
        "right_ms": rms,
        "left_moves": lmv,
        "right_moves": rmv,
        "running": C.SIDE_NAMES[running] if running in (0, 1) else None,
        "wall": iso_utc(ws, wms) if flags & FLAG_WALL else None,
        "left_stage": lst,
        "right_stage": rst,
    }
    if side in (0, 1):
        if kind == C.EV_SETTINGS:
            d["first"] = C.SIDE_NAMES[side]  # a game's setup record: its tc follows as text
            d["tc"] = ""
        else:
            d["side"] = C.SIDE_NAMES[side]
    if kind == C.EV_PAUSE:
        d["by"] = C.BY_NAMES[arg] if 0 <= arg < len(C.BY_NAMES) else None
    elif kind == C.EV_FLAG:
        d["order"] = arg
    elif kind == C.EV_STAGE:
        d["stage"] = arg
    elif kind == C.EV_RESULT:
        d["result"] = C.RESULT_NAMES[arg] if 0 <= arg < len(C.RESULT_NAMES) else None
    elif kind == C.EV_GAME_START:
        d["first"] = C.SIDE_NAMES[arg] if arg in (0, 1) else None
        d["tc"] = _text(rec, PAYLOAD, PAYLOAD_SIZE).decode()
    elif kind == C.EV_ADJUST:
        bms, bmv, bst, ams, amv, ast = struct.unpack_from("<IHBIHB", rec, PAYLOAD)
        d["reason"] = C.REASON_NAMES[arg] if 0 <= arg < len(C.REASON_NAMES) else None
        d["before"] = {"ms": bms, "moves": bmv, "stage": bst}
        d["after"] = {"ms": ams, "moves": amv, "stage": ast}
    elif kind == T_GAP:  # the clock dropped records here: its log was full
        d["dropped"], d["until_t"] = struct.unpack_from("<II", rec, PAYLOAD)
    elif kind == C.EV_SETTINGS:
        s = unpack_settings(rec)
        d["origin"] = ORIGIN_NAMES[arg] if 0 <= arg < len(ORIGIN_NAMES) else None
        d["settings"] = {
            "freeze": s.freeze,
            "stage_advance": s.stage_advance,
            "extension_ms": s.extension_ms,
            "default_ms": s.default_ms,
            "low_time_ms": s.low_time_ms,
        }
    return d


def tc_value(text):
    """The game_start `tc` field: "A" or {"left": A, "right": B} for "A|B"."""
    if "|" in text:
        left, right = text.split("|", 1)
        return {"left": left, "right": right}
    return text


class Reader:
    """Reads records in order, checks each one and the chain, and yields decoded events.

    feed(rec) returns the decoded event (a dict), or None for a record that is not an event
    (text continuation, damaged). Problems found go to `problems` as (kind, seq, detail); nothing is
    skipped in silence and nothing is "repaired". The first record read is trusted as the chain's
    start (older records may have been rotated out); `start_seq` says where that was."""

    def __init__(self, key=b"", checkpoints=False, verify=True):
        # The arbiter key can be set between games (protocol key.set): records before it link
        # under the old key. `key` may be one key or a list (the current one and older ones); the
        # unkeyed chain is accepted only until the first record that links under a key - once
        # keyed, always keyed, so nobody without a key can continue a keyed log - unless a
        # settings record with origin key_cleared, linked under the key, says the key's holder
        # cleared it: the records after it may be unkeyed (until one links under a key again).
        keys = key if isinstance(key, (list, tuple)) else [key]
        self.chains = [Chain(k) for k in keys if k]
        self.unkeyed = Chain(b"")
        self.keyed = False
        self.checkpoints = checkpoints
        # verify=False: decode only, the clock's own restore at boot. The records' CRCs are still
        # checked; the chain (under whichever key) and the list of problems are the arbiter's
        # business (`sagat logs verify`), and a problem kept per record would use up the heap.
        self.verify = verify
        self.prev = None  # chain value of the last good record
        self.last_seq = None
        self.start_seq = None
        self.problems = []
        self.records = 0
        self._pending = None  # game_start waiting for its text continuations
        self._text = b""

    def _links(self, prev, body, link):
        for chain in self.chains:
            if chain.link(prev, body) == link:
                self.keyed = True
                return True
        return not self.keyed and self.unkeyed.link(prev, body) == link

    def _problem(self, kind, seq, detail):
        if self.verify:
            self.problems.append((kind, seq, detail))

    def feed(self, rec, where=""):
        self.records += 1
        bad = check(rec)
        if bad:
            seq = seq_of(rec) if len(rec) >= 8 else None
            self._problem(bad, seq, "record %s%s" % (where, " (seq %s)" % seq if seq is not None else ""))
            self.prev = None  # the next record cannot be linked to an unreadable one
            return self._flush_pending()
        seq = seq_of(rec)
        if self.last_seq is not None:
            if seq <= self.last_seq:
                self._problem(P_ORDER, seq, "seq %d after %d %s" % (seq, self.last_seq, where))
            elif seq != self.last_seq + 1:
                self._problem(P_GAP, seq, "seq %d..%d missing %s" % (self.last_seq + 1, seq - 1, where))
        if self.start_seq is None:
            self.start_seq = seq
            if seq == 0:
                self.prev = ZERO_CHAIN  # the clock's very first record links to zeros
        if self.prev is not None and self.verify:
            if not self._links(self.prev, memoryview(rec)[:CHAIN], chain_of(rec)):
                if self.last_seq is None:
                    why = "seq 0 does not start a chain with this key"
                else:
                    why = "seq %d does not link to seq %d" % (seq, self.last_seq)
                self._problem(P_CHAIN, seq, why + " " + where)
            elif type_of(rec) == C.EV_SETTINGS and arg_of(rec) == ORIGIN_KEY_CLEARED:
                self.keyed = False  # the key's holder cleared the key: unkeyed records follow
        self.prev = chain_of(rec)
        self.last_seq = seq
        kind = type_of(rec)
        if kind == T_TEXT:
            if self._pending is not None:
                self._text += _text(rec, TEXT_AT, TEXT_SIZE)
            return None
        out = self._flush_pending()
        d = decode(rec)
        if "tc" in d:  # game_start, or a game's setup record: text continuations may follow
            self._pending = d
            self._text = d["tc"].encode()
            return out
        if kind == T_CHECKPOINT and not self.checkpoints:
            return out
        if out is not None:
            return (out, d)
        return d

    def _flush_pending(self):
        d = self._pending
        if d is None:
            return None
        self._pending = None
        try:
            d["tc"] = tc_value(self._text.decode())
        except UnicodeError:
            d["tc"] = None
        return d

    def finish(self):
        """Call after the last record: returns a game_start still waiting for its text, or None."""
        return self._flush_pending()

    def events(self, records):
        """All events of an iterable of records, in order (a list of dicts)."""
        out = []
        for rec in records:
            _collect(out, self.feed(rec))
        _collect(out, self.finish())
        return out


def _collect(out, got):
    if got is None:
        return
    if isinstance(got, tuple):
        out.extend(got)
    else:
        out.append(got)


# ------------------------------------------------------------ clock events


def _side(s):
    return C.SIDE_NAMES[s] if s >= 0 else None


def event_dict(ev, e, tc_field=None):
    """Decode the event at offset e of an int array into contract 3's fields."""
    kind = ev[e + C.F_TYPE]
    d = {
        "type": C.EVENT_NAMES[kind],
        "t": ev[e + C.F_T],
        "left_ms": ev[e + C.F_LEFT_MS],
        "right_ms": ev[e + C.F_RIGHT_MS],
        "left_moves": ev[e + C.F_LEFT_MOVES],
        "right_moves": ev[e + C.F_RIGHT_MOVES],
        "running": _side(ev[e + C.F_RUNNING]),
    }
    side = ev[e + C.F_SIDE]
    arg = ev[e + C.F_ARG]
    if side >= 0:
        d["side"] = C.SIDE_NAMES[side]
    if kind == C.EV_PAUSE:
        d["by"] = C.BY_NAMES[arg]
    elif kind == C.EV_FLAG:
        d["order"] = arg
    elif kind == C.EV_STAGE:
        d["stage"] = arg
    elif kind == C.EV_RESULT:
        d["result"] = C.RESULT_NAMES[arg]
    elif kind == C.EV_GAME_START:
        d["first"] = C.SIDE_NAMES[arg]
        if tc_field is not None:
            d["tc"] = tc_field()
    elif kind == C.EV_ADJUST:
        d["reason"] = C.REASON_NAMES[arg]
        d["before"] = {
            "ms": ev[e + C.F_BEFORE_MS],
            "moves": ev[e + C.F_BEFORE_MOVES],
            "stage": stage_byte(ev[e + C.F_BEFORE_STAGE]),
        }
        d["after"] = {
            "ms": ev[e + C.F_AFTER_MS],
            "moves": ev[e + C.F_AFTER_MOVES],
            "stage": stage_byte(ev[e + C.F_AFTER_STAGE]),
        }
    return d
