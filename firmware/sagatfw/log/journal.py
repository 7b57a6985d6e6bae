# sagat: the append-only event log and state checkpoints on the board's filesystem (littlefs).
#
# Records (log/records.py, 64 bytes each) go into segment files ROOT/NNNNNNNNNN.seg, named by the seq of their first
# record; each file begins with an anchor record that states the chain value of the record before it, so the log can
# be checked from any segment on. A segment holds at most `segment_records` records (its anchor included); the total
# size is bounded by `max_bytes`: past it the oldest segments go, but only those holding finished, older games - never
# the game in progress. Each batch of records is written and flushed (littlefs commits atomically on flush) before
# `log_events` returns, so a completed move is durable before the app handles the next press. After a reboot the
# journal goes on at the end of the newest whole segment (else a new one) and `restore` brings the interrupted game
# back (its snapshot and the records after it, else a replay), paused with a `power_restore` event (TK-C18).
#
# Checkpoints do not go into the chain: the latest one is ONE record in ROOT/ckpt, overwritten every `checkpoint_ms`
# while a side runs (littlefs commits a file's rewrite atomically at close). It holds the journal's next seq and links
# to the last record under the key, so `restore` uses it only if no record was made after it: a reboot comes back
# within checkpoint_ms of the cut, and the log grows with the game's events only, however often the clock checkpoints.
# The same file carries a snapshot after the record (`checkpoint`): the clock's whole state after the last record,
# MACed under the key; it is written with every checkpoint and after every `min(segment_records // 4, 32)` records in
# a game, so a reboot loads it and replays only the records after it (checkpoint.py).
#
# Write errors (full or read-only filesystem, I/O errors) never stop the clock: the records stay in a small RAM
# backlog, `error` says what went wrong, and the next call tries again (after removing old finished games if the
# filesystem is full). ROOT/room is ballast (_ROOM_BYTES) held back on the flash: when the game in progress alone
# fills it, the ballast goes for a record that must be kept (a result, settings) and `full` says LOG FULL. When the
# backlog is full, new records are not sealed (no seq is used) but counted; the next record written is a T_GAP record
# with that count, chained like any other, so the log says where and how much it lost.

import os
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

# littlefs's answers of a full flash: no block left (ENOSPC, 28), or a folder whose metadata is full (its NOSPC there
# comes back as ENAMETOOLONG, 36: our names are 14 characters). const() with a leading underscore: no module dict entry.
_ENOSPC = const(28)
_ENAMETOOLONG = const(36)
_ROOM = const("room")  # ballast: flash held back for the records that must be kept on a full flash
_ROOM_BYTES = const(8192)
# 255 records (16,320 bytes) fill four 4 KB blocks of littlefs's skip-list files (each block after the first gives up
# 4 to 8 bytes to its pointers): 256 records would take five, and 128 took three for 8,192 bytes. Four blocks a segment
# keep the log folder at 128 files or fewer on every board's flash (the ESP32's 2 MB, 512 blocks), full or not.
SEGMENT_RECORDS = 255
_SNAP_EVERY = const(32)  # a snapshot after at most this many records of a game (fewer with small segments)
_KEEP_SLOTS = const(6)  # backlog places only records that must be kept may take (a result, settings, the gap)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _whole(backlog, room):
    """How many of the backlog's first records go into `room` without parting a record from its text continuations
    (each flush is durable on its own: a cut between the two would leave a game's setup without its control)."""
    n = room if room < len(backlog) else len(backlog)
    while 0 < n < len(backlog) and R.type_of(backlog[n]) == R.T_TEXT:
        n -= 1
    return n


