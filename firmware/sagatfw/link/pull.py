# sagat: the protocol's answer stream and its log pull (contract 6; docs/protocol.md "log.read").
# Answers wait in a queue the transport takes as the serial stream can (peek / sent / take_out); a
# log.read's records are not in it: they are read from the flash a fill at a time while they are
# sent, raw (bin) or base64-encoded a PIECE at a time, so a 256-record chunk never sits in RAM.
# link/server.py's Server is a Pull: this is its outgoing half, in RAM with it.

import binascii
import gc

try:
    from typing import Any  # the type checker's only (MicroPython keeps nothing of annotations)
except ImportError:
    pass

try:
    from micropython import const
except ImportError:  # CPython (the host, the tests)

    def const(x):  # type: ignore[misc]
        return x


from sagatfw.core.ticks import ticks_diff
from sagatfw.link import wire as W  # by attribute: its names are not copied into this module's globals
from sagatfw.log import records as R

SLOTS = 34  # 64-byte slots of the buffer a log.read's records are read into, a part at a time
PIECE = 384  # raw bytes base64-encoded at a time, as the stream takes them (512 characters)
MAX_MESSAGE = 160  # characters of an error's message
_FILL = const(30)  # base64: slots read from the flash at a time (1920 bytes: five whole PIECEs)
_STALL_MS = const(5000)  # a log.read's answer not taken for this long is dropped (the host is gone)
_LOW_HEAP = const(16384)  # below this much free heap a log.read collects first
_PLAN = const(0)  # self.rd's fields: [name, first index, entries, not the newest] per segment, flat
_AT = const(1)  # where in the plan the next fill reads
_BIN = const(2)  # raw bytes after the line, not base64 in it
_SINCE = const(3)  # ticks when the host last took a byte of it
_LEFT = const(4)  # raw bytes still to read
_FILE = const(5)  # the segment being read, kept open if it is not the newest (else None)


