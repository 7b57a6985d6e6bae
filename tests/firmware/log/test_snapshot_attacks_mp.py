# The checkpoint snapshot attacked, on the real littlefs. Each snapshot that does
# not check out - another game's, another log's, one with its times edited (with the key; without
# it, its MAC recomputed or not), one that follows a record since rewritten, a torn file, one that
# follows a seq the log does not hold (a log put back from an older copy), one MACed under a key
# since replaced, an older firmware's checkpoint record alone - is refused with its reason
# (snapshot.load), and the boot replays the whole game, as without a snapshot: the clock it
# restores is the whole replay's, never the snapshot's.
import struct

from flash import Flash, mount, unmount
from snapkit import journal, state  # noqa: E402  (tests/kits)

from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.log import boot as journalboot  # noqa: E402
from sagatfw.log import records as R  # noqa: E402

ROOT = "/flash/log"
CKPT = ROOT + "/ckpt"
KEY = b"arbiter key"
NOW = 777
SR = 8  # a snapshot every 2 records


def _play(presses, key=KEY, tc="300+2", first_ms=0, game2=False, tail=0):
    """A game of `presses` presses (one a second from first_ms) on a fresh flash, a checkpoint tried
    after every call, as the app does; game2: a first game finished before it. Returns (image,
    journal)."""
    unmount()
    f = Flash(blocks=64)
    mount(f, fresh=True)
    j = journal(ROOT, key, SR)
    c = C.Clock()
    games = (1, 0) if game2 else (0,)
    for g in games:
        c.new_game(tc, None, C.LEFT, C.Settings())
        j.begin_game(c, 0)
        c.start(0)
        j.log_events(c, 0)
        ms = first_ms
        for i in range(presses if g == 0 else 5):
            ms += 1000
            c.press(C.LEFT if i % 2 == 0 else C.RIGHT, ms)
            j.log_events(c, ms)
            j.checkpoint(c, ms)
        if g == 1:
            c.result(0, ms + 1000)
            j.log_events(c, ms + 1000)
    if tail:  # the side thinks on: a checkpoint at its t, no record after the last press
        c.advance(ms + tail)
        j.log_events(c, ms + tail)
        assert j.checkpoint(c, ms + tail)
    unmount()
    return f.data, j


def _mounted(image):
    """A flash with a copy of `image`, mounted: its .data is the image after what is done on it."""
    unmount()
    f = Flash(image=bytearray(image))
    mount(f)
    return f


def _files(image):
    unmount()
    mount(Flash(image=bytearray(image)))


def _ckpt(image):
    _files(image)
    try:
        with open(CKPT, "rb") as f:
            return f.read()
    finally:
        unmount()


def _with_ckpt(image, data):
    """`image` with its checkpoint file replaced by `data` (None: removed)."""
    f = Flash(image=bytearray(image))
    unmount()
    mount(f)
    import os

    if data is None:
        os.remove(CKPT)
    else:
        with open(CKPT, "wb") as fh:
            fh.write(data)
    unmount()
    return f.data


def _why(image, key=KEY):
    """snapshot.load's answer on `image`: "ok" or its reason."""
    from sagatfw.log import checkpoint as snapshot

    _files(image)
    j = journal(ROOT, key, SR)
    try:
        snapshot.load(j, C.Clock())
        return "ok"
    except ValueError as e:
        return str(e)
    finally:
        unmount()


def _restore(image, key=KEY, whole=False):
    """(restore's answer, the clock's state, the power_restore record, whether the whole replay ran)."""
    _files(image)
    j = journal(ROOT, key, SR)
    if whole:
        j.snap[2] = False
    ran = [0]
    real = journalboot._first_type

    def counted(j):
        ran[0] += 1
        return real(j)

    journalboot._first_type = counted
    try:
        c = C.Clock()
        got = journalboot.restore(j, c, NOW)
    finally:
        journalboot._first_type = real
    buf = bytearray(R.RECORD_SIZE)
    last = None
    for rec in j.read_segment(j.segments()[-1], buf):
        last = bytes(rec)
    unmount()
    return got, state(c), last, ran[0]


