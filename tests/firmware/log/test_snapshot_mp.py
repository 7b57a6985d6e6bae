# An interrupted game restores from the checkpoint file's snapshot plus the records
# after it, on the real littlefs, and gives the clock a whole replay gives: over many random games
# (tests/kits/snapkit.py; the same property on CPython with hypothesis in tests/firmware/log/test_snapshot_props.py)
# and at these cuts (right after the snapshot, between it and a later record, in a
# delay, across a stage change, paused, with a flag fallen). Every copy of the flash is restored
# twice, once from the snapshot and once by the whole replay (journal.snap[2] = False), and
# the two clocks and the power_restore records they log must be the same.
import gc
import struct
import sys

from flash import Flash, mount, unmount
from snapkit import Play, journal, state  # noqa: E402  (tests/kits)

from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.log import boot as journalboot  # noqa: E402
from sagatfw.log import records as R  # noqa: E402

ROOT = "/flash/log"
NOW = 123456  # ticks at the reboot


def _image(seed, steps, key=b"", segment_records=8, tc=None):
    """Play a random game on a fresh flash; returns (the flash's bytes, the Play)."""
    unmount()
    gc.collect()
    f = Flash(blocks=64)
    mount(f, fresh=True)
    j = journal(ROOT, key, segment_records)
    p = Play(j, seed, tc)
    p.play(steps)
    unmount()
    return f.data, p


def _restore(image, snapshot, key=b"", segment_records=8):
    """Restore a copy of `image`: (restore's answer, the clock's state, the log's last record, how many
    times the whole replay ran)."""
    unmount()
    mount(Flash(image=bytearray(image)))
    j = journal(ROOT, key, segment_records)
    c = C.Clock()
    whole = [0]
    real = journalboot._first_type

    def counted(j):
        whole[0] += 1
        return real(j)

    journalboot._first_type = counted
    try:
        if not snapshot:
            j.snap[2] = False  # (what open() found: the restore tries no snapshot then)
        got = journalboot.restore(j, c, NOW)
    finally:
        journalboot._first_type = real
    last = None
    names = j.segments()
    if names:
        buf = bytearray(R.RECORD_SIZE)
        for rec in j.read_segment(names[-1], buf):
            last = bytes(rec)
    unmount()
    return got, state(c) if got else None, last, whole[0]


def _snap_seq(image):
    """The seq the snapshot on `image` follows, and the log's last seq (None, None: no snapshot)."""
    unmount()
    mount(Flash(image=bytearray(image)))
    j = journal(ROOT)
    try:
        with open(ROOT + "/ckpt", "rb") as f:
            data = f.read()
    except OSError:
        data = b""
    unmount()
    if len(data) <= R.RECORD_SIZE:
        return None, j.seq - 1
    return struct.unpack_from("<I", data, R.RECORD_SIZE + 4)[0], j.seq - 1


def _same(image, key=b"", segment_records=8, where=""):
    """Restore from the snapshot and by the whole replay: the same clock and the same record. Returns
    True if the snapshot was used."""
    a = _restore(image, True, key, segment_records)
    b = _restore(image, False, key, segment_records)
    assert a[:3] == b[:3], (where, a, b)
    assert b[3] == 1
    return a[3] == 0


def test_random_games_restore_from_the_snapshot_as_the_whole_replay_does():
    used = after = whole = 0
    for seed in range(1, 401):
        steps = 1 + seed * 7 % 60
        key = b"k" if seed % 3 == 0 else b""
        segment_records = (6, 8, 16, 32, 64)[seed % 5]  # a snapshot every 1, 2, 4, 8, 16 records
        image, p = _image(seed, steps, key, segment_records)
        snap, last = _snap_seq(image)
        if _same(image, key, segment_records, "seed %d (%s), %d steps" % (seed, p.tc, steps)):
            used += 1
            after += snap is not None and snap < last
        else:
            whole += 1
    print("random games: %d restored from the snapshot (%d of them with records after it), %d by the whole replay"
          % (used, after, whole))
    assert used > 250 and after > 100


