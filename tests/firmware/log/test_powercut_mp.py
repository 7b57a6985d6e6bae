# The power-cut sweep on the real littlefs (vfs.VfsLfs2 of the MicroPython unix port).
#
# A scripted session (two games, with presses, a pause, a correction, a stage, a checkpoint (its
# file rewritten), a flag, results, segment rotation, trimming of the old game and the ballast
# written at each game's setup) runs on a RAM flash chip that loses
# power at operation N - or tears operation N half-way - for EVERY N until the script finishes.
# After each cut the chip is mounted again and:
#   - every record the journal had reported durable before the cut is there;
#   - the whole log reads with no damage and the chain verifies from its first record to its last;
#   - the interrupted game restores (from the checkpoint file's snapshot and the records after it,
#     or by the whole replay), paused at its last durable record or the checkpoint written after
#     it (power_restore), never at an older state than the last acknowledged one; the snapshot's
#     restore and the whole replay give the same clock;
#   - the journal goes on writing after the reboot and the chain still verifies.
import gc

from flash import Flash, mount, read_log, unmount
from snapkit import state  # noqa: E402  (tests/kits)

from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.log import boot as journalboot  # noqa: E402
from sagatfw.log.journal import Journal  # noqa: E402

ROOT = "/flash/log"


def _script():
    # (t in ms, action, args): two games on one clock
    return [
        (0, "new", ("40/300+2:60+2", C.LEFT, False)),
        (0, "start", ()),
        (3000, "press", (C.LEFT,)),
        (5000, "press", (C.RIGHT,)),
        (9000, "press", (C.LEFT,)),
        (10000, "pause", (C.BY_ARBITER,)),
        (12000, "adjust", (C.RIGHT, 200000, 1)),
        (13000, "resume", ()),
        (40000, "tick", ()),  # a checkpoint while right thinks
        (40500, "tick", ()),  # (not yet another one)
        (60000, "tick", ()),  # the checkpoint file rewritten
        (41000, "press", (C.RIGHT,)),
        (42000, "press", (C.LEFT,)),
        (43000, "press", (C.RIGHT,)),
        (44000, "result", (0,)),
        (50000, "new", ("2/20:30", C.RIGHT, True)),
        (50000, "start", ()),
        (51000, "press", (C.RIGHT,)),
        (52000, "press", (C.LEFT,)),
        (53000, "press", (C.RIGHT,)),  # right completes 2 moves: stage 2
        (54000, "press", (C.LEFT,)),
        (75000, "tick", ()),  # the left flag at 74000 (freeze)
        (76000, "extend", ()),
        (77000, "press", (C.LEFT,)),
        (78000, "press", (C.RIGHT,)),
        (79000, "press", (C.LEFT,)),
        (80000, "press", (C.RIGHT,)),
        (81000, "pause", (C.BY_LEFT,)),
        (82000, "adjourn", ()),
        (90000, "resume_adjourned", ()),
        (91000, "press", (C.LEFT,)),
        (92000, "press", (C.RIGHT,)),
        (93000, "press", (C.LEFT,)),
        (94000, "result", (2,)),
    ]


def _journal():
    return Journal(ROOT, key=b"k", segment_records=6, max_bytes=1400, checkpoint_ms=20000)


def _snap(j, c, kind):
    return (j.seq - 1, c.ms(C.LEFT), c.ms(C.RIGHT), c.moves[0], c.moves[1], c.state, kind)


def _run(flash, acked, progsize):
    """Run the script on a freshly formatted flash; after each durable commit record the last
    durable seq and the clock's faces, after each checkpoint written its faces (kind "ckpt"); a
    checkpoint being written when the chip died is recorded with kind "inflight". Stops once the
    chip has lost power."""
    mount(flash, fresh=True, progsize=progsize)
    flash.arm()
    j = _journal()
    journalboot.open_log(j)
    c = C.Clock()
    for t, action, args in _script():
        if action == "new":
            c.new_game(args[0], None, args[1], C.Settings(args[2]))
            ok = j.begin_game(c, t)
        else:
            if action == "start":
                c.start(t)
            elif action == "press":
                c.press(args[0], t)
            elif action == "pause":
                c.pause(args[0], t)
            elif action == "resume":
                c.resume(t)
            elif action == "adjust":
                c.adjust(args[0], t, args[1], args[2])
            elif action == "result":
                c.result(args[0], t)
            elif action == "extend":
                c.extend(t)
            elif action == "adjourn":
                c.adjourn(t)
            elif action == "resume_adjourned":
                c.resume_adjourned(t)
            else:
                c.advance(t)
            ok = j.log_events(c, t)
        if flash.dead:
            break
        assert ok, j.error
        if not acked or acked[-1][0] != j.seq - 1:  # the faces when that record became durable
            acked.append(_snap(j, c, "event"))
        if j.checkpoint(c, t) or flash.dead:
            acked.append(_snap(j, c, "inflight" if flash.dead else "ckpt"))
        if flash.dead:
            break
    unmount()
    return j


def _read_all(j):
    return read_log(j, b"k", True)


