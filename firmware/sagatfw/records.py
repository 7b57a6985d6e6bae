# sagat: binary log records: encode/decode, CRC-32, keyed hash chain.
#
# Pure module (the host imports it: one codec, two runtimes). Contract 3 of DESIGN.md; the byte
# layout is documented in docs/log-format.md. Every record is RECORD_SIZE (64) bytes, little-endian:
#
#   off size  field
#    0   1    magic (MAGIC: format 1)
#    1   1    type: an event type of clock.EVENT_NAMES, or T_TEXT / T_CHECKPOINT (internal)
#    2   2    game (u16)
#    4   4    seq (u32): record number on this clock, +1 per record
#    8   4    t (u32): ms since the game started
#   12   4    left_ms, 16 4 right_ms (u32)
#   20   2    left_moves, 22 2 right_moves (u16)
#   24   1    running (i8: 0 left, 1 right, -1 none), 25 1 side (i8)
#   26   2    arg (i16): by / order / stage / result / reason / first / settings origin
#   28   1    left_stage, 29 1 right_stage (u8)
#   30   1    flags (bit 0: wall valid)
#   31   1    reserved (0)
#   32   4    wall_s (u32, Unix seconds), 36 2 wall_ms (u16)
#   38  14    payload: adjust before/after; game_start: start of the tc text; settings
#   52   8    chain: HMAC-SHA256(key, previous chain || bytes 0..51), first 8 bytes
#   60   4    crc: CRC-32 of bytes 0..59
#
# T_TEXT records continue the text of the record before them (a long tc string): bytes 8..51
# hold 44 more bytes of text (NUL-padded). T_CHECKPOINT records say "the clock was alive at t, with
# these faces": they let a reboot come back close to the cut (TK-C18); they are not contract 3 events.
# The chain links every record to the one before, so a missing, reordered or edited record breaks
# it; with an arbiter key, only the key's holder can write a valid chain.

import struct

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without binascii.crc32
    _crc32 = None

import hashlib

from sagatfw import clock as C

RECORD_SIZE = 64
MAGIC = 0xA5
T_TEXT = 0x40
T_CHECKPOINT = 0x41
HEADER = "<BBHIIIIHHbbhBBBBIH"  # up to and including wall_ms: 38 bytes
PAYLOAD = 38
PAYLOAD_SIZE = 14
TEXT_AT = 8
TEXT_SIZE = 44
CHAIN = 52
CHAIN_SIZE = 8
CRC = 60
ZERO_CHAIN = bytes(CHAIN_SIZE)
FLAG_WALL = 1

# settings records: where the settings came from (arg)
ORIGIN_CHANGED = 0
ORIGIN_DEFAULTS_MISSING = 1
ORIGIN_DEFAULTS_CORRUPT = 2
ORIGIN_NAMES = ("changed", "defaults_missing", "defaults_corrupt")

# Problems a reader reports (Reader.problems: (kind, seq, detail)).
P_CRC = "crc"  # bytes do not match their CRC: torn or corrupted
P_MAGIC = "magic"  # not a record of this format
P_GAP = "missing"  # seq jumped: records are missing
P_ORDER = "order"  # seq went backwards: reordered or replayed
P_CHAIN = "chain"  # the chain does not link: edited, inserted, or a different key
P_TORN = "torn"  # a partial record at the end of a segment


def _crc_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (0xEDB88320 ^ (c >> 1)) if c & 1 else (c >> 1)
        table.append(c)
    return table


_TABLE = None


def crc32(data):
    """CRC-32 (the zlib/binascii one) of data."""
    global _TABLE
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    if _TABLE is None:
        _TABLE = _crc_table()
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


class Chain:
    """HMAC-SHA256 keyed chain; key b"" (no arbiter key) still detects accidents, not forgers."""

    def __init__(self, key=b""):
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        key = bytes(key) + bytes(64 - len(key))
        self._ipad = bytes(b ^ 0x36 for b in key)
        self._opad = bytes(b ^ 0x5C for b in key)

    def link(self, prev, body):
        """The chain value of a record: HMAC(key, prev || body), first 8 bytes."""
        inner = hashlib.sha256(self._ipad)
        inner.update(prev)
        inner.update(body)
        outer = hashlib.sha256(self._opad)
        outer.update(inner.digest())
        return outer.digest()[:CHAIN_SIZE]


def seal(buf, prev, chain):
    """Fill in chain and CRC of the record in buf (bytes 0..51 set); returns its chain value."""
    link = chain.link(prev, memoryview(buf)[:CHAIN])
    buf[CHAIN : CHAIN + CHAIN_SIZE] = link
    struct.pack_into("<I", buf, CRC, crc32(memoryview(buf)[:CRC]))
    return link


