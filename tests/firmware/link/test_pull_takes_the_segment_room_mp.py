# A pull reads a segment beside the one the journal writes; when the heap has no second 1.2 KB
# piece for a littlefs file, the pull's read takes the journal's room (log/segments.py
# `open_for_reading` and `park`): the journal's segment is closed (its records are durable) and
# opened again at its next write. Forced here by a MemoryError on every pull's open while the journal's
# segment is open, on the real App over littlefs in RAM (MicroPython only).
from flash import unmount
from protocolrig import KEY, Rig, _events, _real

from sagatfw.log import segments as SG

_OPEN = open


class _NoRoomBeside:
    """The segments' `open`: no room for a second file while the journal's segment is open."""

    def __init__(self, journal):
        self.j = journal
        self.refused = 0

    def __call__(self, path, mode="r"):
        if self.j.file is not None:
            self.refused += 1
            raise MemoryError("memory allocation failed, allocating 1232 bytes")
        return _OPEN(path, mode)


def _play(rig, t0, n):
    for i in range(n):
        rig.press(i % 2, t0 + 1000 * i)


def test_a_pull_with_no_room_beside_the_segment_parks_it_and_the_next_write_reopens_it():
    rig = Rig(key=KEY)
    rig.ok("new", proof=KEY, tc="300", first="left")
    rig.ok("start", proof=KEY)
    _play(rig, 1000, 12)
    j = rig.app.journal
    assert j.file is not None and not j.backlog  # the segment is open, its records durable
    seg, written = j.seg, j.seg_records
    before, _ = rig.pull()
    tight = _NoRoomBeside(j)
    SG.open = tight
    try:
        recs, _ = rig.pull()
    finally:
        SG.open = _OPEN
    assert tight.refused >= 1  # the pull found no room, took the segment's
    assert [bytes(r) for r in recs] == [bytes(r) for r in before]  # every record, the same bytes
    assert j.file is None and j.resume == (seg, written)  # parked: the segment waits for its next write
    _play(rig, 20000, 4)  # the next presses write on in the same segment
    assert j.file is not None and j.seg == seg and j.seg_records == written + 4, (j.seg, j.seg_records)
    after, _ = rig.pull()
    assert [bytes(r) for r in after[: len(before)]] == [bytes(r) for r in before]
    evs, rd = _events(_real(after), KEY)
    assert not rd.problems, rd.problems  # one chain, unbroken by the park
    assert sum(1 for e in evs if e["type"] == "press") == 16
    unmount()


def test_no_room_and_records_waiting_in_ram_is_an_error_answer_and_nothing_lost():
    rig = Rig()
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    _play(rig, 1000, 6)
    j = rig.app.journal
    j.backlog.append(bytearray(j.buf))  # a record the flash has not taken yet (a busy flash): no park
    tight = _NoRoomBeside(j)
    SG.open = tight
    try:
        r = rig.call("log.read", from_seq=0, max_records=8)
    finally:
        SG.open = _OPEN
        j.backlog.pop()
    assert r["ok"] is False and r["error"]["code"] == "internal", r  # said, not a crash
    assert j.file is not None  # the journal's segment stays: its records come first
    _play(rig, 10000, 2)
    recs, _ = rig.pull()
    evs, rd = _events(_real(recs))
    assert not rd.problems and sum(1 for e in evs if e["type"] == "press") == 8
    unmount()
