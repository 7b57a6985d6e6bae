"""Attacks on the log as an arbiter meets them: a keyed clock (the simulator, over a real
pseudo-terminal) is pulled with `sagat logs pull`, then the copy is cut, rolled back and forged the
ways a player's friend with the file could, and `sagat logs verify` must say so. What a log alone
cannot show (records cut off its end, an older copy put back) is caught by the head the clock
signed at the pull and by the result code on the scoresheet."""

import contextlib
import io
import json
import os
import random
import shutil
import struct

import pytest
from imagekit import make_image
from simkit import Sim

from sagat import client
from sagat.cli import main
from sagatfw.engine import clock as C
from sagatfw.log import records as R

KEY = "tournament key"


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


@pytest.fixture(scope="module")
def pulled(tmp_path_factory):
    """A keyed clock's log pulled twice: `early` while game 2 is in progress, `final` after its
    result; and the result code the faces showed."""
    tmp = tmp_path_factory.mktemp("keyed")
    make_image(tmp / "flash.img", KEY)  # game 1 finished, game 2 in progress (restored paused)
    sim = Sim(tmp, [])
    try:
        early = str(tmp / "early")
        assert main(["logs", "pull", "--port", sim.port, "--out", early, "--key", KEY]) == 0
        assert main(["call", "result", "result=0-1", "--port", sim.port, "--key", KEY]) == 0
        with client.Clock(sim.port) as clock:
            shown = clock.request("state")["result_code"]  # what the faces show for the scoresheet
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            assert main(["state", "--port", sim.port]) == 0
        assert f"result code {shown}" in text.getvalue()
        final = str(tmp / "final")
        assert main(["logs", "pull", "--port", sim.port, "--out", final, "--key", KEY]) == 0
    finally:
        sim.stop()
    assert shown == _state_code(final)  # the code the faces showed is the one the log gives
    return early, final, shown


def _state_code(pulled_dir):
    data = open(os.path.join(pulled_dir, "records.bin"), "rb").read()
    recs = [data[i : i + 64] for i in range(0, len(data), 64)]
    res = [r for r in recs if R.type_of(r) == C.EV_RESULT and R.game_of(r) == 2]
    return R.result_code(R.chain_of(res[-1]))


def _copy(src, dst, cut):
    """A copy of a pull's folder whose records.bin is `cut(list of records)`."""
    shutil.copytree(src, dst)
    path = os.path.join(dst, "records.bin")
    data = open(path, "rb").read()
    recs = [data[i : i + 64] for i in range(0, len(data), 64)]
    with open(path, "wb") as fh:
        fh.write(b"".join(cut(recs)))
    return path


def test_a_whole_pull_verifies_with_its_signed_head_and_the_result_code(pulled, capsys):
    early, final, shown = pulled
    head = json.load(open(os.path.join(final, "head.json")))
    assert head["mac"] and len(head["nonce"]) == 32 and head["first"] == 0
    code, out, _ = _run(capsys, "logs", "verify", "--records", os.path.join(final, "records.bin"), "--key", KEY)
    assert code == 0 and out.startswith("OK: ") and "nothing was cut off" in out, out
    rc = shown
    code, out, _ = _run(capsys, "logs", "verify", "--records", os.path.join(final, "records.bin"), "--key", KEY,
                        "--game", "2", "--code", rc)
    assert code == 0 and f"code {rc}" in out and "as it was when its result was entered" in out, out
    wrong = "%06d" % ((int(rc) + 1) % 1000000)
    code, out, _ = _run(capsys, "logs", "verify", "--records", os.path.join(final, "records.bin"), "--key", KEY,
                        "--game", "2", "--code", wrong)
    assert code == 1 and f"{wrong} is not the code" in out, out


@pytest.mark.parametrize("attack", ["last records", "game 2", "first segment"])
def test_truncation_of_a_pull_is_caught_by_its_head(attack, pulled, tmp_path, capsys):
    _, final, shown = pulled

    def cut(recs):
        if attack == "last records":
            return recs[:-3]
        if attack == "game 2":
            return [r for r in recs if R.game_of(r) != 2]
        second = [i for i, r in enumerate(recs) if R.type_of(r) == R.T_ANCHOR][1]
        return recs[second:]  # the first segment, anchor and all: the rest starts at an anchor

    path = _copy(final, tmp_path / "cut", cut)
    # the records alone link (a cut at an anchor or at the end leaves a whole chain) ...
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY, "--head", os.devnull + "x")
    assert code == 2  # (a head file that does not exist: one clear line)
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert code == 1 and "cut off" in out, out
    if attack == "game 2":
        code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY, "--game", "2",
                            "--code", shown)
        assert code == 1 and "game 2 has no result" in out, out


