# sagat: the checkpoint file's snapshot of the clock: its layout, and its writer.
#
# Journal.checkpoint (log/journal.py) writes the snapshot after the checkpoint record, in the same
# file (ROOT/ckpt, replaced atomically by littlefs at close): the clock's whole state after the
# last durable record S, tied to S's seq and chain value, MACed under the arbiter key as the log's
# records are, so that a reboot loads it and replays only the records after it. The layout is in
# docs/log-format.md, "Snapshots"; log/checkpoint.py reads it at boot, with the layout below.
#
# Loaded with the journal (its checkpoints write it while a game runs): the layout's names are the
# reader's too, and the writer is one function, not a method of the always-loaded Journal.

import struct

from sagatfw.core import timecontrol as tcm
from sagatfw.engine import clock as C

MAGIC = 0x53
VERSION = 1
FIELDS = "<BBHI8sIBbbBIHBBBIII"  # magic .. low_time_ms, at 0 (45 bytes); then each side's at 45 and 70
SIDE = "<IHIIIIHB"  # rem, moves, stage, stage_moves, delay_left, turn_used, flag, marks (25 bytes)
FIXED = 97  # the fixed part (FIELDS, both SIDEs, the control's length), before the control's text
MAC = 16  # the MAC's bytes, after the control's text


def pack(j, c):
    """The snapshot of clock `c`, for journal j's checkpoint record in j.buf (sealed: the MAC
    covers it): the clock's state after the journal's last record (seq j.seq - 1, chain j.prev),
    its t there (j.snap[1]: the record in j.buf has the clock's t now), the settings and the
    control, then HMAC-SHA256 under the key of the record and all that (MAC bytes). A bytearray."""
    s = c.settings
    tc = tcm.format_sides(c.tc[C.LEFT], c.tc[C.RIGHT]).encode()
    n = FIXED + len(tc) + MAC
    snap = bytearray(n)
    struct.pack_into(
        FIELDS, snap, 0, MAGIC, VERSION, n, j.seq - 1, j.prev, j.snap[1], c.state, c.running,
        c.to_move, c.first, c.seg_start, c.flags_down,
        # the default time passed since the last event leaves no record when it marks nobody,
        # and a replay of the log passes it only later: as of that event it is still to come
        1 if c.default_done and s.default_ms <= j.snap[1] else 0,
        2 if s.freeze is None else (1 if s.freeze else 0), 1 if s.stage_advance == "flag" else 0,
        s.extension_ms, s.default_ms, s.low_time_ms,
    )
    for i in (C.LEFT, C.RIGHT):
        struct.pack_into(
            SIDE, snap, 45 + 25 * i, c.rem[i], c.moves[i], c.stage[i], c.stage_moves[i],
            c.delay_left[i], c.turn_used[i], c.flag[i],
            c.above_low[i] | c.has_run[i] << 1 | c.default_mark[i] << 2 | c.stage_mark[i] << 3,
        )
    struct.pack_into("<H", snap, FIXED - 2, len(tc))
    snap[FIXED : FIXED + len(tc)] = tc
    snap[n - MAC :] = j.chain.mac(j.buf, memoryview(snap)[: n - MAC])[:MAC]
    return snap
