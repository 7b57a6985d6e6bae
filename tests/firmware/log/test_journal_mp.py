# The journal and the settings on the real littlefs (MicroPython unix port): a full filesystem, a
# read-only one, a corrupt segment in the middle, the size bound that never removes the game in
# progress, and settings saved atomically (power cut at every operation of a save).
import gc
import json
import os

from flash import Flash, mount, read_log, unmount

from sagatfw.engine import clock as C
from sagatfw.log import boot as journalboot
from sagatfw.log import records as R
from sagatfw.log.journal import Journal
from sagatfw.log.settings import Store

ROOT = "/flash/log"


def _fresh(blocks=64, progsize=256):
    f = Flash(blocks=blocks)
    mount(f, fresh=True, progsize=progsize)
    return f


def _game(j, c, tc="60+1", moves=10, t0=0, finish=True):
    c.new_game(tc)
    assert j.begin_game(c, t0)
    c.start(t0)
    ok = j.log_events(c, t0)
    t = t0
    for _ in range(moves):
        t += 1000
        c.press(c.running, t)
        ok = j.log_events(c, t) and ok
    if finish:
        c.result(2, t + 1)
        ok = j.log_events(c, t + 1) and ok
    return t, ok


def _read(j, key=b""):
    return read_log(j, key)


def test_write_read_restore_round_trip():
    _fresh()
    j = Journal(ROOT, segment_records=8)
    journalboot.open_log(j)
    c = C.Clock()
    t, ok = _game(j, c, moves=25, finish=False)
    assert ok and j.error is None
    reader, events = _read(j)
    assert reader.problems == []
    assert [e["type"] for e in events][:2] == ["settings", "game_start"]
    assert len([e for e in events if e["type"] == "press"]) == 25
    j2 = Journal(ROOT)
    assert journalboot.open_log(j2) == [] and j2.seq == j.seq and j2.game == 1
    c2 = C.Clock()
    assert journalboot.restore(j2, c2, 123)
    assert c2.state == C.PAUSED and c2.moves == c.moves and c2.t == t
    assert (c2.ms(0), c2.ms(1)) == (c.ms(0), c.ms(1))
    assert c2.side_to_move() == c.running
    reader, events = _read(j2)
    assert events[-1]["type"] == "power_restore" and reader.problems == []
    unmount()


KEY = b"arbiter's secret"


def _keyed_game(moves):
    """A fresh 512 KB flash, a keyed journal of 64-record segments, a 5400+30 game of `moves`
    presses left running (as at a tournament, before a power cut)."""
    unmount()  # the last test's image goes before this one is made (the unix port's heap is ~2 MB)
    gc.collect()
    _fresh(blocks=128)
    j = Journal(ROOT, key=KEY, segment_records=64)
    journalboot.open_log(j)
    c = C.Clock()
    t, ok = _game(j, c, tc="5400+30", moves=moves, finish=False)
    assert ok
    return j, c


def test_keyed_long_game_restores_in_bounded_memory():
    # With the arbiter's key set (as at a tournament) the log's chain is keyed. The restore at boot
    # reads the game's records back: it must not check them against the unkeyed chain and keep a
    # "problem" per record (which used up the heap in a long game and lost it after a power cut).
    j, c = _keyed_game(400)
    assert j.error is None and j.seq > 400
    j2 = Journal(ROOT, key=KEY)
    journalboot.open_log(j2)
    c2 = C.Clock()
    from sagatfw.log import read as logread

    problems = []
    orig = logread.Reader._problem

    def counted(self, kind, seq, detail):
        problems.append(kind)
        orig(self, kind, seq, detail)

    logread.Reader._problem = counted  # the restore's reader is the module's class (loaded now)
    gc.collect()
    before = gc.mem_alloc()
    try:
        assert journalboot.restore(j2, c2, 123)
    finally:
        logread.Reader._problem = orig
    assert problems == [], (len(problems), problems[:3])
    gc.collect()
    assert c2.state == C.PAUSED and c2.moves == c.moves and (c2.ms(0), c2.ms(1)) == (c.ms(0), c.ms(1))
    assert gc.mem_alloc() - before < 16384, gc.mem_alloc() - before  # nothing kept per record
    reader, events = _read(j2, KEY)
    assert reader.problems == [] and events[-1]["type"] == "power_restore"
    unmount()


