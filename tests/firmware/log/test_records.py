# Binary log records: encode/decode to contract 3, CRC, keyed chain, and detection of missing,
# reordered, edited and torn records. Runs under CPython and MicroPython.
from clockkit import RIGHT, Game
from sagatfw.core import timecontrol as tcm
from sagatfw.engine import clock as C
from sagatfw.log import read as LR
from sagatfw.log import records as R


class Log:
    """A minimal in-memory journal: the same record building as log/journal.py, no files."""

    def __init__(self, key=b""):
        self.chain = R.Chain(key)
        self.prev = R.ZERO_CHAIN
        self.seq = 0
        self.buf = bytearray(R.RECORD_SIZE)
        self.recs = []

    def _push(self):
        self.prev = R.seal(self.buf, self.prev, self.chain)
        self.seq += 1
        self.recs.append(bytes(self.buf))

    def drain(self, clock, game=1):
        for i in range(clock.n_events):
            e = i * C.EV_SIZE
            R.pack_event(self.buf, clock.events, e, game, self.seq, clock.stage[0], clock.stage[1])
            rest = b""
            if clock.events[e + C.F_TYPE] == C.EV_GAME_START:
                text = tcm.format_sides(clock.tc[0], clock.tc[1])
                rest = R.put_text(self.buf, text, R.PAYLOAD, R.PAYLOAD_SIZE)
            self._push()
            while rest:
                rest = R.pack_text(self.buf, game, self.seq, rest)
                self._push()
        expected = LR.take_events(clock)
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
    g.clock.adjust(RIGHT, t + 600, 1000, 7, None)
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
    assert R.type_of(log.recs[1]) == R.T_TEXT
    got = LR.Reader().events(log.recs)
    assert got[0]["type"] == "game_start"
    assert got[0]["tc"] == {"left": tc, "right": "40/5400+30:1800+30"}
    assert [_strip(d) for d in got] == expected


def test_record_size_and_layout():
    log, _ = _game()
    assert all(len(r) == 64 for r in log.recs)
    assert log.recs[0][0] == R.MAGIC
    assert R.seq_of(log.recs[3]) == 3


def test_edited_record_fails_its_crc():
    log, _ = _game()
    recs = list(log.recs)
    b = bytearray(recs[3])
    b[12] ^= 1  # one bit of left_ms
    recs[3] = bytes(b)
    reader = LR.Reader()
    reader.events(recs)
    assert [p[0] for p in reader.problems][:1] == [R.P_CRC]


def test_edit_with_fixed_crc_breaks_the_chain():
    log, _ = _game()
    recs = list(log.recs)
    b = bytearray(recs[3])
    b[12] ^= 1
    import struct

    struct.pack_into("<I", b, R.CRC, R.crc32(bytes(b[: R.CRC])))
    recs[3] = bytes(b)
    reader = LR.Reader()
    reader.events(recs)
    kinds = [p[0] for p in reader.problems]
    assert R.P_CHAIN in kinds and R.P_CRC not in kinds
    assert [p for p in reader.problems if p[0] == R.P_CHAIN][0][1] in (3, 4)


def test_missing_record_is_reported():
    log, _ = _game()
    recs = log.recs[:4] + log.recs[5:]
    reader = LR.Reader()
    reader.events(recs)
    kinds = [p[0] for p in reader.problems]
    assert R.P_GAP in kinds and R.P_CHAIN in kinds
    gap = [p for p in reader.problems if p[0] == R.P_GAP][0]
    assert gap[1] == 5 and "4" in gap[2]


def test_reordered_records_are_reported():
    log, _ = _game()
    recs = list(log.recs)
    recs[3], recs[4] = recs[4], recs[3]
    reader = LR.Reader()
    reader.events(recs)
    kinds = [p[0] for p in reader.problems]
    assert R.P_ORDER in kinds and R.P_CHAIN in kinds


def test_torn_record_is_reported():
    log, _ = _game()
    recs = log.recs[:-1] + [log.recs[-1][:30]]
    reader = LR.Reader()
    reader.events(recs)
    assert reader.problems[-1][0] == R.P_TORN


def test_foreign_bytes_are_reported_not_decoded():
    reader = LR.Reader()
    got = reader.events([bytes(64), b"\xff" * 64])
    assert got == [] and [p[0] for p in reader.problems] == [R.P_MAGIC, R.P_MAGIC]


def test_keyed_chain_detects_a_forger_without_the_key():
    key = b"arbiter secret"
    log, _ = _game(key=key)
    r = LR.Reader(key)
    r.events(log.recs)
    assert r.problems == []
    wrong = LR.Reader(b"another key")
    wrong.events(log.recs)
    assert wrong.problems and wrong.problems[0][0] == R.P_CHAIN
    # A forger re-seals an edited record with the unkeyed chain: the keyed check fails.
    recs = list(log.recs)
    b = bytearray(recs[2])
    b[12] ^= 1
    R.seal(b, R.chain_of(recs[1]), R.Chain(b""))
    recs[2] = bytes(b)
    r = LR.Reader(key)
    r.events(recs)
    assert [p[:2] for p in r.problems][:1] == [(R.P_KEY, 2)]  # an unkeyed record amid keyed ones


