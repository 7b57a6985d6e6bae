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
    """Pull every record not yet in out_dir/records.bin (resuming after the last one there), append
    them, and rewrite out_dir/events.jsonl from all records pulled. Returns figures."""
    os.makedirs(out_dir, exist_ok=True)
    raw_path = os.path.join(out_dir, "records.bin")
    have = b""
    if os.path.exists(raw_path):
        with open(raw_path, "rb") as fh:
            have = fh.read()
        have = have[: len(have) // R.RECORD_SIZE * R.RECORD_SIZE]  # a torn tail from a cut pull
    info = clock.request("log.info")
    first, last = info.get("first"), info.get("last")
    if first is None or last is None:
        raise LinkError("the clock's log is empty")
    start = first
    if have:
        mine = R.seq_of(have[-R.RECORD_SIZE :]) + 1
        if mine > last + 1 or mine < first:
            raise LinkError(f"{raw_path} does not continue this clock's log (seq {mine}, clock {first}..{last})")
        start = mine
    bar = Progress(last - first + 1, progress)
    bar.update(start - first)
    pulled = 0
    with open(raw_path, "ab") as fh:
        fh.truncate(len(have))
        seq = start
        window = []  # (request id, from seq): a few chunks in flight hide the round trip
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
            if R.seq_of(data[: R.RECORD_SIZE]) != seq:
                raise LinkError(f"log.read from {asked} answered from seq {R.seq_of(data[:R.RECORD_SIZE])}")
            fh.write(data)
            fh.flush()  # what is written stays: an interrupted pull resumes after it
            got = len(data) // R.RECORD_SIZE
            pulled += got
            seq += got
            bar.update(seq - first)
            if got < chunk and seq <= last:
                # a short chunk (end of a segment): the requests in flight asked from the wrong
                # places; drain them and ask again from here
                for rid, _ in window:
                    clock.wait(rid, "log.read")
                window = []
                ask = seq
    bar.finish()
    events = write_events(raw_path, os.path.join(out_dir, "events.jsonl"))
    return {"pulled": pulled, "first": first, "last": last, "events": events}


def write_events(raw_path: str, events_path: str, key: bytes = b"") -> int:
    from . import logs

    with open(raw_path, "rb") as fh:
        data = fh.read()
    log = logs.read_segments([("records.bin", data)], key, replay=False)
    with open(events_path, "w", encoding="utf-8") as fh:
        for e in log.shown():
            fh.write(json.dumps(e) + "\n")
    return len(log.shown())
