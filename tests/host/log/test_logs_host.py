"""`sagat logs show|verify|export` on littlefs images the firmware wrote under MicroPython."""

import csv
import io
import json
import os
import random
import struct
import subprocess

import littlefs
import pytest
from imagekit import edit_image, make_image

from conftest import ROOT, tool
from sagat.cli import main
from sagatfw.log import records as R

KEY = "secret"


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return make_image(tmp_path_factory.mktemp("img") / "flash.img", KEY)


@pytest.fixture(scope="module")
def plain_image(tmp_path_factory):
    return make_image(tmp_path_factory.mktemp("img") / "plain.img")


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _records(segs, anchors=False):
    """(name, offset) of every record (by default not the segments' anchors), in order."""
    return [(n, at) for n in sorted(segs) for at in range(0, len(segs[n]), R.RECORD_SIZE)
            if anchors or segs[n][at + 1] != R.T_ANCHOR]


def test_show_json_gives_contract_3_events(image, capsys):
    code, out, err = _run(capsys, "logs", "show", "--image", image, "--json", "--key", KEY)
    assert code == 0 and err == ""
    events = [json.loads(line) for line in out.splitlines()]
    for e in events:
        for k in ("game", "seq", "type", "t", "left_ms", "right_ms", "left_moves", "right_moves", "running", "wall"):
            assert k in e, (k, e)
    flags = [e for e in events if e["type"] == "flag"]
    assert [(f["side"], f["order"], f["game"]) for f in flags] == [("left", 1, 1), ("right", 2, 1)]
    assert flags[0]["t"] < flags[1]["t"] and flags[0]["left_ms"] == 0
    assert flags[0]["wall"].endswith("Z") and flags[0]["wall"].startswith("2026-11-30T")
    start = [e for e in events if e["type"] == "game_start"]
    assert [(s["tc"], s["first"]) for s in start] == [("420", "left"), ("2/60+2:30+2", "left")]
    adj = [e for e in events if e["type"] == "adjust"][0]
    assert adj["before"]["ms"] == 89400 and adj["after"] == {"ms": 45000, "moves": 2, "stage": 2}
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
    assert "checkpoint" not in [e["type"] for e in events]


def test_show_table_per_game(image, capsys):
    code, out, _ = _run(capsys, "logs", "show", "--image", image)
    assert code == 0
    assert "game 1" in out and "game 2" in out and "FIRST flag" in out and "flag #2" in out


def test_verify_with_the_key(image, capsys):
    code, out, _ = _run(capsys, "logs", "verify", "--image", image, "--key", KEY)
    assert code == 0 and out.startswith("OK: ") and "games 1, 2" in out


def test_verify_without_the_key_says_which_option_gives_it(image, capsys):
    code, out, err = _run(capsys, "logs", "verify", "--image", image)
    # one line that says what to do (a usage error), not BROKEN nor a chain problem per record
    assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
    assert err.startswith("sagat: this log is sealed from seq 0 on") and "--key KEY or --key-file FILE" in err, err


def test_export_csv_and_json(image, tmp_path, capsys):
    out_csv = tmp_path / "log.csv"
    code, _, err = _run(capsys, "logs", "export", "--image", image, "-o", str(out_csv))
    assert code == 0 and "events written" in err
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text())))
    code, out, _ = _run(capsys, "logs", "export", "--image", image, "--format", "json")
    assert code == 0 and len(out.splitlines()) == len(rows) > 20
    assert rows[0]["type"] == "settings" and rows[0]["tc"] == "420"


def test_edited_record_is_named_by_seq(image, tmp_path, capsys):
    def flip(segs):
        name, at = _records(segs)[9]  # the first flag
        rec = segs[name]
        struct.pack_into("<I", rec, at + 8, struct.unpack_from("<I", rec, at + 8)[0] + 1000)  # flag 1 s later
        struct.pack_into("<I", rec, at + R.CRC, R.crc32(bytes(rec[at : at + R.CRC])))  # a careful forger

    bad = edit_image(image, tmp_path / "edited.img", flip)
    code, out, _ = _run(capsys, "logs", "verify", "--image", bad, "--key", KEY)
    assert code == 1 and out.splitlines()[0] == "BROKEN at seq 9 (chain)"


def test_missing_record_is_reported(image, tmp_path, capsys):
    def drop(segs):
        name, at = _records(segs)[5]
        del segs[name][at : at + R.RECORD_SIZE]

    bad = edit_image(image, tmp_path / "missing.img", drop)
    code, out, _ = _run(capsys, "logs", "verify", "--image", bad, "--key", KEY)
    assert code == 1 and "BROKEN at seq 6" in out and "missing: seq 5..5 missing" in out