def test_crc32_matches_zlib_value():
    assert R.crc32(b"hello") == 907060870
    assert R.crc32(b"") == 0


def test_crc32_table_fallback_matches():
    saved = R._crc32
    try:
        R._crc32 = None
        assert R.crc32(b"hello") == 907060870
        assert R.crc32(bytes(range(256))) == 0x29058C73
    finally:
        R._crc32 = saved


def test_iso_utc():
    assert LR.iso_utc(0) == "1970-01-01T00:00:00.000Z"
    assert LR.iso_utc(951782400, 5) == "2000-02-29T00:00:00.005Z"
    assert LR.iso_utc(1796000000, 123) == "2026-11-30T00:53:20.123Z"
    assert LR.iso_utc(4107542399) == "2100-02-28T23:59:59.000Z"


def test_settings_payload_round_trip():
    buf = bytearray(64)
    s = C.Settings(True, "flag", 60000, 900000, 120000)
    R.pack_header(buf, C.EV_SETTINGS, 3, 9, 0, 1, 2, 0, 0, -1, 0, R.ORIGIN_DEFAULTS_CORRUPT, 1, 1, 0, 0, False)
    R.pack_settings(buf, s)
    R.seal(buf, R.ZERO_CHAIN, R.Chain())
    d = LR.decode(buf)
    assert d["settings"] == {"freeze": True, "stage_advance": "flag", "extension_ms": 60000,
                             "default_ms": 900000, "low_time_ms": 120000}
    assert d["origin"] == "defaults_corrupt" and d["first"] == "left" and d["game"] == 3 and d["seq"] == 9


def test_stage_past_255_is_logged_as_255_and_replays():
    # A repeating final stage (10/600:1/30 adds a stage a move) passes stage 255; the log keeps a
    # stage in one byte (255 then), in the header and in an adjust's before/after alike, and a
    # replay of the log gives the same clock: the correction that left the stage alone keeps it.
    from sagatfw.log.replay import replay

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


# ------------------------------------------------------------ attacks on the chain


def _key_change(log, new_key, origin=R.ORIGIN_KEY_SET, game=1):
    """What commands.key_set does: a settings record sealed under the old key, then the new one."""
    R.pack_header(log.buf, C.EV_SETTINGS, game, log.seq, 0, 0, 0, 0, 0, -1, -1, origin, 1, 1, 0, 0, False)
    R.pack_settings(log.buf, C.Settings(None, "moves", 0, 0, 0))
    log._push()
    log.chain = R.Chain(new_key)


def _problems(recs, key=b""):
    r = LR.Reader(key)
    r.events(recs)
    return r.problems


def test_an_unkeyed_log_fails_verify_with_the_key():
    # Attack 1: the keyed log replaced by one made on any unkeyed clock (same firmware).
    forged, _ = _game()
    probs = _problems(forged.recs, b"K")
    assert [p[0] for p in probs] == [R.P_KEY], probs
    assert "no record links under the key" in probs[0][2]
    # the same with the games before the key was set kept, and the key_set record cut off
    # the real games before the key was set, and its key_set record, with every keyed record cut off
    log, _ = _game()
    _key_change(log, b"K")
    assert [p[0] for p in _problems(log.recs, b"K")] == [R.P_KEY]


def test_the_unkeyed_part_before_the_key_was_set_verifies_with_the_key():
    log, _ = _game()
    _key_change(log, b"K")
    g = Game("300+3", None, freeze=False)
    g.clock.start(0)
    log.drain(g.clock)
    g.clock.press(0, 1000)
    log.drain(g.clock)
    assert _problems(log.recs, b"K") == []
    # a record after the key change re-chained unkeyed: named
    recs = list(log.recs)
    b = bytearray(recs[-1])
    b[12] ^= 1
    R.seal(b, R.chain_of(recs[-2]), R.Chain(b""))
    probs = _problems(recs[:-1] + [bytes(b)], b"K")
    assert probs[0][:2] == (R.P_KEY, R.seq_of(b)), probs  # (and the log then ends unkeyed)


def test_a_retired_key_is_valid_only_for_its_own_range():
    # Attack 4: --key NEW --key OLD; records re-chained under OLD after the key_set that retired it.
    log, _ = _game(key=b"OLD")
    _key_change(log, b"NEW")
    cut = len(log.recs)
    g = Game("300+3", None, freeze=False)
    g.clock.start(0)
    log.drain(g.clock)
    g.clock.press(0, 1000)
    log.drain(g.clock)
    assert _problems(log.recs, [b"NEW", b"OLD"]) == []
    forged = list(log.recs[:cut])
    prev = R.chain_of(forged[-1])
    for rec in log.recs[cut:]:
        b = bytearray(rec)
        prev = R.seal(b, prev, R.Chain(b"OLD"))
        forged.append(bytes(b))
    probs = _problems(forged, [b"NEW", b"OLD"])
    assert probs and probs[0][:2] == (R.P_KEY, cut), probs
    assert "retired" in probs[0][2]
    # and a log that stops at the key change does not end under the current key
    probs = _problems(log.recs[:cut], [b"NEW", b"OLD"])
    assert [p[0] for p in probs] == [R.P_KEY] and "first --key" in probs[0][2], probs


