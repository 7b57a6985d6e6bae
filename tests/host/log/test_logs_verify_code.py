"""What `sagat logs verify --game N --code C` can and cannot say. Under an arbiter key a matching
code proves the log holds the game as it was when its result was entered; in an unkeyed stretch
(no key yet) anyone can recompute the code of any history, so a match says nothing about
tampering. A game played before the key was set is checked by its unkeyed code, with those words.
And what is a usage error (a code of the wrong length, a keyed log without its key) says what is
wrong and which option fixes it, never BROKEN."""

import os
import struct
import subprocess

import pytest
from imagekit import make_image

from conftest import ROOT, tool
from sagat.cli import main
from sagat.log.flash import read_image
from sagatfw.engine import clock as C
from sagatfw.log import records as R

KEY = "tournament key"


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """An unkeyed log (tests/kits/make_image.py: game 1 ends 1-0), as records without anchors."""
    image = make_image(tmp_path_factory.mktemp("plain") / "plain.img")
    recs = [bytearray(data[i : i + R.RECORD_SIZE]) for _n, data in read_image(image)
            for i in range(0, len(data), R.RECORD_SIZE)]
    return [r for r in recs if R.type_of(r) != R.T_ANCHOR]


@pytest.fixture(scope="module")
def keyed_later(tmp_path_factory):
    """A log unkeyed for game 1 (1-0), then the key set, then game 2 (0-1) keyed."""
    path = str(tmp_path_factory.mktemp("later") / "later.img")
    run = subprocess.run([tool("micropython"), os.path.join(ROOT, "tests", "kits", "make_keyed_later_image.py"),
                          path, KEY], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return path


def _write(tmp_path, recs, name="records"):
    path = tmp_path / f"{name}.bin"
    path.write_bytes(b"".join(bytes(r) for r in recs))
    return str(path)


def _code(recs, game):
    res = [r for r in recs if R.type_of(r) == C.EV_RESULT and R.game_of(r) == game]
    return R.result_code(R.chain_of(res[-1]))


def _image_code(image, game):
    return _code([data[i : i + 64] for _n, data in read_image(image) for i in range(0, len(data), 64)], game)


def test_an_unkeyed_code_that_matches_says_it_shows_nothing_about_tampering(plain, tmp_path, capsys):
    path = _write(tmp_path, plain)
    code = _code(plain, 1)
    rc, out, _ = _run(capsys, "logs", "verify", "--records", path, "--game", "1", "--code", code)
    assert rc == 0, out
    line = out.splitlines()[-1]
    assert line.startswith(f"code {code}: matches game 1's result 1-0"), out
    assert "nothing about tampering" in line and "anyone can recompute" in line, line
    assert "is the one the faces showed" not in out and "as it was" not in out, out


def test_a_flipped_result_resealed_unkeyed_is_not_called_the_game_as_it_was(plain, tmp_path, capsys):
    # The attack: game 1's result flipped to 0-1 and the unkeyed chain sealed again from there (no
    # key is needed for that). A forger who searches the free bytes until the code is the one the
    # scoresheet has (a million tries, about a second) gets exactly this: a whole log whose code
    # matches. Here the forged log's own code stands for the searched one.
    forged = [bytearray(r) for r in plain]
    at = next(i for i, r in enumerate(forged) if R.type_of(r) == C.EV_RESULT and R.game_of(r) == 1)
    struct.pack_into("<h", forged[at], 26, C.RESULT_NAMES.index("0-1"))
    chain, prev = R.Chain(b""), R.chain_of(forged[at - 1])
    for rec in forged[at:]:
        prev = R.seal(rec, prev, chain)
    path = _write(tmp_path, forged, "forged")
    code = _code(forged, 1)
    rc, out, _ = _run(capsys, "logs", "verify", "--records", path, "--game", "1", "--code", code)
    assert rc == 0 and "result 0-1" in out, out  # the chain links: unkeyed, nothing can tell
    assert "nothing about tampering" in out and "as it was" not in out, out


def test_a_game_played_before_the_key_verifies_by_its_unkeyed_code(keyed_later, capsys):
    code = _image_code(keyed_later, 1)
    rc, out, _ = _run(capsys, "logs", "verify", "--image", keyed_later, "--key", KEY, "--game", "1", "--code", code)
    assert rc == 0 and out.startswith("OK: "), out
    line = out.splitlines()[-1]
    assert line.startswith(f"code {code}: matches game 1's result 1-0 at seq 7"), out
    assert "nothing about tampering" in line, line
    # the game after the key: its code proves the game as it was
    code2 = _image_code(keyed_later, 2)
    rc, out, _ = _run(capsys, "logs", "verify", "--image", keyed_later, "--key", KEY, "--game", "2", "--code", code2)
    assert rc == 0 and "is the one the faces showed: the log holds game 2 as it was" in out, out
    # a wrong code for the game before the key still fails
    wrong = "%06d" % ((int(code) + 1) % 1000000)
    rc, out, _ = _run(capsys, "logs", "verify", "--image", keyed_later, "--key", KEY, "--game", "1", "--code", wrong)
    assert rc == 1 and f"{wrong} is not the code of game 1's result" in out, out


@pytest.mark.parametrize("typed", ["12345", "1234567", "12a456", ""])
def test_a_code_of_the_wrong_shape_is_a_usage_error_not_broken(typed, plain, tmp_path, capsys):
    path = _write(tmp_path, plain)
    rc, out, err = _run(capsys, "logs", "verify", "--records", path, "--game", "1", "--code", typed)
    assert rc == 2 and out == "" and "BROKEN" not in err, (out, err)
    assert err == f"sagat: --code: a result code is 6 digits (the faces show CODE and 6 digits), not {typed!r}\n"


def test_a_keyed_log_verified_without_a_key_names_the_options(keyed_later, capsys):
    rc, out, err = _run(capsys, "logs", "verify", "--image", keyed_later)
    assert rc == 2 and out == "" and "BROKEN" not in err, (out, err)
    assert err == ("sagat: this log is sealed from seq 9 on with the arbiter key set at seq 8: give the key with "
                   "--key KEY or --key-file FILE to verify it\n"), err


def test_a_log_keyed_from_its_first_record_without_a_key_names_the_options(tmp_path, capsys):
    image = make_image(tmp_path / "keyed.img", KEY)
    rc, out, err = _run(capsys, "logs", "verify", "--image", image)
    assert rc == 2 and out == "" and "BROKEN" not in err, (out, err)
    assert "give the key with --key KEY or --key-file FILE" in err and err.count("\n") == 1, err
    key_file = tmp_path / "arbiter.key"
    key_file.write_text(KEY + "\n")
    rc, out, _ = _run(capsys, "logs", "verify", "--image", image, "--key-file", str(key_file))
    assert rc == 0 and out.startswith("OK: "), out


def test_a_keyed_log_with_damage_of_its_own_stays_broken_and_names_the_options(keyed_later, tmp_path, capsys):
    # damage seen without the key (a record of game 1 edited) is tampering, not a usage error
    segs = read_image(keyed_later)
    recs = [bytearray(d[i : i + 64]) for _n, d in segs for i in range(0, len(d), 64)]
    recs = [r for r in recs if R.type_of(r) != R.T_ANCHOR]
    press = next(r for r in recs if R.type_of(r) == C.EV_PRESS and R.game_of(r) == 1)
    struct.pack_into("<I", press, 8, struct.unpack_from("<I", press, 8)[0] + 500)
    struct.pack_into("<I", press, R.CRC, R.crc32(bytes(press[: R.CRC])))
    rc, out, _ = _run(capsys, "logs", "verify", "--records", _write(tmp_path, recs), "--no-head")
    assert rc == 1 and out.startswith("BROKEN"), out
    assert "key: seq 9 onward is under the arbiter key set at seq 8: give the key with --key KEY or --key-file " \
        "FILE" in out, out