class Journal:
    result_wall = None  # the game's first result's wall ms (TK-P1; None: unsynced), on the instance once set (RAM)

    def __init__(self, root=R.ROOT, key=b"", segment_records=SEGMENT_RECORDS, max_bytes=262144, checkpoint_ms=15000,
                 backlog=32, room_bytes=_ROOM_BYTES):
        self.root = root
        self.chain = R.Chain(key)
        self.segment_records = segment_records
        self.max_bytes = max_bytes
        self.hold = False  # a log.read's records are being sent: no segment is removed meanwhile
        self.checkpoint_ms = checkpoint_ms
        self.backlog_max = backlog
        self.room_bytes = room_bytes
        self.buf = bytearray(R.RECORD_SIZE)
        self.gbuf = bytearray(R.RECORD_SIZE)  # the first record dropped: the gap record's header
        self.backlog = []  # sealed records not yet durable
        self.seq = 0  # seq of the next record
        self.prev = R.ZERO_CHAIN  # chain of the last record made
        self.before = R.ZERO_CHAIN  # chain of the record before backlog[0]: a new segment's anchor states it
        self.head_seq = -1  # the last durable record: its seq and chain value (protocol log.head)
        self.head_link = R.ZERO_CHAIN
        self.result_code = None  # records.result_code of the current game's last result (the faces show it)
        self.result_seq, self.result_arg = -1, 0  # its seq (shown once durable), arg (records.arg_of; a match's winner)
        self.game = 0  # current game number (0 before the first)
        self.file = None  # the segment being written, open only while a batch is written
        self.seg = None  # its name
        self.resume = None  # (segment name, records) the next write appends to (after boot too)
        self.opened = False  # open() found the log's end: nothing is written before (seq 0 would replace a segment)
        self.seg_records = 0
        self.last_t = 0  # t of the last record written for the current game
        # the snapshot's: [0] the seq the last one was written at (the next record's), [1] t of the
        # last clock event logged (where a replay of the log leaves the clock's t), [2] open() found
        # a clock event of the current game in the newest segment (a game, not a match: restore
        # tries the snapshot). One list: one more attribute would grow every journal's table of them.
        self.snap = [-1, 0, False]
        self.error = None  # the last write error, as text; None when all is durable
        self.problems = []  # damage found when opening (kind, seq, detail)
        self.dropped = 0  # records lost because the backlog was full, since boot
        self.gap = 0  # records dropped that no gap record names yet
        self.gap_last_t = 0
        self.full = False  # the flash is full with the game in progress: LOG FULL
        self.urgent = False  # a record that must be kept waits: the ballast may go for it
        self.room = None  # the ballast is on the flash (None: not looked yet)
        self.sync_wall_ms = None  # wall clock (Unix ms) at sync_ticks, once synced (time_sync)
        self.sync_ticks = 0

    # ------------------------------------------------------------------ files

    def segments(self):
        """Segment file names, oldest first."""
        try:
            names = [n for n in os.listdir(self.root) if n.endswith(R.SUFFIX)]
        except OSError:
            return []
        names.sort()
        return names

    def _path(self, name):
        return self.root + "/" + name

    def _read_segment(self, name, buf, *skip):
        """Yield each 64-byte record of a segment (into buf, reused), or from its record skip[0]
        on (0: its anchor; by a seek); a short tail is yielded as a shorter bytes object. (`*skip`,
        not skip=0: a default is a tuple kept in RAM with the function.)"""
        with open(self._path(name), "rb") as f:
            if skip:
                f.seek(skip[0] * R.RECORD_SIZE)
            while True:
                n = f.readinto(buf)
                if not n:
                    return
                if n < R.RECORD_SIZE:
                    yield bytes(buf[:n])
                    return
                yield buf

    # ------------------------------------------------------------------- boot

    def __getattr__(self, name):
        """open, restore and game_events: the boot's reading of the log, in log/boot.py,
        loaded while it is used (app.boot forgets it after: the loop's heap has no room for it)."""
        if name not in ("open", "restore", "game_events"):
            raise AttributeError(name)
        from sagatfw.log import boot as journalboot

        f = getattr(journalboot, "open_log" if name == "open" else name)
        return lambda *a: f(self, *a)

    def durable_code(self):
        """The result code once its record is on the flash (None before: a power cut could still lose it, and a
        code copied then would call an honest log forged)."""
        if self.result_code is not None and self.head_seq >= self.result_seq:
            return self.result_code
        return None

    # ---------------------------------------------------------------- writing

    def _wall(self, clock, t, now):
        if self.sync_wall_ms is None:
            return 0, 0, False
        if clock.state == C.SETUP:
            ticks = now  # before the start, t stays 0: the event happened now
        else:
            ticks = ticks_add(clock.last, t - clock.t)
        ms = self.sync_wall_ms + ticks_diff(ticks, self.sync_ticks)
        return ms // 1000, ms % 1000, True

    def _push(self):
        """Seal the record in self.buf (seq already in it) and queue it for writing."""
        if not self.backlog:
            self.before = self.prev
        self.prev = R.seal(self.buf, self.prev, self.chain)
        self.seq += 1
        self.backlog.append(bytes(self.buf))

    def _admit(self, n, keep=False):
        """Room in the RAM backlog for a group of n records packed from self.buf (a record and its
        text)? Then the gap record owed, if any, is queued first (self.buf's seq is set to follow
        it) and True. Else the group is dropped: counted, never sealed (no seq used, the chain
        goes on), self.buf's header kept for the gap record. Records that must be kept (a
        result, settings) may use the last _KEEP_SLOTS places and the flash's ballast."""
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

    def _reseq(self):
        struct.pack_into("<I", self.buf, 4, self.seq)

    def _push_text(self, text):
        while text:
            text = R.pack_text(self.buf, self.game, self.seq, text)
            self._push()

    def _header(self, clock, kind, t, side, arg, now):
        ws, wms, ok = self._wall(clock, t, now)
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
        if self._admit(1 + R.text_records(text), True):
            self._push()
            self._push_text(text)
        self.last_t = self.snap[1] = 0
        ok = self.commit()
        if self.opened and not self.backlog:
            self._make_room()  # the new game gets its ballast (older finished games go for it)
        return ok

    def log_events(self, clock, now):
        """Write the clock's queued events as records and make them durable; clears the queue.
        Returns True if everything is durable."""
        ev = clock.events
        for i in range(clock.n_events):
            if len(self.backlog) >= self.backlog_max // 2 and self.error is None:
                self.commit()  # a long batch (a call with many instants) goes to the flash as it comes
            e = i * C.EV_SIZE
            t = ev[e + C.F_T]
            ws, wms, ok = self._wall(clock, t, now)
            R.pack_event(self.buf, ev, e, self.game, self.seq, clock.stage[C.LEFT], clock.stage[C.RIGHT],
                         ws, wms, ok)
            rest = b""
            kind = ev[e + C.F_TYPE]
            if kind == C.EV_GAME_START:
                text = tcm.format_sides(clock.tc[C.LEFT], clock.tc[C.RIGHT])
                rest = R.put_text(self.buf, text, R.PAYLOAD, R.PAYLOAD_SIZE)
            if self._admit(1 + R.text_records(rest), kind == C.EV_RESULT):
                self._push()
                if kind == C.EV_RESULT:
                    self.result_wall = self.result_wall if self.result_code else (ws * 1000 + wms if ok else None)
                    self.result_code = R.result_code(self.prev)  # the faces show it (scoresheet)
                    self.result_seq, self.result_arg = self.seq - 1, R.arg_of(self.buf)
                self._push_text(rest)
            self.last_t = self.snap[1] = t
        clock.clear_events()
        return self.commit()

    def checkpoint(self, clock, now):
        """Save where the clock is in the checkpoint file, overwritten each time: while a side runs
        every checkpoint_ms (so a reboot loses at most that much of a turn), and in any state of a
        game in progress (set up and not finished) after every min(segment_records // 4, 32) records (so a
        reboot replays at most about that many). The file holds a record that takes the next seq and
        links to the last one, but is not in the chain (restore uses it only if nothing was logged
        after it), followed by the snapshot of the clock. Returns True if written."""
        st = clock.state
        if st == C.RUNNING and clock.t - self.last_t >= self.checkpoint_ms:
            self.last_t = clock.t
        elif st == C.SETUP or st == C.FINISHED or self.seq - self.snap[0] < min(self.segment_records >> 2, _SNAP_EVERY):
            return False
        if self.backlog or self.gap or not self.opened:
            return False  # records are not durable: after a reboot this checkpoint could not follow them
        # one open littlefs file at a time (1.2 KB in one piece each, which a heap split by the small objects of play
        # may not have twice), opened before the snapshot is made: nothing small splits its room first
        self.park()
        try:
            f = open(self._path(R.CKPT), "wb")
        except OSError:
            return False
        self.snap[0] = self.seq
        self._header(clock, R.T_CHECKPOINT, clock.t, C.NONE, 0, now)
        R.seal(self.buf, self.prev, self.chain)  # the link it would have: self.prev stays
        snap = None
        if not self.dropped:  # (after a gap the restore replays the log, and refuses the game, as before)
            # The snapshot (docs/log-format.md, "Snapshots"; log/checkpoint.py's load reads it): the clock's state
            # after the last record (seq self.seq - 1, chain self.prev), its t there (snap[1]: the record above has the
            # clock's t now), the settings and the control, then HMAC-SHA256 under the key of the record and all that
            # (16 bytes). Written here, not in a method of its own: each function of an always-loaded module costs RAM.
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
        except OSError:
            return False
        return True

    def time_sync(self, clock, wall_ms, now):
        """The host set the wall clock (Unix ms) at ticks `now`: later records carry `wall`."""
        self.sync_wall_ms = wall_ms
        self.sync_ticks = now
        self._header(clock, C.EV_TIME_SYNC, clock.t, C.NONE, 0, now)
        if self._admit(1):
            self._push()
        return self.commit()

    def log_settings(self, clock, settings, origin, now):
        """A settings record outside a game's setup (changed, or defaults after a bad file)."""
        self._header(clock, C.EV_SETTINGS, clock.t if clock.state != C.SETUP else 0, C.NONE, origin, now)
        R.pack_settings(self.buf, settings)
        if self._admit(1, True):
            self._push()
        return self.commit()

    def commit(self):
        """Write the backlog to the current segment and flush. True if all is durable."""
        if not self.backlog:
            return True
        if not self.opened:  # the records wait (up to the backlog's bound); the faces say LOG ERROR
            self.error = "log not opened"
            return False
        while True:
            try:
                self._write_backlog()
                self.error = None
                self.urgent = False  # (`full` stays until a game's setup puts the ballast back)
                return True
            except OSError as e:
                self._failed()
                self.error = "log write failed: %s" % e
                if e.args and e.args[0] in (_ENOSPC, _ENAMETOOLONG):
                    # full: remove the oldest finished game's segment and try again; when only the
                    # game in progress is left, the log is full (the faces say LOG FULL)
                    if self._remove_oldest():
                        continue
                    self.full = True
                # any failure (a full flash, or one that fails otherwise): the ballast goes for a
                # record that must be kept (a result, settings, the gap record before them)
                if not (self.urgent and self._free_room()):
                    return False

    def _write_backlog(self):
        while self.backlog:
            if self.file is None and self.resume is not None:
                name, records = self.resume
                self.resume = None  # once: after a write error _failed says where the next try goes
                self.file = open(self._path(name), "ab")
                self.seg_records = records
                self.seg = name
            if self.file is None or self.seg_records >= self.segment_records:
                self._new_segment()
            room = self.segment_records - self.seg_records
            n = _whole(self.backlog, room)
            if n == 0 and self.seg_records > 1:
                self.seg_records = self.segment_records  # the record and its text go to a new segment
                continue
            batch = self.backlog[: n or room]
            for rec in batch:
                self.file.write(rec)
            self.file.flush()  # littlefs: the sync that makes these records durable
            self.seg_records += len(batch)
            last = batch[-1]
            self.before = self.head_link = R.chain_of(last)
            self.head_seq = R.seq_of(last)
            del self.backlog[: len(batch)]

    def _failed(self):
        """After a write error: close the segment, and go on at its end next time if the flash holds
        it as it was before the batch (littlefs keeps a file's last flushed content when a write
        fails): the next try does not start a new segment (each would take the folder's metadata,
        and a full flash none). A segment that is not so (a shorter or longer file) is left: the
        next try starts a new one, as after a damaged tail."""
        f = self.file
        self._close()
        if f is None or self.seg is None:
            return
        try:
            if os.stat(self._path(self.seg))[6] == self.seg_records * R.RECORD_SIZE:
                self.resume = (self.seg, self.seg_records)
        except OSError:
            pass

    def park(self):
        """Close the segment's file (records durable) till the next write: another file takes its room."""
        if self.file is None or self.backlog:
            return
        self._close()
        if self.seg is not None and self.seg_records < self.segment_records:
            self.resume = (self.seg, self.seg_records)

    def _close(self):
        if self.file is not None:
            try:
                self.file.close()
            except OSError:
                pass
            self.file = None

    def _new_segment(self):
        self._close()
        seq = R.seq_of(self.backlog[0])
        name = "%010d%s" % (seq, R.SUFFIX)
        path = self._path(name)
        if _exists(path):  # a segment from before a cut holds no durable record with this seq
            os.remove(path)
        self.seg = None  # (a failed create leaves nothing to go on at)
        self.file = open(path, "wb")
        self.seg = name
        # the anchor: the chain value of the record before this segment, for a verifier that
        # reads the log from here (older segments removed); written with the first batch
        first = self.backlog[0]
        R.pack_anchor(self.buf, R.game_of(first), seq, self.before)
        self.file.write(self.buf)
        self.seg_records = 1
        self.trim(self.max_bytes)

    def _last_game(self, name):
        """The game of a segment's last readable record, or None."""
        last = None
        buf = bytearray(R.RECORD_SIZE)
        try:
            for rec in self._read_segment(name, buf):
                if not R.check(rec):
                    last = R.game_of(rec)
        except OSError:
            pass
        return last

    def _removable(self, names):
        """Index of the oldest segment that may go: all its records belong to games before the
        current one (unreadable segments are evidence: never removed here). -1 if none."""
        for i in range(len(names) - 1):
            last = self._last_game(names[i])
            if last is None:
                continue
            if last >= self.game:
                return -1  # the game in progress: keep it
            return i
        return -1

    def _remove_oldest(self):
        if self.hold:  # a pull is reading them (for a moment): the records wait in RAM till then
            return False
        names = self.segments()
        i = self._removable(names)
        if i < 0:
            return False
        try:
            os.remove(self._path(names[i]))
        except OSError:
            return False
        return True

    def _has_room(self):
        if self.room is None:
            self.room = self.room_bytes == 0 or _exists(self._path(_ROOM))
        return self.room

    def _free_room(self):
        """Remove the ballast (True if there was one to remove)."""
        if self.room_bytes == 0 or not self._has_room():
            return False
        try:
            os.remove(self._path(_ROOM))
        except OSError:
            pass
        self.room = False
        return True

    def _make_room(self):
        """Put the ballast back on the flash (at a game's setup), removing the oldest finished
        games if the flash is full. The log is no longer full once it is there."""
        if self._has_room():
            self.full = False
            return
        path = self._path(_ROOM)
        zeros = bytes(512)
        while True:
            try:
                with open(path, "wb") as f:
                    for _ in range(self.room_bytes // 512):
                        f.write(zeros)
                self.room = True
                self.full = False
                return
            except OSError as e:
                try:
                    os.remove(path)
                except OSError:
                    pass
                if not (e.args and e.args[0] in (_ENOSPC, _ENAMETOOLONG) and self._remove_oldest()):
                    return

    def trim(self, limit):
        """Remove the oldest finished games' segments while the log is over `limit` bytes (not
        while a pull reads them: the next segment trims)."""
        while not self.hold:
            total = 0
            names = self.segments()
            for n in names:
                try:
                    total += os.stat(self._path(n))[6]
                except OSError:
                    pass
            if total <= limit or not self._remove_oldest():
                return

