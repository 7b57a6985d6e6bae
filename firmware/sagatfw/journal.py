# sagat: the append-only event log and state checkpoints on the board's filesystem (littlefs).
#
# Records (records.py, 64 bytes each) go into segment files ROOT/NNNNNNNNNN.seg, named by the seq of
# their first record; each file begins with an anchor record that states the chain value of the
# record before it, so the log can be checked from any segment on. A segment holds at most
# `segment_records` records (its anchor included); the total size is bounded by `max_bytes`: past
# it the oldest segments go, but only those holding finished, older games - never the game in
# progress. Each batch of records is written and flushed (littlefs commits atomically on flush)
# before `log_events` returns, so a completed move is durable before the app handles the next
# press. After a reboot the journal goes on at the end of the newest segment if it is whole (else
# in a new one: it never appends after a damaged tail) and `restore` replays the interrupted game
# into the clock, which comes back paused with a `power_restore` event (TK-C18).
#
# Write errors (full or read-only filesystem, I/O errors) never stop the clock: the records stay in
# a small RAM backlog, `error` says what went wrong, and the next call tries again (after removing
# old finished games if the filesystem is full).

import os

from sagatfw import clock as C
from sagatfw import records as R
from sagatfw import timecontrol as tcm
from sagatfw.ticks import ticks_add, ticks_diff

SUFFIX = ".seg"
ENOSPC = 28


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _whole(backlog, room):
    """How many of the backlog's first records go into `room` without parting a record from its
    text continuations (each flush is durable on its own: a cut between the two would leave a
    game's setup without its control)."""
    n = room if room < len(backlog) else len(backlog)
    while 0 < n < len(backlog) and R.type_of(backlog[n]) == R.T_TEXT:
        n -= 1
    return n


