# sagat: the journal: the clock's events as records of the append-only, keyed log, and the
# checkpoints.
#
# The record writer. A Journal is a Segments (log/segments.py: the segment files, the backlog's
# commit, the ballast), and this class makes the records that go into them: each is packed into
# `buf` (log/records.py), admitted to the RAM backlog (`admit`), sealed into the chain (`push`:
# its seq, its CRC, its keyed hash) and made durable by `commit`. A game's records are made here
# (begin_game, log_events, log_settings, time_sync); a match's by log/matchwrite.py, loaded with
# the match, through the same steps. Each batch of records is written and flushed before
# `log_events` returns, so a completed move is durable before the app handles the next press.
#
# After a reboot, log/boot.py finds where the log ends (open_log: the journal goes on at the end
# of the newest whole segment, else in a new one) and brings the interrupted game back (restore:
# from its snapshot and the records after it, else by a replay), paused with a `power_restore`
# event (TK-C18); it is loaded only while the clock boots.
#
# Checkpoints do not go into the chain: the latest one is ONE record in ROOT/ckpt, overwritten
# every `checkpoint_ms` while a side runs (littlefs commits a file's rewrite atomically at close).
# It holds the journal's next seq and links to the last record under the key, so the boot uses it
# only if no record was made after it: a reboot comes back within checkpoint_ms of the cut, and the
# log grows with the game's events only, however often the clock checkpoints. The same file
# carries a snapshot of the clock after the record (`checkpoint` writes it, log/checkpoint.py reads
# it at boot), written with every checkpoint and after every
# `min(segment_records // 4, 32)` records in a game, so a reboot loads it and replays only the
# records after it.
#
# When the backlog is full, new records are not sealed (no seq is used) but counted; the next
# record written is a T_GAP record with that count, chained like any other, so the log says where
# and how much it lost. A few places of the backlog are kept for the records that must be kept (a
# result, settings), which may also take the flash's ballast (log/segments.py).

import struct

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


from sagatfw.core import timecontrol as tcm
from sagatfw.core.ticks import ticks_add, ticks_diff
from sagatfw.engine import clock as C
from sagatfw.log import records as R
from sagatfw.log.segments import Segments

# 255 records (16,320 bytes) fill four 4 KB blocks of littlefs's skip-list files (each block after
# the first gives up 4 to 8 bytes to its pointers): 256 records would take five, and the 128 of
# before took three blocks for 8,192 bytes. Four blocks a segment keep the log folder at 128 files
# or fewer on every board's flash (the ESP32's 2 MB, 512 blocks), full of one game or not.
SEGMENT_RECORDS = 255
# const() with a leading underscore: no entry in the module's dict, which lives in RAM
_ROOM_BYTES = const(8192)  # the ballast's size (log/segments.py)
_SNAP_EVERY = const(32)  # a snapshot after at most this many records of a game (fewer with small segments)
_KEEP_SLOTS = const(6)  # backlog places only records that must be kept may take (a result, settings, the gap)