def test_a_forged_head_fails_its_mac(pulled, tmp_path, capsys):
    _, final, _ = pulled
    path = _copy(final, tmp_path / "cut", lambda recs: recs[:-3])
    head_path = os.path.join(tmp_path / "cut", "head.json")
    head = json.load(open(head_path))
    last = open(path, "rb").read()[-64:]
    head["seq"], head["link"] = R.seq_of(last), R.chain_of(last).hex()  # made to fit the cut log
    json.dump(head, open(head_path, "w"))
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert code == 1 and "MAC does not verify" in out, out
    head["mac"] = None  # or not signed at all
    json.dump(head, open(head_path, "w"))
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert code == 1 and "not signed" in out, out


def test_rollback_to_an_older_pull_is_caught_by_the_result_code(pulled, capsys):
    early, final, shown = pulled
    # the older pull is whole and signed as it was: by itself it verifies (an honest limit) ...
    code, out, _ = _run(capsys, "logs", "verify", "--records", os.path.join(early, "records.bin"), "--key", KEY)
    assert code == 0, out
    # ... but it does not hold game 2 as it ended: the scoresheet's code says so
    code, out, _ = _run(capsys, "logs", "verify", "--records", os.path.join(early, "records.bin"), "--key", KEY,
                        "--game", "2", "--code", shown)
    assert code == 1 and "game 2 has no result" in out, out


def test_an_edited_result_at_the_start_of_a_cut_log_fails(pulled, tmp_path, capsys):
    # Attack 2 end to end: every record before game 1's result deleted, the result edited, the
    # CRC fixed; `logs show` would print the forged result, verify must not say OK.
    _, final, _ = pulled

    def cut(recs):
        i = next(i for i, r in enumerate(recs) if R.type_of(r) == C.EV_RESULT)
        res = bytearray(recs[i])
        res[26] = C.RESULT_NAMES.index("0-1")
        struct.pack_into("<I", res, R.CRC, R.crc32(bytes(res[: R.CRC])))
        return [bytes(res)] + recs[i + 1 :]

    path = _copy(final, tmp_path / "forged", cut)
    os.remove(os.path.join(tmp_path / "forged", "head.json"))
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert code == 1 and "without a segment anchor" in out, out


def test_verify_of_random_bytes_is_one_line(tmp_path, capsys):
    path = tmp_path / "random.bin"
    path.write_bytes(random.Random(7).randbytes(64 * 64))
    code, out, _ = _run(capsys, "logs", "verify", "--records", str(path))
    assert code == 1 and out.strip().splitlines() == [
        "BROKEN: none of the 64 records is a sagat record (not a log, or wiped)"]


def test_verify_never_crashes_on_well_formed_garbage(tmp_path, capsys):
    # records with a good magic, CRC and chain but any field values (huge times, unknown types,
    # out-of-range stages and results): verify reports, never crashes
    rnd = random.Random(11)
    for trial in range(20):
        prev = R.ZERO_CHAIN
        chain = R.Chain(b"")
        out = []
        for seq in range(40):
            b = bytearray(rnd.randbytes(64))
            b[0] = R.MAGIC
            b[1] = rnd.choice([C.EV_SETTINGS, C.EV_GAME_START, C.EV_PRESS, C.EV_FLAG, C.EV_ADJUST, C.EV_RESULT,
                               R.T_TEXT, R.T_CHECKPOINT, R.T_ANCHOR, rnd.randrange(256)])
            struct.pack_into("<HI", b, 2, 1, seq)
            if b[1] == C.EV_SETTINGS and trial % 2:
                b[25] = 0  # a game's setup record: the replay starts from it
            prev = R.seal(b, prev, chain)
            out.append(bytes(b))
        path = tmp_path / f"g{trial}.bin"
        path.write_bytes(b"".join(out))
        for action in ("verify", "show", "export"):
            code, _, _ = _run(capsys, "logs", action, "--records", str(path))
            assert code in (0, 1), (trial, action)
