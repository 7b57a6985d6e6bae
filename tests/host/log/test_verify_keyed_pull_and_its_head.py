"""Attacks on a keyed clock's pull, as an attacker: a player's friend with a laptop and a USB
cable, or with a copy of a pull (records.bin, head.json), WITHOUT the arbiter key: segments cut off
the start, a head asked of the clock, head.json deleted or crafted, another clock's head. Each test
performs one attack and asserts what a sound verifier must say. Each one failed when it was
written (a finding); the fixes made them pass. Nothing here is skipped. (A leaked retired key:
tests/host/log/test_verify_a_leaked_retired_key.py.)"""

import binascii
import json
import os
import shutil
import struct

import pytest
from imagekit import make_image
from simkit import Sim

from sagat import client
from sagat.cli import main
from sagatfw.log import records as R

KEY = "tournament key"


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _recs(path):
    data = open(path, "rb").read()
    return [data[i : i + 64] for i in range(0, len(data), 64)]


def _fix_crc(b):
    b = bytearray(b)
    struct.pack_into("<I", b, R.CRC, R.crc32(bytes(b[: R.CRC])))
    return bytes(b)


# ------------------------------------------------------------------ a keyed clock, pulled


@pytest.fixture(scope="module")
def keyed(tmp_path_factory):
    """A keyed clock (the simulator) with game 1 finished and game 2 in progress. While game 2 is
    in progress the attacker, with NO key, asks the clock for `log.head` over a nonce of their
    own (before the fix a read, allowed: a head for a log cut there; now refused). Then the arbiter
    enters game 2's result and pulls the log properly. Returns (final pull dir, the clock's answer
    to the attacker, the result code the faces showed)."""
    tmp = tmp_path_factory.mktemp("keyed_pull")
    make_image(tmp / "flash.img", KEY)
    sim = Sim(tmp, [])
    try:
        with client.Clock(sim.port) as clock:  # no key
            nonce = binascii.hexlify(os.urandom(16)).decode()
            try:
                clock.request("log.head", nonce=nonce)
                stolen = "signed"
            except client.LinkError as e:
                stolen = str(e)
        assert main(["call", "result", "result=0-1", "--port", sim.port, "--key", KEY]) == 0
        with client.Clock(sim.port) as clock:
            shown = clock.request("state")["result_code"]
        final = str(tmp / "final")
        assert main(["logs", "pull", "--port", sim.port, "--out", final, "--key", KEY]) == 0
    finally:
        sim.stop()
    return final, stolen, shown


def _copy(src, dst, recs, head=None):
    shutil.copytree(src, dst)
    with open(os.path.join(dst, "records.bin"), "wb") as fh:
        fh.write(b"".join(recs))
    if head is not None:
        with open(os.path.join(dst, "head.json"), "w") as fh:
            json.dump(head, fh)
    return os.path.join(dst, "records.bin")


def test_the_untouched_pull_verifies(keyed, capsys):
    final, _, shown = keyed
    code, out, _ = _run(capsys, "logs", "verify", "--records", os.path.join(final, "records.bin"), "--key", KEY,
                        "--game", "2", "--code", shown)
    assert code == 0, out


def test_segments_cut_off_the_start_hidden_by_an_anchor_relabelled_seq_0(keyed, tmp_path, capsys):
    # The first segment (seq 0.., game 1's setup and moves) is cut off. The head's `first` (0)
    # would catch that ... but anchors are neither chained nor MAC'd: the kept segment's anchor is
    # relabelled seq 0 (CRC fixed). The reader then takes the log to start at seq 0, skips the
    # seq-gap check for the first record (last_seq is None after an anchor of seq 0) and still
    # checks its MAC against the (genuine) link the anchor states.
    final, _, _ = keyed
    recs = _recs(os.path.join(final, "records.bin"))
    second = [i for i, r in enumerate(recs) if R.type_of(r) == R.T_ANCHOR][1]
    anchor = bytearray(recs[second])
    assert R.seq_of(anchor) > 0
    struct.pack_into("<I", anchor, 4, 0)
    path = _copy(final, tmp_path / "cut", [_fix_crc(anchor)] + recs[second + 1 :])
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert code == 1, "records cut off the start pass the signed head:\n" + out


def test_a_head_any_laptop_can_ask_for_vouches_for_a_cut_log(keyed):
    # log.head was a read: anyone on the USB cable got the clock to sign its head over any nonce,
    # at any moment. Asked while game 2 was still in progress, before its result, it "proved" that
    # a copy cut there (game 2's result and last moves removed) was whole. Now the clock signs a
    # head only for the key's holder.
    _, stolen, _ = keyed
    assert "auth_required" in stolen, stolen


def test_a_keyed_pull_without_its_head_verifies_ok(keyed, tmp_path, capsys):
    # Drop the last records (game 2's result) and delete head.json: verify says OK (exit 0) with a
    # note. For a keyed log the absence of a head should not be an OK.
    final, _, _ = keyed
    recs = _recs(os.path.join(final, "records.bin"))
    path = _copy(final, tmp_path / "cut", recs[:-3])
    os.remove(os.path.join(tmp_path / "cut", "head.json"))
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert code == 1, "a cut keyed pull whose head was deleted verifies OK:\n" + out


@pytest.mark.parametrize("head", [
    {"seq": "5", "link": "00"},
    {"seq": 5, "link": "00", "first": "0"},
    {"seq": [5], "link": "00"},
    {"seq": {"a": 1}, "link": "00"},
])
def test_a_crafted_head_json_does_not_crash_verify(head, keyed, tmp_path, capsys):
    final, _, _ = keyed
    path = _copy(final, tmp_path / "h", _recs(os.path.join(final, "records.bin")), head=head)
    code, out, err = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert "internal error" not in err and "Traceback" not in err, err
    assert code == 1, out


def test_a_head_from_another_clock_is_not_noticed(keyed, tmp_path, capsys):
    # One key for the whole event (arbiter guide): clock 13's log and head.json pass as clock
    # 12's. The head's uid is MAC'd, but verify neither checks it against clock.json beside the
    # records nor prints it, so the arbiter cannot see whose log it is.
    final, _, _ = keyed
    head = json.load(open(os.path.join(final, "head.json")))
    path = _copy(final, tmp_path / "other", _recs(os.path.join(final, "records.bin")))
    with open(os.path.join(tmp_path / "other", "clock.json"), "w") as fh:
        json.dump({"uid": "another-clock", "next": head["seq"] + 1,
                   "bytes": os.path.getsize(os.path.join(final, "records.bin"))}, fh)
    code, out, _ = _run(capsys, "logs", "verify", "--records", path, "--key", KEY)
    assert code == 1 or head["uid"] in out, out
