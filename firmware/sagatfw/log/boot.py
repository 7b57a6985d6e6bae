# sagat: the journal's boot (log/journal.py): finding where the log ends, and restoring the game in
# progress into the clock: from the checkpoint file's snapshot and the records after it
# (log/checkpoint.py), or, when that does not check out, by replaying the whole game.
#
#   from sagatfw.log import boot as journalboot
#   problems = journalboot.open_log(j, keyfile)    # before the journal writes anything
#   restored = journalboot.restore(j, clock, now)  # True, False, or None: a match (app/setup.py)
#   for ev in journalboot.game_events(j): ...      # a game's events, decoded (log/read.py)
#
# Loaded while the clock boots (app/main.py's App.boot) and forgotten after: the loop's heap has no
# room for it. Each function takes the Journal as `j` and reads the log through its public means
# (segments, read_segment, path); what it finds it sets on the journal's fields.

import os
import struct

from sagatfw.engine import clock as C
from sagatfw.log import records as R


def open_log(j, keyfile=None):  # (not `open`: that name is the builtin here)
    """Find the last durable record (its seq, chain and game) and report damage at the end
    of the log; with `keyfile` (the arbiter key's path), finish or drop a key change a power cut
    interrupted (_settle_key). Never raises for damaged or foreign files."""
    j.problems = []
    try:
        os.mkdir(j.root)
    except OSError:
        pass
    names = j.segments()
    buf = bytearray(R.RECORD_SIZE)
    j.resume = None
    newest = True
    j.before = j.prev = j.head_link = R.ZERO_CHAIN
    j.head_seq = -1
    j.result_code = None
    j.result_seq = -1
    j.snap[2] = False
    before = None  # the chain value of the entry before the last good record (its anchor's, first in a segment)
    last = None
    for name in reversed(names):
        last = None
        result = None  # the segment's last result record (a game's or a match's)
        first = None  # the first result record of its game in the segment: the end of the game (TK-P1)
        played = -1  # the game of its last clock event but a result
        index = 0
        whole = True  # every record of the segment is whole and well formed, the last one last
        try:
            for rec in j.read_segment(name, buf):
                bad = R.check(rec)
                if bad:
                    j.problems.append((bad, None, "%s record %d" % (name, index)))
                    whole = False
                else:
                    before = R.chain_of(last) if last is not None else None
                    last = bytes(rec)
                    kind = R.type_of(rec)
                    if kind == C.EV_RESULT or kind == 0x2A:  # 0x2A: matchrecords.py EV_BASE + matchwords.py EV_RESULT
                        if result is None or R.game_of(result) != R.game_of(last):
                            first = last  # (a later one of the game is the arbiter's correction)
                        result = last
                    elif kind <= C.EV_POWER_RESTORE:
                        played = R.game_of(rec)
                index += 1
        except OSError as e:
            j.problems.append(("io", None, "%s: %s" % (name, e)))
            whole = False
        if newest and whole and last is not None and index < j.segment_records:
            # the next records go on at the end of this segment rather than into a new file:
            # a clock that is switched off and on every move does not pile up segments
            j.resume = (name, index)
        newest = False
        if last is not None:
            j.seq = R.seq_of(last)
            j.prev = R.chain_of(last)
            j.game = R.game_of(last)
            if R.type_of(last) != R.T_ANCHOR:  # an anchor carries the seq of the record after it
                j.seq += 1
            if R.type_of(last) not in (R.T_TEXT, R.T_ANCHOR):
                j.last_t = R.t_of(last)
            j.before = j.head_link = j.prev
            j.head_seq = j.seq - 1
            # The current game's last result: its code is shown again after a reboot (the arbiter
            # may not have copied it yet). A game logs no clock event after its result (no press,
            # pause, correction...): the segment just read has it, if the game has one (a game in
            # progress: nothing more is read for it, whatever its length), and its first result too,
            # whose wall time dates the end of the game for TK-P1's window (a correction keeps it).
            j.snap[2] = played == j.game  # a game's (a match logs no clock event): restore tries its snapshot
            if not j.snap[2]:
                _find_result(j, names, names.index(name))  # a match's, or a game not started: as before
            elif result is not None and R.game_of(result) == j.game:
                j.result_code = R.result_code(R.chain_of(result))
                j.result_seq = R.seq_of(result)
                j.result_arg, j.result_wall = R.arg_of(result), _wall_of(first)
            break
    j.file = None  # the next record continues j.resume, or starts a new segment
    j.opened = True
    if keyfile is not None:
        _settle_key(j, keyfile, before, last)
    return j.problems


