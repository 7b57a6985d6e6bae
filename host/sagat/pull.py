"""`sagat logs pull`: the clock's log over the serial link, in resumable chunks, saved as the raw
records (records.bin, to verify again at any time) and the clock's head: its last durable record,
signed with the arbiter key over a nonce this pull chose (head.json), so `sagat logs verify` can
tell a complete pull from one cut short. The pull writes the folder and verifies nothing: reading
and verifying it is sagat.log's (log/pulled.py, which also writes the decoded events.jsonl)."""

from __future__ import annotations

import base64
import binascii
import json
import os
import sys

from sagatfw.link import auth as A
from sagatfw.link import wire as W
from sagatfw.log import records as R

from . import client
from .client import Clock, LinkError, say
from .i18n import N_, Nn_, _, ngettext


class NotThisLog(LinkError):
    """What the pull found of the log itself (another clock's, a head that does not verify, nothing
    to pull): pulling again gives the same, unlike a link's hiccup (the hall tries those again)."""


class Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal, or forced)."""

    def __init__(self, total: int, enabled: bool | None = None):
        self.total = max(total, 1)
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.done = 0

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        width = 30
        filled = width * min(done, self.total) // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                         + ngettext("{done}/{n} record", "{done}/{n} records", self.total).format(done=done,
                                                                                                   n=self.total))
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


# Bounds a pull keeps whatever the device says, so that a broken or hostile one cannot make it run
# for ever or fill the disk. The figures of log.info bound the records (its `bytes` on flash and its
# `backlog`, or its seq range), GROWTH_* the records a running game may add while the pull runs (a
# press every 20 ms on both sides: no game comes near), MAX_LOG_BYTES any figure at all (no board
# sagat runs on has more than 16 MB of flash).
MAX_LOG_BYTES = 64 << 20
MAX_LOG_RECORDS = MAX_LOG_BYTES // R.RECORD_SIZE
GROWTH_RECORDS = 256
GROWTH_PER_S = 100
# No time limit of its own: every answer comes within the link's timeout (client.Clock) and every
# chunk must advance, so a pull without progress stops within one timeout.


class Bounds:
    """What this pull may still take: records (against log.info's figures), and where the log may
    end (its `last`, plus what a running game adds while the pull runs)."""

    def __init__(self, info: dict, start: int, last: int):
        import time

        self.t0 = time.monotonic()
        span = last - start + 1
        size, backlog = info.get("bytes"), info.get("backlog")
        if isinstance(size, int) and not isinstance(size, bool) and size >= 0:
            if size > MAX_LOG_BYTES:
                raise NotThisLog(say(Nn_("the clock says its log holds {n} byte, more than any clock's "
                                         "flash ({mb} MB): a broken or hostile device; nothing pulled",
                                         "the clock says its log holds {n} bytes, more than any clock's "
                                         "flash ({mb} MB): a broken or hostile device; nothing pulled"),
                                     n=size, mb=MAX_LOG_BYTES >> 20))
            on_clock = size // R.RECORD_SIZE + (backlog if isinstance(backlog, int) and 0 < backlog else 0)
        else:  # a clock of before `bytes`: its seq range, and an anchor for every 8 records at worst
            on_clock = span + span // 8 + 1
        self.records = min(on_clock, MAX_LOG_RECORDS) + GROWTH_RECORDS
        self.last = last
        self.taken = 0

    def end(self) -> int:
        """The highest seq the log can have reached by now."""
        import time

        return self.last + GROWTH_RECORDS + int(GROWTH_PER_S * (time.monotonic() - self.t0))

    def take(self, n: int) -> None:
        self.taken += n
        if self.taken > self.records:
            raise NotThisLog(say(N_("log.read sent more records than the clock's log.info says it holds "
                                    "({taken} > {records}): a broken or hostile device; the pull stops there"),
                                 taken=self.taken, records=self.records))


# The pulled folder's files (log/pulled.py reads them): the raw records, the clock's signed head,
# where to resume (with the clock's id), and the decoded events (written by log/pulled.py)
RECORDS_FILE = "records.bin"
HEAD_FILE = "head.json"
CLOCK_FILE = "clock.json"
EVENTS_FILE = "events.jsonl"


def pull(clock: Clock, out_dir: str, chunk: int = 256, progress: bool | None = None) -> dict:
    """Pull every record not yet in out_dir/records.bin and append them. Returns figures.

    The clock says where each chunk starts (`from`) and where to go on (`next`); the pull follows
    those, so a gap in the clock's log (records it lost) or a damaged record never makes it write a
    record twice: the gap stays a gap, for `sagat logs verify` to report. Where to resume is kept in
    out_dir/clock.json with the clock's id, so a pull never continues another clock's log."""
    os.makedirs(out_dir, exist_ok=True)
    raw_path = os.path.join(out_dir, RECORDS_FILE)
    meta_path = os.path.join(out_dir, CLOCK_FILE)
    info = clock.request("log.info")
    if "uid" not in info:  # an older clock's log.info has no uid: its id is in identify only
        info["uid"] = clock.request("identify").get("uid")
    uid = info.get("uid")
    # an older clock (no binary reads) sends base64 only, 32 records at a time
    binary = info.get("bin") is True
    if isinstance(info.get("max_records"), int) and info["max_records"] > 0:
        chunk = min(chunk, info["max_records"])
    meta = {}
    if os.path.exists(meta_path):
        try:
            with open(meta_path, encoding="utf-8") as fh:
                meta = client.load(fh)
        except (OSError, ValueError):
            meta = {}
    have = b""
    if os.path.exists(raw_path):
        with open(raw_path, "rb") as fh:
            have = fh.read()
        have = have[: len(have) // R.RECORD_SIZE * R.RECORD_SIZE]  # a torn tail from a cut pull
    if have and meta.get("uid") not in (None, uid):
        raise NotThisLog(say(N_("{dir} holds the log of clock {theirs}, not of this one ({uid})"),
                             dir=out_dir, theirs=meta["uid"], uid=uid))
    first, last = info.get("first"), info.get("last")
    if first is None or last is None:
        raise NotThisLog(say(N_("the clock's log is empty")))
    if not (_whole(first) and _whole(last)) or first < 0 or last < first - 1:
        raise NotThisLog(say(N_("log.info names no seq range ({first}..{last}): a broken or hostile device"),
                             first=repr(first), last=repr(last)))
    if last - first + 1 > MAX_LOG_RECORDS:
        raise NotThisLog(say(N_("the clock says its log holds seq {first}..{last}, more records than any "
                                "clock's flash holds ({most}): a broken or hostile device; nothing pulled"),
                             first=first, last=last, most=MAX_LOG_RECORDS))
    start = first
    if have:
        mine = meta.get("next")
        if not isinstance(mine, int) or meta.get("bytes") != len(have):
            tail = have[-R.RECORD_SIZE :]  # an older pull: after its last record (an anchor: at it)
            mine = R.seq_of(tail) + (0 if R.type_of(tail) == R.T_ANCHOR else 1)
        if mine > last + 1:
            raise NotThisLog(say(N_("{file} does not continue this clock's log (seq {seq}, clock "
                                    "{first}..{last})"),
                                 file=raw_path, seq=mine, first=first, last=last))
        start = max(mine, first)
    bounds = Bounds(info, start, last)
    bar = Progress(last - first + 1, progress)
    bar.update(start - first)
    head_path = os.path.join(out_dir, HEAD_FILE)
    if os.path.exists(head_path):
        os.remove(head_path)  # it speaks for the records before this pull only

    def save(next_seq: int) -> None:
        with open(meta_path, "w", encoding="utf-8") as fh:
            json.dump({"uid": uid, "next": next_seq, "bytes": os.path.getsize(raw_path)}, fh)

    with open(raw_path, "ab") as fh:
        fh.truncate(len(have))
        pulled, seq = _records(clock, fh, start, last, chunk, bar, first, save, binary, bounds)
        # the head: the clock's last durable record, signed over a nonce of ours; records written
        # since `last` (a running game's) are pulled up to it, so the pull ends exactly there
        head = _head(clock, uid)
        if head is not None and head["seq"] is not None:
            if not _whole(head["seq"]) or head["seq"] > bounds.end():
                raise NotThisLog(say(N_("the clock's head claims seq {seq}, but its log.info said the log "
                                        "ends at {last}: a running game adds a few records, not that many (a "
                                        "broken or hostile device); the pull stops there"),
                                     seq=repr(head["seq"]), last=last))
            if head["seq"] >= seq:
                more, seq = _records(clock, fh, seq, head["seq"], chunk, bar, first, save, binary, bounds)
                pulled += more
    bar.finish()
    if head is not None:
        with open(head_path, "w", encoding="utf-8") as fh:
            json.dump(head, fh)
        if head["seq"] is not None:
            last = head["seq"]
    with open(raw_path, "rb") as fh:  # this pull's records: how many are segment anchors (no seq of their own)
        fh.seek(len(have))
        new = fh.read()
    recs = [new[i : i + R.RECORD_SIZE] for i in range(0, len(new) - R.RECORD_SIZE + 1, R.RECORD_SIZE)]
    seqs = [R.seq_of(r) for r in recs if R.type_of(r) != R.T_ANCHOR]
    anchors = len(recs) - len(seqs)
    # first, last: the clock's log; new_first, new_last: the seq range this pull added (None: nothing new)
    return {"pulled": pulled, "records": pulled - anchors, "anchors": anchors, "first": first, "last": last,
            "new_first": min(seqs) if seqs else None, "new_last": max(seqs) if seqs else None,
            "uid": uid}


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _records(clock: Clock, fh, seq: int, last: int, chunk: int, bar: Progress, first: int, save,
             binary: bool = False, bounds: Bounds | None = None) -> tuple:
    """Pull records from `seq` through `last` into fh, chunks pipelined. Returns (records, the seq
    to go on from). The clock says where each chunk starts (`from`) and where to go on
    (`next`), so a gap in its log is never papered over and no record is written twice."""
    pulled = 0
    window: list[tuple[int, int]] = []  # (request id, from seq): chunks in flight hide the round trip
    ask = seq
    while seq <= last:
        while len(window) < 4 and ask <= last:
            args = {"bin": True} if binary else {}  # the records' raw bytes after the line
            window.append((clock.send("log.read", from_seq=ask, max_records=chunk, **args), ask))
            ask += chunk
        rid, asked = window.pop(0)
        ans = clock.wait(rid, "log.read")
        data = ans["raw"] if "raw" in ans else base64.b64decode(ans.get("data", ""))
        if len(data) % R.RECORD_SIZE:
            raise LinkError(say(Nn_("log.read from {seq}: {n} byte is not whole records",
                                    "log.read from {seq}: {n} bytes are not whole records"), seq=asked, n=len(data)))
        n = len(data) // R.RECORD_SIZE
        nxt = ans.get("next", asked + n)
        if not data:
            break
        if bounds is not None:
            bounds.take(n)
        # a segment's anchor rides with the record after it and is not counted against max_records
        # (255-record segments: a chunk of 256 may cross two), so only the other entries are bounded
        anchors = sum(1 for i in range(1, len(data), R.RECORD_SIZE) if data[i] == R.T_ANCHOR)
        if n - anchors > chunk or anchors > n - anchors:
            raise NotThisLog(say(Nn_("log.read from {seq} sent {n} record, asked for at most {chunk}: a "
                                     "broken or hostile device; the pull stops there",
                                     "log.read from {seq} sent {n} records, asked for at most {chunk}: a "
                                     "broken or hostile device; the pull stops there"), seq=asked, n=n, chunk=chunk))
        if not _whole(nxt) or nxt < asked or (nxt == asked and nxt <= last):
            # (an anchor alone at the log's very end is the one chunk that may leave `next` where it was)
            raise NotThisLog(say(N_("log.read from {seq} did not advance (next {next}): a broken or hostile "
                                    "device; the pull stops there"), seq=asked, next=repr(nxt)))
        fh.write(data)
        fh.flush()  # what is written stays: an interrupted pull resumes after it
        pulled += n
        save(nxt)
        seq = nxt
        bar.update(min(seq, last + 1) - first)
        if not window:
            ask = seq  # (a short chunk: the clock says where to go on)
        elif window[0][1] != seq:
            # a short chunk (a segment's end) or a gap: the asks in flight start at the wrong
            # places; take their answers, drop them, and ask again from where the clock said
            for rid, _asked in window:
                clock.wait(rid, "log.read")
            window = []
            ask = seq
    return pulled, seq


def _head(clock: Clock, uid) -> dict | None:
    """The clock's signed head over a fresh nonce (None from a clock too old to give one, or from a
    keyed clock when no key was given: the clock signs only for the key's holder, so that nobody
    else can get a head to stand beside a log cut short). With the key at hand, a head that does
    not verify stops the pull: that is not this clock."""
    nonce = binascii.hexlify(os.urandom(16)).decode()
    try:
        ans = clock.request("log.head", auth=True, nonce=nonce)  # with a key set, only its holder may ask
    except LinkError as e:
        if e.code == W.UNKNOWN_CMD:  # a clock too old to give one
            return None
        if e.code == W.AUTH_REQUIRED:
            sys.stderr.write("sagat: " + _("the clock has an arbiter key: without --key it does not sign the "
                                           "pull's end (no head.json; `sagat logs verify --key` will ask for "
                                           "it)") + "\n")
            return None
        raise
    head = {"nonce": nonce, "uid": ans.get("uid"), "first": ans.get("first"), "seq": ans.get("seq"),
            "link": ans.get("link"), "mac": ans.get("mac"), "key_set": ans.get("key_set")}
    if head["uid"] != uid:
        raise NotThisLog(say(N_("the clock's head names clock {theirs}, not {uid}"), theirs=head["uid"], uid=uid))
    if head["mac"] and clock.key and not head_ok(head, clock.key):
        raise NotThisLog(say(N_("the clock's signed head does not verify with the key given: a wrong key, or "
                                "not this clock")))
    return head


def head_ok(head: dict, key: bytes) -> bool:
    """Whether the head's MAC is the key's over its nonce, clock, seq and link."""
    try:
        msg = A.head_message(head["nonce"], head["uid"], head["first"], head["seq"], head["link"])
    except (KeyError, TypeError):
        return False
    want = A.hex_text(A.hmac_sha256(key, msg))
    return isinstance(head.get("mac"), str) and A.same(want.encode(), head["mac"].encode())
