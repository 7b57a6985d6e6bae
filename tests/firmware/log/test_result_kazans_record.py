# The result record keeps the final kazans (TK-R7) in its payload, and the journal's result_arg carries them with
# the result (records.arg_of, unpacked by link/server.py's state as _result_of does here): the codec, on both
# runtimes.
from clockkit import Game, L
from sagatfw.log import records as R
from sagatfw.log.read import decode, kazans_of, take_events


def _result_of(a):
    """(result, left's kazans, right's) of a journal's result_arg, as link/server.py's state unpacks it."""
    if a < 0 or not a & 0x100000:
        return a, -1, -1
    return a & 15, (a >> 4) & 255, (a >> 12) & 255


def _record(g):
    """The clock's last queued event packed into a record, as the journal does."""
    buf = bytearray(R.RECORD_SIZE)
    ev = g.clock.events
    e = (g.clock.n_events - 1) * 15
    R.pack_event(buf, ev, e, 3, 40, 1, 1)
    R.seal(buf, R.ZERO_CHAIN, R.Chain(b"k"))
    return buf


def test_tk_r7_the_kazans_go_into_the_result_record_and_back():
    g = Game("300")
    g.start(0)
    g.clock.result(1, 5000, 70, 92)
    rec = _record(g)
    assert kazans_of(rec) == (70, 92)
    assert decode(rec)["kazans"] == [70, 92] and decode(rec)["result"] == "0-1"
    assert _result_of(R.arg_of(rec)) == (1, 70, 92)
    assert take_events(g.clock)[-1]["kazans"] == [70, 92]  # the clock's event says the same


def test_tk_r7_a_result_without_kazans_keeps_none_and_its_plain_arg():
    g = Game("300")
    g.start(0)
    g.clock.result(2, 5000)
    rec = _record(g)
    assert kazans_of(rec) is None and decode(rec)["kazans"] is None
    assert R.arg_of(rec) == 2 and _result_of(2) == (2, -1, -1)
    assert _result_of(-1) == (-1, -1, -1)  # a match's draw (winner none) passes as it is


def test_tk_r7_zero_kazans_are_kept_as_given():
    g = Game("300")
    g.start(0)
    g.press(L, 1000)
    g.clock.result(0, 5000, 0, 0)  # 0-0: a resignation before any capture
    assert kazans_of(_record(g)) == (0, 0)