def _both(image, progsize, where):
    """Restore a copy of `image` from its snapshot and another by the whole replay: the same answer and
    clock. Returns 1 if the first took the snapshot."""
    out = []
    used = 0
    for whole in (False, True):
        mount(Flash(image=bytearray(image)), progsize=progsize)
        j = _journal()
        journalboot.open_log(j)
        if whole:
            j.snap[2] = False
        ran = [0]
        real = journalboot._first_type

        def counted(j, ran=ran, real=real):
            ran[0] += 1
            return real(j)

        journalboot._first_type = counted
        c = C.Clock()
        try:
            got = journalboot.restore(j, c, 999)
        except Exception as e:  # noqa: BLE001 - the same refusal both ways
            got = repr(e)
        finally:
            journalboot._first_type = real
        out.append((got, state(c) if got is True else None))
        used = used or (not whole and not ran[0])
        unmount()
    assert out[0] == out[1], (where, out)
    return 1 if used else 0


def _check_after_cut(image, acked, n, tear, progsize):
    where = "progsize %d, cut at op %d%s" % (progsize, n, " (torn)" if tear else "")
    _SNAPS[0] += _both(image, progsize, where)
    flash = Flash(image=image)
    mount(flash, progsize=progsize)
    j = _journal()
    problems = journalboot.open_log(j)
    assert problems == [], (where, problems)
    durable = acked[-1][0] if acked else -1
    last = j.seq - 1
    assert last >= durable, (where, "lost records", last, durable)
    reader, events = _read_all(j)
    assert reader.problems == [], (where, reader.problems)
    if last >= 0:
        assert reader.last_seq == last, where
        seqs = [e["seq"] for e in events]
        assert seqs == sorted(seqs), where
    c = C.Clock()
    restored = journalboot.restore(j, c, 999)
    if restored:
        assert c.state in (C.PAUSED, C.FLAGGED, C.SETUP, C.ADJOURNED), where
        # paused exactly at the last durable record's faces, or at the checkpoint written after it:
        # the last one acknowledged, or the one being written when the power went
        lastev = events[-1]
        got = (c.ms(C.LEFT), c.ms(C.RIGHT), c.moves[0], c.moves[1])
        assert c.moves == [lastev["left_moves"], lastev["right_moves"]], where
        mine = [s for s in acked if s[0] == last]
        done = [s for s in mine if s[6] != "inflight"]
        allowed = [s[1:5] for s in mine if s[6] == "inflight"]
        if done:
            allowed.append(done[-1][1:5])
        else:  # durable, but the cut came before the journal said so
            allowed.append((lastev["left_ms"], lastev["right_ms"], lastev["left_moves"], lastev["right_moves"]))
        assert got in allowed, (where, got, allowed, lastev)
        from_ckpt = got[:2] != (lastev["left_ms"], lastev["right_ms"])
        # play on after the reboot: the log keeps growing and its chain still verifies
        if c.state == C.PAUSED:
            c.resume(1999)
            c.press(c.running, 2999)
        assert j.log_events(c, 2999), (where, j.error)
        reader, events = _read_all(j)
        assert reader.problems == [], (where, reader.problems)
        assert events[-1]["seq"] == j.seq - 1 and "power_restore" in [e["type"] for e in events], where
        unmount()
        return from_ckpt
    unmount()
    return False


_SNAPS = [0]  # cuts restored from the snapshot


def _sweep(tear, progsize):
    _SNAPS[0] = 0
    clean = Flash()
    total = []
    _run(clean, total, progsize)
    ops = clean.ops
    assert ops > 30 and total[-1][0] > 20
    clean = None  # one 256 KB image at a time: the unix port's heap is a few MB, and fragments
    from_ckpt = 0
    for n in range(1, ops + 2):
        gc.collect()
        flash = Flash(cut_at=n, tear=tear)
        acked = []
        _run(flash, acked, progsize)
        image = flash.data  # the chip after the cut (nothing writes to it any more)
        flash = None
        from_ckpt += _check_after_cut(image, acked, n, tear, progsize)
        image = None
    assert from_ckpt > 0  # some cuts came back at the checkpoint file's faces
    assert _SNAPS[0] > ops // 3, (_SNAPS[0], ops)  # most came back from the snapshot
    return ops


# Pico: 4096-byte blocks, progsize 256 (rp2's _boot.py); ESP32: 4096-byte blocks, progsize 32
# (VfsLfs2's default, as esp32's boot uses it).


def test_power_cut_at_every_operation_pico():
    ops = _sweep(False, 256)
    print("pico: power cut at every one of", ops, "flash operations: no durable record lost;", _SNAPS[0],
          "restored from the snapshot")


def test_torn_operation_at_every_operation_pico():
    ops = _sweep(True, 256)
    print("pico: torn write at every one of", ops, "flash operations: no durable record lost")


def test_power_cut_at_every_operation_esp32():
    ops = _sweep(False, 32)
    print("esp32: power cut at every one of", ops, "flash operations: no durable record lost")


def test_torn_operation_at_every_operation_esp32():
    ops = _sweep(True, 32)
    print("esp32: torn write at every one of", ops, "flash operations: no durable record lost")
