# log.read streams its records from the flash as the link takes them: a run of
# records is read at once and not decoded when its first and last seqs follow on. Against damage
# of every kind (a flipped byte anywhere in a record, a record cut out of a segment, a torn tail,
# a segment removed, a lone anchor) and any from_seq and max_records, every answer must be what
# docs/protocol.md says, worked out from the segment files by the plain reading of its rules
# (tests/kits/linkkit.py's reference): a record's position is its seq, or the one before + 1 if it
# is damaged; an anchor (or what is left of it in its place, a segment's first entry) goes with the
# record after it; a torn tail is counted; a chunk holds max_records records.
import json
import os
import random

from flash import unmount
from linkkit import reference
from protocolrig import Rig, _b64

from sagatfw.engine import clock as C
from sagatfw.link import wire as W
from sagatfw.log import records as R


def _damage(folder, rnd):
    """Damage the log's segment files (not the newest, which the journal holds open) in one of
    six ways; returns what was done."""
    names = sorted(n for n in os.listdir(folder) if n.endswith(".seg"))[:-1]
    if not names:
        return "nothing left to damage"
    name = names[rnd.randrange(len(names))]
    path = folder + "/" + name
    with open(path, "rb") as f:
        data = bytearray(f.read())
    n = len(data) // R.RECORD_SIZE
    if not n:
        return "%s holds no whole record" % name
    k = rnd.randrange(n)
    how = rnd.randrange(6)
    if how == 0:  # a flipped byte anywhere in a record (its CRC no longer matches)
        data[k * R.RECORD_SIZE + rnd.randrange(R.RECORD_SIZE)] ^= 1 << rnd.randrange(8)
    elif how == 1:  # a flipped byte in a seq field (the record's position then comes from the one before)
        data[k * R.RECORD_SIZE + 4 + rnd.randrange(4)] ^= 1 << rnd.randrange(8)
    elif how == 2 and n > 2:  # a whole record cut out: the seqs after it jump
        k = 1 + rnd.randrange(n - 1)
        data[k * R.RECORD_SIZE : (k + 1) * R.RECORD_SIZE] = b""
    elif how == 3:  # a torn tail: part of a record after the last whole one
        data = data[: (n - 1) * R.RECORD_SIZE + 1 + rnd.randrange(R.RECORD_SIZE - 1)]
    elif how == 4:  # the segment removed (an erase, the log's size limit)
        os.remove(path)
        return "removed %s" % name
    else:  # only its anchor left
        data = data[: R.RECORD_SIZE]
    with open(path, "wb") as f:
        f.write(data)
    return "damage %d in %s at %d" % (how, name, k)


def _ask(rig, start, want):
    r = rig.ok("log.read", from_seq=start, max_records=want)
    return _b64(r["data"]), r["from"], r["next"], r["count"], r.get("torn", 0)


def _ask_bin(rig, start, want, take=700):
    """log.read with bin: the answer line, then exactly `bin` raw bytes (taken `take` at a time)."""
    srv = rig.srv
    srv.feed(b'{"id":9,"cmd":"log.read","from_seq":%d,"max_records":%d,"bin":true}\n' % (start, want), rig_now(rig))
    out = bytearray()
    while srv.pending():
        out += srv.take_out(take)
    i = out.find(b"\n")
    r = json.loads(bytes(out[:i]))
    raw = bytes(out[i + 1 :])
    assert r["ok"] is True and r["bin"] == len(raw) == r["count"] * R.RECORD_SIZE, (r, len(raw))
    return raw, r["from"], r["next"], r["count"], r.get("torn", 0)


def test_every_answer_is_the_rules_on_damaged_logs():
    rnd = random.Random(15) if hasattr(random, "Random") else None
    if rnd is None:  # the unix port's random has no Random class: seed the module's
        random.seed(15)
        rnd = random
    cases = 0
    for log in range(6):
        rig = Rig()
        rig.ok("new", tc="300+2", first="left")
        rig.ok("start")
        for i in range(90):  # 90 presses: 7 segments of 16 records
            rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, 500 * (i + 1))
        folder = rig.app.journal.root
        done = [_damage(folder, rnd) for _ in range(log)]  # none in the first log
        # (the clock's own removals come with new records or log.erase, after which a pull lists
        # the segments again: so after the test's)
        rig.srv.segs = None
        last = rig.app.journal.seq
        for _ in range(40):
            start = rnd.randrange(last + 3)
            want = 1 + rnd.randrange(W.MAX_RECORDS if rnd.randrange(4) == 0 else 40)
            got = _ask(rig, start, want)
            want_got = reference(folder, start, want)
            assert got == want_got, (done, start, want, got[1:], want_got[1:])
            assert _ask_bin(rig, start, want, 1 + rnd.randrange(3000)) == want_got, (done, start, want)
            cases += 1
        unmount()
    assert cases == 240


def test_a_pull_in_chunks_gets_every_record_once_whatever_the_damage():
    # a host that follows `next` (sagat logs pull) gets the same bytes as one reading of the files
    random.seed(16)
    for log in range(4):
        rig = Rig()
        rig.ok("new", tc="300+2", first="left")
        rig.ok("start")
        for i in range(70):
            rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, 500 * (i + 1))
        folder = rig.app.journal.root
        for _ in range(log):
            _damage(folder, random)
        rig.srv.segs = None
        whole = reference(folder, 0, 100000)[0]
        for chunk in (1, 7, 32, W.MAX_RECORDS):
            got = b""
            seq = 0
            while True:
                data, _, nxt, count, _ = _ask(rig, seq, chunk)
                if not count:
                    break
                got += data
                seq = nxt
            assert got == whole, (log, chunk, len(got), len(whole))
        unmount()


