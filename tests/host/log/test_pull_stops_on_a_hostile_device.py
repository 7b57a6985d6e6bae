"""`sagat logs pull` and the hall's automatic pull against a broken or hostile device (fakedev's
ScriptedClock on a real pty): a log.read that never advances, a signed head claiming a seq far past
log.info's, a log.info that claims more than any flash, a chunk larger than asked, an answer line
without an end. Each stops in one line, soon, with a bounded records.bin."""

import os
import time

import pytest
from fakedev import ScriptedClock
from hallkit import RUNNING

from sagat.cli import main
from sagatfw.log import records as R

UID = "hostile-1"


def _record(seq):
    rec = bytearray(R.RECORD_SIZE)
    rec[0] = R.MAGIC
    rec[4:8] = (seq & 0xFFFFFFFF).to_bytes(4, "little")
    rec[R.CRC : R.CRC + 4] = R.crc32(bytes(rec[: R.CRC])).to_bytes(4, "little")
    return bytes(rec)


def _chunk(req, start, n, nxt=None):
    """A log.read answer of n records from start, `next` nxt (start + n unless given)."""
    data = b"".join(_record(s) for s in range(start, start + n))
    nxt = start + n if nxt is None else nxt
    import json

    line = {"id": req["id"], "ok": True, "from": start, "next": nxt, "count": n}
    if req.get("bin"):
        line["bin"] = len(data)
        return json.dumps(line).encode() + b"\n" + data
    import base64

    line["data"] = base64.b64encode(data).decode()
    return json.dumps(line).encode() + b"\n"


def clock(log_read, info=None, head=None):
    """A device that answers like a clock, with log.read answered by log_read(req)."""
    base_info = {"first": 0, "last": 9, "bytes": 640, "backlog": 0, "max_records": 256, "bin": True, "uid": UID}
    base_info.update(info or {})

    def answer(req):
        cmd = req.get("cmd")
        if cmd == "identify":
            return {"uid": UID, "firmware": "0.1.0", "protocol": 2, "board": "sim", "key_set": False}
        if cmd == "state":  # a finished game, as the hall's tests give a clock's state
            return dict(RUNNING, state="finished", running=None)
        if cmd == "log.info":
            return base_info
        if cmd == "log.read":
            return log_read(req)
        if cmd == "auth.challenge":
            return {"nonce": "00" * 16, "key_set": False}
        if cmd == "log.head":
            return dict({"uid": UID, "first": 0, "seq": base_info["last"], "link": "00" * 8, "mac": None,
                         "key_set": False}, **(head or {}))
        return {"id": req.get("id"), "ok": False, "error": {"code": "unknown_cmd", "message": cmd}}

    return ScriptedClock(answer)


def _pull(dev, out, capsys):
    t0 = time.monotonic()
    rc = main(["logs", "pull", "--port", dev.port, "--out", str(out), "--timeout", "2"])
    took = time.monotonic() - t0
    err = capsys.readouterr().err.strip().splitlines()
    return rc, err, took


def _reads(dev):
    """The log.read requests the device was sent: the pull's work, bounded whatever the machine's speed
    (its time is bounded too, generously: a failsafe against a pull that never ends)."""
    return sum(1 for r in dev.requests if r.get("cmd") == "log.read")


def _size(out):
    path = os.path.join(out, "records.bin")
    return os.path.getsize(path) if os.path.exists(path) else 0


@pytest.fixture
def devices():
    made = []
    yield made
    for d in made:
        d.close()


def test_a_pull_that_never_advances_stops_with_one_line(devices, tmp_path, capsys):
    """Every log.read answers the same record with `next` where it was asked: before, the pull wrote
    that record again and again for ever."""
    dev = clock(lambda req: _chunk(req, req["from_seq"], 1, nxt=req["from_seq"]), info={"last": 100000,
                                                                                        "bytes": 6400064})
    devices.append(dev)
    rc, err, took = _pull(dev, tmp_path / "p", capsys)
    assert rc == 2 and len(err) == 1, err
    assert err[0].startswith("sagat: ") and "did not advance" in err[0], err
    assert _size(tmp_path / "p") == 0 and _reads(dev) <= 4 and took < 60


def test_a_head_claiming_seq_a_billion_stops_with_one_line(devices, tmp_path, capsys):
    """log.info says 0..9; the head says 10**9, and log.read gives fresh records for every seq asked:
    before, the pull went on towards 10**9 records (64 GB)."""
    dev = clock(lambda req: _chunk(req, req["from_seq"], req["max_records"]), head={"seq": 10**9})
    devices.append(dev)
    rc, err, took = _pull(dev, tmp_path / "p", capsys)
    assert rc == 2 and len(err) == 1, err
    assert "head claims seq 1000000000" in err[0] and "log.info said the log ends at 9" in err[0], err
    assert _size(tmp_path / "p") <= (10 + 256) * R.RECORD_SIZE and _reads(dev) <= 1 and took < 60
    assert not os.path.exists(tmp_path / "p" / "head.json")


