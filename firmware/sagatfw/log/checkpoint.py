# sagat: the boot's reading of the checkpoint file's snapshot, so a reboot replays only the records after it.
#
# log/journal.py's Journal.checkpoint writes it after the checkpoint record, in the same file (ROOT/ckpt,
# replaced atomically by littlefs at close), with every checkpoint and every segment_records // 4
# records of a game: the clock's whole state after the last durable record S, tied to S's seq and
# chain value, MACed under the arbiter key as the log's records are. The layout is in
# docs/log-format.md, "Snapshots".
#
# `load` checks it and loads it into the clock: then the boot replays only the records after S
# (log/boot.py's restore), not the whole game. Whatever does not check out raises ValueError (the
# reason), and the boot replays the whole game as without a snapshot. Loaded by log/boot.py only
# while the clock boots, and forgotten before anything else is loaded (the replay's modules).

import struct

from sagatfw.engine import clock as C
from sagatfw.log import records as R

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_MAGIC = const(0x53)
_VERSION = const(1)
_FIXED = const(97)  # the fixed part, before the control's text
_MAC = const(16)
_MAX = const(1024)  # a longer file is not a checkpoint with its snapshot

FIELDS = "<BBHI8sIBbbBIHBBBIII"  # magic .. low_time_ms, at 0 (45 bytes); then each side's at 45 and 70
SIDE = "<IHIIIIHB"  # rem, moves, stage, stage_moves, delay_left, turn_used, flag, marks (25 bytes)


def _no(why):
    raise ValueError(why)


def read(j):
    """The checkpoint file's bytes (the record and the snapshot), or ValueError."""
    try:
        with open(j.path(R.CKPT), "rb") as f:
            data = f.read(_MAX + 1)
    except OSError:
        _no("no checkpoint file")
    if len(data) < R.RECORD_SIZE + _FIXED + _MAC:
        _no("no snapshot (%d bytes): a checkpoint record alone, or torn" % len(data))
    if len(data) > _MAX:
        _no("the checkpoint file is too long")
    return data


def record_at(j, names, seq, buf):
    """(segment index, record index, the record) of `seq` in the log, found by the segments' names
    (each the seq of its first record; its record 0 is the anchor), or ValueError."""
    i = len(names) - 1
    while i >= 0 and int(names[i][: -len(R.SUFFIX)]) > seq:
        i -= 1
    if i < 0:
        _no("seq %d is before the log" % seq)
    k = seq - int(names[i][: -len(R.SUFFIX)]) + 1
    rec = None
    g = j.read_segment(names[i], buf, k)
    for r in g:
        rec = r
        break
    g.close()  # the file now, not at the next collection
    if rec is None or R.check(rec) or R.seq_of(rec) != seq:
        _no("seq %d is not in the log" % seq)
    return i, k, rec


def load(j, clock):
    """Load the snapshot into `clock` (new_game, then every field), if it checks out: its format and
    length, its MAC under the journal's key, the current game, a seq S the log holds with the chain
    value the snapshot names, and (S a clock event) S's t, faces, moves, stages and running side
    as the loaded clock shows them there. The clock is then where a replay of the log up to S
    leaves it (its t is S's event's). Returns where the records after S begin, (segment index,
    record index) for journalboot.game_events, or None if S is the last record; raises
    ValueError (why) otherwise, and the clock is then anything (the replay sets it up again)."""
    data = read(j)
    rec = memoryview(data)[: R.RECORD_SIZE]
    body = memoryview(data)[R.RECORD_SIZE :]
    if R.check(rec) or R.type_of(rec) != R.T_CHECKPOINT:
        _no("the checkpoint record is damaged")
    n = len(body)
    (magic, version, size, seq, link, t_ev, state, running, to_move, first, seg_start, flags_down, done, freeze,
     advance, ext, default, low) = struct.unpack_from(FIELDS, body, 0)
    if magic != _MAGIC or version != _VERSION or size != n:
        _no("not a snapshot of this format (or torn)")
    if j.chain.mac(rec, body[: n - _MAC])[:_MAC] != bytes(body[n - _MAC :]):
        _no("the snapshot's MAC is wrong (edited, torn, or made under another key)")
    if R.game_of(rec) != j.game:
        _no("the snapshot is of game %d, the log's is %d" % (R.game_of(rec), j.game))
    if R.seq_of(rec) != seq + 1:
        _no("the checkpoint record does not follow the snapshot's seq")
    if seq >= j.seq:
        _no("the snapshot follows seq %d, the log ends at %d" % (seq, j.seq - 1))
    names = j.segments()
    buf = bytearray(R.RECORD_SIZE)
    i, k, last = record_at(j, names, seq, buf)
    if R.game_of(last) != j.game or R.chain_of(last) != link:
        _no("seq %d in the log is not the record the snapshot follows (rewritten?)" % seq)
    ntc = struct.unpack_from("<H", body, 95)[0]
    if _FIXED + ntc + _MAC != n:
        _no("the snapshot's length does not fit its control")
    if (state != C.RUNNING and state != C.PAUSED and state != C.FLAGGED and state != C.ADJOURNED) or freeze > 2 \
            or advance > 1 or running < -1 or running > 1 or to_move < -1 or to_move > 1 \
            or (running == C.NONE) == (state == C.RUNNING) or t_ev > C.MAX_GAME_MS or seg_start > t_ev:
        _no("the snapshot's state is out of range")
    from sagatfw.core import tcparse  # the boot forgets it with the snapshot reader

    left, right = tcparse.parse_sides(bytes(body[_FIXED : _FIXED + ntc]).decode())
    clock.new_game(left, right, first, C.Settings(None if freeze == 2 else freeze == 1,
                                                  "flag" if advance else "moves", ext, default, low))
    clock.state = state
    clock.running = running
    clock.to_move = to_move
    clock.t = clock.last = t_ev  # a replayed clock counts ticks as t
    clock.seg_start = seg_start
    clock.flags_down = flags_down
    clock.default_done = done == 1
    for s in (C.LEFT, C.RIGHT):
        (rem, moves, stage, stage_moves, delay, used, flag, marks) = struct.unpack_from(SIDE, body, 45 + 25 * s)
        if rem > C.MAX_FACE_MS or stage < 1 or marks > 15:
            _no("the snapshot's %s side is out of range" % C.SIDE_NAMES[s])
        clock.rem[s] = rem
        clock.moves[s] = moves
        clock.stage[s] = stage
        clock.stage_moves[s] = stage_moves
        clock.delay_left[s] = delay
        clock.turn_used[s] = used
        clock.flag[s] = flag
        clock.above_low[s] = marks & 1
        clock.has_run[s] = marks >> 1 & 1
        clock.default_mark[s] = marks >> 2 & 1
        clock.stage_mark[s] = marks >> 3 & 1
    if R.type_of(last) <= C.EV_POWER_RESTORE:  # a clock event: the clock right after it is the snapshot's
        (_, _, _, _, t, lms, rms, lmv, rmv, run, _, _, lst, rst) = struct.unpack_from("<BBHIIIIHHbbhBB", last, 0)
        if t != t_ev or lms != clock._ms_at(C.LEFT, t) or rms != clock._ms_at(C.RIGHT, t) or run != running \
                or lmv != clock.moves[C.LEFT] or rmv != clock.moves[C.RIGHT] \
                or lst != R.stage_byte(clock.stage[C.LEFT]) or rst != R.stage_byte(clock.stage[C.RIGHT]):
            _no("the snapshot does not show seq %d as the log has it" % seq)
    if seq == j.seq - 1:
        return None
    return i, k + 1