def _settle_key(j, keyfile, before, last):
    """A key change a power cut interrupted (commands.key_set): the pending file (keyfile + ".new",
    commands.PENDING) holds the new key, written before the change's record. The change happened
    if the log's last durable record is a key_set or key_cleared record sealed under the key in
    force (j.chain's), or a record sealed under the new key: the pending file becomes the key file
    and the journal chains with the new key. Else its record never reached the flash, and the
    pending file goes: the old key stays, as the log says."""
    pending = keyfile + ".new"
    try:
        with open(pending, "rb") as f:
            new = f.read(64)  # (MAX_KEY)
    except OSError:
        return
    done = False
    if last is not None and before is not None and R.type_of(last) != R.T_ANCHOR:
        body = memoryview(last)[: R.CHAIN]
        link = R.chain_of(last)
        old = j.chain.link(before, body) == link
        if old and R.type_of(last) == C.EV_SETTINGS and R.arg_of(last) in (R.ORIGIN_KEY_SET, R.ORIGIN_KEY_CLEARED):
            done = True
        elif not old and R.Chain(new).link(before, body) == link:
            done = True
    try:
        if done:
            os.rename(pending, keyfile)
            j.chain = R.Chain(new)
        else:
            os.remove(pending)
    except OSError:
        pass

def _find_result(j, names, i):
    """The current game's last result record, if it is in segment i or the one before it: its
    code is shown again after a reboot (the arbiter may not have copied it yet). A game's first
    result there gives the wall time of the end of the game, from which TK-P1's window runs (a
    correction, a later result, keeps it): segment i - 1 is read for it too when segment i begins
    with a record of the game (its anchor names the game) and holds a result of it."""
    buf = bytearray(R.RECORD_SIZE)
    first = -1  # the seq of the game's first result found so far (newest segment first), -1: none
    for k in (i, i - 1):
        if k < 0:
            return
        found = 0  # the game's records in segment k: 0 none, 2 from its anchor on, 1 from later on
        try:
            for rec in j.read_segment(names[k], buf):
                if R.check(rec) or R.game_of(rec) != j.game:
                    continue
                if not found:
                    found = 2 if R.type_of(rec) == R.T_ANCHOR else 1
                if R.type_of(rec) == C.EV_RESULT or R.type_of(rec) == 0x2A:  # a game's or a match's
                    # result (0x2A: log/matchrecords.py EV_BASE + engine/matchwords.py EV_RESULT)
                    if R.seq_of(rec) > j.result_seq:  # (the last one: an older segment's are earlier)
                        j.result_code = R.result_code(R.chain_of(rec))
                        j.result_seq = R.seq_of(rec)
                        j.result_arg = R.arg_of(rec)
                    if R.type_of(rec) == C.EV_RESULT and (first < 0 or R.seq_of(rec) < first):
                        first = R.seq_of(rec)  # a game's wall time (TK-P1 on its faces): a match's
                        j.result_wall = _wall_of(rec)  # would be an attribute more in the match's heap
        except OSError:
            return
        if not found or (j.result_code is not None and (first < 0 or found == 1)):
            return


def _start_segment(j, names, game, buf):
    """Index of the newest segment that begins before `game` (where its records start)."""
    for i in range(len(names) - 1, -1, -1):
        first = None
        for rec in j.read_segment(names[i], buf):
            if not R.check(rec):
                first = R.game_of(rec)
            break
        if first is not None and first < game:
            return i
    return 0


def _first_type(j):
    """The type of the current game's first record (its setup), or None."""
    names = j.segments()
    buf = bytearray(R.RECORD_SIZE)
    for name in names[_start_segment(j, names, j.game, buf):]:
        for rec in j.read_segment(name, buf):
            if not R.check(rec) and R.game_of(rec) == j.game:
                return R.type_of(rec)
    return None


def game_events(j, game=None, at=None):
    """Yield the decoded events (checkpoints included) of one game (default: the current one),
    from its setup record on (or from `at`: (segment index, record index) in j.segments()), reading
    one record at a time."""
    if game is None:
        game = j.game
    names = j.segments()
    buf = bytearray(R.RECORD_SIZE)
    start, skip = (_start_segment(j, names, game, buf), 0) if at is None else at
    from sagatfw.log.read import Reader  # only at boot: the loop does not keep it in RAM

    reader = Reader(checkpoints=True, verify=False)  # the clock's own records: decode them
    for name in names[start:]:
        for rec in j.read_segment(name, buf, skip):
            if R.check(rec) or R.game_of(rec) != game:
                continue
            got = reader.feed(rec)
            if got is not None:
                for ev in got if isinstance(got, tuple) else (got,):
                    yield ev
        skip = 0
    got = reader.finish()
    if got is not None:
        yield got

def _after_snapshot(j, clock, at):
    """The records after the snapshot (from `at`) through the replay: True; False if the game is
    finished; None if they do not replay (the whole replay decides then, as without a snapshot)."""
    finished = False
    try:
        from sagatfw.log.replay import Replay

        rp = Replay(clock)
        rp.set_up = True  # the game's setup is the snapshot's
        for ev in game_events(j, None, at):
            rp.feed(ev)
            finished = finished or ev["type"] == "result"
    except Exception:  # noqa: BLE001 - a Mismatch (or worse): the whole replay says what it says
        return None
    clock.sink = None  # the replay's; the app sets its own
    clock.clear_events()
    if rp.gap is not None:
        return None  # the whole replay refuses the game, with its reason
    return not (clock.state == C.FINISHED or finished)