def test_a_reboot_every_move_does_not_pile_up_segments():
    # A clock switched off and on after every move (flaky power): the journal goes on at the end of
    # the newest segment after each boot instead of starting a file per boot (600 files once made
    # the boot's listing run out of heap). Every record stays readable and the chain verifies.
    j, c = _keyed_game(0)
    t = 0
    for _ in range(150):
        j = Journal(ROOT, key=KEY, segment_records=64)
        assert journalboot.open_log(j) == []
        c2 = C.Clock()
        assert journalboot.restore(j, c2, t)  # paused by the power cut
        t += 1000
        c2.resume(t)
        j.log_events(c2, t)
        t += 500
        c2.press(c2.running, t)
        assert j.log_events(c2, t) and j.error is None
    reader, events = _read(j, KEY)
    assert reader.problems == [], reader.problems[:3]
    assert len([e for e in events if e["type"] == "press"]) == 150
    assert len([e for e in events if e["type"] == "power_restore"]) == 150
    assert len(j.segments()) <= j.seq // 64 + 1, (len(j.segments()), j.seq)
    unmount()


def test_full_filesystem_keeps_clock_and_backlog_then_recovers():
    _fresh(blocks=12)
    with open("/flash/filler", "wb") as fh:  # someone else's file takes part of the flash
        fh.write(bytes(4096 * 3))
    j = Journal(ROOT, segment_records=16, max_bytes=10**6)
    journalboot.open_log(j)
    c = C.Clock()
    c.new_game("-")
    assert j.begin_game(c, 0)
    c.start(0)
    j.log_events(c, 0)
    t = 0
    moves = 0
    while j.error is None and moves < 3000:  # the game in progress fills the flash
        t += 1000
        assert c.press(c.running, t)
        moves += 1
        j.log_events(c, t)
    assert j.error is not None and "log write failed" in j.error, moves
    assert j.backlog  # the records that did not fit wait in RAM
    for _ in range(10):  # play on: the clock never stops
        t += 1000
        assert c.press(c.running, t)
        j.log_events(c, t)
    assert c.moves[0] + c.moves[1] == moves + 10
    os.remove("/flash/filler")
    t += 1000
    c.press(c.running, t)
    assert j.log_events(c, t) and j.error is None and j.backlog == []
    reader, events = _read(j)
    presses = [e for e in events if e["type"] == "press"]
    if j.dropped == 0:
        assert reader.problems == [] and len(presses) == moves + 11
    else:  # the RAM backlog overflowed: the loss shows as missing seq, never in silence
        assert [p[0] for p in reader.problems] == [R.P_GAP, R.P_CHAIN]
    unmount()


def test_full_filesystem_removes_old_finished_games_first():
    _fresh(blocks=24)  # 96 KB: far less than 120 games need
    j = Journal(ROOT, segment_records=16, max_bytes=10**6)  # only the full flash limits the log
    journalboot.open_log(j)
    c = C.Clock()
    t = 0
    for g in range(120):
        t, ok = _game(j, c, moves=30, t0=t + 5000)
        assert ok, (g, j.error)  # a full flash made room by removing the oldest finished game
    reader, events = _read(j)
    assert reader.problems == [], reader.problems
    games = sorted(set(e["game"] for e in events))
    assert games[-1] == 120 and games[0] > 1 and games == list(range(games[0], 121))
    last = [e for e in events if e["game"] == 120]
    assert last[0]["type"] == "settings" and last[-1]["type"] == "result"
    unmount()


def test_size_bound_never_removes_the_game_in_progress():
    _fresh()
    j = Journal(ROOT, segment_records=8, max_bytes=2048)
    journalboot.open_log(j)
    c = C.Clock()
    for g in range(3):
        _game(j, c, moves=12, t0=g * 100000)
    t, ok = _game(j, c, moves=100, t0=900000, finish=False)  # much longer than the bound
    assert ok
    reader, events = _read(j)
    assert reader.problems == []
    games = sorted(set(e["game"] for e in events))
    assert games[-1] == 4 and 1 not in games  # old finished games went first
    mine = [e for e in events if e["game"] == 4]
    assert mine[0]["type"] == "settings" and len([e for e in mine if e["type"] == "press"]) == 100
    unmount()


def test_read_only_filesystem_never_crashes():
    f = _fresh()
    j = Journal(ROOT)
    journalboot.open_log(j)
    c = C.Clock()
    _game(j, c, moves=3, finish=False)
    unmount()
    mount(f, readonly=True)
    j2 = Journal(ROOT)
    assert journalboot.open_log(j2) == []
    c2 = C.Clock()
    assert not journalboot.restore(j2, c2, 5) or True  # restore replays; its power_restore cannot be written
    assert j2.error is not None and c2.state == C.PAUSED
    c2.resume(10)
    assert c2.press(c2.running, 1010)
    assert not j2.log_events(c2, 1010)
    assert "log write failed" in j2.error and len(j2.backlog) >= 2
    unmount()