def test_records_written_while_a_chunk_is_sent_are_in_it_or_the_next():
    # the clock plays on while a long chunk goes out a piece at a time: the records it appends to
    # the segment being read come in the same chunk or the next, never twice or lost
    rig = Rig()
    rig.ok("new", tc="300+2", first="left")
    rig.ok("start")
    for i in range(20):
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, 500 * (i + 1))
    srv = rig.srv
    seq = 0
    got = []
    ms = 20 * 500
    while True:
        rig.srv.feed(b'{"id":1,"cmd":"log.read","from_seq":%d,"max_records":%d}\n' % (seq, W.MAX_RECORDS), rig_now(rig))
        out = bytearray()
        while srv.pending():
            out += srv.take_out(100)  # a piece at a time, and a press between pieces
            if ms < 60 * 500:
                ms += 500
                rig.press(C.LEFT if (ms // 500) % 2 == 0 else C.RIGHT, ms)
        r = json.loads(bytes(out))
        data = _b64(r["data"])
        got += [data[i : i + R.RECORD_SIZE] for i in range(0, len(data), R.RECORD_SIZE)]
        if not r["count"]:
            break
        seq = r["next"]
    whole = reference(rig.app.journal.root, 0, 100000)[0]
    assert b"".join(got) == whole
    assert len([x for x in got if R.type_of(x) != R.T_ANCHOR]) == rig.app.journal.seq
    unmount()


def rig_now(rig):
    from protocolrig import T

    return T(rig.ms)


def test_bin_sends_the_same_records_raw_and_a_bad_bin_is_refused():
    rig = Rig()
    rig.ok("new", tc="300+2", first="left")
    rig.ok("start")
    for i in range(50):
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, 500 * (i + 1))
    for start, want in ((0, W.MAX_RECORDS), (3, 17), (16, 1), (40, 5)):
        assert _ask_bin(rig, start, want) == _ask(rig, start, want)
    empty = _ask_bin(rig, 10000, 5)
    assert empty[0] == b"" and empty[3] == 0
    for bad in ('"yes"', "1", "null"):
        line = b'{"id":3,"cmd":"log.read","from_seq":0,"bin":%s}\n' % bad.encode()
        (r,) = rig.lines(line)
        assert r["ok"] is False and r["error"]["code"] == "bad_arg" and "bin" in r["error"]["message"], r
    # the next request after a bin answer is answered after its raw bytes, in order
    srv = rig.srv
    two = b'{"id":1,"cmd":"log.read","from_seq":0,"max_records":40,"bin":true}\n{"id":2,"cmd":"state"}\n'
    srv.feed(two, rig_now(rig))
    out = bytearray()
    while srv.pending() or srv.has_work():
        out += srv.take_out(333)
        srv.feed(b"", rig_now(rig))
    i = out.find(b"\n")
    first = json.loads(bytes(out[:i]))
    rest = bytes(out[i + 1 + first["bin"] :])
    assert first["id"] == 1 and json.loads(rest)["id"] == 2 and rest.endswith(b"\n")
    unmount()


def test_no_segment_is_removed_while_a_chunk_goes_out_and_a_chunk_nobody_takes_is_dropped():
    # the log is at its size limit and the game goes on: while a chunk of the oldest segments goes
    # out, a segment roll must not remove them (the chunk's line already said how many bytes come);
    # the next roll trims. A host that stops taking the chunk holds that only 5 s.
    rig = Rig()
    j = rig.app.journal
    rig.ok("new", tc="300+2", first="left")
    rig.ok("start")
    ms = 0
    for i in range(40):
        ms += 500
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, ms)
    rig.ok("result", result="1-0")
    rig.ok("new", tc="300+2", first="left")  # game 2: game 1's segments may go
    rig.ok("start")
    size = sum(os.stat(j.root + "/" + n)[6] for n in j.segments())
    j.max_bytes = size  # full: the next segment trims the oldest
    oldest = j.segments()[0]
    before = reference(j.root, 0, 60)[0]  # more than one fill of the buffer: 3 segments
    srv = rig.srv
    srv.feed(b'{"id":1,"cmd":"log.read","from_seq":0,"max_records":60,"bin":true}\n', rig_now(rig))
    out = bytearray(srv.take_out(100))  # the line and the first records: the rest waits on the flash
    for i in range(40):  # a segment or two written meanwhile, a slow host taking a few bytes
        ms += 500
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, ms)
        out += srv.take_out(10)
        # held while records of the chunk are still to be read from the flash
        assert oldest in j.segments() and j.hold and srv.pending(), (i, j.segments(), j.hold, srv.pending())
    while srv.pending():
        out += srv.take_out(100)
    i = out.find(b"\n")
    assert bytes(out[i + 1 :]) == before and not j.hold
    for i in range(20):  # the next segment trims
        ms += 500
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, ms)
    assert oldest not in j.segments()
    # a host that stops taking a chunk: dropped after 5 s, the journal trims again
    srv.feed(b'{"id":2,"cmd":"log.read","from_seq":0,"max_records":60,"bin":true}\n', rig_now(rig))
    srv.take_out(100)
    assert j.hold and srv.pending()
    rig.at(ms + 4000)
    assert j.hold and srv.pending()
    rig.at(ms + 5500)
    assert not j.hold and not srv.pending()
    assert rig.ok("state")["state"] == "running"  # and it answers again
    unmount()
