# log/read.py's Reader and a key_set record that keeps the key (the arbiter set the key the clock
# already had: `sagat key K --key K`): the records after it link under that same key and the log verifies;
# the holder of a retired key going on under it after a real change is still named, at the record where
# the retired key was kept. The pure reader, on both runtimes.
from sagatfw.engine import clock as C
from sagatfw.log import read as LR
from sagatfw.log import records as R

K, K2 = b"hall secret", b"second hall secret"


class _Log:
    """Settings records chained as log/journal.py chains them, and key changes as commands.key_set makes
    them (the record sealed under the key in force, every later one under the new key)."""

    def __init__(self, key):
        self.chain, self.prev, self.seq, self.recs = R.Chain(key), R.ZERO_CHAIN, 0, []

    def record(self, origin=R.ORIGIN_CHANGED):
        buf = bytearray(R.RECORD_SIZE)
        R.pack_header(buf, C.EV_SETTINGS, 1, self.seq, 0, 0, 0, 0, 0, -1, -1, origin, 1, 1, 0, 0, False)
        R.pack_settings(buf, C.Settings(None, "moves", 0, 0, 0))
        self.prev = R.seal(buf, self.prev, self.chain)
        self.seq += 1
        self.recs.append(bytes(buf))
        return self

    def key(self, new):
        self.record(R.ORIGIN_KEY_SET)
        self.chain = R.Chain(new)
        return self.record().record()


def _problems(recs, keys):
    r = LR.Reader(keys)
    r.events(recs)
    return r.problems


def test_the_same_key_set_again_goes_on_under_it():
    log = _Log(K).record().key(K).key(K)
    assert _problems(log.recs, K) == []
    assert _problems(log.recs, [K, K]) == []  # (a key given twice is the same key)
    rotated = _Log(K).record().key(K).key(K2)
    assert _problems(rotated.recs, [K2, K]) == []  # kept in an older key's range, then changed
    back = _Log(K).record().key(K2).key(K)
    assert _problems(back.recs, [K, K2]) == []


def test_a_retired_key_going_on_after_the_change_is_named_where_it_was_kept():
    genuine = _Log(K).record().key(K).key(K2)
    cut = len(genuine.recs) - 2  # the records after the change to K2
    forged = _Log(K)
    forged.recs, forged.prev, forged.seq = genuine.recs[:cut], R.chain_of(genuine.recs[cut - 1]), cut
    forged.record().record()  # under K, which the key_set at cut - 1 retired
    probs = _problems(forged.recs, [K2, K])
    assert [p[:2] for p in probs] == [(R.P_KEY, cut)], probs
    assert "the key change at seq %d retired" % (cut - 1) in probs[0][2] and "first --key" in probs[0][2], probs
    # and cleared by it, going on unkeyed
    forged.record(R.ORIGIN_KEY_CLEARED)
    forged.chain = R.Chain(b"")
    probs = _problems(forged.record().recs, [K2, K])
    assert [p[:2] for p in probs] == [(R.P_KEY, cut)] and "ends unkeyed" in probs[0][2], probs


def test_an_unkeyed_record_after_a_key_set_is_named_so():
    recs = _Log(K).record().key(K).recs[:3]  # a record, the key_set, the record after it: resealed unkeyed
    b = bytearray(recs[2])
    R.seal(b, R.chain_of(recs[1]), R.Chain(b""))
    probs = _problems(recs[:2] + [bytes(b)], K)
    assert probs[0][:2] == (R.P_KEY, 2) and "seq 2 is unkeyed, but a key was set at seq 1" in probs[0][2], probs