def test_corrupt_segment_in_the_middle_is_reported_and_the_rest_reads():
    _fresh()
    j = Journal(ROOT, segment_records=8)
    journalboot.open_log(j)
    c = C.Clock()
    for g in range(3):
        _game(j, c, moves=12, t0=g * 100000)
    names = j.segments()
    victim = names[len(names) // 2]
    with open(ROOT + "/" + victim, "r+b") as fh:
        fh.seek(64 * 3 + 10)
        fh.write(b"\x00\x00\x00garbage")
    reader, events = _read(j)
    # the damaged record is named (by segment and seq), the next one cannot link to it
    assert [p[0] for p in reader.problems] == [R.P_CRC, R.P_GAP]
    assert victim in reader.problems[0][2]
    assert events[-1]["type"] == "result" and events[-1]["game"] == 3  # the rest still reads
    j2 = Journal(ROOT)
    assert journalboot.open_log(j2) == [] and j2.seq == j.seq  # the end of the log is sound
    unmount()


def test_damaged_tail_is_reported_and_never_appended_to():
    _fresh()
    j = Journal(ROOT, segment_records=64)
    journalboot.open_log(j)
    c = C.Clock()
    _game(j, c, moves=5, finish=False)
    last = j.segments()[-1]
    with open(ROOT + "/" + last, "ab") as fh:
        fh.write(b"\x01" * 20)  # a torn partial record at the end
    j2 = Journal(ROOT)
    problems = journalboot.open_log(j2)
    assert [p[0] for p in problems] == [R.P_TORN]
    c2 = C.Clock()
    assert journalboot.restore(j2, c2, 0)
    assert j2.segments()[-1] != last  # the new records went to a new segment
    reader, events = _read(j2)
    assert [p[0] for p in reader.problems] == [R.P_TORN]
    assert events[-1]["type"] == "power_restore"
    unmount()


def test_settings_missing_corrupt_bad_values_and_logged():
    _fresh()
    s = Store("/flash/settings.json")
    assert s.load() == R.ORIGIN_DEFAULTS_MISSING and s.values["extension_ms"] == 300000
    with open("/flash/settings.json", "w") as fh:
        fh.write("{not json")
    assert s.load() == R.ORIGIN_DEFAULTS_CORRUPT and s.values["tc"] == "420"
    with open("/flash/settings.json", "w") as fh:
        fh.write(json.dumps({"extension_ms": -5, "sound": False, "unknown": 1, "tc": "300+"}))
    assert s.load() == R.ORIGIN_DEFAULTS_CORRUPT
    assert s.values["sound"] is False and s.values["extension_ms"] == 300000 and s.values["tc"] == "420"
    assert "extension_ms" in s.problem and "tc" in s.problem
    # the log says so
    j = Journal(ROOT)
    journalboot.open_log(j)
    c = C.Clock()
    c.new_game("420")
    assert j.log_settings(c, s.clock_settings(), s.origin, 0)
    reader, events = _read(j)
    assert events[-1]["type"] == "settings" and events[-1]["origin"] == "defaults_corrupt"
    # a good save and load
    s.set("low_time_ms", 120000)
    s.set_preset(0, "club", "600+5")
    s.save()
    s2 = Store("/flash/settings.json")
    assert s2.load() == R.ORIGIN_CHANGED and s2.values["low_time_ms"] == 120000
    assert s2.presets == [{"name": "club", "tc": "600+5"}]
    for bad in (("low_time_ms", "x"), ("nope", 1), ("stage_advance", "never"), ("tc", "?")):
        try:
            s2.set(bad[0], bad[1])
        except ValueError:
            pass
        else:
            raise AssertionError(bad)
    unmount()


def test_settings_save_is_atomic_at_every_power_cut():
    clean = Flash()
    mount(clean, fresh=True)
    old = Store("/flash/settings.json")
    old.set("brightness", 1)
    old.save()
    image = clean.image()
    unmount()
    # count the operations of one save
    f = Flash(image=bytearray(image))
    mount(f)
    f.arm()
    s = Store("/flash/settings.json")
    s.load()
    s.set("brightness", 6)
    s.save()
    ops = f.ops
    unmount()
    assert ops > 2
    for n in range(1, ops + 2):
        for tear in (False, True):
            f = Flash(image=bytearray(image), cut_at=n, tear=tear)
            mount(f)
            f.arm()
            s = Store("/flash/settings.json")
            s.load()
            s.set("brightness", 6)
            try:
                s.save()
            except OSError:
                pass
            unmount()
            after = Flash(image=f.image())
            mount(after)
            s = Store("/flash/settings.json")
            assert s.load() == R.ORIGIN_CHANGED, (n, tear, s.problem)
            assert s.values["brightness"] in (1, 6), (n, tear)
            unmount()