def pack_event(buf, ev, e, game, seq, left_stage, right_stage, wall_s=0, wall_ms=0, wall_ok=False):
    """Encode the clock event at offset e of the int array `ev` (clock.Clock.events) into buf."""
    pack_header(
        buf,
        ev[e + C.F_TYPE],
        game,
        seq,
        ev[e + C.F_T],
        ev[e + C.F_LEFT_MS],
        ev[e + C.F_RIGHT_MS],
        ev[e + C.F_LEFT_MOVES],
        ev[e + C.F_RIGHT_MOVES],
        ev[e + C.F_RUNNING],
        ev[e + C.F_SIDE],
        ev[e + C.F_ARG],
        left_stage,
        right_stage,
        wall_s,
        wall_ms,
        wall_ok,
    )
    if ev[e + C.F_TYPE] == C.EV_ADJUST:
        struct.pack_into(
            "<IHBIHB",
            buf,
            PAYLOAD,
            ev[e + C.F_BEFORE_MS],
            ev[e + C.F_BEFORE_MOVES],
            ev[e + C.F_BEFORE_STAGE],
            ev[e + C.F_AFTER_MS],
            ev[e + C.F_AFTER_MOVES],
            ev[e + C.F_AFTER_STAGE],
        )


def pack_header(buf, kind, game, seq, t, lms, rms, lmv, rmv, running, side, arg, lst, rst, ws, wms, wall_ok):
    for i in range(RECORD_SIZE):
        buf[i] = 0
    struct.pack_into(
        HEADER,
        buf,
        0,
        MAGIC,
        kind,
        game & 0xFFFF,
        seq,
        t,
        lms,
        rms,
        lmv,
        rmv,
        running,
        side,
        arg,
        lst if lst < 255 else 255,
        rst if rst < 255 else 255,
        FLAG_WALL if wall_ok else 0,
        0,
        ws,
        wms,
    )


def put_text(buf, text, at, size):
    """Write text into buf[at:at+size], NUL-padded; returns the text that did not fit."""
    raw = text.encode() if isinstance(text, str) else text
    part = raw[:size]
    buf[at : at + len(part)] = part
    return raw[size:]


def pack_text(buf, game, seq, text):
    """A T_TEXT continuation record holding up to TEXT_SIZE more bytes; returns the rest."""
    for i in range(RECORD_SIZE):
        buf[i] = 0
    struct.pack_into("<BBHI", buf, 0, MAGIC, T_TEXT, game & 0xFFFF, seq)
    return put_text(buf, text, TEXT_AT, TEXT_SIZE)


def pack_settings(buf, s):
    """Payload of a settings record: the settings the clock obeys (clock.Settings)."""
    freeze = 2 if s.freeze is None else (1 if s.freeze else 0)
    struct.pack_into(
        "<BBIII",
        buf,
        PAYLOAD,
        freeze,
        1 if s.stage_advance == "flag" else 0,
        s.extension_ms,
        s.default_ms,
        s.low_time_ms,
    )


def unpack_settings(rec):
    freeze, by_flag, ext, default, low = struct.unpack_from("<BBIII", rec, PAYLOAD)
    return C.Settings(
        None if freeze == 2 else bool(freeze), "flag" if by_flag else "moves", ext, default, low
    )


def _text(rec, at, size):
    raw = bytes(rec[at : at + size])
    n = raw.find(b"\x00")
    return raw if n < 0 else raw[:n]


# ------------------------------------------------------------------ decoding


def check(rec):
    """None if rec is a well-formed record by its own bytes, else the problem (P_MAGIC, P_CRC)."""
    if len(rec) != RECORD_SIZE:
        return P_TORN
    if rec[0] != MAGIC:
        return P_MAGIC
    if struct.unpack_from("<I", rec, CRC)[0] != crc32(memoryview(rec)[:CRC]):
        return P_CRC
    return None


def seq_of(rec):
    return struct.unpack_from("<I", rec, 4)[0]


def game_of(rec):
    return struct.unpack_from("<H", rec, 2)[0]


def type_of(rec):
    return rec[1]


def chain_of(rec):
    return bytes(rec[CHAIN : CHAIN + CHAIN_SIZE])


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

    def __init__(self, key=b"", checkpoints=False):
        self.chain = Chain(key)
        self.checkpoints = checkpoints
        self.prev = None  # chain value of the last good record
        self.last_seq = None
        self.start_seq = None
        self.problems = []
        self.records = 0
        self._pending = None  # game_start waiting for its text continuations
        self._text = b""

    def _problem(self, kind, seq, detail):
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
        if self.prev is not None:
            if self.chain.link(self.prev, memoryview(rec)[:CHAIN]) != chain_of(rec):
                if self.last_seq is None:
                    why = "seq 0 does not start a chain with this key"
                else:
                    why = "seq %d does not link to seq %d" % (seq, self.last_seq)
                self._problem(P_CHAIN, seq, why + " " + where)
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