def _refused(image, why, key=KEY):
    """The snapshot on `image` is refused for `why` (a part of the reason), and the boot restores
    what the whole replay restores."""
    got = _why(image, key)
    assert why in got, (why, got)
    a = _restore(image, key)
    b = _restore(image, key, True)
    assert a[3] == 1, "the whole replay did not run"
    assert a[:3] == b[:3], (a, b)
    assert a[0] is True and a[1][0] == C.PAUSED
    return a


def _base():
    image, j = _play(11)
    assert j.snap[0] == j.seq  # a snapshot follows the last record
    assert _why(image) == "ok"
    a = _restore(image)
    assert a[3] == 0 and a[:3] == _restore(image, whole=True)[:3]  # used, and the same clock
    return image, j


def _body(data):
    return bytearray(data[R.RECORD_SIZE :])


def _remac(data, key):
    """The snapshot in `data` with its MAC made again under `key` (what a forger with that key does)."""
    rec = data[: R.RECORD_SIZE]
    body = _body(data)
    n = len(body)
    body[n - 16 :] = R.Chain(key).mac(rec, bytes(body[: n - 16]))[:16]
    return bytes(rec) + bytes(body)


def _times(data, ms):
    """`data` with left's time in the snapshot changed (at 45: left's rem)."""
    body = _body(data)
    struct.pack_into("<I", body, 45, ms)
    return bytes(data[: R.RECORD_SIZE]) + bytes(body)


def test_a_snapshot_of_another_game():
    # the last game's snapshot, kept while the next one is played (the file put back after it)
    image, _ = _play(9, game2=True)
    old, _ = _play(5)  # game 1's snapshot, of the same clock's first game
    _refused(_with_ckpt(image, _ckpt(old)), "of game 1, the log's is 2")


def test_a_snapshot_of_another_log_with_the_same_key_and_game():
    image, _ = _base()
    other, _ = _play(11, first_ms=500)  # the same game number, seqs and key, another history
    _refused(_with_ckpt(image, _ckpt(other)), "not the record the snapshot follows")


def test_a_snapshot_with_its_times_edited_under_a_key():
    image, _ = _base()
    data = _ckpt(image)
    _refused(_with_ckpt(image, _times(data, 299000)), "MAC is wrong")
    # the MAC made again without the key: still wrong
    _refused(_with_ckpt(image, _remac(_times(data, 299000), b"")), "MAC is wrong")
    _refused(_with_ckpt(image, _remac(_times(data, 299000), b"another key")), "MAC is wrong")


def test_a_snapshot_with_its_times_edited_without_a_key():
    image, j = _play(10, key=b"")
    data = _ckpt(image)
    assert _why(image, b"") == "ok"
    # edited, its MAC left: refused by the MAC (the unkeyed MAC detects accidents and careless edits)
    _refused(_with_ckpt(image, _times(data, 299000)), "MAC is wrong", b"")
    # edited and its MAC made again (anyone can without a key): refused because the last record of
    # the log, which the snapshot follows, shows other faces
    _refused(_with_ckpt(image, _remac(_times(data, 299000), b"")), "does not show seq", b"")


def test_a_snapshot_that_follows_a_record_since_rewritten():
    # the snapshot follows seq S; the log's record S was written again since (the flash put back to
    # an older copy and played on differently: here a reboot where the first log has its 11th
    # press): its chain value is not the one the snapshot names
    image, j = _base()
    s = j.seq - 1
    other, _ = _play(10)
    f = _mounted(other)
    j2 = journal(ROOT, KEY, SR)
    assert journalboot.restore(j2, C.Clock(), 9500) is True and j2.seq - 1 == s  # the power_restore took seq S
    unmount()
    _refused(_with_ckpt(f.data, _ckpt(image)), "not the record the snapshot follows")