def _cut_when(seed_range, want, steps=200, segment_records=8, tc=None, key=b""):
    """The first random game (by seed) with a cut that `want(play)` accepts, looking at every step:
    its image at that cut. The snapshot must be used and agree with the whole replay."""
    for seed in seed_range:
        unmount()
        gc.collect()
        f = Flash(blocks=64)
        mount(f, fresh=True)
        j = journal(ROOT, key, segment_records)
        p = Play(j, seed, tc)
        for _ in range(steps):
            if p.step() == C.FINISHED:
                break
            if want(p):
                unmount()
                image = f.data
                assert _same(image, key, segment_records, "seed %d" % seed), "the snapshot was not used"
                return image, p
    raise AssertionError("no such cut")


def test_a_cut_right_after_the_snapshot():
    _, p = _cut_when(range(1, 200), lambda p: p.wrote and p.c.state == C.RUNNING)
    assert p.j.snap[0] == p.j.seq  # the snapshot follows the last record: nothing to replay after it


def test_a_cut_between_the_snapshot_and_later_records():
    def want(p):
        return p.j.snap[0] >= 0 and p.j.seq - p.j.snap[0] >= 2 and p.c.state == C.RUNNING

    image, p = _cut_when(range(1, 200), want,
                         segment_records=32)
    snap, last = _snap_seq(image)
    assert snap < last


def test_a_cut_in_a_delay():
    # a simple delay being used when the snapshot was written, records after it
    def want(p):
        c = p.c
        return c.state == C.RUNNING and p.wrote and c.delay_left[c.running] > 0

    _cut_when(range(1, 300), want, tc="30d3")

    def later(p):
        return p.c.state == C.RUNNING and p.c.delay_remaining(p.c.running) > 0 and p.j.seq > p.j.snap[0]

    _cut_when(range(1, 300), later, tc="30d3")


def test_a_cut_across_a_stage_change():
    seen = {}

    def want(p):  # the snapshot in stage 1, a stage record after it
        c = p.c
        key = id(p)
        if p.wrote:
            seen[key] = (list(c.stage), p.j.seq)
        if key in seen and seen[key][1] < p.j.seq and c.stage != seen[key][0] and c.state != C.FINISHED:
            return True
        return False

    _cut_when(range(1, 300), want, tc="2/20:10", segment_records=16)
    _cut_when(range(1, 300), want, tc="20j5x2", segment_records=16)


def test_a_cut_while_paused():
    _cut_when(range(1, 300), lambda p: p.c.state == C.PAUSED and p.wrote)
    _cut_when(range(1, 300), lambda p: p.c.state == C.PAUSED and p.j.seq > p.j.snap[0])


def test_a_cut_with_a_flag_fallen():
    _cut_when(range(1, 300), lambda p: p.c.state == C.FLAGGED and p.wrote)
    _cut_when(range(1, 300), lambda p: p.c.state == C.RUNNING and p.c.first_flag() != C.NONE and p.wrote)
    _cut_when(range(1, 300), lambda p: p.c.first_flag() != C.NONE and p.j.seq > p.j.snap[0]
              and p.c.state != C.FINISHED)


def test_restoring_from_the_snapshot_does_not_load_the_replay():
    image, p = _cut_when(range(1, 200), lambda p: p.wrote and p.c.state == C.RUNNING and p.j.seq > 30)
    for name in ("sagatfw.log.replay", "sagatfw.log.read", "sagatfw.log.checkpoint"):
        sys.modules.pop(name, None)
    unmount()
    mount(Flash(image=bytearray(image)))
    j = journal(ROOT)
    c = C.Clock()
    assert journalboot.restore(j, c, NOW) is True and c.state == C.PAUSED
    assert "sagatfw.log.replay" not in sys.modules and "sagatfw.log.read" not in sys.modules
    assert "sagatfw.log.checkpoint" not in sys.modules  # forgotten once loaded
    unmount()
