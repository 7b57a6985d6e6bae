"""`sagat logs pull`: the clock's log over the serial link, in resumable chunks, saved as the raw
records (to verify again at any time) and the decoded events (contract 3 JSON lines)."""

from __future__ import annotations

import base64
import json
import os
import sys

from sagatfw import records as R

from .client import Clock, LinkError


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
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} records")
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def pull(clock: Clock, out_dir: str, chunk: int = 32, progress: bool | None = None) -> dict:
    """Pull every record not yet in out_dir/records.bin, append them, and rewrite
    out_dir/events.jsonl from all records pulled. Returns figures.

    The clock says where each chunk starts (`from`) and where to go on (`next`); the pull follows
    those, so a gap in the clock's log (records it lost) or a damaged record never makes it write a
    record twice: the gap stays a gap, for `sagat logs verify` to report. Where to resume is kept in
    out_dir/clock.json with the clock's id, so a pull never continues another clock's log."""
    os.makedirs(out_dir, exist_ok=True)
    raw_path = os.path.join(out_dir, "records.bin")
    meta_path = os.path.join(out_dir, "clock.json")
    ident = clock.request("identify")
    uid = ident.get("uid")
    meta = {}
    if os.path.exists(meta_path):
        try:
            with open(meta_path, encoding="utf-8") as fh:
                meta = json.load(fh)
        except (OSError, ValueError):
            meta = {}
    have = b""
    if os.path.exists(raw_path):
        with open(raw_path, "rb") as fh:
            have = fh.read()
        have = have[: len(have) // R.RECORD_SIZE * R.RECORD_SIZE]  # a torn tail from a cut pull
    if have and meta.get("uid") not in (None, uid):
        raise LinkError(f"{out_dir} holds the log of clock {meta['uid']}, not of this one ({uid})")
    info = clock.request("log.info")
    first, last = info.get("first"), info.get("last")
    if first is None or last is None:
        raise LinkError("the clock's log is empty")
    start = first
    if have:
        mine = meta.get("next")
        if not isinstance(mine, int) or meta.get("bytes") != len(have):
            mine = R.seq_of(have[-R.RECORD_SIZE :]) + 1  # an older pull: after its last record
        if mine > last + 1:
            raise LinkError(f"{raw_path} does not continue this clock's log (seq {mine}, clock {first}..{last})")
        start = max(mine, first)
    bar = Progress(last - first + 1, progress)
    bar.update(start - first)
    pulled = 0
    size = len(have)

    def save(next_seq: int) -> None:
        with open(meta_path, "w", encoding="utf-8") as fh:
            json.dump({"uid": uid, "next": next_seq, "bytes": size}, fh)

    with open(raw_path, "ab") as fh:
        fh.truncate(len(have))
        seq = start
        window: list[tuple[int, int]] = []  # (request id, from seq): chunks in flight hide the round trip
        ask = start
        while seq <= last:
            while len(window) < 4 and ask <= last:
                window.append((clock.send("log.read", from_seq=ask, max_records=chunk), ask))
                ask += chunk
            rid, asked = window.pop(0)
            ans = clock.wait(rid, "log.read")
            data = base64.b64decode(ans.get("data", ""))
            if len(data) % R.RECORD_SIZE:
                raise LinkError(f"log.read from {asked}: {len(data)} bytes is not whole records")
            if not data:
                break
            fh.write(data)
            fh.flush()  # what is written stays: an interrupted pull resumes after it
            size += len(data)
            got = len(data) // R.RECORD_SIZE
            pulled += got
            nxt = ans.get("next", asked + got)
            save(nxt)
            seq = nxt
            bar.update(min(seq, last + 1) - first)
            if not window:
                ask = seq  # (a short chunk: the clock says where to go on)
            elif window[0][1] != seq:
                # a short chunk (a segment's end) or a gap: the asks in flight start at the wrong
                # places; take their answers, drop them, and ask again from where the clock said
                for rid, _ in window:
                    clock.wait(rid, "log.read")
                window = []
                ask = seq
    bar.finish()
    events = write_events(raw_path, os.path.join(out_dir, "events.jsonl"))
    return {"pulled": pulled, "first": first, "last": last, "events": events, "uid": uid}


def write_events(raw_path: str, events_path: str, key: bytes = b"") -> int:
    from . import logs

    with open(raw_path, "rb") as fh:
        data = fh.read()
    log = logs.read_segments([("records.bin", data)], key, replay=False)
    with open(events_path, "w", encoding="utf-8") as fh:
        for e in log.shown():
            fh.write(json.dumps(e) + "\n")
    return len(log.shown())