def test_a_torn_snapshot_file():
    image, _ = _base()
    data = _ckpt(image)
    _refused(_with_ckpt(image, data[: R.RECORD_SIZE + 50]), "torn")  # cut in the fixed part
    _refused(_with_ckpt(image, data[:-5]), "torn")  # cut in the MAC
    _refused(_with_ckpt(image, data + b"\x00" * 7), "torn")  # longer than it says
    _refused(_with_ckpt(image, data[:30]), "torn")  # not even the record
    damaged = bytearray(data)
    damaged[R.RECORD_SIZE + 60] ^= 0x10  # a bit flipped in the snapshot
    _refused(_with_ckpt(image, bytes(damaged)), "MAC is wrong")
    _refused(_with_ckpt(image, None), "no checkpoint file")


def test_a_snapshot_of_a_newer_seq_than_the_log_holds():
    # the flash put back to an older copy of the log, the newer snapshot beside it
    older, j1 = _play(5)
    newer, j2 = _play(9)
    assert j2.snap[0] - 1 > j1.seq - 1
    _refused(_with_ckpt(older, _ckpt(newer)), "the log ends at %d" % (j1.seq - 1))


def test_a_snapshot_under_a_key_since_replaced():
    # the key changed after the snapshot (key.set logs it under the old key and chains the rest
    # under the new one): the snapshot's MAC is under the old key, refused; the whole replay restores
    image, j = _base()
    f = _mounted(image)
    j = journal(ROOT, KEY, SR)
    c = C.Clock()
    assert journalboot.restore(j, c, NOW) is True
    j.log_settings(c, c.settings, R.ORIGIN_KEY_SET, NOW)
    j.chain = R.Chain(b"new key")
    c.resume(NOW + 1000)
    c.press(c.running, NOW + 2000)
    assert j.log_events(c, NOW + 2000)
    unmount()
    _refused(f.data, "MAC is wrong", b"new key")


def test_an_older_firmwares_checkpoint_record_alone_keeps_its_use():
    # a checkpoint file of one record (firmware before snapshots, or a match's): no snapshot, the
    # whole replay, and the record still brings the running clock on to its t
    image, j = _play(9, tail=5000)
    data = _ckpt(image)
    a = _refused(_with_ckpt(image, data[: R.RECORD_SIZE]), "a checkpoint record alone")
    assert a[1][4] == R.t_of(data) == 9000 + 5000  # t: the checkpoint's, not the last press's


def test_records_after_the_snapshot_that_do_not_replay():
    # a record after the snapshot edited (its t, the CRC made again): the replay of the records
    # after the snapshot refuses it, and so does the whole replay, which says why (as before snapshots)
    image, j = _play(12)
    assert j.seq - j.snap[0] == 1  # one record after the snapshot's
    f = _mounted(image)
    j = journal(ROOT, KEY, SR)
    name = j.segments()[-1]
    with open(ROOT + "/" + name, "rb") as fh:
        seg = bytearray(fh.read())
    at = len(seg) - R.RECORD_SIZE
    struct.pack_into("<I", seg, at + 8, R.t_of(seg[at:]) + 300)
    struct.pack_into("<I", seg, at + R.CRC, R.crc32(seg[at : at + R.CRC]))
    with open(ROOT + "/" + name, "wb") as fh:
        fh.write(seg)
    unmount()
    from sagatfw.log.replay import Mismatch

    for whole in (False, True):
        _files(f.data)
        j = journal(ROOT, KEY, SR)
        if whole:
            j.snap[2] = False
        ran = [0]
        real = journalboot._first_type

        def counted(j, ran=ran, real=real):
            ran[0] += 1
            return real(j)

        journalboot._first_type = counted
        try:
            journalboot.restore(j, C.Clock(), NOW)
            raise AssertionError("restored")
        except Mismatch as e:
            assert "seq %d" % (j.seq - 1) in str(e), e
        finally:
            journalboot._first_type = real
            unmount()
        assert ran[0] == 1  # the whole replay said it