def _anchor(game, seq, prev):
    b = bytearray(R.RECORD_SIZE)
    R.pack_anchor(b, game, seq, prev)
    return bytes(b)


def test_the_first_record_is_checked_against_the_link_its_anchor_states():
    # Attack 2: cut every record before a result, edit it, fix the CRC. Without an anchor the
    # first record cannot be checked: a problem. With the anchor the journal writes at the start
    # of every segment, its MAC is checked like any other.
    key = b"K"
    log, _ = _game(key=key)
    i = next(i for i, r in enumerate(log.recs) if R.type_of(r) == C.EV_RESULT)
    res = bytearray(log.recs[i])
    res[26] = 1  # the result's arg: another result
    R.struct.pack_into("<I", res, R.CRC, R.crc32(memoryview(res)[: R.CRC]))
    probs = _problems([bytes(res)], key)
    assert probs and probs[0][0] == R.P_CHAIN and "without a segment anchor" in probs[0][2], probs
    prev = R.chain_of(log.recs[i - 1])
    assert _problems([_anchor(1, R.seq_of(res), prev), log.recs[i]], key) == []
    probs = _problems([_anchor(1, R.seq_of(res), prev), bytes(res)], key)
    assert probs and probs[0][:2] == (R.P_CHAIN, R.seq_of(res)), probs
    # an anchor amid the log must state the link of the record before it
    recs = log.recs[:3] + [_anchor(1, 3, R.chain_of(log.recs[2]))] + log.recs[3:]
    assert _problems(recs, key) == []
    recs = log.recs[:3] + [_anchor(1, 3, bytes(8))] + log.recs[3:]
    assert [p[:2] for p in _problems(recs, key)] == [(R.P_CHAIN, 3)]


def test_a_keyed_log_without_the_key_says_give_key_once():
    log, _ = _game(key=b"K")
    probs = _problems(log.recs)
    assert len(probs) == 1 and "give --key" in probs[0][2], probs
    plain, _ = _game()
    _key_change(plain, b"K")
    g = Game("300", None)
    g.clock.start(0)
    plain.drain(g.clock)
    probs = _problems(plain.recs)
    assert len(probs) == 1 and "give --key" in probs[0][2], probs


def test_result_code_is_six_digits_of_the_result_records_link():
    assert R.result_code(bytes(8)) == "000000"
    assert R.result_code(b"\xff\xff\xff\xff\0\0\0\0") == "%06d" % (0xFFFFFFFF % 1000000)


def test_an_anchor_must_carry_the_seq_of_the_record_after_it():
    # An attack: cut the first segment and relabel the next segment's anchor seq 0 (an
    # anchor has no MAC): the record after it is not seq 0, and a seq 0 anchor states zeros.
    key = b"K"
    log, _ = _game(key=key)
    prev = R.chain_of(log.recs[5])
    assert _problems([_anchor(1, 6, prev)] + log.recs[6:], key) == []
    probs = _problems([_anchor(1, 0, prev)] + log.recs[6:], key)
    assert [p[0] for p in probs] == [R.P_CHAIN, R.P_GAP, R.P_CHAIN], probs
    assert "states a link" in probs[0][2] and "says seq 0" in probs[2][2]
    r = LR.Reader(key)
    r.events([_anchor(1, 6, prev)] + log.recs[6:])
    assert r.start_seq == 6  # the first record's seq, not the anchor's say


def test_a_retired_key_cannot_clear_the_key_and_go_on_unkeyed():
    # An attack: the holder of a leaked OLD key puts a key_cleared record under OLD where
    # the key change to NEW was, and forges on unkeyed. The clear that ends a log must be the
    # current key's (the first --key).
    log, _ = _game(key=b"OLD")
    cut = len(log.recs)
    _key_change(log, b"NEW")
    g = Game("300", None)
    g.clock.start(0)
    log.drain(g.clock)
    assert _problems(log.recs, [b"NEW", b"OLD"]) == []
    forged, _ = _game(key=b"OLD")
    _key_change(forged, b"", origin=R.ORIGIN_KEY_CLEARED)
    g = Game("300", None)
    g.clock.start(0)
    forged.drain(g.clock)
    assert forged.recs[:cut] == log.recs[:cut]
    probs = _problems(forged.recs, [b"NEW", b"OLD"])
    assert [p[0] for p in probs] == [R.P_KEY] and "no key_cleared record under the first" in probs[0][2], probs
    # the current key's own clear is the arbiter's: accepted
    ok, _ = _game(key=b"NEW")
    _key_change(ok, b"", origin=R.ORIGIN_KEY_CLEARED)
    g = Game("300", None)
    g.clock.start(0)
    ok.drain(g.clock)
    assert _problems(ok.recs, [b"NEW", b"OLD"]) == [] and _problems(ok.recs, b"NEW") == []
