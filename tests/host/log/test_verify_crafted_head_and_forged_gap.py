"""Attacks on the host side, as an attacker with a copy of a log or a pull: `sagat logs verify` on a
crafted head.json and on a forged gap record. Each test performs one attack and asserts what a
sound verifier must say; each failed when written (a finding) and passes with its fix. Nothing here
is skipped. (`sagat tc` against the clock's own parser on Unicode whitespace, written with these:
tests/host/tc/test_tc_whitespace_as_the_clock.py.)"""

import io
import json
import struct
import sys

import pytest
from imagekit import make_image

from sagat.cli import main
from sagat.log import decode
from sagat.log.flash import read_image
from sagatfw.engine import clock as C
from sagatfw.log import records as R


@pytest.fixture(scope="module")
def plain_image(tmp_path_factory):
    return make_image(tmp_path_factory.mktemp("img2") / "plain.img")


def _records(image):
    return [bytearray(d[i : i + 64]) for _, d in read_image(image) for i in range(0, len(d), 64)]


def _rechain(recs, key=b""):
    """Seal every record again in order (unkeyed: what anybody can do), anchors stating the link."""
    chain = R.Chain(key)
    prev = R.ZERO_CHAIN
    out = []
    for r in recs:
        r = bytearray(r)
        if r[1] == R.T_ANCHOR:
            r[52:60] = prev
            struct.pack_into("<I", r, R.CRC, R.crc32(bytes(r[: R.CRC])))
        else:
            prev = R.seal(r, prev, chain)
        out.append(bytes(r))
    return out


def _run_bytes(argv):
    """main(argv) with a real UTF-8 stdout, as a terminal has: (exit code, stdout bytes, stderr)."""
    old_out, old_err = sys.stdout, sys.stderr
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    sys.stderr = io.StringIO()
    try:
        code = main(argv)
        sys.stdout.flush()
        return code, sys.stdout.buffer.getvalue(), sys.stderr.getvalue()
    finally:
        sys.stdout, sys.stderr = old_out, old_err


def test_head_json_with_a_lone_surrogate_does_not_crash_verify(plain_image, tmp_path):
    """A crafted head.json beside records.bin: a well-shaped head (seq and link of the real last
    record) whose clock id is "\\udc80" (valid JSON). `sagat logs verify` printed its notes with
    that id and died: `internal error (UnicodeEncodeError ...)`, exit 3."""
    segs = read_image(plain_image)
    log = decode.read_segments(segs)
    rec = tmp_path / "records.bin"
    rec.write_bytes(b"".join(d for _, d in segs))
    head = {"seq": log.last_seq, "first": log.start_seq, "link": log.last_link.hex(), "nonce": "00" * 16,
            "uid": "\udc80", "key_set": False, "mac": None}
    (tmp_path / "head.json").write_text(json.dumps(head))
    code, out, err = _run_bytes(["logs", "verify", "--records", str(rec)])
    assert "internal error" not in err and code in (0, 1), (code, err)


def test_a_forged_gap_record_does_not_hide_a_forged_flag_order(plain_image, tmp_path):
    """An unkeyed log (docs: the replay "still catches an edited flag instant that was not
    replayed consistently"). Game 1: left flagged first (seq 9), right second (seq 12). The forger
    swaps the flag orders (right "flagged first"): verify catches it. Then they also turn an early
    press (seq 4) into a gap record ("the clock dropped 1 record: its log was full") and re-chain:
    the replay stops at the gap, and verify says OK, WITH GAPS, exit 0, for a log whose game the
    engine would replay differently (and in which the flash was never full)."""
    recs = _records(plain_image)
    by_seq = {R.seq_of(r): r for r in recs if r[1] != R.T_ANCHOR}
    assert by_seq[9][1] == C.EV_FLAG and by_seq[12][1] == C.EV_FLAG
    struct.pack_into("<h", by_seq[9], 26, 2)  # left's flag: now "second"
    struct.pack_into("<h", by_seq[12], 26, 1)  # right's flag: now "FIRST"
    swapped = tmp_path / "swapped.bin"
    swapped.write_bytes(b"".join(_rechain(recs)))
    code, out, _ = _run_bytes(["logs", "verify", "--records", str(swapped), "--no-head"])
    assert code == 1, out  # without a gap the replay catches the swap
    gap = by_seq[4]
    R.pack_gap(gap, 4, 1, R.t_of(gap))  # "the clock dropped 1 record here"
    forged = tmp_path / "forged.bin"
    forged.write_bytes(b"".join(_rechain(recs)))
    code, out, _ = _run_bytes(["logs", "verify", "--records", str(forged), "--no-head"])
    assert code == 1 and not out.startswith(b"OK"), out.decode()
