# A result record names the clock that entered it (records.clock_tag of its id, at TAG_AT: records.pack_event
# writes records.Chain.tag, the clock's, set before boot), so the result code of one history differs from clock to
# clock; the tag is read back by log/read.py's tag_of and leaves the result's own fields (its kazans, arg_of) as
# they were. The pure codec, on both runtimes.
from clockkit import Game, L
from sagatfw.log import records as R
from sagatfw.log.read import TAG_AT, TAG_SIZE, decode, kazans_of, tag_of


def _result_record(tag, kazans=()):
    """A game's result (`+/-`, or 1-0 with kazans) packed as the journal packs it on the clock of `tag`."""
    g = Game("60")
    if kazans:
        g.start(0)
        g.press(L, 1000)
        g.clock.result(0, 5000, *kazans)
    else:
        g.clock.result(3, 500)  # +/-: before the start (TK-R4)
    buf = bytearray(R.RECORD_SIZE)
    was, R.Chain.tag = R.Chain.tag, tag
    try:
        R.pack_event(buf, g.clock.events, (g.clock.n_events - 1) * 15, 1, 7, 1, 1)
    finally:
        R.Chain.tag = was
    return buf


def test_a_clocks_tag_is_its_ids_and_no_other_clocks():
    a, b = R.clock_tag("e6614103e7a1b2c3"), R.clock_tag("e6614103e7a1b2c4")
    assert len(a) == TAG_SIZE and a == R.clock_tag("e6614103e7a1b2c3") and a != b
    assert R.clock_tag(None) == R.clock_tag("") == bytes(TAG_SIZE)


def test_the_same_history_on_two_clocks_gives_two_codes():
    chain = R.Chain(b"one key for the hall")
    prev = R.ZERO_CHAIN
    codes = []
    for uid in ("sim-000000000001", "sim-000000000002", "sim-000000000001"):
        rec = _result_record(R.clock_tag(uid))
        codes.append(R.result_code(R.seal(rec, prev, chain)))
    assert codes[0] != codes[1] and codes[0] == codes[2], codes


def test_the_tag_is_read_back_and_leaves_the_result_as_it_was():
    tag = R.clock_tag("e6614103e7")
    rec = _result_record(tag, (85, 60))
    assert tag_of(rec) == tag and bytes(rec[TAG_AT : TAG_AT + TAG_SIZE]) == tag
    assert kazans_of(rec) == (85, 60) and decode(rec)["result"] == "1-0" and decode(rec)["kazans"] == [85, 60]
    assert R.arg_of(rec) & 15 == 0 and (R.arg_of(rec) >> 4) & 255 == 85
    assert tag_of(_result_record(bytes(TAG_SIZE))) is None  # no id known: no clock named