def restore(j, clock, now):
    """Restore the current game into `clock`: from the checkpoint file's snapshot and the records
    after it (only those: at most about segment_records // 4), or, when the snapshot does not check
    out or the records after it do not replay, by replaying the whole game, as without a snapshot
    (never worse); both give the same clock (tests/firmware/log/test_snapshot_mp.py: j.snap[2] = False before
    it, the whole replay). If it was set up or in progress, the clock comes back paused at its last
    durable state and a power_restore event is logged. Returns True then; False if there was no
    game or it was finished; None if the game is a match (the app restores it: app/matchmode.py);
    raises Mismatch if the log cannot be replayed (the caller shows the error and starts clean)."""
    if j.game == 0:
        return False
    # A game that open() found played in the newest segment (not a match: a match logs none of the
    # clock's events) may have a snapshot. (`rp`: its answer first; no more locals here than
    # before snapshots, nor names in this module: a match's boot has no RAM to spare for them.)
    rp = None
    if j.snap[2]:
        import gc

        from sagatfw import forget
        from sagatfw.log import checkpoint as snapshot

        try:
            rp = snapshot.load(j, clock)  # where the records after it begin, or None: it follows the last
        except Exception:  # noqa: BLE001 - none, damaged, another game's, forged...: the whole replay
            rp = False
        snapshot = None
        forget("sagatfw.log.checkpoint")  # its code goes before the records after it are replayed
        gc.collect()  # (what the boot makes next, the segment's buffer, goes low in a heap free of it)
        if rp is False:
            rp = None
        elif j.result_seq >= 0:
            return False  # (a snapshot from before the result, which open() found)
        else:
            rp = True if rp is None else _after_snapshot(j, clock, rp)
    if rp is not None:
        if not rp:
            return False
    else:  # the whole game
        if _first_type(j) == 0x30:  # matchlog.T_MATCH: a match's game, told before logread is loaded
            return None  # (the heap at a match's restore has no room for both): matchsetup.restore replays it
        if j.result_seq >= 0:
            # open() found this game's result: it is finished, and nothing a finished game's replay
            # gives is kept (the app sets up the next game; the code is shown from the record). Not
            # replaying it keeps the boot short whatever the game's length.
            return False
        seen = False
        finished = False
        for ev in game_events(j):
            if ev["type"] == "match":
                return None  # a match's game: matchsetup.restore replays it
            if ev["type"] == "settings" and ev.get("tc") is not None:
                seen = True
            if seen:
                if rp is None:
                    from sagatfw.log.replay import Replay  # only at boot: the loop does not keep it in RAM

                    rp = Replay(clock)
                rp.feed(ev)
                finished = finished or ev["type"] == "result"
        clock.sink = None  # the replay's; the app sets its own
        if not seen:
            return False
        clock.clear_events()
        if clock.state == C.FINISHED or finished:
            return False
        if rp.gap is not None:
            from sagatfw.log.replay import Mismatch

            raise Mismatch("seq %s: the clock dropped %s records of this game (its log was full): it cannot be "
                           "replayed past them" % (rp.gap.get("seq"), rp.gap.get("dropped")))
    _resume_checkpoint(j, clock)
    clock.power_restore(now)
    j.log_events(clock, now)
    return True


def ckpt_record(j):
    """The checkpoint file's record (in j.buf) if it continues this log exactly: a checkpoint of
    this game with the next seq (no record was made after it), linked to the last record under
    the key; else None. A game's restore and a match's (app/matchmode.py) check what it says."""
    rec = j.buf
    try:
        with open(j.path(R.CKPT), "rb") as f:
            if f.readinto(rec) != R.RECORD_SIZE:
                return None
    except OSError:
        return None
    if R.check(rec) or R.type_of(rec) != R.T_CHECKPOINT or R.game_of(rec) != j.game:
        return None
    if R.seq_of(rec) != j.seq or j.chain.link(j.prev, memoryview(rec)[: R.CHAIN]) != R.chain_of(rec):
        return None
    return rec


def _resume_checkpoint(j, clock):
    """Bring the replayed, running clock on to the checkpoint file's t, if that checkpoint
    continues this log exactly: its game, the next seq (no record was made after it), linked
    to the last record under the key, at or after the clock's t, no instant of the engine's own
    between, and the same faces the engine computes."""
    if clock.state != C.RUNNING:
        return
    rec = ckpt_record(j)
    if rec is None:
        return
    t = R.t_of(rec)
    nxt = clock.next_instant()
    if t < clock.t or 0 <= nxt <= t:
        return
    lms, rms = struct.unpack_from("<II", rec, 12)
    if clock._ms_at(C.LEFT, t) != lms or clock._ms_at(C.RIGHT, t) != rms:
        return
    clock.advance(t)  # replayed clocks count ticks as t


def _wall_of(rec):
    """A record's wall time in Unix ms, or None if the clock was not synced (TK-P1's window needs it)."""
    if not rec[30] & R.FLAG_WALL:
        return None
    ws, wms = struct.unpack_from("<IH", rec, 32)
    return ws * 1000 + wms