def test_records_beyond_log_infos_figures_stop_the_pull(devices, tmp_path, capsys):
    """log.info says 10 records on flash (640 bytes); log.read keeps sending new records anyway
    (every `next` advancing, `last` in its answers never reached)."""
    dev = clock(lambda req: _chunk(req, req["from_seq"], req["max_records"]), info={"last": 10**6})
    devices.append(dev)
    rc, err, took = _pull(dev, tmp_path / "p", capsys)
    assert rc == 2 and len(err) == 1, err
    assert "more records than the clock's log.info says it holds" in err[0], err
    assert _size(tmp_path / "p") <= (10 + 256 + 256) * R.RECORD_SIZE and _reads(dev) <= 4 and took < 60


@pytest.mark.parametrize("info, words", [
    ({"last": 10**9}, "seq 0..1000000000, more records than any clock's flash"),
    ({"bytes": 10**12}, "holds 1000000000000 bytes, more than any clock's flash"),
    ({"last": "9"}, "log.info names no seq range"),
])
def test_a_log_info_past_any_flash_is_refused_before_pulling(devices, tmp_path, capsys, info, words):
    dev = clock(lambda req: _chunk(req, req["from_seq"], req["max_records"]), info=info)
    devices.append(dev)
    rc, err, took = _pull(dev, tmp_path / "p", capsys)
    assert rc == 2 and len(err) == 1 and words in err[0], err
    assert _size(tmp_path / "p") == 0 and took < 60
    assert _reads(dev) == 0


def test_a_chunk_larger_than_asked_stops_the_pull(devices, tmp_path, capsys):
    dev = clock(lambda req: _chunk(req, req["from_seq"], req["max_records"] + 50), info={"last": 5000,
                                                                                         "bytes": 320064})
    devices.append(dev)
    rc, err, took = _pull(dev, tmp_path / "p", capsys)
    assert rc == 2 and len(err) == 1 and "sent 306 records, asked for at most 256" in err[0], err
    assert _size(tmp_path / "p") == 0 and _reads(dev) <= 2 and took < 60


def test_a_log_read_announcing_a_gigabyte_is_refused(devices, tmp_path, capsys):
    def huge(req):
        return b'{"id":%d,"ok":true,"from":0,"next":1,"bin":1000000000}\n' % req["id"] + b"\0" * 4096

    dev = clock(huge)
    devices.append(dev)
    rc, err, took = _pull(dev, tmp_path / "p", capsys)
    assert rc == 2 and len(err) == 1 and "announced 1000000000 raw bytes" in err[0], err
    assert _reads(dev) <= 1 and took < 60


def test_an_answer_without_an_end_of_line_is_refused(devices, tmp_path, capsys):
    dev = clock(lambda req: b'{"id":%d,"ok":true,"data":"' % req["id"] + b"A" * (400 << 10))
    devices.append(dev)
    rc, err, took = _pull(dev, tmp_path / "p", capsys)
    assert rc == 2 and len(err) == 1 and "bytes without an end of line" in err[0], err
    assert _reads(dev) <= 1 and took < 60


def test_the_halls_automatic_pull_of_a_hostile_clock_fails_soon_and_bounded(devices, tmp_path):
    """The hall pulls a finished game by itself: against a log.read that never advances and against
    a head claiming seq 10**9, the board's pull ends `failed` with the reason, soon, never retried
    (pulling again gives the same), and the pulled folder stays small."""
    from hallkit import until

    from sagat.hall.boards import BoardLink

    stuck = clock(lambda req: _chunk(req, req["from_seq"], 1, nxt=req["from_seq"]), info={"last": 100000,
                                                                                          "bytes": 6400064})
    far = clock(lambda req: _chunk(req, req["from_seq"], req["max_records"]), head={"seq": 10**9})
    devices += [stuck, far]
    out = tmp_path / "hall"
    out.mkdir()
    boards = [BoardLink(n, d.port, out_dir=str(out), timeout=2.0) for n, d in ((1, stuck), (2, far))]
    t0 = time.monotonic()
    for b in boards:
        b.start()
    try:
        for b, words in zip(boards, ("did not advance", "head claims seq 1000000000"), strict=True):
            until(lambda b=b: b.pulls.state == "failed", 60, f"board {b.number}'s pull failed")
            assert words in b.pulls.message and b.pulls.attempt == 1, b.pulls
            assert "\n" not in b.pulls.message
        took = time.monotonic() - t0
    finally:
        for b in boards:
            b.stop.set()
        for b in boards:
            b.thread.join(10)
    total = sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(out) for f in files)
    assert total < 64 << 10, total
    assert _reads(stuck) <= 4 and _reads(far) <= 1 and took < 60
