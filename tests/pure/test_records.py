# Binary log records: encode/decode to contract 3, CRC, keyed chain, and detection of missing,
# reordered, edited and torn records. Runs under CPython and MicroPython.
from kit import Game, R
from sagatfw import clock as C
from sagatfw import logread as LR
from sagatfw import records as REC
from sagatfw import timecontrol as tcm


class Log:
    """A minimal in-memory journal: the same record building as journal.py, no files."""

    def __init__(self, key=b""):
        self.chain = REC.Chain(key)
        self.prev = REC.ZERO_CHAIN
        self.seq = 0
        self.buf = bytearray(REC.RECORD_SIZE)
        self.recs = []

    def _push(self):
        self.prev = REC.seal(self.buf, self.prev, self.chain)
        self.seq += 1
        self.recs.append(bytes(self.buf))

    def drain(self, clock, game=1):
        for i in range(clock.n_events):
            e = i * C.EV_SIZE
            REC.pack_event(self.buf, clock.events, e, game, self.seq, clock.stage[0], clock.stage[1])
            rest = b""
            if clock.events[e + C.F_TYPE] == C.EV_GAME_START:
                text = tcm.format_sides(clock.tc[0], clock.tc[1])
                rest = REC.put_text(self.buf, text, REC.PAYLOAD, REC.PAYLOAD_SIZE)
            self._push()
            while rest:
                rest = REC.pack_text(self.buf, game, self.seq, rest)
                self._push()
        expected = clock.take_events()
        return expected


def _game(tc="300+3", right=None, key=b""):
    g = Game(tc, right, freeze=False)
    log = Log(key)
    expected = []
    g.clock.start(0)
    expected += log.drain(g.clock)
    t = 0
    for i, d in enumerate([3000, 4000, 5000, 1000, 2000]):
        t += d
        g.clock.press(i % 2, t)
        expected += log.drain(g.clock)
    g.clock.pause(C.BY_RIGHT, t + 500)
    expected += log.drain(g.clock)
    g.clock.adjust(R, t + 600, 1000, 7, None)
    expected += log.drain(g.clock)
    g.clock.resume(t + 700)
    g.clock.advance(t + 700 + 500000)
    expected += log.drain(g.clock)
    g.clock.result(0, t + 800000)
    expected += log.drain(g.clock)
    return log, expected


def _strip(d):
    return dict((k, v) for k, v in d.items() if k not in ("game", "seq", "wall", "left_stage", "right_stage"))


def test_every_event_round_trips_to_contract_3_fields():
    log, expected = _game()
    reader = LR.Reader()
    got = reader.events(log.recs)
    assert reader.problems == []
    assert [_strip(d) for d in got] == expected
    assert [d["seq"] for d in got] == list(range(len(got)))
    assert all(d["game"] == 1 and d["wall"] is None for d in got)
    kinds = [d["type"] for d in got]
    for k in ("game_start", "press", "pause", "adjust", "resume", "flag", "result"):
        assert k in kinds, k


def test_long_tc_uses_text_continuations():
    tc = "40/5400+30:20/1800+30:900+30"
    log, expected = _game(tc, "40/5400+30:1800+30")
    assert REC.type_of(log.recs[1]) == REC.T_TEXT
    got = LR.Reader().events(log.recs)
    assert got[0]["type"] == "game_start"
    assert got[0]["tc"] == {"left": tc, "right": "40/5400+30:1800+30"}
    assert [_strip(d) for d in got] == expected


def test_record_size_and_layout():
    log, _ = _game()
    assert all(len(r) == 64 for r in log.recs)
    assert log.recs[0][0] == REC.MAGIC
    assert REC.seq_of(log.recs[3]) == 3


def test_edited_record_fails_its_crc():
    log, _ = _game()
    recs = list(log.recs)
    b = bytearray(recs[3])
    b[12] ^= 1  # one bit of left_ms
    recs[3] = bytes(b)
    reader = LR.Reader()
    reader.events(recs)
    assert [p[0] for p in reader.problems][:1] == [REC.P_CRC]


def test_edit_with_fixed_crc_breaks_the_chain():
    log, _ = _game()
    recs = list(log.recs)
    b = bytearray(recs[3])
    b[12] ^= 1
    import struct

    struct.pack_into("<I", b, REC.CRC, REC.crc32(bytes(b[: REC.CRC])))
    recs[3] = bytes(b)
    reader = LR.Reader()
    reader.events(recs)
    kinds = [p[0] for p in reader.problems]
    assert REC.P_CHAIN in kinds and REC.P_CRC not in kinds
    assert [p for p in reader.problems if p[0] == REC.P_CHAIN][0][1] in (3, 4)


def test_missing_record_is_reported():
    log, _ = _game()
    recs = log.recs[:4] + log.recs[5:]
    reader = LR.Reader()
    reader.events(recs)
    kinds = [p[0] for p in reader.problems]
    assert REC.P_GAP in kinds and REC.P_CHAIN in kinds
    gap = [p for p in reader.problems if p[0] == REC.P_GAP][0]
    assert gap[1] == 5 and "4" in gap[2]


