"""A pulled log as it was saved: the folder `sagat logs pull` and the hall write (sagat.pull names
its files: records.bin, head.json, clock.json, events.jsonl), or a records file or a flash image
given alone. The one reader of those files; what it reads is verified by verify.py."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from .. import client
from ..client import say
from ..i18n import N_
from ..pull import CLOCK_FILE, EVENTS_FILE, HEAD_FILE, RECORDS_FILE
from .decode import LogError, read_segments
from .flash import read_image


class Unreadable(LogError):
    """The log's records file cannot be read: `file`, and `error` in the system's words."""

    def __init__(self, msg, file: str, error):
        super().__init__(msg)
        self.file, self.error = file, error


@dataclass
class Pulled:
    """A log to verify: its segments, and what a pull saved beside them."""

    where: str  # the records' file, or the image
    segments: list[tuple[str, bytes]] = field(default_factory=list)
    head: dict | None = None  # head.json's (None: none, or not asked for)
    head_path: str | None = None
    head_error: Exception | None = None  # head.json is there, but cannot be read (its file, or its JSON)
    uid: str | None = None  # clock.json's: the clock the pull came from

    @property
    def data(self) -> bytes:
        return b"".join(d for _n, d in self.segments)


def read_records(path: str, head: str | None = None, with_head: bool = True, empty_ok: bool = True) -> Pulled:
    """The records file `path` (a pull's records.bin), with the head beside it (head.json; `head`:
    that file instead; none without `with_head`) and the clock.json beside it. LogError if the
    records cannot be read (or are empty, unless `empty_ok`)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        error = e.strerror or e
        raise Unreadable(say(N_("cannot read {file}: {error}"), file=path, error=error), path, error) from None
    if not data and not empty_ok:
        raise LogError(say(N_("{file} is empty"), file=path))
    folder = os.path.dirname(os.path.abspath(path))
    out = Pulled(path, [(os.path.basename(path), data)], uid=_uid(folder))
    beside = os.path.join(folder, HEAD_FILE)
    if with_head and (head or os.path.exists(beside)):
        _head(out, head or beside)
    return out


def read_folder(folder: str, with_head: bool = True) -> Pulled:
    """What a pull saved in `folder` (records.bin, head.json, clock.json)."""
    return read_records(os.path.join(folder, RECORDS_FILE), with_head=with_head)


def read_flash(path: str, block_size: int | None = None, head: str | None = None) -> Pulled:
    """The log in a littlefs image, with the head file `head` if one is given (an image alone
    cannot show what was cut off its end)."""
    out = Pulled(path, read_image(path, block_size))
    if head:
        _head(out, head)
    return out


def is_pulled(folder: str) -> bool:
    """Whether `folder` holds a pulled log (its records.bin)."""
    return os.path.isfile(os.path.join(folder, RECORDS_FILE))


def write_events(folder: str) -> int:
    """The pulled folder's events.jsonl (contract 3's JSON lines, checkpoints left out) rewritten
    from all its records; the number of events."""
    with open(os.path.join(folder, RECORDS_FILE), "rb") as fh:
        data = fh.read()
    events = read_segments([(RECORDS_FILE, data)], replay=False).shown()
    with open(os.path.join(folder, EVENTS_FILE), "w", encoding="utf-8") as fh:
        for e in events:
            fh.write(json.dumps(e) + "\n")
    return len(events)


def _head(out: Pulled, path: str) -> None:
    """The head file `path` into `out` (its content, or why it cannot be read)."""
    out.head_path = path
    try:
        with open(path, encoding="utf-8") as fh:
            out.head = client.load(fh)
    except (OSError, ValueError) as e:
        out.head_error = e


def _uid(folder: str) -> str | None:
    """The clock id the pull wrote in clock.json, if any."""
    try:
        with open(os.path.join(folder, CLOCK_FILE), encoding="utf-8") as fh:
            uid = client.load(fh).get("uid")
    except (OSError, ValueError, AttributeError):
        return None
    return uid if isinstance(uid, str) else None
