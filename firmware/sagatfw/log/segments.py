# sagat: the log's files on the flash (littlefs): the segment files the journal's records go into,
# the checkpoint file beside them, and the ballast. log/journal.py's Journal is a Segments: this
# class keeps the files, the journal makes the records (and log/matchwrite.py a match's).
#
# Records (log/records.py, 64 bytes each) go into segment files ROOT/NNNNNNNNNN.seg, named by the
# seq of their first record; each file begins with an anchor record that states the chain value of
# the record before it, so the log can be checked from any segment on (older ones removed). A
# segment holds at most `segment_records` records, its anchor included; the total size is bounded
# by `max_bytes`: past it the oldest segments go, but only those holding finished, older games -
# never the game in progress.
#
# A writer seals its records into `backlog` (a small RAM queue); `commit` writes the backlog to the
# current segment and flushes it (littlefs commits a file's content atomically on flush), so
# whatever `commit` returned True for survives a power cut. Write errors (a full or read-only
# filesystem, I/O errors) never stop the clock: the records stay in the backlog, `error` says what
# went wrong, and the next commit tries again, after removing old finished games if the filesystem
# is full.
#
# ROOT/room is ballast (`room_bytes`, the journal's 8 KB) held back on the flash: when the game in
# progress alone fills the flash, the ballast goes for a record that must be kept (a result,
# settings: `urgent`) and `full` says LOG FULL; `make_room` puts it back at the next game's (or
# match's) setup.
#
# Reading: `read_segment` yields a segment's records one at a time into one buffer (the boot, the
# checkpoint's reader, a match's restore); `open_for_reading` opens one for a reader that wants
# the file itself (a log pull, a match's names), in the writer's room when the heap has no other.

import os

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


try:
    from typing import Any  # (the annotations': MicroPython keeps nothing of them)
except ImportError:
    pass


from sagatfw.log import records as R

# littlefs's answers of a full flash: no block left (ENOSPC, 28), or a folder whose metadata is full
# (its NOSPC there comes back as ENAMETOOLONG, 36: our names are 14 characters). const() with a
# leading underscore: no entry in the module's dict, which lives in RAM.
_ENOSPC = const(28)
_ENAMETOOLONG = const(36)
_ROOM = const("room")  # the ballast's file: flash held back for the records that must be kept