class Journal:
    def __init__(self, root="/log", key=b"", segment_records=128, max_bytes=262144, checkpoint_ms=15000,
                 backlog=32):
        self.root = root
        self.chain = R.Chain(key)
        self.segment_records = segment_records
        self.max_bytes = max_bytes
        self.checkpoint_ms = checkpoint_ms
        self.backlog_max = backlog
        self.buf = bytearray(R.RECORD_SIZE)
        self.backlog = []  # sealed records not yet durable
        self.seq = 0  # seq of the next record
        self.prev = R.ZERO_CHAIN  # chain of the last record made
        self.before = R.ZERO_CHAIN  # chain of the record before backlog[0]: a new segment's anchor states it
        self.head_seq = -1  # the last durable record: its seq and chain value (protocol log.head)
        self.head_link = R.ZERO_CHAIN
        self.result_code = None  # records.result_code of the last result logged (the faces show it)
        self.game = 0  # current game number (0 before the first)
        self.file = None
        self.resume = None  # (segment name, records) the first write after boot appends to
        self.opened = False  # open() found the log's end: nothing is written before (seq 0 would replace a segment)
        self.seg_records = 0
        self.last_t = 0  # t of the last record written for the current game
        self.error = None  # the last write error, as text; None when all is durable
        self.problems = []  # damage found when opening (kind, seq, detail)
        self.dropped = 0  # records lost because the backlog overflowed (they show as missing seq)
        self.sync_wall_ms = None  # wall clock (Unix ms) at sync_ticks, once synced (time_sync)
        self.sync_ticks = 0

    # ------------------------------------------------------------------ files

    def segments(self):
        """Segment file names, oldest first."""
        try:
            names = [n for n in os.listdir(self.root) if n.endswith(SUFFIX)]
        except OSError:
            return []
        names.sort()
        return names

    def _path(self, name):
        return self.root + "/" + name

    def _read_segment(self, name, buf):
        """Yield each 64-byte record of a segment (into buf, reused); a short tail is yielded as
        a shorter bytes object."""
        with open(self._path(name), "rb") as f:
            while True:
                n = f.readinto(buf)
                if not n:
                    return
                if n < R.RECORD_SIZE:
                    yield bytes(buf[:n])
                    return
                yield buf

    # ------------------------------------------------------------------- boot

    def open(self):
        """Find the last durable record (its seq, chain and game) and report damage at the end
        of the log. Never raises for damaged or foreign files."""
        self.problems = []
        try:
            os.mkdir(self.root)
        except OSError:
            pass
        names = self.segments()
        buf = bytearray(R.RECORD_SIZE)
        self.resume = None
        newest = True
        self.before = self.prev = self.head_link = R.ZERO_CHAIN
        self.head_seq = -1
        for name in reversed(names):
            last = None
            index = 0
            whole = True  # every record of the segment is whole and well formed, the last one last
            try:
                for rec in self._read_segment(name, buf):
                    bad = R.check(rec)
                    if bad:
                        self.problems.append((bad, None, "%s record %d" % (name, index)))
                        whole = False
                    else:
                        last = bytes(rec)
                    index += 1
            except OSError as e:
                self.problems.append(("io", None, "%s: %s" % (name, e)))
                whole = False
            if newest and whole and last is not None and index < self.segment_records:
                # the next records go on at the end of this segment rather than into a new file:
                # a clock that is switched off and on every move does not pile up segments
                self.resume = (name, index)
            newest = False
            if last is not None:
                self.seq = R.seq_of(last)
                self.prev = R.chain_of(last)
                self.game = R.game_of(last)
                if R.type_of(last) != R.T_ANCHOR:  # an anchor carries the seq of the record after it
                    self.seq += 1
                if R.type_of(last) not in (R.T_TEXT, R.T_ANCHOR):
                    self.last_t = R.t_of(last)
                self.before = self.head_link = self.prev
                self.head_seq = self.seq - 1
                break
        self.file = None  # the next record continues self.resume, or starts a new segment
        self.opened = True
        return self.problems

    def game_events(self, game=None):
        """Yield the decoded events (checkpoints included) of one game (default: the current one),
        from its setup record on, reading one record at a time."""
        if game is None:
            game = self.game
        names = self.segments()
        start = 0
        buf = bytearray(R.RECORD_SIZE)
        for i in range(len(names) - 1, -1, -1):  # the newest segment that begins before the game
            first = None
            for rec in self._read_segment(names[i], buf):
                if not R.check(rec):
                    first = R.game_of(rec)
                break
            if first is not None and first < game:
                start = i
                break
        from sagatfw.logread import Reader  # only at boot: the loop does not keep it in RAM

        reader = Reader(checkpoints=True, verify=False)  # the clock's own records: decode them
        for name in names[start:]:
            for rec in self._read_segment(name, buf):
                if R.check(rec) or R.game_of(rec) != game:
                    continue
                got = reader.feed(rec)
                if got is not None:
                    for ev in got if isinstance(got, tuple) else (got,):
                        yield ev
        got = reader.finish()
        if got is not None:
            yield got

    def restore(self, clock, now):
        """Replay the current game into `clock`. If it was set up or in progress, the clock comes
        back paused at its last durable state and a power_restore event is logged. Returns True
        then; False if there was no game or it was finished; raises Mismatch if the log cannot be
        replayed (the caller shows the error and starts clean)."""
        if self.game == 0:
            return False
        from sagatfw.replay import Replay  # only at boot: the loop does not keep it in RAM

        rp = Replay(clock)
        seen = False
        for ev in self.game_events():
            if ev["type"] == "settings" and ev.get("tc") is not None:
                seen = True
            if seen:
                rp.feed(ev)
        if not seen:
            return False
        clock.clear_events()
        if clock.state == C.FINISHED:
            return False
        clock.power_restore(now)
        self.log_events(clock, now)
        return True

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
        if len(self.backlog) >= self.backlog_max:
            self.before = R.chain_of(self.backlog.pop(0))  # RAM is bounded: the oldest unwritten record is lost
            self.dropped += 1
        self.backlog.append(bytes(self.buf))

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
        self._push()
        self._push_text(tcm.format_sides(clock.tc[C.LEFT], clock.tc[C.RIGHT]))
        self.last_t = 0
        return self.commit()

    def log_events(self, clock, now):
        """Write the clock's queued events as records and make them durable; clears the queue.
        Returns True if everything is durable."""
        ev = clock.events
        for i in range(clock.n_events):
            e = i * C.EV_SIZE
            t = ev[e + C.F_T]
            ws, wms, ok = self._wall(clock, t, now)
            R.pack_event(self.buf, ev, e, self.game, self.seq, clock.stage[C.LEFT], clock.stage[C.RIGHT],
                         ws, wms, ok)
            rest = b""
            if ev[e + C.F_TYPE] == C.EV_GAME_START:
                text = tcm.format_sides(clock.tc[C.LEFT], clock.tc[C.RIGHT])
                rest = R.put_text(self.buf, text, R.PAYLOAD, R.PAYLOAD_SIZE)
            self._push()
            if ev[e + C.F_TYPE] == C.EV_RESULT:
                self.result_code = R.result_code(self.prev)  # the faces show it (scoresheet)
            self._push_text(rest)
            self.last_t = t
        clock.clear_events()
        return self.commit()

    def checkpoint(self, clock, now):
        """While a side runs, log where the clock is every checkpoint_ms (so a reboot loses at
        most that much of a turn). Returns True if a checkpoint was written."""
        if clock.state != C.RUNNING or clock.t - self.last_t < self.checkpoint_ms:
            return False
        self._header(clock, R.T_CHECKPOINT, clock.t, C.NONE, 0, now)
        self._push()
        self.last_t = clock.t
        self.commit()
        return True

    def time_sync(self, clock, wall_ms, now):
        """The host set the wall clock (Unix ms) at ticks `now`: later records carry `wall`."""
        self.sync_wall_ms = wall_ms
        self.sync_ticks = now
        self._header(clock, C.EV_TIME_SYNC, clock.t, C.NONE, 0, now)
        self._push()
        return self.commit()

    def log_settings(self, clock, settings, origin, now):
        """A settings record outside a game's setup (changed, or defaults after a bad file)."""
        self._header(clock, C.EV_SETTINGS, clock.t if clock.state != C.SETUP else 0, C.NONE, origin, now)
        R.pack_settings(self.buf, settings)
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
                return True
            except OSError as e:
                self._close()
                self.error = "log write failed: %s" % e
                # full: remove the oldest finished game's segment and try again
                if not (e.args and e.args[0] == ENOSPC and self._remove_oldest()):
                    return False

    def _write_backlog(self):
        while self.backlog:
            if self.file is None and self.resume is not None:
                name, records = self.resume
                self.resume = None  # once: after a write error the next try starts a new segment
                self.file = open(self._path(name), "ab")
                self.seg_records = records
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
        name = "%010d%s" % (seq, SUFFIX)
        path = self._path(name)
        if _exists(path):  # a segment from before a cut holds no durable record with this seq
            os.remove(path)
        self.file = open(path, "wb")
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
        names = self.segments()
        i = self._removable(names)
        if i < 0:
            return False
        try:
            os.remove(self._path(names[i]))
        except OSError:
            return False
        return True

    def trim(self, limit):
        """Remove the oldest finished games' segments while the log is over `limit` bytes."""
        while True:
            total = 0
            names = self.segments()
            for n in names:
                try:
                    total += os.stat(self._path(n))[6]
                except OSError:
                    pass
            if total <= limit or not self._remove_oldest():
                return
