"""A match's log on the host, to verify and to forge: the sim plays a script (matchscripts.py's, or
any) onto a flash image and its records come back as bytearrays (anchors dropped); the match
record's header offsets and event types (docs/log-format.md, "Match records"); the records sealed
again from seq 0, with the arbiter key or without it, written out, and `sagat logs verify` run on
them or on the image. Used by tests/host/log/test_logs_match.py,
tests/host/log/test_verify_match_restored_from_checkpoint.py and
tests/host/game/test_match_result_undo_and_reboot_host.py. CPython (the host package)."""

import json
import struct

from sagat.cli import main
from sagat.log.flash import read_image
from sagatfw.log import records as R

# header offsets of a match record (docs/log-format.md, "Match records")
T, PMS, VAL, LEFT, RIGHT, PERIOD, SIDE, ARG, STOPPED = 8, 12, 16, 20, 22, 24, 25, 26, R.PAYLOAD
MATCH_EV = {name: 0x20 + i for i, name in enumerate((
    "period_start", "period_end", "break_start", "break_end", "score", "undo", "card", "stoppage_start",
    "stoppage_end", "lot", "result", "power_restore", "late_score", "late_card", "restart", "adjust"))}


def play(tmp_path, capsys, lines, name="m"):
    """The sim plays `lines`; the flash image's records, anchors dropped (they start at seq 0)."""
    script = tmp_path / f"{name}.jsonl"
    script.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    flash = tmp_path / f"{name}.img"
    code = main(["sim", "--script", str(script), "--flash", str(flash), "--virtual"])
    _, err = capsys.readouterr()
    assert code == 0, err
    out = []
    for _name, data in read_image(str(flash)):
        for at in range(0, len(data), R.RECORD_SIZE):
            if data[at + 1] != R.T_ANCHOR:
                out.append(bytearray(data[at : at + R.RECORD_SIZE]))
    assert R.seq_of(out[0]) == 0
    return out, str(flash)


def seal(recs, key=""):
    """Seal every record again, in order, from seq 0: under `key` (a keyed clock) or unkeyed (a
    forger without the key). Seqs are renumbered, so a removed record leaves no hole."""
    chain = R.Chain(key.encode())
    prev = R.ZERO_CHAIN
    for i, rec in enumerate(recs):
        struct.pack_into("<I", rec, 4, i)
        prev = R.seal(rec, prev, chain)
    return recs


def fix_crc(rec):
    struct.pack_into("<I", rec, R.CRC, R.crc32(bytes(rec[: R.CRC])))


def write(tmp_path, recs, name):
    path = tmp_path / f"{name}.bin"
    path.write_bytes(b"".join(bytes(r) for r in recs))
    return str(path)


def verify(capsys, path, key=None, *more):
    argv = ["logs", "verify", "--records", path, "--no-head"] + (["--key", key] if key else []) + list(more)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def find(recs, kind, nth=0):
    hits = [i for i, r in enumerate(recs) if r[1] == MATCH_EV[kind]]
    return hits[nth]


def copy(recs):
    return [bytearray(r) for r in recs]


def run_image(capsys, flash, *more):
    code = main(["logs", "verify", "--image", flash] + list(more))
    out, err = capsys.readouterr()
    return code, out, err