class Segments:
    """The log's files, a base of log/journal.py's Journal. Its fields are made in Journal.__init__,
    and each helper used once is written where it is used: a method is a place in the class's
    table, which lives in RAM (17 places fill a table of 17; the next size is 23). The fields:"""

    root: str  # the log's folder
    segment_records: int  # records a segment holds at most, its anchor included
    max_bytes: int  # the log's bound: past it the oldest finished games' segments go
    hold: bool  # a log.read's records are being sent: no segment is removed meanwhile
    backlog_max: int  # records the RAM backlog holds at most
    room_bytes: int  # the ballast's size (0: none)
    buf: bytearray  # one record: the writer packs into it, a new segment its anchor
    game: int  # the current game's number (the writer's): its segments are never removed
    backlog: list  # sealed records not yet durable
    before: bytes  # chain of the record before backlog[0]: a new segment's anchor states it
    head_seq: int  # the last durable record: its seq and chain value (protocol log.head)
    head_link: bytes
    file: Any  # the segment being written, open only while a batch is written (else None)
    seg: Any  # its name
    resume: Any  # (segment name, records) the next write appends to (after boot too), or None
    opened: bool  # the boot found the log's end (log/boot.py open_log): nothing is written before
    seg_records: int  # records in the segment being written
    error: Any  # the last write error, as text; None when all is durable
    full: bool  # the flash is full with the game in progress: LOG FULL
    urgent: bool  # a record that must be kept waits: the ballast may go for it
    room: Any  # the ballast is on the flash (None: not looked yet)

    # ------------------------------------------------------------------ reading

    def segments(self):
        """Segment file names, oldest first."""
        try:
            names = [n for n in os.listdir(self.root) if n.endswith(R.SUFFIX)]
        except OSError:
            return []
        names.sort()
        return names

    def path(self, name):
        """The path of the log folder's file `name` (a segment, R.CKPT)."""
        return self.root + "/" + name

    def read_segment(self, name, buf, *skip):
        """Yield each 64-byte record of segment `name` (into buf, reused), or from its record
        skip[0] on (0: its anchor; by a seek); a short tail is yielded as a shorter bytes object.
        (`*skip`, not skip=0: a default is a tuple kept in RAM with the function.) Close the
        generator when leaving it early: its open file holds a 1.2 KB buffer until then."""
        with open(self.path(name), "rb") as f:
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

    def open_for_reading(self, name):
        """Segment `name` opened for reading beside the one the journal writes, or in its room
        (park) if the heap has no second 1.2 KB piece for a littlefs file: a log pull's reads and
        a match's names (log/names.py). The caller closes it."""
        try:
            return open(self.path(name), "rb")
        except MemoryError:
            if self.file is None or self.backlog:
                raise
        self.park()
        return open(self.path(name), "rb")

    # ------------------------------------------------------------------ writing

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
                # Close the segment, and go on at its end next time if the flash holds it as it
                # was before the batch (littlefs keeps a file's last flushed content when a write
                # fails): the next try does not start a new segment (each would take the folder's
                # metadata, and a full flash has none). A segment that is not so (a shorter or
                # longer file) is left: the next try starts a new one, as after a damaged tail.
                f = self.file
                self._close()
                if f is not None and self.seg is not None:
                    try:
                        if os.stat(self.path(self.seg))[6] == self.seg_records * R.RECORD_SIZE:
                            self.resume = (self.seg, self.seg_records)
                    except OSError:
                        pass
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
        backlog = self.backlog
        while backlog:
            self.unpark()
            if self.file is None or self.seg_records >= self.segment_records:
                self._new_segment()
            room = self.segment_records - self.seg_records
            # as many of the backlog's first records as go into the room without parting a record
            # from its text continuations (each flush is durable on its own: a cut between the two
            # would leave a game's setup without its control)
            n = room if room < len(backlog) else len(backlog)
            while 0 < n < len(backlog) and R.type_of(backlog[n]) == R.T_TEXT:
                n -= 1
            if n == 0 and self.seg_records > 1:
                self.seg_records = self.segment_records  # the record and its text go to a new segment
                continue
            batch = backlog[: n or room]
            for rec in batch:
                self.file.write(rec)
            self.file.flush()  # littlefs: the sync that makes these records durable
            self.seg_records += len(batch)
            last = batch[-1]
            self.before = self.head_link = R.chain_of(last)
            self.head_seq = R.seq_of(last)
            del backlog[: len(batch)]

    def park(self):
        """Close the segment's file (its records durable) till the next write, for another file to
        take its room: an open littlefs file holds 1.2 KB in one piece, which a heap split by the
        small objects of play may not have twice (a checkpoint's file, a pull's read)."""
        if self.file is None or self.backlog:
            return
        self._close()
        if self.seg is not None and self.seg_records < self.segment_records:
            self.resume = (self.seg, self.seg_records)

    def unpark(self):
        """Open the segment park() closed (or the boot found to go on at) again, if it is closed:
        the next write's, or a match's right after its checkpoint (log/matchwrite.py), so that the
        segment's buffer takes the checkpoint file's room. Once: if the open fails, `resume` is
        gone (after a write error _failed says where the next try goes). Raises OSError,
        MemoryError."""
        r = self.resume
        if self.file is None and r is not None:
            self.resume = None
            self.file = open(self.path(r[0]), "ab")
            self.seg_records = r[1]
            self.seg = r[0]

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
        path = self.path(name)
        try:  # a segment from before a cut holds no durable record with this seq
            os.remove(path)
        except OSError:
            pass  # (none there)
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

    # ------------------------------------------------------------------ room on the flash

    def _remove_oldest(self):
        """Remove the oldest segment that may go: all its records belong to games before the
        current one (the game of its last readable record, read whole; unreadable segments are
        evidence: never removed here), never the newest. True if one went."""
        if self.hold:  # a pull is reading them (for a moment): the records wait in RAM till then
            return False
        names = self.segments()
        buf = bytearray(R.RECORD_SIZE)
        for i in range(len(names) - 1):
            last = None
            try:
                for rec in self.read_segment(names[i], buf):
                    if not R.check(rec):
                        last = R.game_of(rec)
            except OSError:
                pass
            if last is None:
                continue
            if last >= self.game:
                return False  # the game in progress: keep it
            try:
                os.remove(self.path(names[i]))
            except OSError:
                return False
            return True
        return False

    def _has_room(self):
        if self.room is None:
            self.room = True
            if self.room_bytes:
                try:
                    os.stat(self.path(_ROOM))
                except OSError:
                    self.room = False
        return self.room

    def _free_room(self):
        """Remove the ballast (True if there was one to remove)."""
        if self.room_bytes == 0 or not self._has_room():
            return False
        try:
            os.remove(self.path(_ROOM))
        except OSError:
            pass
        self.room = False
        return True

    def make_room(self):
        """Put the ballast back on the flash (at a game's or a match's setup), removing the oldest
        finished games if the flash is full. The log is no longer full once it is there."""
        if self._has_room():
            self.full = False
            return
        path = self.path(_ROOM)
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
                    total += os.stat(self.path(n))[6]
                except OSError:
                    pass
            if total <= limit or not self._remove_oldest():
                return
