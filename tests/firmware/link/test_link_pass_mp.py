# The clock keeps running with loop gaps under 20 ms while a pull's chunks go
# out. A pass of the loop does one of the slow things at most (on the Pico: reading a line 5 ms,
# answering a log.read 10-15, writing 4 KB 5): it answers one line that waits whole, or it reads
# one line at most; and the pass that answered writes nothing. Here a host pipelines a pull as
# `sagat logs pull` does (log.info, then 4 log.read of 256 in flight, bin) and each pass of the
# real Link over the real app, journal and protocol is watched.
from flash import unmount
from linkkit import Stream, answers, finished_game, reference
from protocolrig import Rig, T

from sagatfw.link import stream as L


def test_a_pass_answers_one_line_or_reads_one_and_the_answering_pass_writes_nothing():
    rig = Rig(blocks=128)
    finished_game(rig, 700)
    last = rig.app.journal.seq - 1
    inp, out = Stream(), Stream()
    link = L.Link(rig.srv, inp, out, max_out=4096, step_out=4096)
    rig.app.link = link
    srv = rig.srv
    ms = rig.ms
    lines = [b'{"id":0,"cmd":"log.info"}\n']
    for k in range(4):  # four chunks in flight, as sagat logs pull asks them
        lines.append(b'{"id":%d,"cmd":"log.read","from_seq":%d,"max_records":256,"bin":true}\n' % (k + 1, 256 * k))
    inp.push(b"".join(lines))
    passes = 0
    while (inp.data or srv.pending() or srv.has_work()) and passes < 10000:
        ms += 1
        answered, taken, written = srv.lines, inp.taken, len(out.data)
        rig.app.step(T(ms))
        passes += 1
        answered = srv.lines - answered
        read = bytes(memoryview(b"".join(lines))[taken : inp.taken])
        assert answered <= 1, (passes, answered)
        assert read.count(b"\n") <= 1, read  # one line a pass at most
        assert not read or read.endswith(b"\n") or not inp.data or len(read) == L.MAX_IN, read
        assert not (answered and read), (passes, read)  # a pass answers or reads, never both
        assert not (answered and len(out.data) > written), passes  # nor answers and writes
    got = answers(out.data)
    assert [a["id"] for a, _ in got] == [0, 1, 2, 3, 4], [a for a, _ in got]
    assert got[0][0]["ok"] and got[0][0]["last"] == last, got[0]
    pulled = b"".join(raw for _, raw in got[1:])
    assert pulled == reference(rig.app.journal.root, 0, 4 * 256)[0]
    assert passes >= 2 * len(lines), passes  # one pass reads each line, a later one answers it
    unmount()


def test_a_short_request_is_still_answered_within_a_few_passes():
    # one request of the hall's poll: read in one pass, answered in the next, written in the
    # next (a pass that refreshes the faces serves no link: one more); the loop does not sleep
    # between them (busy), so the round trip grows by two or three passes
    rig = Rig()
    inp, out = Stream(), Stream()
    link = L.Link(rig.srv, inp, out)
    rig.app.link = link
    inp.push(b'{"id":7,"cmd":"state"}\n')
    for ms in range(1, 5):
        rig.app.step(T(ms))
        if out.data:
            break
        assert link.busy or inp.data, ms  # once read, the loop does not sleep until it is answered
    assert out.data.startswith(b'{"id":7,"ok":true') and out.data.endswith(b"\n"), bytes(out.data)
    unmount()