def test_reordered_records_are_reported():
    log, _ = _game()
    recs = list(log.recs)
    recs[3], recs[4] = recs[4], recs[3]
    reader = LR.Reader()
    reader.events(recs)
    kinds = [p[0] for p in reader.problems]
    assert REC.P_ORDER in kinds and REC.P_CHAIN in kinds


def test_torn_record_is_reported():
    log, _ = _game()
    recs = log.recs[:-1] + [log.recs[-1][:30]]
    reader = LR.Reader()
    reader.events(recs)
    assert reader.problems[-1][0] == REC.P_TORN


def test_foreign_bytes_are_reported_not_decoded():
    reader = LR.Reader()
    got = reader.events([bytes(64), b"\xff" * 64])
    assert got == [] and [p[0] for p in reader.problems] == [REC.P_MAGIC, REC.P_MAGIC]


def test_keyed_chain_detects_a_forger_without_the_key():
    key = b"arbiter secret"
    log, _ = _game(key=key)
    r = LR.Reader(key)
    r.events(log.recs)
    assert r.problems == []
    wrong = LR.Reader(b"another key")
    wrong.events(log.recs)
    assert wrong.problems and wrong.problems[0][0] == REC.P_CHAIN
    # A forger re-seals an edited record with the unkeyed chain: the keyed check fails.
    recs = list(log.recs)
    b = bytearray(recs[2])
    b[12] ^= 1
    REC.seal(b, REC.chain_of(recs[1]), REC.Chain(b""))
    recs[2] = bytes(b)
    r = LR.Reader(key)
    r.events(recs)
    assert [p[0] for p in r.problems][:1] == [REC.P_CHAIN]


def test_crc32_matches_zlib_value():
    assert REC.crc32(b"hello") == 907060870
    assert REC.crc32(b"") == 0


def test_crc32_table_fallback_matches():
    saved = REC._crc32
    try:
        REC._crc32 = None
        assert REC.crc32(b"hello") == 907060870
        assert REC.crc32(bytes(range(256))) == 0x29058C73
    finally:
        REC._crc32 = saved


def test_iso_utc():
    assert LR.iso_utc(0) == "1970-01-01T00:00:00.000Z"
    assert LR.iso_utc(951782400, 5) == "2000-02-29T00:00:00.005Z"
    assert LR.iso_utc(1796000000, 123) == "2026-11-30T00:53:20.123Z"
    assert LR.iso_utc(4107542399) == "2100-02-28T23:59:59.000Z"


def test_settings_payload_round_trip():
    buf = bytearray(64)
    s = C.Settings(True, "flag", 60000, 900000, 120000)
    REC.pack_header(buf, C.EV_SETTINGS, 3, 9, 0, 1, 2, 0, 0, -1, 0, REC.ORIGIN_DEFAULTS_CORRUPT, 1, 1, 0, 0, False)
    REC.pack_settings(buf, s)
    REC.seal(buf, REC.ZERO_CHAIN, REC.Chain())
    d = LR.decode(buf)
    assert d["settings"] == {"freeze": True, "stage_advance": "flag", "extension_ms": 60000,
                             "default_ms": 900000, "low_time_ms": 120000}
    assert d["origin"] == "defaults_corrupt" and d["first"] == "left" and d["game"] == 3 and d["seq"] == 9


def test_stage_past_255_is_logged_as_255_and_replays():
    # A repeating final stage (10/600:1/30 adds a stage a move) passes stage 255; the log keeps a
    # stage in one byte (255 then), in the header and in an adjust's before/after alike, and a
    # replay of the log gives the same clock: the correction that left the stage alone keeps it.
    from sagatfw.replay import replay

    g = Game("10/600:1/30", None, freeze=False)
    log = Log()
    g.clock.start(0)
    log.drain(g.clock)
    t = 0
    for i in range(600):
        t += 50
        g.clock.press(i % 2, t)
        log.drain(g.clock)
    assert g.clock.stage[0] > 255
    g.clock.pause(C.BY_ARBITER, t + 10)
    log.drain(g.clock)
    g.clock.adjust(0, t + 20, 90000, None, None)  # time only
    g.clock.adjust(1, t + 30, None, None, 3)  # the stage itself
    log.drain(g.clock)
    reader = LR.Reader()
    adj = []

    def events():  # one at a time: a 1,200-record game's dicts need not all sit in a small heap
        for rec in log.recs:
            got = reader.feed(rec)
            for e in got if isinstance(got, tuple) else (got,):
                if e is not None:
                    if e["type"] == "adjust":
                        adj.append(e)
                    yield e
        last = reader.finish()
        if last is not None:
            yield last

    settings = {"type": "settings", "t": 0, "tc": "10/600:1/30", "first": "left", "origin": "changed",
                "settings": {"freeze": False, "stage_advance": "moves", "extension_ms": 0, "default_ms": 0,
                             "low_time_ms": 0}}
    def with_setup():
        yield settings
        yield from events()

    r = replay(with_setup())
    assert reader.problems == []
    assert adj[0]["before"]["stage"] == adj[0]["after"]["stage"] == 255
    assert adj[1]["before"]["stage"] == 255 and adj[1]["after"]["stage"] == 3
    assert (r.clock.stage[0], r.clock.stage[1]) == (g.clock.stage[0], 3)
    assert (r.clock.ms(0), r.clock.ms(1)) == (g.clock.ms(0), g.clock.ms(1))
