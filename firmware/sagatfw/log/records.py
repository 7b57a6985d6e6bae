# sagat: binary log records: the layout, encoding, CRC-32, keyed hash chain, checks.
# (Decoding to contract 3's fields and the checking Reader are in log/read.py.)
#
# Pure module (the host imports it: one codec, two runtimes). Contract 3 of docs/design.md; the byte
# layout is documented in docs/log-format.md. Every record is RECORD_SIZE (64) bytes, little-endian:
#
#   off size  field
#    0   1    magic (MAGIC: format 1)
#    1   1    type: an event type of clock.EVENT_NAMES, or T_TEXT / T_CHECKPOINT / T_GAP (internal)
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
#   38  14    payload: adjust before/after; game_start: start of the tc text; settings; result: 1, left's
#             and right's kazan counts (u8 each) when they were entered (TK-R7); a game's and a match's
#             result: bytes 48..51 the clock's tag (clock_tag of its id; zeros: no id known)
#   52   8    chain: HMAC-SHA256(key, previous chain || bytes 0..51), first 8 bytes
#   60   4    crc: CRC-32 of bytes 0..59
#
# T_TEXT records continue the text of the record before them (a long tc string): bytes 8..51
# hold 44 more bytes of text (NUL-padded). T_CHECKPOINT records say "the clock was alive at t, with
# these faces": they let a reboot come back close to the cut (TK-C18); they are not contract 3 events.
# The journal keeps the latest one in a file of its own (records.CKPT), outside the chain's segments;
# older logs have them in the chain. T_GAP records say "the clock dropped `dropped` records here:
# its log was full" (payload: u32 dropped, u32 t of the last one dropped; the header is the first
# dropped record's, side none): the chain and seq go on unbroken, and only the key's holder can
# write one.
# T_ANCHOR records open every segment file: they state the chain value of the record before the
# segment (bytes 52..59) and carry the seq of the segment's first record; they take no seq of
# their own and are not chained. They let a verifier check the MAC of the first record of a log
# whose older segments were removed: without them that record's link could not be checked, and a
# forger could cut the log before an edited record. (A wrong stated value only makes that check
# fail: the value is public, what protects the record is the key that its MAC needs.)
# T_NAMES (0x44) records follow a match's setup record (log/matchrecords.py T_MATCH) when it was set up
# with names: bytes 8..11 t (0, the setup's), 12..51 the left side's name, a NUL, the right side's
# (UTF-8, NUL-padded, each cut on a character boundary). Their code and layout are log/names.py's,
# loaded only to write or read one: this module stays in RAM, and each name in it costs RAM.
# The chain links every record to the one before, so a reordered, edited or inserted record breaks
# it; with an arbiter key, only the key's holder can write a valid chain. What a log cannot show by
# itself - records cut off at its end, or an older copy put back - is proven by the signed head of
# a pull and by the result code (docs/log-format.md).

import struct

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without binascii.crc32
    _crc32 = None

import hashlib

from sagatfw.engine import clock as C

RECORD_SIZE = 64
MAGIC = 0xA5
T_TEXT = 0x40
T_CHECKPOINT = 0x41
T_GAP = 0x42
T_ANCHOR = 0x43
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
# The arbiter key changed (protocol key.set): the record is chained under the old key, the records
# after it under the new one; after ORIGIN_KEY_CLEARED they are unkeyed, and a verifier accepts
# that only because this record, under the old key, says so.
ORIGIN_KEY_SET = 3
ORIGIN_KEY_CLEARED = 4
ORIGIN_MAINTENANCE = 5  # the signed `maintenance` command opened the REPL until the next boot

# Problems a reader reports (Reader.problems: (kind, seq, detail)).
P_CRC = "crc"  # bytes do not match their CRC: torn or corrupted
P_MAGIC = "magic"  # not a record of this format
P_GAP = "missing"  # seq jumped: records are missing
P_ORDER = "order"  # seq went backwards: reordered or replayed
P_CHAIN = "chain"  # the chain does not link: edited, inserted, or a different key
P_TORN = "torn"  # a partial record at the end of a segment
P_KEY = "key"  # a record under a key outside that key's range, or no record under the key given


_TABLE = None  # the table of the CRC in Python, made at the first use (a port without binascii.crc32)


def crc32(data):
    """CRC-32 (the zlib/binascii one) of data."""
    global _TABLE
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    if _TABLE is None:  # (its making is inline: a function of its own would cost the module's dict a step)
        table = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (0xEDB88320 ^ (c >> 1)) if c & 1 else (c >> 1)
            table.append(c)
        _TABLE = table
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