def test_unkeyed_forgery_is_caught_by_the_engine(plain_image, tmp_path, capsys):
    """Without an arbiter key anyone can re-seal the chain; replaying the game through the engine
    still shows the forged flag instant: the log proves who flagged first."""

    def forge(segs):
        chain = R.Chain(b"")
        prev = R.ZERO_CHAIN
        i = 0
        for name, at in _records(segs, anchors=True):
            rec = memoryview(segs[name])[at : at + R.RECORD_SIZE]
            if rec[1] == R.T_ANCHOR:  # a segment's anchor states the (new) link before it
                R.pack_anchor(rec, R.game_of(rec), R.seq_of(rec), prev)
                continue
            if i == 9:
                struct.pack_into("<I", rec, 8, struct.unpack_from("<I", rec, 8)[0] + 1000)
            prev = R.seal(rec, prev, chain)
            i += 1

    code, out, _ = _run(capsys, "logs", "verify", "--image", plain_image)
    assert code == 0
    bad = edit_image(plain_image, tmp_path / "forged.img", forge)
    code, out, _ = _run(capsys, "logs", "verify", "--image", bad)
    assert code == 1 and "game 1: seq 9: flag" in out


@pytest.mark.parametrize("kind", ["empty", "truncated", "random", "no-log", "missing"])
def test_bad_images_are_one_clear_line(kind, image, tmp_path, capsys):
    path = tmp_path / f"{kind}.img"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "truncated":
        path.write_bytes(open(image, "rb").read()[: 4096 * 3 + 100])
    elif kind == "random":
        path.write_bytes(random.Random(1).randbytes(4096 * 16))
    elif kind == "no-log":
        ctx = littlefs.UserContext(4096 * 16)
        fs = littlefs.LittleFS(context=ctx, block_size=4096, block_count=16)
        with fs.open("/other.txt", "w") as fh:
            fh.write("hello")
        fs.unmount()
        path.write_bytes(bytes(ctx.buffer))
    for action in ("show", "verify", "export"):
        code, out, err = _run(capsys, "logs", action, "--image", str(path))
        assert code == 2 and out == "", (action, out)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("sagat: ") and "Traceback" not in err, err


def test_logs_need_a_source(capsys):
    code, _, err = _run(capsys, "logs", "show")
    assert code == 2 and "--image" in err


# ------------------------------------------------------------- a full flash


@pytest.fixture(scope="module")
def full_image(tmp_path_factory):
    """A 64 KB flash that the game in progress filled: seven presses dropped, a gap record, the result."""
    exe = tool("micropython")
    assert exe, "no micropython: install the dev extra"
    path = tmp_path_factory.mktemp("img") / "full.img"
    args = [exe, os.path.join(ROOT, "tests", "kits", "make_full_image.py"), str(path), KEY]
    run = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return str(path)


def test_a_game_that_filled_the_simulators_1_mb_flash_verifies_with_gaps_never_plain_ok(tmp_path, capsys):
    """The simulator's real geometry (256 blocks of 4 KB): a game of presses at 100 ms fills it (a
    little over 10,000 records), seven more presses cannot be kept, then 1-0. littlefs answers
    that flash with errno 36 as well as 28: the result, its gap record and the code are still on
    the flash, and verify says OK, WITH GAPS with the figures, never a plain OK."""
    exe = tool("micropython")
    assert exe, "no micropython: install the dev extra"
    path = tmp_path / "full1m.img"
    args = [exe, "-X", "heapsize=8M", os.path.join(ROOT, "tests", "kits", "make_full_image.py"), str(path), KEY, "256"]
    run = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert path.stat().st_size == 1 << 20
    code, out, _ = _run(capsys, "logs", "verify", "--image", str(path), "--key", KEY)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("OK, WITH GAPS: "), out
    assert "the clock dropped 7 records where its log was full; 1 gap (below)" in lines[0], out
    assert len([line for line in lines if line.startswith("GAP at seq ")]) == 1, out
    code, out, _ = _run(capsys, "logs", "show", "--image", str(path), "--key", KEY)
    assert out.rstrip().splitlines()[-1].split()[2] == "result", out[-300:]


def test_verify_names_the_gap_a_full_log_left(full_image, capsys):
    code, out, _ = _run(capsys, "logs", "verify", "--image", full_image, "--key", KEY)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("OK, WITH GAPS: "), out  # the chain runs on through the gap
    gap = [line for line in lines if line.startswith("GAP at seq ")]
    assert len(gap) == 1 and "the clock dropped 7 records here: its log was full" in gap[0], out
    code, out, _ = _run(capsys, "logs", "show", "--image", full_image, "--key", KEY)
    rows = [line for line in out.splitlines() if " gap " in line]
    assert code == 0 and len(rows) == 1 and "the clock dropped 7 records here" in rows[0]
    assert out.rstrip().splitlines()[-1].split()[2] == "result"
    code, out, _ = _run(capsys, "logs", "show", "--image", full_image, "--key", KEY, "--json")
    events = [json.loads(line) for line in out.splitlines()]
    gaps = [e for e in events if e["type"] == "gap"]
    assert len(gaps) == 1 and gaps[0]["dropped"] == 7 and gaps[0]["until_t"] > gaps[0]["t"]