class Journal(Segments):
    # the game's first result's wall ms (TK-P1's window; None: unsynced): a class default, on the
    # instance only once set (one more attribute of every journal's table: RAM)
    result_wall = None

    def __init__(self, root=R.ROOT, key=b"", segment_records=SEGMENT_RECORDS, max_bytes=262144,
                 checkpoint_ms=15000, backlog=32, room_bytes=_ROOM_BYTES):
        # the segments' fields (log/segments.py, where each is said)
        self.root = root
        self.segment_records = segment_records
        self.max_bytes = max_bytes
        self.hold = False
        self.backlog_max = backlog
        self.room_bytes = room_bytes
        self.buf = bytearray(R.RECORD_SIZE)
        self.game = 0
        self.backlog = []
        self.before = R.ZERO_CHAIN
        self.head_seq = -1
        self.head_link = R.ZERO_CHAIN
        self.file = None
        self.seg = None
        self.resume = None
        self.opened = False
        self.seg_records = 0
        self.error = None
        self.full = False
        self.urgent = False
        self.room = None
        # the writer's
        self.chain = R.Chain(key)
        self.checkpoint_ms = checkpoint_ms
        self.gbuf = bytearray(R.RECORD_SIZE)  # the first record dropped: the gap record's header
        self.seq = 0  # seq of the next record
        self.prev = R.ZERO_CHAIN  # chain of the last record made
        self.result_code = None  # records.result_code of the current game's last result (the faces show it)
        self.result_seq = -1  # its seq: the code is shown once that record is durable
        self.result_arg = 0  # its arg (records.arg_of: a game's result, a match's winner)
        self.last_t = 0  # t of the last record written for the current game
        # the snapshot's: [0] the seq the last one was written at (the next record's), [1] t of the
        # last clock event logged (where a replay of the log leaves the clock's t), [2] the boot
        # found a clock event of the current game in the newest segment (a game, not a match: the
        # restore tries the snapshot). One list: one more attribute would grow every journal's
        # table of them (37 attributes fill a table of 37 places; the next size is 47).
        self.snap = [-1, 0, False]
        self.problems = []  # damage found when opening (kind, seq, detail)
        self.dropped = 0  # records lost because the backlog was full, since boot
        self.gap = 0  # records dropped that no gap record names yet
        self.gap_last_t = 0
        self.sync_wall_ms = None  # wall clock (Unix ms) at sync_ticks, once synced (time_sync)
        self.sync_ticks = 0

    def durable_code(self):
        """The result code once its record is on the flash (None before: a power cut could still
        lose it, and a code copied then would call an honest log forged)."""
        if self.result_code is not None and self.head_seq >= self.result_seq:
            return self.result_code
        return None

    # ------------------------------------------------------------------ a record's steps

    def admit(self, n, keep=False):
        """Room in the RAM backlog for a group of n records packed from self.buf (a record and its
        text)? Then the gap record owed, if any, is queued first (self.buf's seq is set to follow
        it) and True: push() each record of the group. Else the group is dropped: counted, never
        sealed (no seq used, the chain goes on), self.buf's header kept for the gap record.
        Records that must be kept (`keep`: a result, settings) may use the last _KEEP_SLOTS
        places and the flash's ballast."""
        owed = 1 if self.gap else 0
        limit = self.backlog_max if keep else self.backlog_max - _KEEP_SLOTS
        if len(self.backlog) + owed + n > limit:
            if not self.gap:
                self.gbuf[:] = self.buf
            self.gap += n
            self.gap_last_t = R.t_of(self.buf)
            self.dropped += n
            return False
        if owed:
            R.pack_gap(self.gbuf, self.seq, self.gap, self.gap_last_t)
            if not self.backlog:
                self.before = self.prev
            self.prev = R.seal(self.gbuf, self.prev, self.chain)
            self.seq += 1
            self.backlog.append(bytes(self.gbuf))
            self.gap = 0
            self._reseq()
        if keep:
            self.urgent = True
        return True

    def push(self):
        """Seal the record in self.buf (its seq already in it: self.seq) and queue it for writing."""
        if not self.backlog:
            self.before = self.prev
        self.prev = R.seal(self.buf, self.prev, self.chain)
        self.seq += 1
        self.backlog.append(bytes(self.buf))

    def _reseq(self):
        struct.pack_into("<I", self.buf, 4, self.seq)

    def _push_text(self, text):
        while text:
            text = R.pack_text(self.buf, self.game, self.seq, text)
            self.push()

    # ------------------------------------------------------------------ a game's records

    def wall(self, clock, t, now):
        """The wall time of `clock`'s t (its seconds, its ms, True), once the clock was synced;
        else (0, 0, False). `clock` the game's Clock, or a match's engine (log/matchwrite.py):
        both keep `state` (SETUP 0 in both), `t` and `last` (the ticks at t)."""
        if self.sync_wall_ms is None:
            return 0, 0, False
        if clock.state == C.SETUP:
            ticks = now  # before the start, t stays 0: the event happened now
        else:
            ticks = ticks_add(clock.last, t - clock.t)
        ms = self.sync_wall_ms + ticks_diff(ticks, self.sync_ticks)
        return ms // 1000, ms % 1000, True

    def _header(self, clock, kind, t, side, arg, now):
        ws, wms, ok = self.wall(clock, t, now)
        R.pack_header(
            self.buf, kind, self.game, self.seq, t, clock._ms_at(C.LEFT, t), clock._ms_at(C.RIGHT, t),
            clock.moves[C.LEFT], clock.moves[C.RIGHT], clock.running, side, arg,
            clock.stage[C.LEFT], clock.stage[C.RIGHT], ws, wms, ok,
        )

    def begin_game(self, clock, now, origin=R.ORIGIN_CHANGED):
        """Log a new game's setup (after clock.new_game): its number, settings, control and first
        player. Returns True if durable."""
        self.game += 1
        self._header(clock, C.EV_SETTINGS, 0, clock.first, origin, now)
        R.pack_settings(self.buf, clock.settings)
        text = tcm.format_sides(clock.tc[C.LEFT], clock.tc[C.RIGHT])
        if self.admit(1 + R.text_records(text), True):
            self.push()
            self._push_text(text)
        self.last_t = self.snap[1] = 0
        ok = self.commit()
        if self.opened and not self.backlog:
            self.make_room()  # the new game gets its ballast (older finished games go for it)
        return ok

    def log_events(self, clock, now):
        """Write the clock's queued events as records and make them durable; clears the queue.
        Returns True if everything is durable. (The clock's sink calls it as its queue fills
        inside one call: none is lost.)"""
        ev = clock.events
        for i in range(clock.n_events):
            if len(self.backlog) >= self.backlog_max // 2 and self.error is None:
                self.commit()  # a long batch (a call with many instants) goes to the flash as it comes
            e = i * C.EV_SIZE
            t = ev[e + C.F_T]
            ws, wms, ok = self.wall(clock, t, now)
            R.pack_event(self.buf, ev, e, self.game, self.seq, clock.stage[C.LEFT],
                         clock.stage[C.RIGHT], ws, wms, ok)
            rest = b""
            kind = ev[e + C.F_TYPE]
            if kind == C.EV_GAME_START:
                text = tcm.format_sides(clock.tc[C.LEFT], clock.tc[C.RIGHT])
                rest = R.put_text(self.buf, text, R.PAYLOAD, R.PAYLOAD_SIZE)
            if self.admit(1 + R.text_records(rest), kind == C.EV_RESULT):
                self.push()
                if kind == C.EV_RESULT:
                    # the wall time of the game's first result: TK-P1's window runs from the end of
                    # the game, which a correction (a later result) does not move
                    if not self.result_code:
                        self.result_wall = ws * 1000 + wms if ok else None
                    self.result_code = R.result_code(self.prev)  # the faces show it (scoresheet)
                    self.result_seq, self.result_arg = self.seq - 1, R.arg_of(self.buf)
                self._push_text(rest)
            self.last_t = self.snap[1] = t
        clock.clear_events()
        return self.commit()

    def checkpoint(self, clock, now):
        """Save where the clock is in the checkpoint file, overwritten each time: while a side runs
        every checkpoint_ms (so a reboot loses at most that much of a turn), and in any state of a
        game in progress (set up and not finished) after every min(segment_records // 4, 32)
        records (so a reboot replays at most about that many). The file holds a record that takes
        the next seq and links to the last one, but is not in the chain (the boot uses it only if
        nothing was logged after it), followed by the snapshot of the clock (below).
        Returns True if written."""
        st = clock.state
        if st == C.RUNNING and clock.t - self.last_t >= self.checkpoint_ms:
            self.last_t = clock.t
        elif st == C.SETUP or st == C.FINISHED or \
                self.seq - self.snap[0] < min(self.segment_records >> 2, _SNAP_EVERY):
            return False
        if self.backlog or self.gap or not self.opened:
            return False  # records are not durable: after a reboot this checkpoint could not follow them
        # One open littlefs file at a time (1.2 KB in one piece each, which a heap split by the
        # small objects of play may not have twice), and this one opened before the snapshot is
        # made, so that nothing small splits its room first; the segment's file takes that room
        # back as soon as this one is closed (below), as a match's checkpoint does.
        reopen = self.file is not None
        self.park()
        try:
            f = open(self.path(R.CKPT), "wb")
        except OSError:
            return False
        self.snap[0] = self.seq
        self._header(clock, R.T_CHECKPOINT, clock.t, C.NONE, 0, now)
        R.seal(self.buf, self.prev, self.chain)  # the link it would have: self.prev stays
        snap = None
        if not self.dropped:  # (after a gap the boot replays the log, and refuses the game, as before)
            # The snapshot (docs/log-format.md, "Snapshots"; log/checkpoint.py's load reads it, with
            # its FIELDS and SIDE: the layouts below): the clock's state after the last record (seq
            # self.seq - 1, chain self.prev), its t there (snap[1]: the record above has the clock's
            # t now), the settings and the control, then HMAC-SHA256 under the key of the record and
            # all that (16 bytes). Written here, not in a module of its own beside the reader: a
            # module kept loaded costs the loop's heap its object and table of names (about 250 B
            # on the 64-bit port, more than the 64 KB probe's margin), and one loaded for each
            # checkpoint left the heap split where the segment's file looks for its 1.2 KB after it.
            c = clock
            s = c.settings
            tc = tcm.format_sides(c.tc[C.LEFT], c.tc[C.RIGHT]).encode()
            n = 113 + len(tc)  # 97 fixed bytes, the control, the MAC
            snap = bytearray(n)
            struct.pack_into(
                "<BBHI8sIBbbBIHBBBIII", snap, 0, 0x53, 1, n, self.seq - 1, self.prev, self.snap[1], c.state,
                c.running, c.to_move, c.first, c.seg_start, c.flags_down,
                # the default time passed since the last event leaves no record when it marks
                # nobody, and a replay of the log passes it only later: as of that event it is to come
                1 if c.default_done and s.default_ms <= self.snap[1] else 0,
                2 if s.freeze is None else (1 if s.freeze else 0), 1 if s.stage_advance == "flag" else 0,
                s.extension_ms, s.default_ms, s.low_time_ms,
            )
            for i in (C.LEFT, C.RIGHT):
                struct.pack_into(
                    "<IHIIIIHB", snap, 45 + 25 * i, c.rem[i], c.moves[i], c.stage[i], c.stage_moves[i],
                    c.delay_left[i], c.turn_used[i], c.flag[i],
                    c.above_low[i] | c.has_run[i] << 1 | c.default_mark[i] << 2 | c.stage_mark[i] << 3,
                )
            struct.pack_into("<H", snap, 95, len(tc))
            snap[97 : 97 + len(tc)] = tc
            snap[n - 16 :] = self.chain.mac(self.buf, memoryview(snap)[: n - 16])[:16]
        try:
            try:
                f.write(self.buf)
                if snap is not None:
                    f.write(snap)
            finally:
                f.close()  # littlefs: the new content replaces the old one here, atomically
                f = snap = None  # (garbage: the segment's buffer takes their room)
                if reopen:
                    r = self.resume
                    try:
                        self.unpark()
                    except (OSError, MemoryError):  # the next write opens it
                        self.resume = r
        except OSError:
            return False
        return True

    def time_sync(self, clock, wall_ms, now):
        """The host set the wall clock (Unix ms) at ticks `now`: later records carry `wall`."""
        self.sync_wall_ms = wall_ms
        self.sync_ticks = now
        self._header(clock, C.EV_TIME_SYNC, clock.t, C.NONE, 0, now)
        if self.admit(1):
            self.push()
        return self.commit()

    def log_settings(self, clock, settings, origin, now):
        """A settings record outside a game's setup (changed, or defaults after a bad file)."""
        self._header(clock, C.EV_SETTINGS, clock.t if clock.state != C.SETUP else 0, C.NONE, origin, now)
        R.pack_settings(self.buf, settings)
        if self.admit(1, True):
            self.push()
        return self.commit()