class Chain:
    """HMAC-SHA256 keyed chain; key b"" (no arbiter key) still detects accidents, not forgers.
    The one HMAC of the firmware: the protocol's proof of authority (link/auth.py) uses it too."""

    # The clock's tag, clock_tag(its id), that its result records carry: set before boot (link/server.py's Server,
    # the simulator). Here, not a global of this module: its table of names is full (a new one costs RAM).
    tag = bytes(4)

    def __init__(self, key=b""):
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        key = bytes(key) + bytes(64 - len(key))
        self._ipad = bytes(b ^ 0x36 for b in key)
        self._opad = bytes(b ^ 0x5C for b in key)

    def mac(self, msg, more=b""):
        """HMAC-SHA256 (RFC 2104) of msg || more under the key: 32 bytes."""
        inner = hashlib.sha256(self._ipad)
        inner.update(msg)
        inner.update(more)
        outer = hashlib.sha256(self._opad)
        outer.update(inner.digest())
        return outer.digest()

    def link(self, prev, body):
        """The chain value of a record: HMAC(key, prev || body), first 8 bytes."""
        return self.mac(prev, body)[:CHAIN_SIZE]


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
            stage_byte(ev[e + C.F_BEFORE_STAGE]),
            ev[e + C.F_AFTER_MS],
            ev[e + C.F_AFTER_MOVES],
            stage_byte(ev[e + C.F_AFTER_STAGE]),
        )
    elif ev[e + C.F_TYPE] == C.EV_RESULT:
        if ev[e + C.F_BEFORE_STAGE]:  # the kazans (rules.result)
            struct.pack_into("<BBB", buf, PAYLOAD, 1, ev[e + C.F_BEFORE_MOVES], ev[e + C.F_AFTER_MOVES])
        buf[48:52] = Chain.tag  # (read.TAG_AT) this clock's: its code differs from another clock's of the same history


def stage_byte(stage):
    """A stage number as the log keeps it in one byte: a repeating final stage can pass 255, and
    every stage field of a record (header and adjust payload alike) then says 255."""
    return stage if stage < 255 else 255


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
        stage_byte(lst),
        stage_byte(rst),
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


def pack_anchor(buf, game, seq, prev):
    """A segment's T_ANCHOR record: `seq` of the record after it, `prev` the chain value of the
    record before it (ZERO_CHAIN at the log's start)."""
    for i in range(RECORD_SIZE):
        buf[i] = 0
    struct.pack_into("<BBHI", buf, 0, MAGIC, T_ANCHOR, game & 0xFFFF, seq)
    buf[CHAIN : CHAIN + CHAIN_SIZE] = prev
    struct.pack_into("<I", buf, CRC, crc32(memoryview(buf)[:CRC]))


def result_code(link):
    """The result code of a result record with chain value `link`: six digits that the faces show
    when a result is entered and the arbiter copies onto the scoresheet. The chain value depends
    on the key, on every record before it (the game's setup among them) and on the result record,
    whose clock tag (clock_tag) names the clock: so `sagat logs verify --game N --code C` proves from
    paper that the log still holds game N as it was when its result was entered on that clock, and
    two clocks with the same history give different codes."""
    return "%06d" % (struct.unpack(">I", bytes(link[:4]))[0] % 1000000)


def clock_tag(uid):
    """The 4 bytes a clock writes at bytes 48..51 of its result records (read.TAG_AT): the first bytes
    of SHA-256("sagat-clock:" + uid), uid its id as the link's identify says it (machine.unique_id in
    hex; the simulator's "sim-..."); zeros for no id. Made once before boot (Chain.tag: pack_event
    and a match's result write it); the host checks a head's uid against a record's tag with it."""
    if not uid:
        return bytes(4)
    return hashlib.sha256(b"sagat-clock:" + uid.encode()).digest()[:4]


def text_records(text):
    """How many T_TEXT records carry `text` (ASCII) after its first record."""
    return (len(text) + TEXT_SIZE - 1) // TEXT_SIZE


def pack_gap(buf, seq, dropped, last_t):
    """Turn buf, holding the first record the clock dropped, into a T_GAP record: its header says
    when the loss began (t, faces, wall); arg (capped) and the payload say how many records went
    and the t of the last one."""
    buf[1] = T_GAP
    struct.pack_into("<I", buf, 4, seq)
    struct.pack_into("<bh", buf, 25, -1, dropped if dropped < 32767 else 32767)
    for i in range(PAYLOAD, RECORD_SIZE):
        buf[i] = 0
    struct.pack_into("<II", buf, PAYLOAD, dropped, last_t)


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


def t_of(rec):
    return struct.unpack_from("<I", rec, 8)[0]


def type_of(rec):
    return rec[1]


def arg_of(rec):
    """A record's arg; for a game's result with kazans, the journal's result_arg (state's result): the
    result in bits 0..3, left's count in bits 4..11, right's in 12..19, bit 20 set (link/server.py's
    state unpacks it). One function for both: each costs RAM in this always-loaded module."""
    a = struct.unpack_from("<h", rec, 26)[0]
    if rec[1] == C.EV_RESULT and rec[PAYLOAD] == 1 and 0 <= a < 16:
        a |= 0x100000 | rec[PAYLOAD + 1] << 4 | rec[PAYLOAD + 2] << 12
    return a


def chain_of(rec):
    return bytes(rec[CHAIN : CHAIN + CHAIN_SIZE])


# The log folder and its files (log/journal.py writes them; its boot half, the snapshot reader and log.list
# read them; the host reads them from a flash image)
ROOT = "/log"  # the log folder on the clock's flash (the journal's root)
SUFFIX = ".seg"  # a segment of the chain, named by its first record's seq (10 digits) and this
CKPT = "ckpt"  # the latest checkpoint: one record, overwritten (not a segment)