class Pull:
    """The outgoing half of link/server.py's Server (its fields are made in Server.__init__): the queue of
    answers, and a log.read's records streamed from the flash as the transport takes them."""

    # the fields it shares with the server, made in Server.__init__ (annotations only, for the type
    # checker: MicroPython keeps nothing of them)
    app: Any
    raw: bytearray
    rec: bytearray
    out: list
    out_off: int
    out_len: int
    rd: Any
    segs: Any
    enc_at: int
    enc_end: int
    last_now: int
    lines: int
    errors: int

    def peek(self, max_bytes=512):
        """The next bytes to send (a memoryview, at most max_bytes; empty if none), not taken
        yet: after writing, call sent(n) with the number of bytes the stream took."""
        if not self.out:
            return memoryview(b"")
        first = self.out[0]
        if first is None:
            first = self._encode()
        end = self.out_off + max_bytes
        if end > len(first):
            end = len(first)
        return memoryview(first)[self.out_off : end]

    def sent(self, n):
        """Drop the first n pending bytes (written to the stream)."""
        if n > 0 and self.rd is not None:
            self.rd[_SINCE] = self.last_now
        while n > 0 and self.out:
            first = self.out[0]
            if first is None:
                first = self._encode()
            left = len(first) - self.out_off
            if n < left:
                self.out_off += n
                self.out_len -= n
                return
            n -= left
            self.out_len -= left
            self.out.pop(0)
            self.out_off = 0

    def take_out(self, max_bytes=512):
        """Take up to max_bytes pending bytes (bytes; b"" if none)."""
        b = bytes(self.peek(max_bytes))
        self.sent(len(b))
        if len(b) == max_bytes or not self.out:
            return b
        parts = [b]
        n = len(b)
        while self.out and n < max_bytes:
            more = bytes(self.peek(max_bytes - n))
            self.sent(len(more))
            parts.append(more)
            n += len(more)
        return b"".join(parts)

    def _reply(self, rid, body):
        self.lines += 1
        head = '{"id":' + W.dumps(rid) + ',"ok":true'
        # Each answer joins the queue in one step (a MemoryError before it leaves the queue as it
        # was, and the request is answered with an error instead of half a line)
        if isinstance(body, _Read):  # log.read: the records are read and sent as the stream takes them
            size = body.size
            s = W.dumps(body.head)
            if body.binary:  # the line, then the records' raw bytes
                first = (head + "," + s[1:-1] + ',"bin":%d}\n' % size).encode()
                more = size
            else:
                first = (head + "," + s[1:-1] + ',"data":"').encode()
                more = (size + 2) // 3 * 4
            if size:
                self.out.extend((first, None) if body.binary else (first, None, b'"}\n'))  # None: _encode's marker
                self.out_len += len(first) + more + (0 if body.binary else 3)
            else:
                self._push(first if body.binary else first + b'"}\n')
        elif body:  # the body's text after the head: made once, its "{" skipped in place
            first = (head + ",").encode()
            rest = memoryview(W.dumps(body).encode())[1:]
            self.out.extend((first, rest, b"\n"))
            self.out_len += len(first) + len(rest) + 1
        else:
            self._push((head + "}\n").encode())

    def _error(self, rid, code, message, why):
        self.lines += 1
        self.errors += 1
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        err = {"code": code, "message": message}
        if why:  # (code[, parts]): a refusal's reason code, and its parts (docs/protocol.md, "Reason codes")
            err["why"] = why[0]
            if len(why) > 1 and why[1]:
                err["with"] = why[1]
        err = W.dumps(err)
        self._push(('{"id":' + W.dumps(rid) + ',"ok":false,"error":' + err + "}\n").encode())

    def _push(self, b):
        if b:
            self.out.append(b)
            self.out_len += len(b)

    def _check_read(self, now):
        """Drop a log.read's answer the host has not taken a byte of for _STALL_MS (it is gone)."""
        if self.rd is not None and ticks_diff(now, self.rd[_SINCE]) > _STALL_MS:
            self._drop_read()  # nobody takes it: let the journal trim its log again

    def _encode(self):
        """Put the next piece of a log.read's records in front of the queue's marker (None), or in
        its place for the last one: read from the flash a fill at a time (_fill), sent as they are
        (bin: a view of self.raw, nothing allocated) or base64-encoded a PIECE (512 characters) at a
        time. One piece exists at a time, never the whole chunk."""
        rd = self.rd
        at = self.enc_at
        if at >= self.enc_end:
            self.enc_end = self._fill(rd)
            self.enc_at = at = 0
        end = self.enc_end
        if not rd[_BIN] and end > at + PIECE:
            end = at + PIECE
        if rd[_BIN]:
            piece = memoryview(self.raw)[at:end]
        else:
            piece = memoryview(binascii.b2a_base64(memoryview(self.raw)[at:end]))[:-1]  # no newline
        # the queue changes only once the piece exists: a MemoryError above leaves it as it was,
        # and the next peek tries again (the records read stay in self.raw)
        rd[_LEFT] -= end - at
        self.enc_at = end
        if rd[_LEFT] <= 0:
            self.out[0] = piece  # the last piece takes the marker's place
            self._read_done()
        else:
            self.out.insert(0, piece)
        return piece

    def _fill(self, rd):
        """Read the plan's next records into self.raw: a whole number of PIECEs (base64) or the
        whole buffer (bin). Returns the bytes read."""
        plan = rd[_PLAN]
        mv = memoryview(self.raw)
        slots = SLOTS if rd[_BIN] else _FILL
        n = 0
        while n < slots and rd[_AT] < len(plan):
            i = rd[_AT]
            k = plan[i + 2]
            if k > slots - n:
                k = slots - n
            at = n * R.RECORD_SIZE
            end = at + k * R.RECORD_SIZE
            f = rd[_FILE]
            got = 0
            try:
                if f is None:
                    f = self.app.journal.open_for_reading(plan[i])
                    f.seek(plan[i + 1] * R.RECORD_SIZE)
                    if plan[i + 3]:  # a finished segment (the journal writes the newest): kept open
                        rd[_FILE] = f
                got = f.readinto(mv[at:end])
            except OSError:
                pass
            finally:
                if f is not None and rd[_FILE] is None:
                    f.close()  # the newest: opened for each fill, as the journal appends to it
            while at + got < end:  # gone although the journal held it (it cannot be): not records
                mv[at + got] = 0xFF
                got += 1
            plan[i + 1] += k
            plan[i + 2] -= k
            if not plan[i + 2]:
                rd[_AT] = i + 4
                f = rd[_FILE]
                rd[_FILE] = None
                if f is not None:
                    f.close()
            n += k
        return n * R.RECORD_SIZE

    def _read_done(self):
        rd = self.rd
        if rd is not None and rd[_FILE] is not None:
            try:
                rd[_FILE].close()
            except OSError:
                pass
        self.rd = None
        self.enc_at = self.enc_end = 0
        self.app.journal.hold = False

    def _drop_read(self):
        """Drop a log.read's answer that nobody takes, with whatever waits before it."""
        self.out = []
        self.out_len = 0
        self.out_off = 0
        self._read_done()

    # ------------------------------------------------------------ the log
    #
    # Segments are read with one open file each (an open costs a littlefs file buffer): the size
    # from a seek to the end, records with readinto into preallocated buffers.

    def open_segment(self, name):
        """(file, whole records, 1 if a torn partial record ends it) of a segment, or (None, 0, 0);
        the caller closes the file."""
        try:
            f = self.app.journal.open_for_reading(name)
        except OSError:
            return None, 0, 0
        try:
            size = f.seek(0, 2)
        except OSError:
            f.close()
            return None, 0, 0
        return f, size // R.RECORD_SIZE, 1 if size % R.RECORD_SIZE else 0

    def last_seq(self):
        """The seq of the last durable record the clock made (None before the first): records
        still in the journal's RAM backlog are not on the flash yet."""
        j = self.app.journal
        last = j.seq - 1 - len(j.backlog)
        return last if last >= 0 else None

    def c_log_read(self, req, now):
        start = W.int_arg(req, "from_seq", 0, 0xFFFFFFFF)
        want = W.int_arg(req, "max_records", 1, W.MAX_RECORDS, W.MAX_RECORDS)
        binary = req.get("bin", False)
        if binary is not True and binary is not False:
            raise W.Error(W.BAD_ARG, "bin is true (the records' raw bytes after the line) or false (base64)")
        # the segments' names: listed again only once the journal wrote (a new segment comes with
        # new records) or after a pause in the pull (a listing takes 8 ms on the Pico, a chunk 10)
        j = self.app.journal
        segs = self.segs
        if segs is None or segs[0] != j.seq or segs[1] != len(j.backlog) or ticks_diff(now, segs[2]) > 1000:
            # low on heap, collect first: the names then take the small holes low in the heap and
            # leave whole the room an open file needs (its littlefs buffer: 1.2 KB in one piece).
            # Asked only here, once a pull: gc.mem_free() walks the whole heap (8 ms on the Pico)
            try:
                low = gc.mem_free() < _LOW_HEAP
            except AttributeError:  # CPython
                low = False
            if low:
                gc.collect()
            names = self.app.journal.segments()
            segs = self.segs = [j.seq, len(j.backlog), now, names, [W.seg_first(n) for n in names]]
        segs[2] = now
        names = segs[3]
        firsts = segs[4]  # each name's seq, parsed once a pull (17 names: 4 ms on the Pico)
        i = 0
        for k in range(len(firsts)):
            if firsts[k] <= start:
                i = k
        plan = []
        count = 0  # entries (records and anchors)
        real = 0  # records among them
        first = -1  # position seq of the first entry
        top = start - 1  # the highest position seq taken
        torn = 0
        for name in names[i:]:
            if real >= want:
                break
            got = self._plan(name, start, want - real, first >= 0)
            if got is None:
                continue
            lo, m, r, fp, hi, t = got
            torn += t
            if m:
                plan.extend((name, lo, m, name != names[-1]))
                count += m
                real += r
                if first < 0:
                    first = fp
                if hi > top:
                    top = hi
        head = {
            "from": first if first >= 0 else start,
            "next": top + 1 if count else start,
            "last": self.last_seq(),
            "count": count,
        }
        if torn:
            head["torn"] = torn
        if count:
            # the plan's records stay on the flash until sent: the journal trims no segment meanwhile
            self.app.journal.hold = True
            self.rd = [plan, 0, binary, now, count * R.RECORD_SIZE, None]
            self.enc_at = self.enc_end = 0
        return _Read(head, count * R.RECORD_SIZE, binary)

    def _plan(self, name, start, left, started):
        """Which entries of one segment a log.read sends: (index of the first, entries, records
        among them, position seq of the first, the highest position seq, 1 if the segment ends in
        a torn record and was read to its end), or None if it cannot be opened. From the first
        entry whose position seq is >= from_seq (every one once the pull has started) until `left`
        records. A record's position seq is its seq, or for a damaged one the previous record's
        position seq + 1 (the first record of a segment follows its name's seq - 1). A segment's
        anchor goes with the record after it: it does not count as a record, and it is sent only
        when a record follows it on the flash (a chunk never ends with one), so `next` always
        follows the chunk's last record and a host that asks ahead by max_records stays in step.
        A damaged entry in the anchor's place (a segment's first) goes with its record too. The
        entries taken are consecutive in the file."""
        f, whole, torn = self.open_segment(name)
        if f is None:
            return None
        rec = self.rec
        base = W.seg_first(name)
        prev = base - 1
        index = 0
        lo = -1
        m = 0
        r = 0
        first = -1
        top = -1
        try:
            if not started and start > base and whole > 1:
                # where `start` is when the segment has no gap (after its anchor): check that record;
                # past its end, check its last record: then nothing in it is asked for
                k = start - base + 1
                if k > whole - 1:
                    k = whole - 1
                f.seek(k * R.RECORD_SIZE)
                if (f.readinto(rec) == R.RECORD_SIZE and not R.check(rec)
                        and R.seq_of(rec) == base + k - 1 and rec[1] != R.T_ANCHOR):
                    index = k
                    prev = base + k - 2
                    if base + k - 1 < start:
                        index = whole  # the segment ends before `start`
                        prev = base + k - 1
            one = False  # one record at a time for the rest of the segment (after a surprise)
            while index < whole and r < left:
                if started and index and not one:
                    # a run of records after the anchor: if its first and its last carry the seqs
                    # that follow on, each one's position is the one before + 1 whatever its bytes
                    # (a damaged record's is, by the rule above), so none needs reading or its CRC
                    # checked here (the host checks every one)
                    k = whole - index
                    if k > left - r:
                        k = left - r
                    f.seek(index * R.RECORD_SIZE)
                    ok = f.readinto(rec) == R.RECORD_SIZE and _seq(rec, 0) == prev + 1
                    if ok and k > 1:
                        f.seek((index + k - 1) * R.RECORD_SIZE)
                        ok = f.readinto(rec) == R.RECORD_SIZE and _seq(rec, 0) == prev + k
                    if ok:
                        if lo < 0:
                            lo = index
                            first = prev + 1
                        prev += k
                        top = prev
                        index += k
                        m += k
                        r += k
                        continue
                    one = True  # not such a run: one record at a time, from where it began
                f.seek(index * R.RECORD_SIZE)
                if f.readinto(rec) != R.RECORD_SIZE:
                    whole = index  # shorter than it was (it cannot be: the journal only appends)
                    break
                index += 1
                bad = R.check(rec)
                pos = prev + 1 if bad else R.seq_of(rec)
                # the anchor, or what is left of it in its place (a segment's first entry): a
                # damaged one still goes with the record after it, which keeps its own position
                anchor = rec[1] == R.T_ANCHOR if not bad else index == 1
                prev = pos - 1 if anchor else pos  # an anchor: the record after it has pos
                if not started and pos < start:
                    continue
                if anchor and index >= whole:
                    continue  # nothing after it on the flash (yet): it goes with its record, later
                started = True
                if lo < 0:
                    lo = index - 1
                    first = pos
                if prev > top:
                    top = prev
                m += 1
                if not anchor:
                    r += 1
        except OSError:  # unreadable from here: the rest of it is not sent
            torn = 0
            whole = index + 1
        finally:
            f.close()
        return lo, m, r, first, top, torn if index >= whole else 0


class _Read:
    """A log.read's answer: its fields, the bytes of records it sends, and how (bin)."""

    def __init__(self, head, size, binary):
        self.head = head
        self.size = size
        self.binary = binary


def _seq(raw, at):
    """The seq field of the record at raw[at:] (records.seq_of without a tuple or a slice)."""
    return raw[at + 4] | raw[at + 5] << 8 | raw[at + 6] << 16 | raw[at + 7] << 24
